// Finite or failed: the regression forecast (dpcov/forecast.h) of a plan at any bound, epsilon,
// delta and d that the plan accepts, and at any n, level and fill, returns DPCOV_OK with every
// field finite (the posterior's fields of a release forecast NaN: a release has no posterior), or
// a documented status with a message and the output untouched; likewise the small-n decision on
// the same plans.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cmath>

#include "finite_or_failed.hpp"

namespace {

using namespace finite_or_failed;

bool finite_forecast(const dpcov_regression_forecast &f) {
  return all_finite({f.rows, f.level, f.fill, f.crossover_rows, f.sampling_standard_error,
                     f.privacy_standard_error, f.standard_error, f.interval_width,
                     f.rows_for_intervals});
}

bool finite_posterior(const dpcov_regression_forecast &f) {
  return all_finite({f.posterior_sampling_share, f.posterior_min_sampling_share,
                     f.posterior_half_width_over_range, f.rows_for_posterior_intervals});
}

bool no_posterior(const dpcov_regression_forecast &f) {
  return std::isnan(f.posterior_sampling_share) && std::isnan(f.posterior_min_sampling_share) &&
         std::isnan(f.posterior_half_width_over_range) &&
         std::isnan(f.rows_for_posterior_intervals) && f.posterior_intervals_expected == 0;
}

void check_forecast(dpcov_status status, const std::string &what,
                    const dpcov_regression_forecast &f, bool posterior) {
  if (status == DPCOV_OK) {
    if (!finite_forecast(f)) RC_FAIL(what + ": OK with a non-finite field");
    if (posterior ? !finite_posterior(f) : !no_posterior(f))
      RC_FAIL(what + (posterior ? ": OK with a non-finite posterior field"
                                : ": a release forecast with posterior fields"));
    return;
  }
  check_failure(status, what);
  if (!bytes_equal(f, canary_struct<dpcov_regression_forecast>()))
    RC_FAIL(what + ": forecast written on failure");
}

RC_GTEST_PROP(RegressionForecast, ReleaseForecastIsFiniteOrFailed, ()) {
  const int32_t mechanism = *rc::gen::element(DPCOV_MECHANISM_ANALYZE_GAUSS,
                                              DPCOV_MECHANISM_LAPLACE_SYM,
                                              DPCOV_MECHANISM_WISHART_ADDITIVE);
  const int64_t d = *rc::gen::inRange<int64_t>(1, 40);
  dpcov_mechanism_params params{};
  RC_ASSERT(dpcov_mechanism_params_default(&params) == DPCOV_OK);
  dpcov_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  const double bound = *extreme_positive();
  const double epsilon = *extreme_positive();
  if (dpcov_mechanism_plan(mechanism, d, 100, bound, epsilon, *probability(), &params,
                           &receipt) != DPCOV_OK)
    return;
  dpcov_regression_forecast f = canary_struct<dpcov_regression_forecast>();
  const dpcov_status status = dpcov_regression_forecast_release(
      &receipt, *extreme_positive(), *probability(), *probability(), &f);
  check_forecast(status, "dpcov_regression_forecast_release", f, false);
}

RC_GTEST_PROP(RegressionForecast, AdasspForecastIsFiniteOrFailed, ()) {
  dpcov_adassp_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  if (dpcov_adassp_plan(*rc::gen::inRange<int64_t>(1, 40), *extreme_positive(),
                        *extreme_positive(), *extreme_positive(), *probability(), nullptr,
                        &receipt) != DPCOV_OK)
    return;
  const bool intercept = *rc::gen::arbitrary<bool>();
  const auto call = intercept ? dpcov_regression_forecast_adassp_intercept
                              : dpcov_regression_forecast_adassp;
  dpcov_regression_forecast f = canary_struct<dpcov_regression_forecast>();
  const dpcov_status status =
      call(&receipt, *extreme_positive(), *probability(), *probability(), &f);
  check_forecast(status,
                 intercept ? "dpcov_regression_forecast_adassp_intercept"
                           : "dpcov_regression_forecast_adassp",
                 f, true);
}

// The small-n decision (dpcov_adassp_small_n_split) on the same plans: OK with the decision 0 or
// 1 and a finite n for the bootstrap, or a documented failure with both outputs untouched.
RC_GTEST_PROP(RegressionForecast, SmallNSplitIsFiniteOrFailed, ()) {
  dpcov_adassp_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  if (dpcov_adassp_plan(*rc::gen::inRange<int64_t>(1, 40), *extreme_positive(),
                        *extreme_positive(), *extreme_positive(), *probability(), nullptr,
                        &receipt) != DPCOV_OK)
    return;
  int32_t without = 7;
  double rows = kCanary;
  const dpcov_status status = dpcov_adassp_small_n_split(&receipt, *extreme_positive(),
                                                         *probability(), &without, &rows);
  if (status == DPCOV_OK) {
    if (!(without == 0 || without == 1) || !all_finite({rows}))
      RC_FAIL("dpcov_adassp_small_n_split: OK with a decision not 0 or 1 or a non-finite n");
    return;
  }
  check_failure(status, "dpcov_adassp_small_n_split");
  if (without != 7 || !bytes_equal(rows, kCanary))
    RC_FAIL("dpcov_adassp_small_n_split: an output written on failure");
}

// The default fit's decisions (dpcov_adassp_default_fit) over the whole range of the request's
// doubles (and n not known yet) and every flag: OK with shares of the budget that sum to at most
// the request, flags 0 or 1 and a finite forecast where one decided, or a documented failure with
// every output untouched.
RC_GTEST_PROP(RegressionForecast, DefaultFitIsFiniteOrFailed, ()) {
  dpcov_adassp_fit_request r{};
  r.struct_size = sizeof r;
  r.num_regressors = *rc::gen::inRange<int64_t>(1, 40);
  r.bound = *extreme_positive();
  r.bound_y = *extreme_positive();
  r.epsilon = *extreme_positive();
  r.delta = *probability();
  // NaN: a public n not known yet (only the robust split as asked applies).
  r.rows = *rc::gen::inRange(0, 8) == 0 ? std::nan("") : *extreme_positive();
  r.level = *probability();
  r.intervals = *rc::gen::inRange<int32_t>(0, 3);
  r.robust = *rc::gen::inRange<int32_t>(0, 2);
  r.small_n_posterior = *rc::gen::inRange<int32_t>(0, 2);
  dpcov_adassp_params asked{};
  RC_ASSERT(dpcov_adassp_params_default(&asked) == DPCOV_OK);
  asked.neighbour = *rc::gen::element(DPCOV_NEIGHBOUR_REPLACE_ONE, DPCOV_NEIGHBOUR_ADD_REMOVE);
  dpcov_adassp_params decided = canary_struct<dpcov_adassp_params>();
  dpcov_adassp_fit_decision d = canary_struct<dpcov_adassp_fit_decision>();
  dpcov_regression_forecast f = canary_struct<dpcov_regression_forecast>();
  const dpcov_status status = dpcov_adassp_default_fit(&r, &asked, &decided, &d, &f);
  if (status == DPCOV_OK) {
    for (const int32_t flag : {d.robust, d.small_n_split, d.label_square_decided,
                               d.label_square_refused, d.robust_skipped,
                               decided.release_label_square, decided.without_lambda_min})
      if (flag != 0 && flag != 1) RC_FAIL("dpcov_adassp_default_fit: a flag not 0 or 1");
    if (!all_finite({d.fit_epsilon, d.fit_delta, d.meat_epsilon, d.meat_delta,
                     d.rows_for_bootstrap}))
      RC_FAIL("dpcov_adassp_default_fit: OK with a non-finite share");
    if (!(d.fit_epsilon + d.meat_epsilon <= r.epsilon && d.fit_delta + d.meat_delta <= r.delta))
      RC_FAIL("dpcov_adassp_default_fit: shares above the request");
    if (d.label_square_decided == 1 && !(finite_forecast(f) && finite_posterior(f)))
      RC_FAIL("dpcov_adassp_default_fit: a non-finite deciding forecast");
    return;
  }
  check_failure(status, "dpcov_adassp_default_fit");
  if (!bytes_equal(decided, canary_struct<dpcov_adassp_params>()) ||
      !bytes_equal(d, canary_struct<dpcov_adassp_fit_decision>()) ||
      !bytes_equal(f, canary_struct<dpcov_regression_forecast>()))
    RC_FAIL("dpcov_adassp_default_fit: an output written on failure");
}

}  // namespace
