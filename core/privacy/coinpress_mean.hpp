// The constants of CoinPress mean estimation: Biswas, Dong, Kamath & Ullman, "CoinPress:
// Practical Private Mean and Covariance Estimation" (NeurIPS 2020), MVM (one step, Alg. 1) and
// MVMRec (t steps), as run by the authors' code (github.com/twistedcubic/coin-press, algos.py:
// multivariate_mean_step, multivariate_mean_iterative). Derivations: proofs/coinpress_mean.md.
// The tail radius gamma (coinpress_clip_radius) and the budget split (coinpress_budget_split) are
// the covariance side's (privacy/coinpress.hpp).
#pragma once

#include <cstdint>
#include <utility>

namespace dpcov::privacy {

// The clipping radius R of a step whose prior is ||mu - c|| <= r, for rows x = mu + z with
// Cov(z) <= s^2 I: the code's min(sqrt(r^2 + 6 r s + s^2 gamma^2), r + s gamma) (algos.py, with
// s = 1; "3 in place of sqrt(log(2/beta))"): ||x - c||^2 = ||mu - c||^2 + 2 <mu - c, z> + ||z||^2,
// where |<u, z>| <= 3 s for a unit u with probability 0.997 and ||z|| <= s gamma with probability
// 1 - beta (Laurent & Massart 2000, Lemma 1). The paper's MVM clips at r + gamma_1 with
// gamma_1 = gamma(d, beta / n) (a union bound over the n rows). A utility constant: any R is
// private, because the step's noise is computed from the R actually used. Evaluated on r and s
// scaled by a power of two, so that no square under- or overflows (proofs/coinpress_mean.md,
// "Scaled evaluation"). Throws unless r >= 0 and s, gamma are finite and > 0, or if R overflows.
double coinpress_mean_clip_radius(double radius, double scale, double gamma);

// sigma of one step: the mean of n rows projected onto a ball of radius R has L2 sensitivity
// 2 R / n under replace-one (MVM: "Delta = 2 (r + gamma_1) / n"), so N(0, sigma^2 I)
// noise with sigma = (2 R / n) / sqrt(2 rho_i) = sqrt(2) R / (n sqrt(rho_i)) makes the step
// rho_i-zCDP (Bun & Steinke 2016, Prop. 1.6); the code's sd = delta / (2 p)^0.5. Rounded up.
// Throws unless R and rho_i are finite and > 0 and n >= 1.
double coinpress_mean_step_sigma(double clip_radius, int64_t n, double rho_step);

// The prior radius of the next step, gamma sqrt(s^2 / n + sigma^2): the released centre is the
// empirical mean (covariance <= s^2 I / n) plus N(0, sigma^2 I), within that radius of mu with
// probability about 1 - beta (MVM's r' = gamma_2 sqrt(1/n + 2 (r + gamma_1)^2 / (n^2 rho_s));
// the code's r = (1/n + sd^2)^0.5 gaussian_tailbound(d, 0.01)). Utility only: it depends on
// public values alone. Evaluated scaled as coinpress_mean_clip_radius(). Throws unless s, gamma,
// sigma are finite and > 0 and n >= 1, or if the radius overflows.
double coinpress_mean_next_radius(double scale, double gamma, int64_t n, double sigma);

// The split of rho between a CoinPress mean and the CoinPress covariance of the rows centred on
// it: rho / 8 for the mean, 7 rho / 8 for the covariance, each rounded down (their sum is at most
// rho; zCDP composes, Bun & Steinke 2016, Lemma 2.3). dpcov's choice (proofs/coinpress_mean.md,
// "Centring"): the mean's error enters the covariance only through e e^T, second order, so a small
// share suffices (at d = 10, n = 3000, r = 10 sqrt(d): E||e||^2 ~ 0.005 against a covariance
// error ~ 0.25), and the covariance keeps 7/8 of its budget. Throws unless rho is finite and > 0,
// and (Status::Numerical) where a share rounds down to 0.
std::pair<double, double> coinpress_centring_split(double rho);

}  // namespace dpcov::privacy
