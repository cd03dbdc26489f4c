// The C ABI of the JL, inverse-Wishart and OLS mechanisms: validation before any work, the
// refusal status, and outputs untouched on failure.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

struct Fixture {
  dpcov_rng *rng = nullptr;
  dpcov_mechanism_params params{};
  dpcov_receipt receipt{};
  Fixture() {
    dpcov_rng_create_seeded(&rng, 5, 0);
    dpcov_mechanism_params_default(&params);
    receipt.struct_size = sizeof receipt;
  }
  ~Fixture() { dpcov_rng_destroy(&rng); }
};

// G of 4 orthogonal directions, 1000 rows each of norm 1: lambda_min = 1000 (well spread).
std::vector<double> spread_gram() {
  std::vector<double> g(16, 0.0);
  for (int i = 0; i < 4; ++i) g[static_cast<size_t>(5 * i)] = 1000.0;
  return g;
}

TEST(CapiJl, PlanValidatesProjectionRowsAndPreconditions) {
  Fixture f;
  EXPECT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_JL_RIDGE, 4, 10, 1, 0.5, 1e-6, &f.params, &f.receipt),
            DPCOV_E_DIMENSION);
  f.params.projection_rows = 10;
  EXPECT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_JL_RIDGE, 4, 10, 1, 1.5, 1e-6, &f.params, &f.receipt),
            DPCOV_E_PRECONDITION);
  EXPECT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_JL_RIDGE, 4, 10, 1, 0.5, 0.5, &f.params, &f.receipt),
            DPCOV_E_PRECONDITION);
  EXPECT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_INVERSE_WISHART, 4, 10, 1, 0.5, 1e-6, &f.params,
                                 &f.receipt),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_JL_RIDGE, 4, 10, 1, 0.5, 1e-6, &f.params, &f.receipt),
            DPCOV_OK);
  EXPECT_EQ(f.receipt.projection_rows, 10);
  f.params.projection_rows = 0;
  f.params.posterior_dof = 3;
  EXPECT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_INVERSE_WISHART, 4, 10, 1, 0.5, 1e-6, &f.params,
                                 &f.receipt),
            DPCOV_E_PRECONDITION);
}

// One refused dpcov_ols_jl call on data with sigma_min(A) = 0 (y identically 0).
dpcov_status refused_ols(Fixture &f, double epsilon, double *coef) {
  f.params.projection_rows = 30;
  std::vector<double> g = spread_gram();
  g[15] = 0.0;
  const int64_t features[3] = {0, 1, 2};
  return dpcov_ols_jl(DPCOV_COL_MAJOR, 4, g.data(), 4, 3000, 1, epsilon, 1e-6, &f.params, 3,
                      features, 3, nullptr, f.rng, coef, nullptr, nullptr, nullptr, nullptr,
                      nullptr, nullptr, nullptr, &f.receipt);
}

std::vector<unsigned char> state_of(const dpcov_rng *rng) {
  std::vector<unsigned char> state(DPCOV_RNG_STATE_SIZE);
  dpcov_rng_state_save(rng, state.data(), state.size());
  return state;
}

TEST(CapiJl, OlsRefusalWritesNothingButConsumesTheTestNoise) {
  Fixture f;
  double coef[3] = {7, 7, 7};
  const std::vector<unsigned char> before = state_of(f.rng);
  EXPECT_EQ(refused_ols(f, 1, coef), DPCOV_E_REFUSED);
  EXPECT_EQ(coef[0], 7.0);
  // The Laplace draw of the test is one 64-bit word (laplace_from_word needs a second only when
  // the first lands in the lowest of 2^52 cells): the generator is one word further on.
  dpcov_rng *copy = nullptr;
  ASSERT_EQ(dpcov_rng_create_seeded(&copy, 5, 0), DPCOV_OK);
  EXPECT_EQ(state_of(copy), before);
  uint64_t word = 0;
  dpcov_rng_next_u64(copy, &word);
  EXPECT_EQ(state_of(f.rng), state_of(copy));
  dpcov_rng_destroy(&copy);
}

