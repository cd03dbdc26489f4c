// Finite or failed: no entry point returns DPCOV_OK with a non-finite value in any output, and
// plan and release fail alike. One regression test per failure found by the plan/release property
// (tests/property/plan_release_test.cpp) and the calibration sweep.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

struct Outcome {
  dpcov_status plan;
  dpcov_status release;
  std::vector<double> out;
};

Outcome plan_and_release(int32_t mechanism, int64_t d, int64_t n, double bound, double eps,
                         double delta, int32_t neighbour) {
  dpcov_mechanism_params params;
  EXPECT_EQ(dpcov_mechanism_params_default(&params), DPCOV_OK);
  params.neighbour = neighbour;
  dpcov_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  Outcome o;
  o.plan = dpcov_mechanism_plan(mechanism, d, n, bound, eps, delta, &params, &receipt);
  std::vector<double> gram(static_cast<size_t>(d * d), 0.0);
  gram[0] = bound * bound;
  dpcov_rng *rng = nullptr;
  EXPECT_EQ(dpcov_rng_create_seeded(&rng, 7, 0), DPCOV_OK);
  o.out.assign(static_cast<size_t>(d * d), -1.0);
  o.release = dpcov_mechanism_release(mechanism, DPCOV_ROW_MAJOR, d, gram.data(), d, n, bound,
                                      eps, delta, &params, rng, o.out.data(), d, &receipt);
  dpcov_rng_destroy(&rng);
  return o;
}

void expect_finite(const std::vector<double> &out) {
  for (double v : out) EXPECT_TRUE(std::isfinite(v)) << v;
}

TEST(FiniteOrFailed, LaplaceScaleThatOverflowsIsRefusedByPlanAndRelease) {
  // (d + 1) B^2 / eps overflows: the plan used to return OK with scale = inf.
  dpcov_receipt r{};
  r.struct_size = sizeof r;
  EXPECT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_LAPLACE_SYM, 11183, 1000, 2.029905119247898e149,
                                 1.3590779384859223e-06, 0, nullptr, &r),
            DPCOV_E_NUMERICAL);
  const Outcome o = plan_and_release(DPCOV_MECHANISM_LAPLACE_SYM, 3, 1000, 1e150, 1e-6, 0,
                                     DPCOV_NEIGHBOUR_REPLACE_ONE);
  EXPECT_EQ(o.plan, DPCOV_E_NUMERICAL);
  EXPECT_EQ(o.release, DPCOV_E_NUMERICAL);
  // The message names the constant and its value (formatted only when a constant fails).
  EXPECT_NE(std::string(dpcov_last_error_message())
                .find("receipt constant scale (4.0000000000000007e+306) times 2^20"),
            std::string::npos)
      << dpcov_last_error_message();
}

TEST(FiniteOrFailed, ConstantsWithoutOverflowHeadroomAreRefusedAlike) {
  // IEV at B = 1e150: the release used to return OK with NaN entries.
  Outcome o = plan_and_release(DPCOV_MECHANISM_IEV, 2, 1, 1e150, 2.27848e-05, 0,
                               DPCOV_NEIGHBOUR_REPLACE_ONE);
  EXPECT_EQ(o.plan, o.release);
  if (o.release == DPCOV_OK) expect_finite(o.out);
  // Wishart additive: dof x B^2 overflows.
  o = plan_and_release(DPCOV_MECHANISM_WISHART_ADDITIVE, 1, 1, 1e150, 1e-6, 1e-300,
                       DPCOV_NEIGHBOUR_REPLACE_ONE);
  EXPECT_EQ(o.plan, DPCOV_E_NUMERICAL);
  EXPECT_EQ(o.release, DPCOV_E_NUMERICAL);
  for (double v : o.out) EXPECT_EQ(v, -1.0);
}

TEST(FiniteOrFailed, ReleaseChecksThePlanBeforeItsTest) {
  // ols_jl used to refuse its propose-test-release test (DPCOV_E_REFUSED) where the plan fails.
  const Outcome o = plan_and_release(DPCOV_MECHANISM_OLS_JL, 1, 1000000, 1e150, 1e-6, 1e-300,
                                     DPCOV_NEIGHBOUR_REPLACE_ONE);
  EXPECT_NE(o.plan, DPCOV_OK);
  EXPECT_EQ(o.release, o.plan);
}

