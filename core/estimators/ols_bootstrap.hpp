// Noise-aware OLS confidence intervals and p-values from a released second-moment matrix by
// parametric bootstrap (Ferrando, Wang, Sheldon, "Parametric bootstrap for differentially private
// confidence intervals", AISTATS 2022, Sec. 5, OLS with fixed design). Post-processing: it reads
// the release and the public noise law of the mechanism that made it, never the data.
//
// The release is M~ = G + E over the columns S = (coefficient columns, label), E independent of
// the data with a known law of mean mu. From the release alone:
//   G^ = M~ - mu,  beta~ = G^_XX^{-1} g^_Xy,  s^2 = max(0, g^_yy - g^_Xy' beta~) / (n - p).
// Each of B bootstrap worlds takes (G_w, g^_Xy, s^2) as the truth, G_w the feature block G^_XX
// de-noised to second order (worlds_truth.hpp: a world built on G^_XX itself would carry the
// release's noise twice), and redraws what the data and the mechanism add: X'y* = g^_Xy + Z,
// Z ~ N(0, s^2 G^_XX) (the sampling noise X'e of the model y = X beta + e, e ~ N(0, s^2 I), given
// X; linear in X'X, so the released block estimates its covariance without bias), and a fresh E*
// of the mechanism's law, then refits beta*_b = (G_w + E*_XX - mu_XX)^{-1} (X'y* + E*_Xy - mu_Xy).
// The intervals are the
// percentile intervals of the beta*_b, hulled along the release's weak directions with the
// profile of the pivot vector (profile_hull.hpp); the p-value of beta_j = 0 is the
// smallest level whose interval excludes 0. A world whose noisy feature block is not positive definite (the estimator
// would refuse it) counts at both ends (-inf for the lower, +inf for the upper quantile): when
// there are so many that an end would be infinite, nothing is returned (Status::Precondition):
// the noise swamps the data at this n and epsilon. Where a coefficient lies along a direction of
// G_w only a few noise sds strong, the release may have made that direction and the worlds cannot
// see by how much (weak_directions.hpp): that coefficient gets no interval, and by default
// (WeakCoefficients::Refuse) nothing is returned (Status::Precondition, before any draw).
//
// Coverage is measured, not proven: tests/statistical/ols_bootstrap_coverage_test.cpp and
// build/bench/ols_coverage.
#pragma once

#include <cstdint>
#include <vector>

#include "../matrix.hpp"
#include "../random/rng.hpp"
#include "../solvers/regression.hpp"
#include "profile_hull.hpp"
#include "release_noise.hpp"
#include "weak_directions.hpp"
#include "worlds_truth.hpp"

