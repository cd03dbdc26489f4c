// Noise-aware posterior intervals for the coefficients of an AdaSSP release that includes y'y
// (Bernstein and Sheldon, "Differentially private Bayesian linear regression", NeurIPS 2019: a
// posterior over the parameters given the noisy sufficient statistics and the known noise law).
// Post-processing: the sampler reads the release, the receipt's noise scales and public values
// (n, the bounds, which column is the intercept), never the data. proofs/adassp_posterior.md
// states the model, the prior and what the posterior conditions on.
//
// Unknowns: G = X'X (symmetric positive definite, G_cc = n for an intercept column c, trace at
// most n B_X^2: every row has ||x|| <= B_X), beta, and the error standard deviation sigma in
// (0, 3/2 B_Y] (sigma_prior_bound()). Likelihood: the released X'X~ is G plus AdaSSP's symmetric
// Gaussian noise; (X'y~, y'y~) is Gaussian with the first two moments of (X'y, y'y) under
// y = X beta + e, e ~ N(0, sigma^2 I) given X, plus the released noise. Prior:
// on the feasible G, uniform on its correlation matrix and on its scales (not uniform on G, whose
// volume pulls the scales up); sigma uniform; beta_j ~ N(0, (2 R_j)^2) with R_j the half-range of
// relevant_half_range(). Unlike the bootstrap it needs no positive definite X'X~: the posterior
// only ever visits feasible G.
#pragma once

#include <cstdint>
#include <vector>

#include "../matrix.hpp"
#include "../mechanisms/adassp.hpp"
#include "../random/rng.hpp"

namespace dpcov::estimators {

struct PosteriorIntervals {
  // One entry per coefficient, in the order of the release's columns.
  std::vector<double> coefficients;  // posterior medians
  std::vector<double> std_errors;    // posterior standard deviations
  std::vector<double> p_values;      // 2 min(P(beta_j < 0), P(beta_j > 0)): consistent with the
                                     // equal-tailed intervals, as the bootstrap's are
  std::vector<double> ci_lower, ci_upper;
  // Per coefficient, the chains' rank-normalised split R-hat and bulk effective sample size
  // (chain_convergence), and 1 where they say the chains converged (R-hat < kMaxRhat and ESS >=
  // kMinEss): only there does the interval stand for the posterior's.
  std::vector<double> rhat, ess_bulk;
  std::vector<int32_t> converged;
  // Per coefficient, the sampling share: the variance of the posterior mean over releases from
  // one truth, to first order in the release (the posterior's sensitivity to it, Cov(beta_j,
  // score), against the release's law), over the posterior variance. 1 - the prior's share of the
  // variance with a Gaussian prior and likelihood in one dimension; below 1 where the interval is
  // wider than its point moves, because a prior (of beta_j or of the coefficients that reach it
  // through the noise on X'X~) holds part of its variance (proofs/adassp_posterior.md, "What the
  // prior decides"), estimated from the chains in pairs so that its Monte Carlo noise does not
  // inflate it (sampling_share.hpp).
  std::vector<double> sampling_share;
  int64_t sweeps = 0;  // the sweeps of all chains together, the cost
};

// The limits of convergence of the posterior's chains (proofs/adassp_posterior.md,
// "Convergence"): a coefficient is printed only with R-hat below kMaxRhat and at least kMinEss
// effective draws.
inline constexpr double kMaxRhat = 1.05;
inline constexpr double kMinEss = 100.0;

// The smallest sampling share (PosteriorIntervals::sampling_share) at which a posterior interval
// of `level` in (0, 1) is printed: (z_a / z_b)^2, z_a = Phi^-1((1 + level) / 2) and
// z_b = Phi^-1(1 - (1 - level) / 10), so that with a Gaussian prior and likelihood in one
// dimension the interval misses a truth at the prior's centre with probability at least
// (1 - level) / 5 (proofs/adassp_posterior.md, "What the prior decides"). At level 0.95 it is
// 0.579, and the interval's coverage is between 0.957 and 0.990 at every truth within one prior
// standard deviation (2 R_j) of the centre.
double min_sampling_share(double level);

// The half-range R_j of the coefficient values that matter, from public bounds only: B_Y for the
// intercept column, B_Y / B for a slope, B = sqrt(B_X^2 - 1) with an intercept (B_X without): a
// slope of R_j moves the prediction by the label's whole half-range B_Y as x_j goes from 0 to the
// largest value its bound allows.
double relevant_half_range(const mechanisms::AdasspReceipt &receipt, int64_t intercept_column,
                           int64_t j);

// The upper end of the error standard deviation's uniform prior, 3/2 B_Y. |y| <= B_Y bounds the
// residual's root mean square by B_Y, but a posterior whose support ends at the truth reads it
// low: labels that fill their bound (sigma = B_Y) were covered 0.926-0.936 by prior support
// (0, B_Y], 0.944-0.956 by (0, 3/2 B_Y] (proofs/adassp_posterior.md, "A truth on the prior's
// bound"). A wider support only widens what the release leaves to the prior.
double sigma_prior_bound(const mechanisms::AdasspReceipt &receipt);

// Per coefficient, the equal-tailed `level` posterior interval from 4 Markov chains started apart
// (adassp_posterior_chain.hpp: slice moves of G, u, sigma and the ridge of y'y~, G's scales and
// entries at fixed beta) of 2 ceil(draws / 4) sweeps each, of which the second halves are kept and pooled, every
// chain doubled in length (at most twice) while a coefficient's chains have not converged; the
// point is the posterior median. The chains run in turn on `rng`: deterministic for a seed.
// `intercept_column` is -1 or the column of the regressor that is 1 in every row; n > p is the
// public number of rows; draws >= 2 / (1 - level) - 1 and at most
// check::kMaxSimulationDraws. Throws Status::InvalidArgument (y'y not released,
// level, n, draws, intercept column), Status::Dimension, Status::NonFinite.
PosteriorIntervals adassp_posterior_intervals(const Matrix &xtx_released,
                                              const std::vector<double> &xty_released,
                                              double yty_released, int64_t n,
                                              const mechanisms::AdasspReceipt &receipt,
                                              int64_t intercept_column, double level,
                                              int64_t draws, random::Rng &rng);

}  // namespace dpcov::estimators