TEST(CapiJl, ARetriedRefusalSharesNoDrawWithTheFirstCall) {
  // The attack of issue 21: refused at epsilon 1, retried at epsilon 2 on the same handle. Had the
  // handle been rewound, both noisy values would come from one uniform draw and lambda_min(A'A)
  // would follow from the two. The first call consumes word 1 of the stream and the retry word 2.
  Fixture f;
  double coef[3] = {7, 7, 7};
  dpcov_rng *replay = nullptr;
  ASSERT_EQ(dpcov_rng_create_seeded(&replay, 5, 0), DPCOV_OK);
  uint64_t word = 0;
  EXPECT_EQ(refused_ols(f, 1, coef), DPCOV_E_REFUSED);
  dpcov_rng_next_u64(replay, &word);
  EXPECT_EQ(state_of(f.rng), state_of(replay));
  EXPECT_EQ(refused_ols(f, 2, coef), DPCOV_E_REFUSED);
  dpcov_rng_next_u64(replay, &word);
  EXPECT_EQ(state_of(f.rng), state_of(replay));
  dpcov_rng_destroy(&replay);
}

TEST(CapiJl, ARefusalFromOsEntropyAdvancesTheGeneratorAndNamesNoNoisyValue) {
  Fixture f;
  dpcov_rng_destroy(&f.rng);
  ASSERT_EQ(dpcov_rng_create_from_entropy(&f.rng), DPCOV_OK);
  double coef[3] = {7, 7, 7};
  const std::vector<unsigned char> before = state_of(f.rng);
  // Unseeded on purpose. With lambda_min = 0 the test passes only if its Laplace noise (scale
  // b = 4 B^2 / epsilon = 4) exceeds the shift b ln(1/delta) = 55.3 plus w^2 = 250.7 (r = 30):
  // a false failure has probability e^(-306.0 / 4) / 2 < 1e-33.
  ASSERT_EQ(refused_ols(f, 1, coef), DPCOV_E_REFUSED);
  const std::vector<unsigned char> after = state_of(f.rng);
  EXPECT_NE(before, after);
  // The message may hold public constants only: the threshold w^2 of the plan and small integers
  // of the prose ("Alg. 1", "^2"); the noisy test value s2 is not released by a refusal.
  const std::string message = dpcov_last_error_message();
  dpcov_receipt plan{};
  plan.struct_size = sizeof plan;
  ASSERT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_OLS_JL, 4, 3000, 1, 1, 1e-6, &f.params, &plan),
            DPCOV_OK);
  for (size_t i = 0; i < message.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(message[i]))) continue;
    char *end = nullptr;
    const double value = std::strtod(message.c_str() + i, &end);
    const bool small_integer = value == std::floor(value) && value < 10;
    EXPECT_TRUE(small_integer || std::fabs(value - plan.threshold_w2) <= 1e-5 * plan.threshold_w2)
        << value << " in: " << message;
    i = static_cast<size_t>(end - message.c_str());
  }
}

TEST(CapiJl, OlsChecksRAgainstPBeforeSpending) {
  Fixture f;
  f.params.projection_rows = 3;
  const std::vector<double> g = spread_gram();
  const int64_t features[3] = {0, 1, 2};
  double coef[3];
  int32_t reject[3];
  EXPECT_EQ(dpcov_ols_jl(DPCOV_COL_MAJOR, 4, g.data(), 4, 4000, 1, 1, 1e-6, &f.params, 3, features, 3,
                         nullptr, f.rng, coef, nullptr, nullptr, nullptr, nullptr, nullptr, reject,
                         nullptr, &f.receipt),
            DPCOV_E_PRECONDITION);
  f.params.projection_rows = 40;
  dpcov_regression_summary summary{};
  summary.struct_size = sizeof summary;
  EXPECT_EQ(dpcov_ols_jl(DPCOV_COL_MAJOR, 4, g.data(), 4, 4000, 1, 1, 1e-6, &f.params, 3, features, 3,
                         nullptr, f.rng, coef, nullptr, nullptr, nullptr, nullptr, nullptr, reject,
                         &summary, &f.receipt),
            DPCOV_OK);
  EXPECT_EQ(summary.dof, 37);
  EXPECT_EQ(f.receipt.test_passed, 1);
  EXPECT_EQ(f.receipt.mechanism, DPCOV_MECHANISM_OLS_JL);
}

