// Noise-aware regression intervals robust to heteroscedastic errors and to a misspecified mean:
// the sandwich variance (X'X)^{-1} M (X'X)^{-1}, M = sum_i x_i x_i' r_i^2, with X'X and X'y from
// an AdaSSP release and M from a second, separate release (privacy/sandwich_constants.hpp,
// proofs/sandwich.md).
//
// Two passes over the rows: the first releases AdaSSP's statistics, the second the meat at a
// first-stage estimate beta0 that is a function of the first release only (so the second release's
// rows are fixed given the first output: adaptive composition applies). The intervals are a
// parametric bootstrap as in ols_bootstrap.hpp whose sampling noise of X'y is N(0, M), M the
// released meat, instead of N(0, s^2 X'X): the law of sum_i x_i e_i for independent errors of any
// variance, and of the least-squares projection's errors when the mean is not linear. Each
// coefficient's refit gets that noise's margin, N(0, w_j' M w_j) with w_j the world's
// (X'X_w + E*)^-1 e_j (X'X_w the de-noised truth of worlds_truth.hpp), the scalar raised to 0
// where the noisy meat makes it negative (proofs/sandwich.md, "One coefficient at a time"). They
// need no y'y.
#pragma once

#include <cstdint>
#include <vector>

#include "../matrix.hpp"
#include "../mechanisms/adassp.hpp"
#include "../random/rng.hpp"
#include "ols_bootstrap.hpp"

namespace dpcov::estimators {

// The shift added to a world's sampling variance w' M_w w of one coefficient, whose meat noise
// has variance noise_variance (of w' E w) and whose error has total_variance (sampling and privacy):
// noise_variance / (total_variance + sqrt(noise_variance)), 0 without noise. Redrawing the meat's
// noise in every world widens the interval only by the factor 1 + (z^2 - 3) s^2 / (8 tau^4) at the
// level's normal quantile z (s^2 the noise variance, tau^2 the total), while covering at the level
// needs 1 + (1 + z^2) s^2 / (8 tau^4): a mean shift a adds a / (2 tau^2), so a = s^2 / tau^2 at
// every level, to second order in s / tau^2 (proofs/sandwich.md, "The meat's noise in the
// margin"). The sqrt(noise_variance) in the denominator keeps the shift below s where the meat's
// estimate is small against its noise and the expansion fails (measured:
// bench/meat_noise_coverage.py model).
double meat_noise_shift(double noise_variance, double total_variance);

// The meat's rows u_i = r_i x_i (n x p) of the rows x (n x p) and labels y (n),
// r_i = clip(y_i - x_i' beta0, -R, R) (R = residual_bound, finite > 0): what Analyze Gauss
// releases at the row bound bound_x R. A u_i above bound_x R (rounding only, or a row above
// bound_x: the caller's contract broken) is scaled to it, so that the Gram sensitivity holds for
// every row. Throws Status::Dimension and the checks' statuses.
Matrix sandwich_rows(ConstMatrixView x, const std::vector<double> &y,
                     const std::vector<double> &beta0, double bound_x, double residual_bound);

// The exact meat of the rows x (n x p) and labels y (n): sum_i u_i u_i', u_i = r_i x_i,
// r_i = clip(y_i - x_i' beta0, -R, R) (R = residual_bound, finite > 0). The rows must have
// ||x_i|| <= bound_x (they are those AdaSSP read); a u_i above bound_x R (rounding only) is
// scaled to it, so that the Gram sensitivity of bound_x R holds for every row. Throws
// Status::Dimension and the checks' statuses.
Matrix sandwich_meat(ConstMatrixView x, const std::vector<double> &y,
                     const std::vector<double> &beta0, double bound_x, double residual_bound);

// The robust intervals for beta from AdaSSP's released X'X~ (p x p) and X'y~ (p), the noise law
// of `receipt` (y'y not needed), and the released meat M~ (p x p, symmetric, finite). `level` in
// (0, 1); `bootstrap` as for ols_bootstrap_intervals. With `meat_noise` (the law of the noise the
// meat's release added), each world redraws it: its meat is M^ + E_w (M^ = M~ minus the noise
// mean, E_w a fresh centred draw of that law) and its sampling noise is N(0, that meat), taken
// one coefficient at a time, so that the intervals carry the meat's own uncertainty; without it
// (nullptr) every world reads M~. `weak` as for ols_bootstrap_intervals. Throws
// Status::Precondition when X'X~ is not positive definite or too many worlds are (or, with
// WeakCoefficients::Refuse, a coefficient is unbounded), and Status::InvalidArgument / Dimension
// otherwise.
BootstrapIntervals adassp_sandwich_intervals(const Matrix &xtx_released,
                                             const std::vector<double> &xty_released,
                                             const mechanisms::AdasspReceipt &receipt,
                                             const Matrix &meat_released, double level,
                                             int64_t bootstrap, random::Rng &rng,
                                             const ReleaseNoise *meat_noise = nullptr,
                                             WeakCoefficients weak = WeakCoefficients::Refuse);

// The robust intervals for the OLS coefficients of `spec` (as for ols_bootstrap_intervals) from a
// Gram mechanism's release `released` (noise law `noise`) and the released meat M~ (p x p,
// symmetric, finite, in the coefficients' order: intercept first): the worlds of
// ols_bootstrap_intervals with the sampling noise N(0, M^) of adassp_sandwich_intervals, the
// meat's noise redrawn in each world when `meat_noise` is given (as there). Throws as
// ols_bootstrap_intervals, and Status::Dimension for a meat of another order.
BootstrapIntervals gram_sandwich_intervals(ConstMatrixView released, const ReleaseNoise &noise,
                                           const solvers::RegressionSpec &spec,
                                           const Matrix &meat_released, int64_t bootstrap,
                                           random::Rng &rng,
                                           const ReleaseNoise *meat_noise = nullptr,
                                           WeakCoefficients weak = WeakCoefficients::Refuse);

}  // namespace dpcov::estimators