TEST(FiniteOrFailed, EigenvectorSamplingAtTheEndsOfTheBoundRange) {
  // Eigenvalues near 1e-300 (B = 1e-150) or 1e300 (B = 1e150): their squares under- or overflow
  // (a former secular solver's failure: LAPACK then failed on NaN, or NaN came with DPCOV_OK).
  for (int32_t mechanism : {DPCOV_MECHANISM_KT_RANK1, DPCOV_MECHANISM_IEV})
    for (double bound : {1e-150, 1e150})
      for (int32_t neighbour : {DPCOV_NEIGHBOUR_REPLACE_ONE, DPCOV_NEIGHBOUR_ADD_REMOVE}) {
        const Outcome o = plan_and_release(mechanism, 2, 10, bound, 1.0, 0, neighbour);
        EXPECT_EQ(o.plan, DPCOV_OK) << mechanism << " " << bound;
        EXPECT_EQ(o.release, DPCOV_OK) << mechanism << " " << bound << " "
                                       << dpcov_last_error_message();
        expect_finite(o.out);
      }
}

TEST(FiniteOrFailed, GramThatOverflowsIsRefusedAndLeftUnchanged) {
  // Found by fuzz_gram: finite rows within a huge bound summed to +inf with DPCOV_OK.
  dpcov_gram *g = nullptr;
  ASSERT_EQ(dpcov_gram_create(&g, 2), DPCOV_OK);
  const double rows[4] = {1e200, 1e200, 1e200, 1e200};
  EXPECT_EQ(dpcov_gram_add_rows(g, DPCOV_ROW_MAJOR, 2, 2, rows, 2, 1e201, DPCOV_BOUND_CLIP),
            DPCOV_E_NUMERICAL);
  double out[4] = {-1, -1, -1, -1};
  ASSERT_EQ(dpcov_gram_get_matrix(g, DPCOV_ROW_MAJOR, out, 2), DPCOV_OK);
  for (double v : out) EXPECT_EQ(v, 0.0);
  // Two finite accumulators whose sum overflows cannot be merged.
  const double big[2] = {1e154, 0};
  dpcov_gram *h = nullptr;
  ASSERT_EQ(dpcov_gram_create(&h, 2), DPCOV_OK);
  ASSERT_EQ(dpcov_gram_add_rows(g, DPCOV_ROW_MAJOR, 1, 2, big, 2, 1e155, DPCOV_BOUND_CLIP), DPCOV_OK);
  ASSERT_EQ(dpcov_gram_add_rows(h, DPCOV_ROW_MAJOR, 1, 2, big, 2, 1e155, DPCOV_BOUND_CLIP), DPCOV_OK);
  EXPECT_EQ(dpcov_gram_merge(g, h), DPCOV_E_NUMERICAL);  // 1e308 + 1e308 > DBL_MAX
  dpcov_gram_destroy(&g);
  dpcov_gram_destroy(&h);
}

TEST(FiniteOrFailed, AnalyticSigmaAtExtremeParametersIsCertifiedOrRefused) {
  // A point where the uncertified calibration returned a sigma with exact delta above the target
  // (calibration sweep); the certified sigma is larger.
  dpcov_mechanism_params params;
  ASSERT_EQ(dpcov_mechanism_params_default(&params), DPCOV_OK);
  params.neighbour = DPCOV_NEIGHBOUR_ADD_REMOVE;
  dpcov_receipt r{};
  r.struct_size = sizeof r;
  ASSERT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_ANALYZE_GAUSS, 48, 1000, 1.826998230581516e+87,
                                 3.364610027255085e-06, 9.17668182394197e-119, &params, &r),
            DPCOV_OK);
  EXPECT_GT(r.sigma, 2.213660656742216e+181);
  EXPECT_TRUE(std::isfinite(r.sigma));
}

}  // namespace

namespace {

TEST(CertifiedConstants, InverseGramSensitivityBelowTheNormalRange) {
  // Found by the constants sweep: theta^2 (theta^2 - B^2) underflows to a subnormal, where the
  // fma no longer recovers the rounding error; the sensitivity came out 4.4e-5 (relative) below
  // its exact value 3.2410511369005116...e157.
  dpcov_mechanism_params params;
  ASSERT_EQ(dpcov_mechanism_params_default(&params), DPCOV_OK);
  params.neighbour = DPCOV_NEIGHBOUR_REPLACE_ONE;
  params.lambda_min_bound = 9.345371839547171e-161;
  params.lambda_min_scope = DPCOV_LAMBDA_MIN_INPUT;
  dpcov_receipt r{};
  r.struct_size = sizeof r;
  ASSERT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_INVERSE_GAUSS, 16211, 1000, 4.469073038214392e-82,
                                 0.0012306576136377468, 2.7508140515182235e-60, &params, &r),
            DPCOV_OK);
  EXPECT_GE(r.sensitivity, 3.2410511369005116e157);
}

}  // namespace