TEST(CapiJl, AnalyzeGaussIntervalsValidateAndLeaveOutputsUntouched) {
  // X'X = 1000 I (3 features), X'y = 0, y'y = 1000: lambda_min = 1000 against eta(1, 4) = 6.4.
  const std::vector<double> g = spread_gram();
  const int64_t features[3] = {0, 1, 2};
  double coef[3] = {7, 7, 7}, lo[3] = {7, 7, 7}, hi[3] = {7, 7, 7}, eta = 7, kappa = 7;
  int32_t reject[3] = {7, 7, 7};
  const auto call = [&](const double *m, double sigma, int64_t n, const int64_t *f, double *c) {
    return dpcov_ols_analyze_gauss_intervals(DPCOV_COL_MAJOR, 4, m, 4, sigma, n, 3, f, 3, nullptr,
                                             c, lo, hi, nullptr, nullptr, reject, &eta, &kappa);
  };
  EXPECT_EQ(call(nullptr, 1.0, 4000, features, coef), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(g.data(), 1.0, 4000, features, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(g.data(), 1.0, 4000, nullptr, coef), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(g.data(), 0.0, 4000, features, coef), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(g.data(), 1.0, 3, features, coef), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(g.data(), 500.0, 4000, features, coef), DPCOV_E_PRECONDITION);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("lambda_min"), std::string::npos);
  std::vector<double> nan = g;
  nan[1] = nan[4] = NAN;
  EXPECT_EQ(call(nan.data(), 1.0, 4000, features, coef), DPCOV_E_NON_FINITE);
  dpcov_regression_params ridge;
  dpcov_regression_params_default(&ridge);
  ridge.ridge = 1.0;
  EXPECT_EQ(dpcov_ols_analyze_gauss_intervals(DPCOV_COL_MAJOR, 4, g.data(), 4, 1.0, 4000, 3,
                                              features, 3, &ridge, coef, lo, hi, nullptr, nullptr,
                                              reject, &eta, &kappa),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(coef[0], 7.0);
  EXPECT_EQ(lo[2], 7.0);
  EXPECT_EQ(reject[1], 7);
  EXPECT_EQ(eta, 7.0);
  EXPECT_EQ(call(g.data(), 1.0, 4000, features, coef), DPCOV_OK);
  EXPECT_NEAR(eta, 6.4004964418094002331, 1e-11);
  EXPECT_NEAR(kappa, eta / 1000.0, 1e-15);
  EXPECT_EQ(coef[0], 0.0);
  EXPECT_LT(lo[0], 0.0);
  EXPECT_GT(hi[0], 0.0);
  EXPECT_EQ(reject[0], 0);
}

TEST(CapiJl, SketchReleaseMatchesTheAccumulatedRows) {
  Fixture f;
  dpcov_sketch *sketch = nullptr;
  ASSERT_EQ(dpcov_sketch_create(&sketch, 2, 4, f.rng), DPCOV_OK);
  const double rows[6] = {0.6, 0.0, 0.0, 0.6, 0.3, 0.3};
  EXPECT_EQ(dpcov_sketch_add_rows(sketch, DPCOV_ROW_MAJOR, 3, 2, rows, 2, 0, 1.0, DPCOV_BOUND_CLIP),
            DPCOV_OK);
  EXPECT_EQ(dpcov_sketch_add_rows(sketch, DPCOV_ROW_MAJOR, 3, 2, rows, 2, 2, 1.0, DPCOV_BOUND_CLIP),
            DPCOV_E_INVALID_ARGUMENT);
  f.params.projection_rows = 4;
  double s[8], m[4];
  ASSERT_EQ(dpcov_sketch_release(DPCOV_MECHANISM_JL_RIDGE, sketch, 1, 1e-6, &f.params, f.rng,
                                 DPCOV_COL_MAJOR, s, 4, m, 2, &f.receipt),
            DPCOV_OK);
  double raw[8];
  ASSERT_EQ(dpcov_sketch_get(sketch, f.receipt.appended_w, DPCOV_COL_MAJOR, raw, 4), DPCOV_OK);
  for (int k = 0; k < 8; ++k) EXPECT_EQ(s[k], raw[k]);
  EXPECT_EQ(dpcov_sketch_release(DPCOV_MECHANISM_ANALYZE_GAUSS, sketch, 1, 1e-6, nullptr, f.rng,
                                 DPCOV_COL_MAJOR, s, 4, m, 2, &f.receipt),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(dpcov_last_error_message()),
            "dpcov_sketch_release releases jl_ridge, jl_ridge_sigma_min or ols_jl, not "
            "analyze_gauss");
  dpcov_sketch_destroy(&sketch);
  EXPECT_EQ(sketch, nullptr);
  dpcov_sketch_destroy(nullptr);
}

// R_A A + w R_I overflows for a huge w: a numerical failure with the output untouched, never an
// infinite sketch with DPCOV_OK (found by fuzz_sketch).
TEST(CapiSketchGet, AnOverflowingSketchIsANumericalFailure) {
  dpcov_rng *key = nullptr;
  ASSERT_EQ(dpcov_rng_create_seeded(&key, 2, 0), DPCOV_OK);
  dpcov_sketch *sk = nullptr;
  ASSERT_EQ(dpcov_sketch_create(&sk, 1, 32, key), DPCOV_OK);
  const double row = 0.5;
  ASSERT_EQ(dpcov_sketch_add_rows(sk, DPCOV_ROW_MAJOR, 1, 1, &row, 1, 0, 1.0, DPCOV_BOUND_CLIP),
            DPCOV_OK);
  std::vector<double> out(32, -7.0);
  EXPECT_EQ(dpcov_sketch_get(sk, 1.7976931348623157e308, DPCOV_ROW_MAJOR, out.data(), 1),
            DPCOV_E_NUMERICAL);
  for (double v : out) EXPECT_EQ(v, -7.0);
  EXPECT_EQ(dpcov_sketch_get(sk, 1.0, DPCOV_ROW_MAJOR, out.data(), 1), DPCOV_OK);
  dpcov_sketch_destroy(&sk);
  dpcov_rng_destroy(&key);
}

// Where the plan refuses an overflowing constant (the sigma_min test's threshold w^2 at a tiny
// epsilon or a huge B), dpcov_ols_jl and dpcov_sketch_release fail with the plan's
// DPCOV_E_NUMERICAL before drawing, outputs and generator untouched. They used to draw the test's
// Laplace noise first and then fail with DPCOV_E_NON_FINITE on its infinite scale, a bad-input
// status that ledgers do not charge (found by tests/property/extreme_budget_test.cpp).
TEST(CapiJl, AReleaseWhosePlanOverflowsFailsWithThePlansStatusBeforeDrawing) {
  Fixture f;
  f.params.projection_rows = 40;
  const std::vector<double> g = spread_gram();
  const int64_t features[3] = {0, 1, 2};
  dpcov_receipt planned{};
  planned.struct_size = sizeof planned;
  for (const double epsilon : {4.9406564584124654e-324, 1e-310}) {
    ASSERT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_OLS_JL, 4, 4000, 1, epsilon, 1e-6, &f.params,
                                   &planned),
              DPCOV_E_NUMERICAL);
    double coef[3] = {7, 7, 7};
    const std::vector<unsigned char> before = state_of(f.rng);
    EXPECT_EQ(dpcov_ols_jl(DPCOV_COL_MAJOR, 4, g.data(), 4, 4000, 1, epsilon, 1e-6, &f.params, 3,
                           features, 3, nullptr, f.rng, coef, nullptr, nullptr, nullptr, nullptr,
                           nullptr, nullptr, nullptr, &f.receipt),
              DPCOV_E_NUMERICAL);
    EXPECT_EQ(coef[0], 7.0);
    EXPECT_EQ(state_of(f.rng), before);
  }
  dpcov_sketch *sketch = nullptr;
  ASSERT_EQ(dpcov_sketch_create(&sketch, 2, 4, f.rng), DPCOV_OK);
  const double rows[4] = {0.6, 0.0, 0.0, 0.6};
  ASSERT_EQ(dpcov_sketch_add_rows(sketch, DPCOV_ROW_MAJOR, 2, 2, rows, 2, 0, 1.0, DPCOV_BOUND_CLIP),
            DPCOV_OK);
  f.params.projection_rows = 4;
  for (const int32_t mechanism : {DPCOV_MECHANISM_JL_RIDGE_SIGMA_MIN, DPCOV_MECHANISM_OLS_JL}) {
    double s[8], m[4] = {7, 7, 7, 7};
    const std::vector<unsigned char> before = state_of(f.rng);
    EXPECT_EQ(dpcov_sketch_release(mechanism, sketch, 4.9406564584124654e-324, 1e-6, &f.params,
                                   f.rng, DPCOV_COL_MAJOR, s, 4, m, 2, &f.receipt),
              DPCOV_E_NUMERICAL);
    EXPECT_EQ(m[0], 7.0);
    EXPECT_EQ(state_of(f.rng), before);
  }
  dpcov_sketch_destroy(&sketch);
}

}  // namespace
