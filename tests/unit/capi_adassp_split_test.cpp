// AdaSSP without its lambda_min step through the C ABI (dpcov_adassp_params::without_lambda_min,
// proofs/adassp.md, "Without the lambda_min step") and the small-n decision that chooses it
// (dpcov_adassp_small_n_split): the receipt says which split was used, a struct of an older
// program keeps the default, bad options and arguments are refused with the outputs untouched and
// a message, and the decision follows the forecast's n for the bootstrap.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <vector>

#include "dpcov.h"
#include "support/adassp_gram.hpp"

namespace {

constexpr double kSentinel = -777.0;

using dpcov::test::adassp_gram4;

struct Fit {
  dpcov_status status = DPCOV_OK;
  std::vector<double> coef = std::vector<double>(3, kSentinel);
  dpcov_adassp_receipt receipt{};
};

Fit fit(const dpcov_adassp_params *params, uint64_t seed = 21) {
  dpcov_rng *rng = nullptr;
  EXPECT_EQ(dpcov_rng_create_seeded(&rng, seed, 0), DPCOV_OK);
  const std::vector<double> g = adassp_gram4();
  const int64_t features[3] = {0, 1, 2};
  Fit f;
  f.receipt.struct_size = sizeof f.receipt;
  f.status = dpcov_adassp_fit(DPCOV_ROW_MAJOR, 4, g.data(), 4, 3, features, 3, std::sqrt(1.5),
                              1.0, 1.0, 1e-6, params, rng, f.coef.data(), nullptr, 0, nullptr,
                              &f.receipt);
  dpcov_rng_destroy(&rng);
  return f;
}

dpcov_adassp_params params(int32_t without, int32_t label_square = 1) {
  dpcov_adassp_params p{};
  EXPECT_EQ(dpcov_adassp_params_default(&p), DPCOV_OK);
  p.without_lambda_min = without;
  p.release_label_square = label_square;
  return p;
}

dpcov_adassp_receipt plan(const dpcov_adassp_params &p, double epsilon = 1.0) {
  dpcov_adassp_receipt r{};
  r.struct_size = sizeof r;
  EXPECT_EQ(dpcov_adassp_plan(4, 2.0, 1.0, epsilon, 1e-6, &p, &r), DPCOV_OK)
      << dpcov_last_error_message();
  return r;
}

TEST(CapiAdasspSplit, TheDefaultReleasesLambdaMinAndSaysSo) {
  const dpcov_adassp_params p = params(0);
  EXPECT_EQ(p.without_lambda_min, 0);
  const Fit f = fit(&p);
  ASSERT_EQ(f.status, DPCOV_OK) << dpcov_last_error_message();
  EXPECT_EQ(f.receipt.lambda_min_released, 1);
  EXPECT_GT(f.receipt.sigma_lambda_min, 0.0);
}

// The receipt of the split: no lambda_min constants, the ridge at eta, the other scales
// sqrt(3/4) of the default's (y'y released), the same zCDP charge, the theorem named.
TEST(CapiAdasspSplit, TheReceiptSaysWhichSplitWasUsed) {
  const dpcov_adassp_params with = params(0), without = params(1);
  const Fit a = fit(&with), b = fit(&without);
  ASSERT_EQ(b.status, DPCOV_OK) << dpcov_last_error_message();
  EXPECT_EQ(b.receipt.lambda_min_released, 0);
  EXPECT_EQ(b.receipt.sensitivity_lambda_min, 0.0);
  EXPECT_EQ(b.receipt.sigma_lambda_min, 0.0);
  EXPECT_EQ(b.receipt.lambda_min_shift, 0.0);
  EXPECT_EQ(b.receipt.released_lambda_min, 0.0);
  EXPECT_EQ(b.receipt.ridge, b.receipt.noise_norm_bound);
  EXPECT_NE(std::strstr(b.receipt.theorem, "without the lambda_min step"), nullptr)
      << b.receipt.theorem;
  EXPECT_NEAR(b.receipt.sigma_gram / a.receipt.sigma_gram, std::sqrt(0.75), 1e-8);
  EXPECT_NEAR(b.receipt.sigma_cross / a.receipt.sigma_cross, std::sqrt(0.75), 1e-8);
  EXPECT_NEAR(b.receipt.sigma_label_square / a.receipt.sigma_label_square, std::sqrt(0.75), 1e-8);
  EXPECT_NEAR(b.receipt.rho, a.receipt.rho, 1e-8 * a.receipt.rho);
  EXPECT_LE(b.receipt.delta_exact, 1e-6);
  for (double c : b.coef) EXPECT_TRUE(std::isfinite(c));
  // The plan has every constant of the fit.
  const dpcov_adassp_receipt planned = plan(without);
  EXPECT_EQ(planned.lambda_min_released, 0);
  EXPECT_EQ(planned.ridge, 0.0);  // a function of the release: 0 in a plan
}

// A program compiled before the field passes a smaller params struct: the default split.
TEST(CapiAdasspSplit, AnOlderParamsStructKeepsTheDefault) {
  dpcov_adassp_params p = params(1);
  p.struct_size = offsetof(dpcov_adassp_params, without_lambda_min);
  const Fit f = fit(&p);
  ASSERT_EQ(f.status, DPCOV_OK) << dpcov_last_error_message();
  EXPECT_EQ(f.receipt.lambda_min_released, 1);
}

TEST(CapiAdasspSplit, BadOptionsAreRefusedWithTheOutputsUntouched) {
  for (const int32_t bad : {2, -1}) {
    const dpcov_adassp_params p = params(bad);
    const Fit f = fit(&p);
    EXPECT_EQ(f.status, DPCOV_E_INVALID_ARGUMENT);
    EXPECT_NE(std::strstr(dpcov_last_error_message(), "without_lambda_min"), nullptr);
    for (double c : f.coef) EXPECT_EQ(c, kSentinel);
    EXPECT_EQ(f.receipt.mechanism, 0);
  }
  dpcov_adassp_params paper = params(1, 0);
  paper.calibration = DPCOV_ADASSP_PAPER;
  paper.neighbour = DPCOV_NEIGHBOUR_ADD_REMOVE;
  const Fit f = fit(&paper);
  EXPECT_EQ(f.status, DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(dpcov_last_error_message(), "lambda_min"), nullptr);
  EXPECT_EQ(f.receipt.mechanism, 0);
  dpcov_adassp_params units = params(1, 0);
  units.max_rows_per_unit = 2;
  const Fit u = fit(&units);
  EXPECT_EQ(u.status, DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(dpcov_last_error_message(), "row level"), nullptr);
  EXPECT_EQ(u.receipt.mechanism, 0);
}

// The decision: without the lambda_min step exactly below the forecast's n for the bootstrap
// (fill 1), which it reports; at p = 4 (intercept and 3 regressors), B_X = 2, B_Y = 1,
// epsilon 1, delta 1e-6 that is n = 270.4.
TEST(CapiAdasspSplit, TheSmallNSplitIsTakenBelowTheBootstrapsN) {
  const dpcov_adassp_receipt r = plan(params(0));
  int32_t without = -1;
  double rows = 0.0;
  ASSERT_EQ(dpcov_adassp_small_n_split(&r, 100.0, 0.95, &without, &rows), DPCOV_OK)
      << dpcov_last_error_message();
  EXPECT_EQ(without, 1);
  EXPECT_NEAR(rows, 270.4, 0.1);
  dpcov_regression_forecast f{};
  f.struct_size = sizeof f;
  ASSERT_EQ(dpcov_regression_forecast_adassp(&r, 100.0, 0.95, 1.0, &f), DPCOV_OK);
  EXPECT_EQ(rows, f.rows_for_intervals);
  for (const double n : {std::floor(rows), std::ceil(rows), 500.0, 1e5}) {
    ASSERT_EQ(dpcov_adassp_small_n_split(&r, n, 0.95, &without, nullptr), DPCOV_OK);
    EXPECT_EQ(without, n < rows ? 1 : 0) << n;
  }
  // More budget, less noise: the bootstrap's n falls and n = 100 keeps the default.
  const dpcov_adassp_receipt r4 = plan(params(0), 4.0);
  ASSERT_EQ(dpcov_adassp_small_n_split(&r4, 100.0, 0.95, &without, &rows), DPCOV_OK);
  EXPECT_EQ(without, 0);
  EXPECT_LT(rows, 100.0);
}

TEST(CapiAdasspSplit, TheDecisionRefusesBadArgumentsWithTheOutputsUntouched) {
  const dpcov_adassp_receipt r = plan(params(0));
  int32_t without = 7;
  double rows = kSentinel;
  const auto refused = [&](dpcov_status status, const dpcov_adassp_receipt *receipt, double n,
                           double level, int32_t *out) {
    EXPECT_EQ(dpcov_adassp_small_n_split(receipt, n, level, out, &rows), status);
    EXPECT_GT(std::strlen(dpcov_last_error_message()), 0u);
    EXPECT_EQ(without, 7);
    EXPECT_EQ(rows, kSentinel);
  };
  refused(DPCOV_E_NULL_POINTER, nullptr, 100.0, 0.95, &without);
  refused(DPCOV_E_NULL_POINTER, &r, 100.0, 0.95, nullptr);
  refused(DPCOV_E_INVALID_ARGUMENT, &r, 0.5, 0.95, &without);
  refused(DPCOV_E_INVALID_ARGUMENT, &r, NAN, 0.95, &without);
  refused(DPCOV_E_INVALID_ARGUMENT, &r, 100.0, 1.0, &without);
  // A plan that already dropped the step, the paper's constants, a unit-level plan.
  const dpcov_adassp_receipt split = plan(params(1));
  refused(DPCOV_E_INVALID_ARGUMENT, &split, 100.0, 0.95, &without);
  dpcov_adassp_params paper = params(0, 0);
  paper.calibration = DPCOV_ADASSP_PAPER;
  paper.neighbour = DPCOV_NEIGHBOUR_ADD_REMOVE;
  const dpcov_adassp_receipt by_paper = plan(paper);
  refused(DPCOV_E_INVALID_ARGUMENT, &by_paper, 100.0, 0.95, &without);
  dpcov_adassp_params units = params(0, 0);
  units.max_rows_per_unit = 3;
  const dpcov_adassp_receipt by_units = plan(units);
  refused(DPCOV_E_INCOMPATIBLE, &by_units, 100.0, 0.95, &without);
  // Under add/remove n is private: the decision would turn on it.
  dpcov_adassp_params add_remove = params(0);
  add_remove.neighbour = DPCOV_NEIGHBOUR_ADD_REMOVE;
  const dpcov_adassp_receipt by_add_remove = plan(add_remove);
  refused(DPCOV_E_INCOMPATIBLE, &by_add_remove, 150.0, 0.95, &without);
  dpcov_adassp_receipt bad_neighbour = r;
  bad_neighbour.neighbour = 7;
  refused(DPCOV_E_INVALID_ARGUMENT, &bad_neighbour, 100.0, 0.95, &without);
  dpcov_adassp_receipt unsized = r;
  unsized.struct_size = 8;
  refused(DPCOV_E_INVALID_ARGUMENT, &unsized, 100.0, 0.95, &without);
}

}  // namespace
