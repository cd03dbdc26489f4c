// The constants of CoinPress covariance estimation: Biswas, Dong, Kamath & Ullman, "CoinPress:
// Practical Private Mean and Covariance Estimation" (NeurIPS 2020), Alg. 2 (one step) and Alg. 3
// (t steps), as run by the authors' code (github.com/twistedcubic/coin-press, algos.py:
// cov_est_step, cov_est). Derivations: proofs/coinpress.md.
#pragma once

#include <cstdint>
#include <vector>

namespace dpcov::privacy {

// Largest number of CoinPress steps t accepted (the paper uses t <= 5).
inline constexpr int64_t kCoinpressMaxSteps = 16;

// The clipping radius gamma = sqrt(d + 2 sqrt(d ln(1/beta)) + 2 ln(1/beta)) of Alg. 2: by Laurent
// & Massart (2000, Lemma 1), a standard Gaussian vector in R^d has norm > gamma with probability
// <= beta (the code's gaussian_tailbound(d, beta), used with beta = 0.1). A utility constant: any
// value is private, because the sensitivity below is computed from the gamma actually used.
// Throws unless d >= 1 and beta is in (0, 1).
double coinpress_clip_radius(int64_t dim, double beta);

// sigma of one step: the upper-triangle entries of W^T W / n, for n rows clipped to norm <= gamma,
// have L2 sensitivity sqrt(2) gamma^2 / n under replace-one (attained by two orthogonal rows of
// norm gamma), so N(0, sigma^2) noise with sigma = gamma^2 / (n sqrt(rho_i)) makes the step
// rho_i-zCDP (Bun & Steinke 2016, Prop. 1.6); the code's noise_var = gamma^4 / (rho n^2). Rounded up.
// Throws unless gamma and rho_i are finite and > 0 and n >= 1.
double coinpress_step_sigma(double gamma, int64_t n, double rho_step);

// The regulariser eta of the authors' code, 0.5 (2 sqrt(d / n) + d / n): the sampling error of an
// empirical covariance of n Gaussian rows (the paper's eta also has a privacy-noise term; the
// code, whose results the issue reproduces, leaves it out). Utility only. Throws unless d, n >= 1.
double coinpress_eta(int64_t dim, int64_t n);

// The authors' budget split of rho over t steps (cov_estimation.py: Ps1..Ps5): t = 1 spends rho;
// t >= 2 gives each of the first t - 1 steps rho / (4 (t - 1)) and the last 3 rho / 4. Each share is
// rounded down, so the shares sum to at most rho. Throws unless rho is finite and > 0 and
// 1 <= t <= kCoinpressMaxSteps, and (Status::Numerical) where a share rounds down to 0.
std::vector<double> coinpress_budget_split(double rho, int64_t steps);

}  // namespace dpcov::privacy
