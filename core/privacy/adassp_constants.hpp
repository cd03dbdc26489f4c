// The constants of AdaSSP, adaptive sufficient-statistics perturbation for linear regression:
// Yu-Xiang Wang, "Revisiting differentially private linear regression: optimal and adaptive
// prediction & estimation in unbounded domain", UAI 2018, Alg. 2 (Thm 3 for its utility). Every
// formula, and why the default calibration is tighter than the paper's, is derived in
// proofs/adassp.md and recomputed with mpmath by proofs/check/adassp.py.
//
// The release is the triple (lambda_min(X'X) + N(0, s_l^2), X'X + E, X'y + N(0, s_c^2 I)) with E
// symmetric, E_ii ~ N(0, s_g^2), E_ij ~ N(0, s_g^2 / 2) (i < j): the density of E is proportional
// to exp(-||E||_F^2 / (2 s_g^2)), so its privacy is governed by the Frobenius change of X'X. Rows
// have ||x|| <= B_X, labels |y| <= B_Y.
#pragma once

#include <cstdint>

#include "neighbour.hpp"

namespace dpcov::privacy {

// Sensitivity of lambda_min(X'X) to one row, B_X^2 under both relations (Weyl's inequality:
// adding x x' moves every eigenvalue up by at most ||x||^2, removing moves it down as much;
// replacing is a removal then an addition, and the two cannot push the same way).
double adassp_lambda_min_sensitivity(double bound_x);

// Frobenius sensitivity of X'X: ||x x'||_F = ||x||^2 <= B_X^2 (add/remove);
// ||x x' - z z'||_F^2 = ||x||^4 + ||z||^4 - 2 (x'z)^2 <= 2 B_X^4 (replace-one), i.e. sqrt(2) B_X^2.
// Rounded up.
double adassp_gram_sensitivity(Neighbour neighbour, double bound_x);

// L2 sensitivity of X'y: ||x y|| <= B_X B_Y (add/remove), ||x y - z w|| <= 2 B_X B_Y
// (replace-one, attained at z = -x, w = y). Rounded up.
double adassp_cross_sensitivity(Neighbour neighbour, double bound_x, double bound_y);

// Sensitivity of y'y, released (optionally) for noise-aware intervals: |y^2 - w^2| <= B_Y^2 and
// y^2 <= B_Y^2, so B_Y^2 under both relations. Rounded up.
double adassp_label_square_sensitivity(double bound_y);

// dpcov's calibration: the `statistics` statistics (3: lambda_min, X'X, X'y; 4: and y'y; without
// the lambda_min step, 2: X'X, X'y; 3: and y'y) are
// released by ONE Gaussian mechanism whose privacy loss is that of N(0, 1) against N(mu, 1),
// mu^2 = sum_k (Delta_k / sigma_k)^2 (the Mahalanobis length of the worst change); Balle & Wang
// 2018, Thm 8 gives its exact (eps, delta) curve. Each statistic gets an equal share of mu^2
// (a half with two statistics: proofs/adassp.md, "Without the lambda_min step"):
// sigma_k = sqrt(statistics) Delta_k / mu*(eps, delta), i.e.
// analytic_gaussian_sigma(eps, delta, sqrt(statistics) Delta_k), with sqrt(statistics) Delta_k
// rounded up, then raised by a relative 1e-9 to cover the double-precision evaluation inside the
// bisection. For the same shares this is never larger than calibrating each piece to
// (eps/k, delta/k) and composing (proofs/adassp.md, "Joint calibration is tighter"), and it is
// smaller everywhere we checked.
double adassp_joint_sigma(double eps, double delta, double sensitivity, int64_t statistics);

// The paper's noise scale (Alg. 2, lines 2, 4, 5): sqrt(ln(6/delta)) Delta / (eps/3), rounded up.
double adassp_paper_sigma(double eps, double delta, double sensitivity);

// The exact delta at `eps` of the joint release with noise scales sigma[k] for sensitivities
// sensitivity[k] (k < statistics, the statistics released, 2 to 4): the Gaussian mechanism's
// delta (Balle & Wang 2018, Thm 8) at noise 1 and sensitivity mu, mu^2 = sum (Delta/sigma)^2
// rounded up, evaluated by gaussian_delta_upper (MPFR, directed rounding). Both steps can only
// raise it, so this is an upper bound on the exact delta, within a relative ~2^-100 of it at every
// eps (the double-precision formula cancels at small eps), and > 0.
double adassp_joint_delta(double eps, const double *sensitivity, const double *sigma,
                          int64_t statistics);

// rho of the joint release in zero-concentrated DP: it is one Gaussian mechanism whose whitened
// shift between neighbours has squared length mu^2 <= sum_k (Delta_k / sigma_k)^2, so it is
// mu^2 / 2-zCDP (Bun & Steinke, TCC 2016, Prop. 1.6), i.e. the sum of the pieces'
// zcdp_rho_gaussian(Delta_k, sigma_k), each and the sum rounded up. The budget ledger's zCDP
// charge of a fit (proofs/adassp.md, "zCDP").
double adassp_zcdp_rho(const double *sensitivity, const double *sigma, int64_t statistics);

// The smallest z (to a relative 1e-12, from above) with P(N(0, 1) > z) <= rho / 2, times
// sigma_lambda, rounded up: subtracted from the noisy lambda_min so that the released value is
// below lambda_min(X'X) with probability >= 1 - rho / 2.
double adassp_lambda_min_shift(double sigma_lambda, double rho);

// The paper's shift (Alg. 2, line 2): ln(6/delta) B_X^2 / (eps/3), rounded up.
double adassp_paper_lambda_min_shift(double eps, double delta, double bound_x);

// t with P(lambda_min(E) < -t) <= rho / 2 for the symmetric noise E above of order d: E is the
// matrix Gaussian series s_g (sum_i g_i e_i e_i' + sum_{i<j} g_ij (e_i e_j' + e_j e_i') / sqrt 2),
// whose variance parameter is ||sum A_k^2|| = s_g^2 (d + 1) / 2, and Tropp 2012 ("User-friendly
// tail bounds for sums of random matrices", Found. Comput. Math., Thm 4.1) gives P(lambda_max(-E) >= t)
// <= d exp(-t^2 / (s_g^2 (d + 1))): t = s_g sqrt((d + 1) ln(2 d / rho)), rounded up.
double adassp_noise_norm_bound(double sigma_gram, int64_t d, double rho);

// The paper's (Alg. 2, line 3): sqrt(d ln(6/delta) ln(2 d^2 / rho)) B_X^2 / (eps/3), rounded up.
double adassp_paper_noise_norm_bound(double eps, double delta, double bound_x, int64_t d,
                                     double rho);

// The ridge (Alg. 2, line 3): max(0, t - lambda~), lambda~ the released (shifted, clamped)
// lambda_min. With probability >= 1 - rho, X'X + E + ridge I is positive definite.
double adassp_ridge(double noise_norm_bound, double released_lambda_min);

}  // namespace dpcov::privacy
