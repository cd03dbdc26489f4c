// The regression forecast through the C ABI (dpcov/forecast.h): the closed forms of the reference
// design for a plan, the decision on intervals, and every bad argument refused with the output
// untouched and a message.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstring>

#include "dpcov.h"

namespace {

dpcov_receipt plan(int32_t mechanism, int64_t d, int64_t n, double bound, double epsilon) {
  dpcov_mechanism_params params{};
  EXPECT_EQ(dpcov_mechanism_params_default(&params), DPCOV_OK);
  dpcov_receipt r{};
  r.struct_size = sizeof r;
  EXPECT_EQ(dpcov_mechanism_plan(mechanism, d, n, bound, epsilon, 1e-6, &params, &r), DPCOV_OK)
      << dpcov_last_error_message();
  return r;
}

dpcov_adassp_receipt adassp_plan(int64_t p, double bound_x, double bound_y) {
  dpcov_adassp_params params{};
  EXPECT_EQ(dpcov_adassp_params_default(&params), DPCOV_OK);
  params.release_label_square = 1;
  dpcov_adassp_receipt r{};
  r.struct_size = sizeof r;
  EXPECT_EQ(dpcov_adassp_plan(p, bound_x, bound_y, 1.0, 1e-6, &params, &r), DPCOV_OK);
  return r;
}

dpcov_regression_forecast canary() {
  dpcov_regression_forecast f;
  std::memset(&f, 0x5a, sizeof f);
  f.struct_size = sizeof f;
  return f;
}

TEST(CapiForecast, AnalyzeGaussCrossoverIsSigmaSquaredOverTheDesignMomentSquared) {
  const dpcov_receipt r = plan(DPCOV_MECHANISM_ANALYZE_GAUSS, 4, 1000, 2.0, 1.0);
  dpcov_regression_forecast f = canary();
  ASSERT_EQ(dpcov_regression_forecast_release(&r, 1000, 0.95, 0.5, &f), DPCOV_OK)
      << dpcov_last_error_message();
  const double m = 0.5 * 4.0 / 4.0;  // fill B^2 / d
  EXPECT_NEAR(f.crossover_rows, r.sigma * r.sigma / (m * m), 1e-9 * f.crossover_rows);
  EXPECT_NEAR(f.sampling_standard_error, 1.0 / std::sqrt(1000.0), 1e-15);
  EXPECT_NEAR(f.privacy_standard_error, std::sqrt(f.crossover_rows) / 1000.0, 1e-15);
  EXPECT_NEAR(f.interval_width, 2.0 * 1.959963984540054 * f.standard_error, 1e-9);
  EXPECT_NEAR(f.rows_for_intervals, 4.0 * std::sqrt(3.0) * r.sigma / m, 1e-9);
  EXPECT_EQ(f.rows, 1000.0);
  EXPECT_EQ(f.level, 0.95);
  EXPECT_EQ(f.fill, 0.5);
}

TEST(CapiForecast, IntervalsAreExpectedOnlyWithEnoughRows) {
  const dpcov_receipt r = plan(DPCOV_MECHANISM_ANALYZE_GAUSS, 5, 100, 1.0, 1.0);
  dpcov_regression_forecast few = canary(), many = canary();
  ASSERT_EQ(dpcov_regression_forecast_release(&r, 100, 0.95, 1.0, &few), DPCOV_OK);
  ASSERT_EQ(dpcov_regression_forecast_release(&r, 1e6, 0.95, 1.0, &many), DPCOV_OK);
  EXPECT_EQ(few.intervals_expected, 0);
  EXPECT_EQ(many.intervals_expected, 1);
  EXPECT_LT(many.interval_width, few.interval_width);
}

TEST(CapiForecast, AdasspCrossoverUsesTheCrossNoiseAndBothBounds) {
  const dpcov_adassp_receipt r = adassp_plan(3, 2.0, 5.0);
  dpcov_regression_forecast f = canary();
  ASSERT_EQ(dpcov_regression_forecast_adassp(&r, 500, 0.9, 1.0, &f), DPCOV_OK)
      << dpcov_last_error_message();
  const double mx = 4.0 / 3.0, s2 = 25.0;
  EXPECT_NEAR(f.crossover_rows, r.sigma_cross * r.sigma_cross / (mx * s2),
              1e-9 * f.crossover_rows);
  EXPECT_NEAR(f.interval_width, 2.0 * 1.6448536269514722 * f.standard_error, 1e-9);
}

// With an intercept (the design regress fits): a slope's crossover reads the features' second
// moment B^2 / p (bound^2 = 1 + B^2), not bound^2 over all p + 1 regressors; the design's
// smallest eigenvalue is min(1, B^2 / p); the slopes' prior is R_j = B_Y / B.
TEST(CapiForecast, AdasspWithAnInterceptReadsTheFeaturesMoment) {
  const double b2 = 1.0;  // features' bound squared: 3 features of second moment 1/3
  const dpcov_adassp_receipt r = adassp_plan(4, std::sqrt(1.0 + b2), 1.0);
  dpcov_regression_forecast with = canary(), without = canary();
  ASSERT_EQ(dpcov_regression_forecast_adassp_intercept(&r, 1e7, 0.95, 1.0, &with), DPCOV_OK)
      << dpcov_last_error_message();
  ASSERT_EQ(dpcov_regression_forecast_adassp(&r, 1e7, 0.95, 1.0, &without), DPCOV_OK);
  const double mx = b2 / 3.0;
  EXPECT_NEAR(with.crossover_rows, r.sigma_cross * r.sigma_cross / mx, 1e-9 * with.crossover_rows);
  EXPECT_NEAR(with.crossover_rows / without.crossover_rows, 1.5, 1e-12);
  EXPECT_NEAR(with.rows_for_intervals,
              4.0 * std::sqrt(4.0) * r.sigma_gram_off_diagonal / mx, 1e-9 * with.rows_for_intervals);
  EXPECT_EQ(with.intercept, 1);
  EXPECT_EQ(without.intercept, 0);
  // The prior's standardised variance is (2 B_Y / B)^2 m_x / B_Y^2 = 4 / 3, as without.
  const double t2 = 4.0 / 3.0, s2 = with.standard_error * with.standard_error;
  EXPECT_NEAR(with.posterior_sampling_share, t2 / (t2 + s2), 1e-6);
  // At bound^2 = 1 + p the features' moment equals bound^2 / (p + 1): the figures agree.
  const dpcov_adassp_receipt wide = adassp_plan(4, 2.0, 1.0);
  ASSERT_EQ(dpcov_regression_forecast_adassp_intercept(&wide, 1000, 0.95, 1.0, &with), DPCOV_OK);
  ASSERT_EQ(dpcov_regression_forecast_adassp(&wide, 1000, 0.95, 1.0, &without), DPCOV_OK);
  EXPECT_NEAR(with.crossover_rows, without.crossover_rows, 1e-9 * with.crossover_rows);
}

// The posterior's figures: the one-dimensional share t^2 / (t^2 + S) and half-width where the
// noise on X'X~ is negligible against the design (n large), the n from which it prints never
// below the bootstrap's, and NaN for a release (which has no posterior).
TEST(CapiForecast, AdasspPosteriorFiguresAndTheirLimits) {
  const dpcov_adassp_receipt r = adassp_plan(3, std::sqrt(3.0), 1.0);
  dpcov_regression_forecast f = canary(), few = canary();
  ASSERT_EQ(dpcov_regression_forecast_adassp(&r, 1e7, 0.95, 1.0, &f), DPCOV_OK);
  const double t2 = 4.0 / 3.0, s2 = f.standard_error * f.standard_error;  // (2 R_j)^2 standardised
  EXPECT_NEAR(f.posterior_sampling_share, t2 / (t2 + s2), 1e-6);
  EXPECT_NEAR(f.posterior_half_width_over_range,
              2.0 * 1.959963984540054 * std::sqrt(s2 * t2 / (t2 + s2) / t2), 1e-6);
  EXPECT_NEAR(f.posterior_min_sampling_share, 0.579, 5e-4);
  EXPECT_EQ(f.posterior_intervals_expected, 1);
  EXPECT_GE(f.rows_for_posterior_intervals, f.rows_for_intervals);
  ASSERT_EQ(dpcov_regression_forecast_adassp(&r, 0.5 * f.rows_for_posterior_intervals, 0.95,
                                             1.0, &few), DPCOV_OK);
  EXPECT_EQ(few.posterior_intervals_expected, 0);
  EXPECT_LT(few.posterior_sampling_share, f.posterior_sampling_share);
  EXPECT_EQ(few.rows_for_posterior_intervals, f.rows_for_posterior_intervals);
  const dpcov_receipt release = plan(DPCOV_MECHANISM_ANALYZE_GAUSS, 4, 1000, 1.0, 1.0);
  ASSERT_EQ(dpcov_regression_forecast_release(&release, 1000, 0.95, 1.0, &f), DPCOV_OK);
  EXPECT_TRUE(std::isnan(f.posterior_sampling_share));
  EXPECT_TRUE(std::isnan(f.rows_for_posterior_intervals));
  EXPECT_EQ(f.posterior_intervals_expected, 0);
}

// The posterior's figures stay finite at the ends of double's range: n near the largest double
// (where the share's u^2 underflowed) and a prior sd 2 B_Y / B_X whose square underflows (which
// read as a release's: every posterior field NaN). Found by the finite-or-failed property test.
TEST(CapiForecast, AdasspPosteriorFiguresAreFiniteAtTheEndsOfTheRange) {
  const dpcov_adassp_receipt r = adassp_plan(3, std::sqrt(3.0), 1.0);
  dpcov_regression_forecast f = canary();
  ASSERT_EQ(dpcov_regression_forecast_adassp(&r, DBL_MAX, 0.95, 1.0, &f), DPCOV_OK);
  EXPECT_TRUE(std::isfinite(f.posterior_sampling_share)) << f.posterior_sampling_share;
  EXPECT_NEAR(f.posterior_sampling_share, 1.0, 1e-6);
  dpcov_adassp_params params{};
  ASSERT_EQ(dpcov_adassp_params_default(&params), DPCOV_OK);
  params.release_label_square = 1;
  dpcov_adassp_receipt tiny{};
  tiny.struct_size = sizeof tiny;
  ASSERT_EQ(dpcov_adassp_plan(2, 3.88737e11, 3.05494e-151, 1e-3, 1e-6, &params, &tiny), DPCOV_OK);
  for (const auto call : {dpcov_regression_forecast_adassp,
                          dpcov_regression_forecast_adassp_intercept}) {
    ASSERT_EQ(call(&tiny, 1e6, 0.95, 1.0, &f), DPCOV_OK) << dpcov_last_error_message();
    EXPECT_TRUE(std::isfinite(f.posterior_sampling_share));
    EXPECT_TRUE(std::isfinite(f.rows_for_posterior_intervals));
  }
}

// The default fit's decisions (dpcov_adassp_default_fit): robust errors' share at a large n, the
// small-n split without y'y and without the meat at a small one, and no decision from a private n.
dpcov_adassp_fit_request fit_request(double rows) {
  dpcov_adassp_fit_request r{};
  r.struct_size = sizeof r;
  r.num_regressors = 3;
  r.bound = std::sqrt(1.0 + 2.25);
  r.bound_y = 1.0;
  r.epsilon = 1.0;
  r.delta = 1e-6;
  r.rows = rows;
  r.level = 0.95;
  r.intervals = DPCOV_FIT_INTERVALS_DECIDED;
  r.robust = 1;
  r.small_n_posterior = 1;
  return r;
}

struct Decided {
  dpcov_status status;
  dpcov_adassp_params params;
  dpcov_adassp_fit_decision decision;
  dpcov_regression_forecast forecast;
};

Decided decide(const dpcov_adassp_fit_request &r, const dpcov_adassp_params *asked = nullptr) {
  Decided d{};
  d.params.struct_size = sizeof d.params;
  d.decision.struct_size = sizeof d.decision;
  d.forecast = canary();
  d.status = dpcov_adassp_default_fit(&r, asked, &d.params, &d.decision, &d.forecast);
  return d;
}

TEST(CapiForecast, TheDefaultFitsDecisionsFollowThePublicN) {
  const Decided large = decide(fit_request(5000));
  ASSERT_EQ(large.status, DPCOV_OK) << dpcov_last_error_message();
  EXPECT_EQ(large.decision.robust, 1);
  EXPECT_NEAR(large.decision.fit_epsilon, 0.8, 1e-12);
  EXPECT_NEAR(large.decision.meat_epsilon, 0.2, 1e-12);
  EXPECT_LE(large.decision.fit_epsilon + large.decision.meat_epsilon, 1.0);
  EXPECT_EQ(large.params.release_label_square, 1);  // for the posterior, where it answers
  EXPECT_EQ(large.params.without_lambda_min, 0);
  EXPECT_EQ(large.decision.label_square_decided, 1);
  EXPECT_EQ(large.forecast.rows, 5000.0);
  EXPECT_EQ(large.forecast.intervals_expected, 1);
  const Decided small = decide(fit_request(50));
  ASSERT_EQ(small.status, DPCOV_OK);
  EXPECT_EQ(small.decision.robust, 0);
  EXPECT_EQ(small.decision.robust_skipped, 1);
  EXPECT_EQ(small.decision.small_n_split, 1);
  EXPECT_GT(small.decision.rows_for_bootstrap, 50.0);
  EXPECT_EQ(small.decision.label_square_refused, 1);
  EXPECT_EQ(small.params.without_lambda_min, 1);
  EXPECT_EQ(small.params.release_label_square, 0);
  EXPECT_EQ(small.decision.fit_epsilon, 1.0);
  dpcov_adassp_params add_remove{};
  ASSERT_EQ(dpcov_adassp_params_default(&add_remove), DPCOV_OK);
  add_remove.neighbour = DPCOV_NEIGHBOUR_ADD_REMOVE;
  const Decided hidden = decide(fit_request(std::nan("")), &add_remove);
  ASSERT_EQ(hidden.status, DPCOV_OK) << dpcov_last_error_message();
  EXPECT_EQ(hidden.decision.robust, 1);  // as asked: n is private, no forecast decides
  EXPECT_EQ(hidden.decision.label_square_decided, 0);
  EXPECT_EQ(hidden.params.neighbour, DPCOV_NEIGHBOUR_ADD_REMOVE);
  const dpcov_regression_forecast untouched = canary();
  EXPECT_EQ(std::memcmp(&hidden.forecast, &untouched, sizeof untouched), 0);
  // A public n not known yet (NaN, before the rows are read): the split as asked, as above, and
  // the y'y the robust split releases for the posterior.
  const Decided unknown = decide(fit_request(std::nan("")));
  ASSERT_EQ(unknown.status, DPCOV_OK) << dpcov_last_error_message();
  EXPECT_EQ(unknown.decision.robust, 1);
  EXPECT_EQ(unknown.decision.fit_epsilon, large.decision.fit_epsilon);
  EXPECT_EQ(unknown.decision.meat_epsilon, large.decision.meat_epsilon);
  EXPECT_EQ(unknown.decision.small_n_split, 0);
  EXPECT_EQ(unknown.decision.label_square_decided, 0);
  EXPECT_EQ(unknown.params.release_label_square, 1);
  EXPECT_EQ(std::memcmp(&unknown.forecast, &untouched, sizeof untouched), 0);
}

TEST(CapiForecast, TheDefaultFitRefusesBadRequestsWithTheOutputsUntouched) {
  struct Case {
    const char *what;
    dpcov_status expected;
    void (*change)(dpcov_adassp_fit_request &);
  };
  const Case cases[] = {
      {"intervals 3", DPCOV_E_INVALID_ARGUMENT,
       [](dpcov_adassp_fit_request &r) { r.intervals = 3; }},
      {"robust 2", DPCOV_E_INVALID_ARGUMENT, [](dpcov_adassp_fit_request &r) { r.robust = 2; }},
      {"public n 0", DPCOV_E_INVALID_ARGUMENT, [](dpcov_adassp_fit_request &r) { r.rows = 0.0; }},
      {"level 1", DPCOV_E_INVALID_ARGUMENT, [](dpcov_adassp_fit_request &r) { r.level = 1.0; }},
      {"epsilon 0", DPCOV_E_INVALID_ARGUMENT, [](dpcov_adassp_fit_request &r) { r.epsilon = 0.0; }},
      {"delta 1", DPCOV_E_INVALID_ARGUMENT, [](dpcov_adassp_fit_request &r) { r.delta = 1.0; }},
      {"no regressor", DPCOV_E_DIMENSION,
       [](dpcov_adassp_fit_request &r) { r.num_regressors = 0; }},
      {"struct_size 0", DPCOV_E_INVALID_ARGUMENT,
       [](dpcov_adassp_fit_request &r) { r.struct_size = 0; }},
  };
  for (const Case &c : cases) {
    dpcov_adassp_fit_request r = fit_request(1000);
    c.change(r);
    const Decided d = decide(r);
    EXPECT_EQ(d.status, c.expected) << c.what;
    EXPECT_GT(std::strlen(dpcov_last_error_message()), 0u) << c.what;
    EXPECT_EQ(d.decision.fit_epsilon, 0.0) << c.what;
    EXPECT_EQ(d.params.rho, 0.0) << c.what;
    const dpcov_regression_forecast untouched = canary();
    EXPECT_EQ(std::memcmp(&d.forecast, &untouched, sizeof untouched), 0) << c.what;
  }
  dpcov_adassp_params params{};
  params.struct_size = sizeof params;
  dpcov_adassp_fit_decision decision{};
  decision.struct_size = sizeof decision;
  const dpcov_adassp_fit_request r = fit_request(1000);
  EXPECT_EQ(dpcov_adassp_default_fit(nullptr, nullptr, &params, &decision, nullptr),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_adassp_default_fit(&r, nullptr, nullptr, &decision, nullptr),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_adassp_default_fit(&r, nullptr, &params, nullptr, nullptr),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_adassp_default_fit(&r, nullptr, &params, &decision, nullptr), DPCOV_OK);
}

// A caller built before the posterior's fields (struct_size up to intervals_expected) gets the
// fields it knows and nothing written past them.
TEST(CapiForecast, AnOlderStructSizeIsWrittenOnlyAsFarAsItReaches) {
  const dpcov_adassp_receipt r = adassp_plan(3, std::sqrt(3.0), 1.0);
  dpcov_regression_forecast f = canary();
  f.struct_size = offsetof(dpcov_regression_forecast, intervals_expected) + sizeof(int32_t);
  ASSERT_EQ(dpcov_regression_forecast_adassp(&r, 1000, 0.95, 1.0, &f), DPCOV_OK)
      << dpcov_last_error_message();
  EXPECT_EQ(f.rows, 1000.0);
  const dpcov_regression_forecast untouched = canary();
  EXPECT_EQ(std::memcmp(&f.posterior_sampling_share, &untouched.posterior_sampling_share,
                        sizeof f - offsetof(dpcov_regression_forecast, posterior_sampling_share)),
            0);
}

TEST(CapiForecast, BadArgumentsAreRefusedWithTheOutputUntouched) {
  const dpcov_receipt receipt = plan(DPCOV_MECHANISM_ANALYZE_GAUSS, 4, 100, 1.0, 1.0);
  const dpcov_adassp_receipt adassp = adassp_plan(3, 1.0, 1.0);
  struct Case {
    const char *what;
    dpcov_status expected;
    dpcov_status (*call)(const dpcov_receipt &, const dpcov_adassp_receipt &,
                         dpcov_regression_forecast *);
  };
  const Case cases[] = {
      {"null receipt", DPCOV_E_NULL_POINTER,
       [](const dpcov_receipt &, const dpcov_adassp_receipt &, dpcov_regression_forecast *f) {
         return dpcov_regression_forecast_release(nullptr, 100, 0.95, 1.0, f);
       }},
      {"null adassp receipt", DPCOV_E_NULL_POINTER,
       [](const dpcov_receipt &, const dpcov_adassp_receipt &, dpcov_regression_forecast *f) {
         return dpcov_regression_forecast_adassp(nullptr, 100, 0.95, 1.0, f);
       }},
      {"n = 0", DPCOV_E_INVALID_ARGUMENT,
       [](const dpcov_receipt &r, const dpcov_adassp_receipt &, dpcov_regression_forecast *f) {
         return dpcov_regression_forecast_release(&r, 0.0, 0.95, 1.0, f);
       }},
      {"n NaN", DPCOV_E_INVALID_ARGUMENT,
       [](const dpcov_receipt &r, const dpcov_adassp_receipt &, dpcov_regression_forecast *f) {
         return dpcov_regression_forecast_release(&r, std::nan(""), 0.95, 1.0, f);
       }},
      {"n infinite", DPCOV_E_INVALID_ARGUMENT,
       [](const dpcov_receipt &, const dpcov_adassp_receipt &a, dpcov_regression_forecast *f) {
         return dpcov_regression_forecast_adassp(&a, HUGE_VAL, 0.95, 1.0, f);
       }},
      {"level 1", DPCOV_E_INVALID_ARGUMENT,
       [](const dpcov_receipt &r, const dpcov_adassp_receipt &, dpcov_regression_forecast *f) {
         return dpcov_regression_forecast_release(&r, 100, 1.0, 1.0, f);
       }},
      {"level NaN", DPCOV_E_INVALID_ARGUMENT,
       [](const dpcov_receipt &, const dpcov_adassp_receipt &a, dpcov_regression_forecast *f) {
         return dpcov_regression_forecast_adassp(&a, 100, std::nan(""), 1.0, f);
       }},
      {"fill 0", DPCOV_E_INVALID_ARGUMENT,
       [](const dpcov_receipt &r, const dpcov_adassp_receipt &, dpcov_regression_forecast *f) {
         return dpcov_regression_forecast_release(&r, 100, 0.95, 0.0, f);
       }},
      {"fill above 1", DPCOV_E_INVALID_ARGUMENT,
       [](const dpcov_receipt &, const dpcov_adassp_receipt &a, dpcov_regression_forecast *f) {
         return dpcov_regression_forecast_adassp(&a, 100, 0.95, 1.5, f);
       }},
      {"a mechanism without an additive noise law", DPCOV_E_INVALID_ARGUMENT,
       [](const dpcov_receipt &r, const dpcov_adassp_receipt &, dpcov_regression_forecast *f) {
         dpcov_receipt other = r;
         other.mechanism = DPCOV_MECHANISM_IEV;
         return dpcov_regression_forecast_release(&other, 100, 0.95, 1.0, f);
       }},
      {"dim 1", DPCOV_E_DIMENSION,
       [](const dpcov_receipt &r, const dpcov_adassp_receipt &, dpcov_regression_forecast *f) {
         dpcov_receipt other = r;
         other.dim = 1;
         return dpcov_regression_forecast_release(&other, 100, 0.95, 1.0, f);
       }},
      {"bound infinite", DPCOV_E_NON_FINITE,
       [](const dpcov_receipt &r, const dpcov_adassp_receipt &, dpcov_regression_forecast *f) {
         dpcov_receipt other = r;
         other.bound = HUGE_VAL;
         return dpcov_regression_forecast_release(&other, 100, 0.95, 1.0, f);
       }},
      {"sigma_cross 0", DPCOV_E_INVALID_ARGUMENT,
       [](const dpcov_receipt &, const dpcov_adassp_receipt &a, dpcov_regression_forecast *f) {
         dpcov_adassp_receipt other = a;
         other.sigma_cross = 0.0;
         return dpcov_regression_forecast_adassp(&other, 100, 0.95, 1.0, f);
       }},
      {"an intercept and no feature", DPCOV_E_INVALID_ARGUMENT,
       [](const dpcov_receipt &, const dpcov_adassp_receipt &a, dpcov_regression_forecast *f) {
         dpcov_adassp_receipt other = a;
         other.num_regressors = 1;
         other.bound = 2.0;
         return dpcov_regression_forecast_adassp_intercept(&other, 100, 0.95, 1.0, f);
       }},
      {"an intercept and bound 1", DPCOV_E_INVALID_ARGUMENT,
       [](const dpcov_receipt &, const dpcov_adassp_receipt &a, dpcov_regression_forecast *f) {
         return dpcov_regression_forecast_adassp_intercept(&a, 100, 0.95, 1.0, f);
       }},
      {"null receipt with an intercept", DPCOV_E_NULL_POINTER,
       [](const dpcov_receipt &, const dpcov_adassp_receipt &, dpcov_regression_forecast *f) {
         return dpcov_regression_forecast_adassp_intercept(nullptr, 100, 0.95, 1.0, f);
       }},
      {"receipt struct_size 0", DPCOV_E_INVALID_ARGUMENT,
       [](const dpcov_receipt &r, const dpcov_adassp_receipt &, dpcov_regression_forecast *f) {
         dpcov_receipt other = r;
         other.struct_size = 0;
         return dpcov_regression_forecast_release(&other, 100, 0.95, 1.0, f);
       }},
  };
  for (const Case &c : cases) {
    dpcov_regression_forecast f = canary();
    const dpcov_regression_forecast before = f;
    EXPECT_EQ(c.call(receipt, adassp, &f), c.expected) << c.what;
    EXPECT_GT(std::strlen(dpcov_last_error_message()), 0u) << c.what;
    EXPECT_EQ(std::memcmp(&f, &before, sizeof f), 0) << c.what << ": output written on failure";
  }
  EXPECT_EQ(dpcov_regression_forecast_release(&receipt, 100, 0.95, 1.0, nullptr),
            DPCOV_E_NULL_POINTER);
  dpcov_regression_forecast unset = canary();
  unset.struct_size = 0;
  EXPECT_EQ(dpcov_regression_forecast_adassp(&adassp, 100, 0.95, 1.0, &unset),
            DPCOV_E_INVALID_ARGUMENT);
}

}  // namespace