namespace dpcov::estimators {

struct BootstrapIntervals {
  // One entry per coefficient, intercept first (as regress orders them).
  std::vector<double> coefficients;  // beta~ from the release minus the noise mean
  std::vector<double> std_errors;    // standard deviation of the bootstrap refits
  std::vector<double> p_values;      // of beta_j = 0, consistent with the intervals
  std::vector<double> ci_lower, ci_upper;
  double noise_norm = 0.0;  // the level-quantile of ||E*_XX||_2 over the bootstrap draws
  double kappa = 0.0;       // noise_norm / lambda_min(G^_XX): >= 1 means the noise swamps X'X
  int64_t failed_draws = 0; // bootstrap worlds whose feature block was not positive definite
  bool rss_clamped = false; // the residual sum of the release was negative: s^2 = 0
  // Per coefficient: it lies along a direction the release may have made (weak_directions.hpp), or
  // along a weak one where its profile set is open (profile_hull.hpp).
  // Only with WeakCoefficients::Flag can an entry be true; its interval ends, standard error and
  // p-value are then NaN.
  std::vector<bool> unbounded;
  // Per coefficient: the profile's set along a weak direction widened its percentile interval
  // (profile_hull.hpp).
  std::vector<bool> widened;
};

// Solves A x = b for A symmetric positive definite; false (x untouched) when it is not.
bool spd_solve(const Matrix &a, const std::vector<double> &b, std::vector<double> &x);

// k, the rank from each end of the bootstrap's order statistics at `level`; throws
// Status::InvalidArgument unless 1 <= k and bootstrap <= check::kMaxSimulationDraws.
int64_t bootstrap_order(double level, int64_t bootstrap);

// Whether `bootstrap` draws form intervals at `level`, checked before any release that the
// intervals would read: throws Status::InvalidArgument for a level outside (0, 1) or a number
// of draws bootstrap_order refuses.
void check_bootstrap_draws(double level, int64_t bootstrap);

// The bootstrap worlds shared by every noise-aware interval here: each takes the worlds' truth of
// the released feature block g and X'y gxy (worlds_truth), draws the sampling noise of X'y as
// Z = F z (z standard normal, F = sampling_factor, p x p, so Z ~ N(0, F F')) and a fresh noise of
// law `noise` on [X, y]' [X, y], refits, and the percentile intervals at `level` follow (failed
// worlds counted at both ends, as above); `coefficients` (the release's estimate) are reported.
// Throws as ols_bootstrap_intervals for the draws and the worlds; `weak` as there.
BootstrapIntervals bootstrap_worlds(const Matrix &g, const std::vector<double> &gxy,
                                    const std::vector<double> &coefficients,
                                    const Matrix &sampling_factor, const ReleaseNoise &noise,
                                    double level, int64_t bootstrap, random::Rng &rng,
                                    WeakCoefficients weak);

// The start of every set of worlds: `level` and `bootstrap` checked (before any draw), the
// coefficients kept in `out`, the worlds' truth (worlds_truth of g, gxy and `noise`), the
// profile's sets of the coefficients along its weak directions (profile_hull.hpp; `sampling` the
// covariance of X'e, p x p: s^2 G^ or the meat) and the coefficients it leaves unbounded (the
// weak rule's and those whose profile set is open; refused or flagged in `out` as `weak` says),
// its coefficients beta_w = xtx^-1 xty (`centre`) and room for each coefficient's parts of each
// usable world's refit beta_w + u - v (worlds_spread.hpp): `rest` the u, every noise but the
// fresh X'X noise times beta_w, `interaction` the v = (X'X_w + E*)^-1 E* beta_w, and each world's
// noise norm.
struct WorldsStart {
  BootstrapIntervals out;
  WorldsTruth truth;
  ProfileHull profile;
  ReleaseNoise noise;
  std::vector<double> centre;
  std::vector<std::vector<double>> rest, interaction;
  std::vector<double> norms;
};
WorldsStart start_worlds(const Matrix &g, const std::vector<double> &gxy,
                         const std::vector<double> &coefficients, const Matrix &sampling,
                         const ReleaseNoise &noise, double level, int64_t bootstrap,
                         WeakCoefficients weak);

// One world's parts: with X'X_w + E* = `xx` (E* = `e_xx`) positive definite, appends its
// u = xx^-1 `noise_xy` (the world's every other noise on X'y) and v = xx^-1 E* start.centre to
// `start` and returns true; false (nothing appended) when `xx` is not positive definite.
bool world_parts(const Matrix &xx, const Matrix &e_xx, const std::vector<double> &noise_xy,
                 WorldsStart &start);

// The end of every set of worlds: the refits from `start`'s parts (shrunk_refits, then
// deflate_spread where the truth is de-noised: worlds_spread.hpp), then from them
// and the noise norms, with start.out.failed_draws already counted, fills start.out's percentile
// intervals at `level`, standard errors, p-values, noise_norm and kappa (against g's smallest
// eigenvalue), hulls them with the profile's sets along g's weak directions (profile_hull.hpp),
// and NaN the ends, standard errors and p-values of the coefficients flagged unbounded. Throws
// Status::Precondition when so many worlds failed that an end would be infinite.
void summarise_worlds(const Matrix &g, WorldsStart &start, double level, int64_t bootstrap);

// The OLS statistic of a release: G^ = M~ - mu over the coefficient columns of `spec` (intercept
// first), g^_Xy, g^_yy, beta~ = G^_XX^{-1} g^_Xy and the Cholesky factor of G^_XX. Validates
// the release, `spec` (ridge 0), the law and `bootstrap` as ols_bootstrap_intervals does, and
// throws Status::Precondition when G^_XX is not positive definite.
struct ReleasedOls {
  Matrix g;
  std::vector<double> gxy;
  double gyy = 0.0;
  std::vector<double> coefficients;
  Matrix cholesky;
};
ReleasedOls released_ols(ConstMatrixView released, const ReleaseNoise &noise,
                         const solvers::RegressionSpec &spec, int64_t bootstrap);

// The intervals for `spec` (label, features, intercept column, rows = n > p, level; ridge must be
// 0) from `released` (d x d, symmetric, finite) with noise law `noise`, from `bootstrap`
// draws (>= 2 / (1 - level) - 1, so that each end is an order statistic) of `rng`.
// Throws Status::InvalidArgument (spec, law, bootstrap), Status::Precondition when G^_XX is not
// positive definite or too many bootstrap worlds are (the message says so) or, with
// WeakCoefficients::Refuse, a coefficient is unbounded, and the statuses of the matrix checks.
BootstrapIntervals ols_bootstrap_intervals(ConstMatrixView released, const ReleaseNoise &noise,
                                           const solvers::RegressionSpec &spec, int64_t bootstrap,
                                           random::Rng &rng,
                                           WeakCoefficients weak = WeakCoefficients::Refuse);

// The same intervals for the model y = X beta + e from an AdaSSP release that includes y'y
// (receipt.label_square): the released X'X~ (p x p), X'y~ (p) and y'y~ form the statistic, with
// AdaSSP's Gaussian noise law (proofs/adassp.md, "Noise-aware intervals"). The intervals are for
// beta and use the unregularised statistics: the private ridge (a function of the released
// lambda_min, which they do not read) shrinks the point estimate towards 0 by an amount that
// depends on the unknown beta, so an interval centred on it would undercover. `n` is the public
// number of rows (> p). Throws as ols_bootstrap_intervals.
BootstrapIntervals adassp_bootstrap_intervals(const Matrix &xtx_released,
                                              const std::vector<double> &xty_released,
                                              double yty_released, int64_t n,
                                              const mechanisms::AdasspReceipt &receipt,
                                              double level, int64_t bootstrap, random::Rng &rng);

}  // namespace dpcov::estimators
