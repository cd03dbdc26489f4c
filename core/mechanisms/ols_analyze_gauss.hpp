// Guaranteed OLS confidence intervals from an Analyze Gauss release (the setting of Sheffet,
// "Differentially Private Ordinary Least Squares", ICML 2017, Alg. 2 / App. D; proofs/
// ols_analyze_gauss.md). The paper's own corrected intervals are unreadable in the seed, so dpcov
// ships intervals of its own with a complete proof:
//
// The release is M~ = G + E, G = A^T A over the columns S = (coefficient columns, label), E
// symmetric with iid N(0, sigma^2) upper-triangle entries independent of the data. With
// probability >= 1 - nu, ||E_S||_2 <= eta (analyze_gauss_noise_norm_bound). On that event, with
// p coefficients, M = M~_XX, kappa = eta / lambda_min(M) < 1 and beta~ = M^{-1} m~_Xy:
//   |beta~_j - beta_hat_j| <= ||M^{-1} e_j|| eta sqrt(1 + b^2),  b = (||beta~|| + kappa) / (1 - kappa)
// (beta_hat the OLS estimate on the data), and G_XX >= M - eta I, RSS <= Schur complement of
// M~_S + eta I, which bound the classical t-interval of beta_hat around the model's beta. The
// intervals below cover the data's beta_hat_j with probability >= 1 - nu and the model's beta_j
// (y = X beta + e, e ~ N(0, s^2 I) independent of X and E) with probability >= 1 - nu - alpha_s.
#pragma once

#include <cstdint>
#include <vector>

#include "../solvers/regression.hpp"
#include "../matrix.hpp"

namespace dpcov::mechanisms {

// The probability nu that the noise leaves its bound, for intervals at confidence `level`: half of
// the total miss probability 1 - level (the other half, alpha_s, is the classical t-interval's).
// proofs/ols_analyze_gauss.md, "Budget of the miss probability". Throws Status::InvalidArgument
// unless level is in (0, 1).
double analyze_gauss_ols_noise_miss(double level);

// eta with P(||E||_2 > eta) <= nu for a k x k symmetric E with iid N(0, sigma^2) upper-triangle
// entries: ||E||_2^2 <= ||E||_F^2 <= 2 sum_{i <= j} E_ij^2 = 2 sigma^2 chi2_{k(k+1)/2}, so
//   eta = sigma sqrt(2 F^{-1}_{chi2_{k(k+1)/2}}(1 - nu)).
// proofs/ols_analyze_gauss.md, "The noise bound". Throws Status::InvalidArgument unless sigma is
// finite > 0, k >= 1 and nu in (0, 1).
double analyze_gauss_noise_norm_bound(double sigma, int64_t k, double nu);

struct AnalyzeGaussIntervals {
  // One entry per coefficient, intercept first (as solvers::regress orders them).
  std::vector<double> coefficients;        // beta~ = M^{-1} m~_Xy
  std::vector<double> data_ci_lower;       // beta~_j -+ noise bound: cover beta_hat_j w.p. >= 1 - nu
  std::vector<double> data_ci_upper;
  std::vector<double> ci_lower;            // beta~_j -+ (noise + sampling bound): cover the
  std::vector<double> ci_upper;            // model's beta_j w.p. >= level
  std::vector<bool> reject;                // H0: beta_j = 0 rejected: 0 outside [ci_lower, ci_upper]
  double noise_norm_bound = 0.0;           // eta
  double kappa = 0.0;                      // eta / lambda_min(M~_XX)
  double noise_miss = 0.0;                 // nu
  double t_critical = 0.0;                 // t_{1 - alpha_s/2}(n - p)
  int64_t dof = 0;                         // n - p
};

// The intervals for the regression `spec` (label, features, intercept column, rows = n > p,
// level; ridge must be 0) from an Analyze Gauss release `released` (d x d, symmetric, finite) whose
// receipt gave the noise scale `sigma`. Post-processing: no privacy cost, no randomness.
// Throws Status::InvalidArgument (spec, sigma), Status::Precondition when kappa >= 1 (the noise
// bound is not below lambda_min(M~_XX): no interval is guaranteed; the message gives both), and
// the statuses of the matrix checks.
AnalyzeGaussIntervals analyze_gauss_ols_intervals(ConstMatrixView released, double sigma,
                                                  const solvers::RegressionSpec &spec);

}  // namespace dpcov::mechanisms
