// What a regression on a release will show, from public values only (the mechanism's noise law,
// d, the bounds and n), before any privacy is spent: the n at which the privacy noise adds as much
// variance to a coefficient as the sampling noise, and the expected standard error and interval
// width at the user's n, and for AdaSSP whether the noise-aware posterior will print a
// coefficient's interval (its sampling share against the print rule). docs/forecast.md derives
// the formulas and states the reference design they assume.
#pragma once

#include <cstdint>

#include "../mechanisms/adassp.hpp"
#include "../mechanisms/receipt.hpp"
#include "release_noise.hpp"

namespace dpcov::estimators {

// The reference design: the p regressors and the label are independent and symmetric, the
// regressors with equal second moments, the true coefficients 0. `fill` is the design's mean
// squared row norm over the squared bound, in (0, 1] (1: rows on the bound).
struct ForecastSettings {
  double rows = 0.0;   // n, the user's (a plan's n)
  double level = 0.95;
  double fill = 1.0;
  // AdaSSP only: the receipt's first regressor is an intercept, a constant 1 inside bound_x (the
  // design `regress` and PrivateLinearRegression fit: bound_x^2 = 1 + B^2 for features of norm
  // <= B). `fill` is then the features' mean squared norm over B^2, and the figures are a slope's.
  bool intercept = false;
};

struct RegressionForecast {
  double crossover_rows = 0.0;           // n at which privacy and sampling variances are equal
  double sampling_standard_error = 0.0;  // of a standardised coefficient, at n
  double privacy_standard_error = 0.0;
  double standard_error = 0.0;           // sqrt of the sum of the two variances
  double interval_width = 0.0;           // 2 z standard_error, z the normal quantile of level
  // n from which rows on their bounds (fill 1) get noise-aware intervals in nearly every fit;
  // about half of such fits print from 0.6-0.7 of it (tests/statistical/rows_for_intervals).
  double rows_for_intervals = 0.0;
  bool intervals_expected = false;       // n >= rows_for_intervals and half-width < 1
  // The noise-aware posterior (adassp_posterior.hpp) of an AdaSSP fit with y'y; NaN (false) for
  // a release, which has no posterior. Its sampling share of a coefficient at n, that share's
  // print threshold min_sampling_share(level), the posterior interval's half-width over the
  // coefficient's relevant half-range R_j (at or above 1 it covers [-R_j, R_j] and is not
  // printed), all to first order, and the n from which a coefficient's interval is expected to
  // print: both rules met and n >= rows_for_intervals (the release identifies X'X).
  double posterior_sampling_share = 0.0;
  double posterior_min_sampling_share = 0.0;
  double posterior_half_width_over_range = 0.0;
  double rows_for_posterior_intervals = 0.0;
  bool posterior_intervals_expected = false;  // n >= rows_for_posterior_intervals
};

// A regression of one column on the d - 1 others of a d x d release of rows of norm <= bound.
// Throws Status::InvalidArgument for a noise law without a forecast (Adassp), d < 2, a bound,
// n, level or fill out of range.
RegressionForecast forecast_release_regression(const ReleaseNoise &noise, int64_t d, double bound,
                                               const ForecastSettings &settings);

// An AdaSSP fit of p regressors with ||x|| <= bound_x, |y| <= bound_y and the noise scales of
// `receipt` (its plan suffices: sigma_cross and sigma_gram_off_diagonal are read), without or
// (settings.intercept) with an intercept column; the posterior's prior is the posterior's at
// intercept_column -1 or 0 accordingly. Throws Status::InvalidArgument for an intercept with
// p < 2 or bound_x <= 1 (no room for a feature).
RegressionForecast forecast_adassp_regression(const mechanisms::AdasspReceipt &receipt,
                                              const ForecastSettings &settings);

}  // namespace dpcov::estimators
