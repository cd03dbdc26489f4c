// The mechanism entry points of dpcov/mechanism.h through the shared library: plan receipts,
// plan == release, layouts, log-densities, the Jiang lock, and every bad argument (status,
// message, outputs and generator untouched).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "capi/struct_size.hpp"
#include "dpcov.h"

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();
const int32_t kAll[] = {DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_MECHANISM_LAPLACE_SYM,
                        DPCOV_MECHANISM_WISHART_ADDITIVE, DPCOV_MECHANISM_INVERSE_GAUSS,
                        DPCOV_MECHANISM_WISHART_JIANG};

std::string last() { return dpcov_last_error_message(); }

dpcov_receipt fresh_receipt() {
  dpcov_receipt r;
  std::memset(&r, 0xAB, sizeof r);
  r.struct_size = sizeof r;
  return r;
}

// Parameters under which each mechanism can run: eps < 1 for the additive Wishart, a lambda_min
// bound for inverse Gauss, the audit unlock for Jiang.
dpcov_mechanism_params runnable_params(int32_t mechanism) {
  dpcov_mechanism_params p;
  dpcov_mechanism_params_default(&p);
  if (mechanism == DPCOV_MECHANISM_INVERSE_GAUSS) p.lambda_min_bound = 1.0;
  if (mechanism == DPCOV_MECHANISM_WISHART_JIANG) p.audit_only_not_private = 1;
  return p;
}

// A 3 x 3 Gram matrix of n = 10 rows of norm <= 1 with lambda_min >= 1: G = diag(3, 3.5, 2.5)
// plus a small symmetric coupling.
std::vector<double> gram3() { return {3.0, 0.2, 0.1, 0.2, 3.5, -0.3, 0.1, -0.3, 2.5}; }

class CapiMechanism : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(dpcov_rng_create_seeded(&rng_, 7, 0), DPCOV_OK); }
  void TearDown() override { dpcov_rng_destroy(&rng_); }
  uint64_t peek() {
    dpcov_rng *copy = nullptr;
    unsigned char state[DPCOV_RNG_STATE_SIZE];
    dpcov_rng_state_save(rng_, state, sizeof state);
    dpcov_rng_create_seeded(&copy, 0, 0);
    dpcov_rng_state_restore(copy, state, sizeof state);
    uint64_t v = 0;
    dpcov_rng_next_u64(copy, &v);
    dpcov_rng_destroy(&copy);
    return v;
  }
  dpcov_status release(int32_t m, const std::vector<double> &g, double eps, double delta,
                       const dpcov_mechanism_params *p, std::vector<double> &out,
                       dpcov_receipt &r, int32_t layout = DPCOV_COL_MAJOR) {
    return dpcov_mechanism_release(m, layout, 3, g.data(), 3, 10, 1.0, eps, delta, p, rng_,
                                   out.data(), 3, &r);
  }
  dpcov_rng *rng_ = nullptr;
};

TEST(CapiMechanismPlan, ReplaceOneReceiptsAtTheWorkedValues) {
  dpcov_receipt r = fresh_receipt();
  dpcov_mechanism_params p;
  ASSERT_EQ(dpcov_mechanism_params_default(&p), DPCOV_OK);
  ASSERT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_ANALYZE_GAUSS, 10, 10000, 1.0, 1.0, 1e-6, &p,
                                 &r),
            DPCOV_OK);
  EXPECT_EQ(r.struct_size, sizeof r);
  EXPECT_EQ(r.mechanism, DPCOV_MECHANISM_ANALYZE_GAUSS);
  EXPECT_EQ(r.neighbour, DPCOV_NEIGHBOUR_REPLACE_ONE);
  EXPECT_EQ(r.calibration, DPCOV_CALIBRATION_ANALYTIC_GAUSSIAN);
  EXPECT_EQ(r.sensitivity_norm, DPCOV_SENSITIVITY_L2);
  EXPECT_EQ(r.not_dp, 0);
  EXPECT_EQ(r.seed_fixed, 0);
  EXPECT_EQ(r.dim, 10);
  EXPECT_EQ(r.n, 10000);
  EXPECT_EQ(r.epsilon, 1.0);
  EXPECT_EQ(r.delta, 1e-6);
  EXPECT_NEAR(r.sensitivity, std::sqrt(2.0), 1e-15);
  EXPECT_NEAR(r.sigma, 5.974598, 6e-6);
  EXPECT_EQ(r.scale, 0.0);
  EXPECT_EQ(r.dof, 0.0);
  EXPECT_NE(std::string(r.theorem).find("proofs/analyze_gauss.md"), std::string::npos);

  ASSERT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_LAPLACE_SYM, 10, 10000, 1.0, 1.0, 0.0, nullptr,
                                 &r),
            DPCOV_OK);
  EXPECT_EQ(r.scale, 11.0);
  EXPECT_EQ(r.sensitivity, 11.0);
  EXPECT_EQ(r.sensitivity_norm, DPCOV_SENSITIVITY_L1);
  EXPECT_EQ(r.delta, 0.0);
  ASSERT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_LAPLACE_SYM, 10, 10000, 1.0, 1.0, 1e-6, nullptr,
                                 &r),
            DPCOV_OK);
  EXPECT_EQ(r.delta, 0.0) << "a pure mechanism spends no delta";

  ASSERT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_WISHART_ADDITIVE, 10, 10000, 1.0, 0.5, 1e-6,
                                 nullptr, &r),
            DPCOV_OK);
  EXPECT_EQ(r.dof, 862.0);
  EXPECT_EQ(r.scale, 1.0);
  EXPECT_EQ(r.calibration, DPCOV_CALIBRATION_THEOREM);

  p.lambda_min_bound = 1e3;
  ASSERT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_INVERSE_GAUSS, 10, 10000, 1.0, 1.0, 1e-6, &p,
                                 &r),
            DPCOV_OK);
  EXPECT_NEAR(r.sensitivity, 1.414214e-6, 1e-12);
  EXPECT_NEAR(r.sigma, 5.974598e-6, 6e-12);
  EXPECT_EQ(r.lambda_min_bound, 1e3);
  EXPECT_EQ(r.lambda_min_scope, DPCOV_LAMBDA_MIN_DOMAIN);

  p.lambda_min_bound = 0.0;
  p.audit_only_not_private = 1;
  ASSERT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_WISHART_JIANG, 10, 10000, 1.0, 1.0, 0.0, &p,
                                 &r),
            DPCOV_OK);
  EXPECT_EQ(r.not_dp, 1);
  EXPECT_EQ(r.dof, 11.0);
  EXPECT_NEAR(r.scale / 1e4, 1.5e-4, 1e-18);
}

TEST(CapiMechanismPlan, AddRemoveHalvesTheLaplaceScaleAndUsesDeltaOne) {
  dpcov_receipt r = fresh_receipt();
  dpcov_mechanism_params p;
  dpcov_mechanism_params_default(&p);
  p.neighbour = DPCOV_NEIGHBOUR_ADD_REMOVE;
  ASSERT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_LAPLACE_SYM, 10, 100, 1.0, 1.0, 0.0, &p, &r),
            DPCOV_OK);
  EXPECT_EQ(r.scale, 5.5);
  EXPECT_EQ(r.neighbour, DPCOV_NEIGHBOUR_ADD_REMOVE);
  ASSERT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_ANALYZE_GAUSS, 10, 100, 1.0, 1.0, 1e-6, &p, &r),
            DPCOV_OK);
  EXPECT_EQ(r.sensitivity, 1.0);
  EXPECT_NEAR(r.sigma, 4.224679, 5e-6);
  p.calibration = DPCOV_CALIBRATION_LAPLACE_PUBLISHED;
  ASSERT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_LAPLACE_SYM, 10, 100, 1.0, 1.0, 0.0, &p, &r),
            DPCOV_OK);
  EXPECT_EQ(r.scale, 20.0);
  EXPECT_EQ(r.calibration, DPCOV_CALIBRATION_LAPLACE_PUBLISHED);
}

TEST(CapiMechanismPlan, EveryMechanismAndCalibrationFitsTheReceipt) {
  const int32_t calibrations[] = {DPCOV_CALIBRATION_DEFAULT, DPCOV_CALIBRATION_ANALYTIC_GAUSSIAN,
                                  DPCOV_CALIBRATION_CLASSICAL_GAUSSIAN,
                                  DPCOV_CALIBRATION_LAPLACE_UPPER_TRIANGLE,
                                  DPCOV_CALIBRATION_LAPLACE_PUBLISHED, DPCOV_CALIBRATION_THEOREM};
  int planned = 0;
  for (const int32_t m : kAll)
    for (const int32_t c : calibrations) {
      dpcov_mechanism_params p = runnable_params(m);
      p.calibration = c;
      dpcov_receipt r = fresh_receipt();
      const dpcov_status s = dpcov_mechanism_plan(m, 4, 10, 1.0, 0.5, 1e-6, &p, &r);
      EXPECT_TRUE(s == DPCOV_OK || s == DPCOV_E_INVALID_ARGUMENT) << m << " " << c << last();
      if (s != DPCOV_OK) continue;
      ++planned;
      EXPECT_LT(std::strlen(r.theorem), sizeof r.theorem);
      EXPECT_NE(r.calibration, DPCOV_CALIBRATION_DEFAULT);
    }
  // Default/analytic/classical for the two Gaussian mechanisms, default/upper-triangle/published
  // for Laplace, default/theorem for each Wishart.
  EXPECT_EQ(planned, 3 + 3 + 2 + 3 + 2);
}

TEST(CapiMechanismPlan, PreconditionsNameWhatFailed) {
  dpcov_receipt r = fresh_receipt();
  dpcov_mechanism_params p;
  dpcov_mechanism_params_default(&p);
  p.calibration = DPCOV_CALIBRATION_CLASSICAL_GAUSSIAN;
  EXPECT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 10, 1.0, 1.0, 1e-6, &p, &r),
            DPCOV_E_PRECONDITION);
  EXPECT_NE(last().find("eps < 1"), std::string::npos) << last();
  EXPECT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_WISHART_ADDITIVE, 3, 10, 1.0, 1.0, 1e-6,
                                 nullptr, &r),
            DPCOV_E_PRECONDITION);
  EXPECT_NE(last().find("eps < 1"), std::string::npos) << last();
  EXPECT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_WISHART_ADDITIVE, 3, 10, 1.0, 0.5, 0.5, nullptr,
                                 &r),
            DPCOV_E_PRECONDITION);
  EXPECT_NE(last().find("delta < 1/e"), std::string::npos) << last();
  EXPECT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_INVERSE_GAUSS, 3, 10, 1.0, 1.0, 1e-6, nullptr,
                                 &r),
            DPCOV_E_PRECONDITION);
  EXPECT_NE(last().find("lambda_min"), std::string::npos) << last();
  dpcov_mechanism_params_default(&p);
  p.lambda_min_bound = 0.5;
  p.lambda_min_scope = DPCOV_LAMBDA_MIN_INPUT;
  EXPECT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_INVERSE_GAUSS, 3, 10, 1.0, 1.0, 1e-6, &p, &r),
            DPCOV_E_PRECONDITION);
  EXPECT_NE(last().find("theta^2 > B^2"), std::string::npos) << last();
  EXPECT_EQ(r.struct_size, sizeof r);
  EXPECT_EQ(r.mechanism, static_cast<int32_t>(0xABABABAB)) << "receipt written on failure";
}

TEST(CapiMechanismPlan, JiangRefusesWithoutTheAuditUnlock) {
  dpcov_receipt r = fresh_receipt();
  EXPECT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_WISHART_JIANG, 3, 10, 1.0, 1.0, 0.0, nullptr,
                                 &r),
            DPCOV_E_NOT_PRIVATE);
  EXPECT_NE(last().find("not differentially private"), std::string::npos) << last();
  dpcov_mechanism_params p;
  dpcov_mechanism_params_default(&p);
  p.audit_only_not_private = 2;
  EXPECT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_WISHART_JIANG, 3, 10, 1.0, 1.0, 0.0, &p, &r),
            DPCOV_E_INVALID_ARGUMENT);
}

TEST(CapiMechanismPlan, RejectsEachBadArgument) {
  dpcov_receipt r = fresh_receipt();
  const int32_t g = DPCOV_MECHANISM_ANALYZE_GAUSS;
  EXPECT_EQ(dpcov_mechanism_plan(g, 3, 10, 1.0, 1.0, 1e-6, nullptr, nullptr),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_mechanism_plan(0, 3, 10, 1.0, 1.0, 1e-6, nullptr, &r),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_mechanism_plan(999, 3, 10, 1.0, 1.0, 1e-6, nullptr, &r),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_mechanism_plan(g, 0, 10, 1.0, 1.0, 1e-6, nullptr, &r), DPCOV_E_DIMENSION);
  EXPECT_EQ(dpcov_mechanism_plan(g, -2, 10, 1.0, 1.0, 1e-6, nullptr, &r), DPCOV_E_DIMENSION);
  EXPECT_EQ(dpcov_mechanism_plan(g, 100000, 10, 1.0, 1.0, 1e-6, nullptr, &r),
            DPCOV_E_TOO_LARGE);
  EXPECT_EQ(dpcov_mechanism_plan(g, 3, -1, 1.0, 1.0, 1e-6, nullptr, &r), DPCOV_E_DIMENSION);
  for (const double bad : {0.0, -1.0})
    EXPECT_EQ(dpcov_mechanism_plan(g, 3, 10, bad, 1.0, 1e-6, nullptr, &r),
              DPCOV_E_INVALID_ARGUMENT);
  for (const double bad : {kNaN, kInf})
    EXPECT_EQ(dpcov_mechanism_plan(g, 3, 10, bad, 1.0, 1e-6, nullptr, &r), DPCOV_E_NON_FINITE);
  EXPECT_NE(last().find("bound"), std::string::npos) << last();
  for (const double bad : {0.0, -1.0})
    EXPECT_EQ(dpcov_mechanism_plan(g, 3, 10, 1.0, bad, 1e-6, nullptr, &r),
              DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(last().find("epsilon"), std::string::npos) << last();
  for (const double bad : {kNaN, kInf})
    EXPECT_EQ(dpcov_mechanism_plan(g, 3, 10, 1.0, bad, 1e-6, nullptr, &r), DPCOV_E_NON_FINITE);
  for (const double bad : {0.0, 1.0, -1e-6, kInf})
    EXPECT_EQ(dpcov_mechanism_plan(g, 3, 10, 1.0, 1.0, bad, nullptr, &r),
              DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(last().find("delta"), std::string::npos) << last();
  EXPECT_EQ(dpcov_mechanism_plan(g, 3, 10, 1.0, 1.0, kNaN, nullptr, &r), DPCOV_E_NON_FINITE);
  EXPECT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_LAPLACE_SYM, 3, 10, 1.0, 1.0, 1.0, nullptr, &r),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_LAPLACE_SYM, 3, 10, 1.0, 1.0, -0.5, nullptr, &r),
            DPCOV_E_INVALID_ARGUMENT);

  // Below the first shipped size (an older, smaller receipt is accepted and written in part).
  dpcov_receipt small = fresh_receipt();
  small.struct_size = dpcov::capi::kFirstShippedSize<dpcov_receipt> - 1;
  EXPECT_EQ(dpcov_mechanism_plan(g, 3, 10, 1.0, 1.0, 1e-6, nullptr, &small),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(last().find("struct_size"), std::string::npos) << last();

  dpcov_mechanism_params p;
  dpcov_mechanism_params_default(&p);
  p.struct_size = 4;
  EXPECT_EQ(dpcov_mechanism_plan(g, 3, 10, 1.0, 1.0, 1e-6, &p, &r), DPCOV_E_INVALID_ARGUMENT);
  dpcov_mechanism_params_default(&p);
  p.neighbour = 2;
  EXPECT_EQ(dpcov_mechanism_plan(g, 3, 10, 1.0, 1.0, 1e-6, &p, &r), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(last().find("neighbour"), std::string::npos) << last();
  dpcov_mechanism_params_default(&p);
  p.calibration = 6;
  EXPECT_EQ(dpcov_mechanism_plan(g, 3, 10, 1.0, 1.0, 1e-6, &p, &r), DPCOV_E_INVALID_ARGUMENT);
  p.calibration = DPCOV_CALIBRATION_LAPLACE_PUBLISHED;
  EXPECT_EQ(dpcov_mechanism_plan(g, 3, 10, 1.0, 1.0, 1e-6, &p, &r), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(last().find("does not apply"), std::string::npos) << last();
  dpcov_mechanism_params_default(&p);
  p.lambda_min_scope = -1;
  EXPECT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_INVERSE_GAUSS, 3, 10, 1.0, 1.0, 1e-6, &p, &r),
            DPCOV_E_INVALID_ARGUMENT);
  dpcov_mechanism_params_default(&p);
  p.lambda_min_bound = 5.0;
  EXPECT_EQ(dpcov_mechanism_plan(g, 3, 10, 1.0, 1.0, 1e-6, &p, &r), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(last().find("only to inverse_gauss"), std::string::npos) << last();
  for (const double bad : {-1.0, kNaN, kInf}) {
    p.lambda_min_bound = bad;
    EXPECT_NE(dpcov_mechanism_plan(DPCOV_MECHANISM_INVERSE_GAUSS, 3, 10, 1.0, 1.0, 1e-6, &p, &r),
              DPCOV_OK);
  }
  dpcov_mechanism_params_default(&p);
  p.audit_only_not_private = 1;
  EXPECT_EQ(dpcov_mechanism_plan(g, 3, 10, 1.0, 1.0, 1e-6, &p, &r), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(r.mechanism, static_cast<int32_t>(0xABABABAB)) << "receipt written on failure";
}

TEST(CapiMechanismParams, DefaultRejectsNullAndNamesAreStatic) {
  EXPECT_EQ(dpcov_mechanism_params_default(nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_STREQ(dpcov_mechanism_name(DPCOV_MECHANISM_ANALYZE_GAUSS), "analyze_gauss");
  EXPECT_STREQ(dpcov_mechanism_name(DPCOV_MECHANISM_WISHART_JIANG), "wishart_jiang");
  EXPECT_STREQ(dpcov_mechanism_name(0), "unknown");
  EXPECT_STREQ(dpcov_mechanism_name(99), "unknown");
}

TEST_F(CapiMechanism, ReleaseReceiptEqualsThePlanButForTheGenerator) {
  const std::vector<double> g = gram3();
  for (const int32_t m : kAll) {
    const dpcov_mechanism_params p = runnable_params(m);
    const double eps = 0.5, delta = 1e-6;
    dpcov_receipt planned = fresh_receipt(), released = fresh_receipt();
    ASSERT_EQ(dpcov_mechanism_plan(m, 3, 10, 1.0, eps, delta, &p, &planned), DPCOV_OK) << last();
    std::vector<double> out(9);
    ASSERT_EQ(release(m, g, eps, delta, &p, out, released), DPCOV_OK) << m << " " << last();
    EXPECT_EQ(released.seed_fixed, 1);
    EXPECT_EQ(released.generator, DPCOV_GENERATOR_PCG64);
    EXPECT_EQ(planned.generator, DPCOV_GENERATOR_NONE);
    EXPECT_EQ(released.numerics, DPCOV_NUMERICS_IDEALIZED);
    released.seed_fixed = 0;
    released.generator = DPCOV_GENERATOR_NONE;
    EXPECT_EQ(std::memcmp(&planned, &released, sizeof planned), 0) << m;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) EXPECT_EQ(out[i + 3 * j], out[j + 3 * i]) << "not symmetric";
  }
}

TEST_F(CapiMechanism, AGramEntryThatNoBoundedRowsCanSumToIsRefusedByEveryMechanism) {
  // trace 9 <= n B^2 = 10, but |g_01| <= sqrt(g_00 g_11) <= trace <= n B^2 for rows of norm <= B:
  // an entry above n B^2 cannot come from such rows. It used to pass (only the trace was checked)
  // and reach the mechanisms' arithmetic: KT rank-1 turned a DBL_MAX entry into NaN and failed
  // with DPCOV_E_NUMERICAL after its plan had succeeded (found by fuzz_mechanism).
  for (const double entry : {std::numeric_limits<double>::max(), -10.001, 10.001}) {
    std::vector<double> g = gram3();
    g[1] = g[3] = entry;
    // Every mechanism dpcov_mechanism_release runs (glasso_output_wishart runs through
    // dpcov_private_glasso_release, on the same check).
    for (int32_t m = DPCOV_MECHANISM_ANALYZE_GAUSS; m <= DPCOV_MECHANISM_OLS_JL; ++m) {
      dpcov_mechanism_params p = runnable_params(m);
      if (m == DPCOV_MECHANISM_JL_RIDGE || m == DPCOV_MECHANISM_JL_RIDGE_SIGMA_MIN ||
          m == DPCOV_MECHANISM_OLS_JL)
        p.projection_rows = 40;  // the JL mechanisms' r
      if (m == DPCOV_MECHANISM_INVERSE_WISHART || m == DPCOV_MECHANISM_INVERSE_WISHART_SIGMA_MIN)
        p.posterior_dof = 40;
      std::vector<double> out(9, 7.0);
      dpcov_receipt r = fresh_receipt();
      const uint64_t next = peek();
      EXPECT_EQ(release(m, g, 0.5, 1e-6, &p, out, r), DPCOV_E_NORM_BOUND) << m << " " << entry;
      EXPECT_NE(last().find("entry (0, 1)"), std::string::npos) << last();
      for (const double v : out) EXPECT_EQ(v, 7.0) << "output written on failure";
      EXPECT_EQ(peek(), next) << "generator advanced by a failed call";
    }
  }
  // At n B^2 itself (up to the rounding slack) the entry is accepted.
  std::vector<double> g = gram3();
  g[1] = g[3] = 10.0;
  std::vector<double> out(9);
  dpcov_receipt r = fresh_receipt();
  EXPECT_EQ(release(DPCOV_MECHANISM_ANALYZE_GAUSS, g, 0.5, 1e-6, nullptr, out, r), DPCOV_OK)
      << last();
}

TEST_F(CapiMechanism, AReleaseWithoutASeedUsesTheCryptographicGenerator) {
  dpcov_rng *entropy = nullptr;
  ASSERT_EQ(dpcov_rng_create_from_entropy(&entropy), DPCOV_OK);
  const std::vector<double> g = gram3();
  for (const int32_t m : kAll) {
    const dpcov_mechanism_params p = runnable_params(m);
    std::vector<double> out(9);
    dpcov_receipt r = fresh_receipt();
    ASSERT_EQ(dpcov_mechanism_release(m, DPCOV_COL_MAJOR, 3, g.data(), 3, 10, 1.0, 0.5, 1e-6, &p,
                                      entropy, out.data(), 3, &r),
              DPCOV_OK)
        << m << " " << last();
    EXPECT_EQ(r.seed_fixed, 0);
    EXPECT_EQ(r.generator, DPCOV_GENERATOR_CHACHA20) << m;
  }
  dpcov_rng_destroy(&entropy);
}

TEST_F(CapiMechanism, RowAndColumnMajorGiveTheSameRelease) {
  const std::vector<double> g = gram3();  // symmetric: the same array in both layouts
  for (const int32_t m : kAll) {
    const dpcov_mechanism_params p = runnable_params(m);
    std::vector<double> a(9), b(9);
    dpcov_receipt r = fresh_receipt();
    dpcov_rng *r1 = nullptr, *r2 = nullptr;
    dpcov_rng_create_seeded(&r1, 11, 3);
    dpcov_rng_create_seeded(&r2, 11, 3);
    ASSERT_EQ(dpcov_mechanism_release(m, DPCOV_COL_MAJOR, 3, g.data(), 3, 10, 1.0, 0.5, 1e-6, &p,
                                      r1, a.data(), 3, &r),
              DPCOV_OK);
    ASSERT_EQ(dpcov_mechanism_release(m, DPCOV_ROW_MAJOR, 3, g.data(), 3, 10, 1.0, 0.5, 1e-6, &p,
                                      r2, b.data(), 3, &r),
              DPCOV_OK);
    EXPECT_EQ(a, b) << m;
    dpcov_rng_destroy(&r1);
    dpcov_rng_destroy(&r2);
  }
}

TEST_F(CapiMechanism, ReleaseFromAnAccumulatorEqualsReleaseFromItsMatrix) {
  dpcov_gram *acc = nullptr;
  ASSERT_EQ(dpcov_gram_create(&acc, 3), DPCOV_OK);
  std::vector<double> empty_out(9, 7.0);
  dpcov_receipt r = fresh_receipt();
  EXPECT_EQ(dpcov_mechanism_release_gram(DPCOV_MECHANISM_LAPLACE_SYM, acc, 1.0, 0.0, nullptr,
                                         rng_, DPCOV_COL_MAJOR, empty_out.data(), 3, &r),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(last().find("bound"), std::string::npos) << last();
  const std::vector<double> rows = {0.6, 0.0, 0.8, 0.0, 1.0, 0.0, 0.3, 0.4, 0.0, 0.5, 0.5, 0.5};
  ASSERT_EQ(dpcov_gram_add_rows(acc, DPCOV_ROW_MAJOR, 4, 3, rows.data(), 3, 1.0,
                                DPCOV_BOUND_CLIP),
            DPCOV_OK);
  std::vector<double> g(9);
  ASSERT_EQ(dpcov_gram_get_matrix(acc, DPCOV_COL_MAJOR, g.data(), 3), DPCOV_OK);
  dpcov_rng *twin = nullptr;
  unsigned char state[DPCOV_RNG_STATE_SIZE];
  dpcov_rng_state_save(rng_, state, sizeof state);
  dpcov_rng_create_seeded(&twin, 0, 0);
  dpcov_rng_state_restore(twin, state, sizeof state);
  std::vector<double> a(9), b(9);
  dpcov_receipt ra = fresh_receipt(), rb = fresh_receipt();
  ASSERT_EQ(dpcov_mechanism_release_gram(DPCOV_MECHANISM_ANALYZE_GAUSS, acc, 1.0, 1e-6, nullptr,
                                         rng_, DPCOV_COL_MAJOR, a.data(), 3, &ra),
            DPCOV_OK);
  ASSERT_EQ(dpcov_mechanism_release(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_COL_MAJOR, 3, g.data(),
                                    3, 4, 1.0, 1.0, 1e-6, nullptr, twin, b.data(), 3, &rb),
            DPCOV_OK);
  EXPECT_EQ(a, b);
  EXPECT_EQ(std::memcmp(&ra, &rb, sizeof ra), 0);
  EXPECT_EQ(ra.n, 4);
  dpcov_rng_destroy(&twin);
  dpcov_gram_destroy(&acc);
}

TEST_F(CapiMechanism, ReleaseMayOverwriteItsInput) {
  std::vector<double> g = gram3();
  dpcov_receipt r = fresh_receipt();
  ASSERT_EQ(dpcov_mechanism_release(DPCOV_MECHANISM_LAPLACE_SYM, DPCOV_COL_MAJOR, 3, g.data(), 3,
                                    10, 1.0, 1.0, 0.0, nullptr, rng_, g.data(), 3, &r),
            DPCOV_OK);
  EXPECT_NE(g, gram3());
  EXPECT_EQ(g[1], g[3]);
}

TEST_F(CapiMechanism, ReleaseRejectsEachBadArgumentLeavingOutputsAndGeneratorUntouched) {
  const std::vector<double> g = gram3();
  std::vector<double> out(9, 7.0);
  dpcov_receipt r = fresh_receipt();
  const uint64_t next = peek();
  const int32_t m = DPCOV_MECHANISM_ANALYZE_GAUSS;
  const double *gp = g.data();
  double *op = out.data();
  auto call = [&](int32_t mech, int32_t layout, int64_t d, const double *gg, int64_t ldg,
                  int64_t n, double bound, double eps, double delta, dpcov_rng *rng, double *o,
                  int64_t ldo, dpcov_receipt *rr) {
    return dpcov_mechanism_release(mech, layout, d, gg, ldg, n, bound, eps, delta, nullptr, rng,
                                   o, ldo, rr);
  };
  EXPECT_EQ(call(m, DPCOV_COL_MAJOR, 3, gp, 3, 10, 1, 1, 1e-6, rng_, op, 3, nullptr),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(m, DPCOV_COL_MAJOR, 3, gp, 3, 10, 1, 1, 1e-6, nullptr, op, 3, &r),
            DPCOV_E_NULL_POINTER);
  EXPECT_NE(last().find("rng"), std::string::npos);
  EXPECT_EQ(call(m, DPCOV_COL_MAJOR, 3, nullptr, 3, 10, 1, 1, 1e-6, rng_, op, 3, &r),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(m, DPCOV_COL_MAJOR, 3, gp, 3, 10, 1, 1, 1e-6, rng_, nullptr, 3, &r),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(-1, DPCOV_COL_MAJOR, 3, gp, 3, 10, 1, 1, 1e-6, rng_, op, 3, &r),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(m, 100, 3, gp, 3, 10, 1, 1, 1e-6, rng_, op, 3, &r), DPCOV_E_LAYOUT);
  EXPECT_EQ(call(m, DPCOV_COL_MAJOR, 0, gp, 3, 10, 1, 1, 1e-6, rng_, op, 3, &r),
            DPCOV_E_DIMENSION);
  EXPECT_EQ(call(m, DPCOV_COL_MAJOR, 3, gp, 2, 10, 1, 1, 1e-6, rng_, op, 3, &r),
            DPCOV_E_LAYOUT);
  EXPECT_EQ(call(m, DPCOV_COL_MAJOR, 3, gp, 3, 10, 1, 1, 1e-6, rng_, op, 2, &r),
            DPCOV_E_LAYOUT);
  EXPECT_EQ(call(m, DPCOV_COL_MAJOR, 3, gp, 3, -1, 1, 1, 1e-6, rng_, op, 3, &r),
            DPCOV_E_DIMENSION);
  EXPECT_EQ(call(m, DPCOV_COL_MAJOR, 3, gp, 3, 10, 0, 1, 1e-6, rng_, op, 3, &r),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(m, DPCOV_COL_MAJOR, 3, gp, 3, 10, 1, -1, 1e-6, rng_, op, 3, &r),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(m, DPCOV_COL_MAJOR, 3, gp, 3, 10, 1, 1, 2.0, rng_, op, 3, &r),
            DPCOV_E_INVALID_ARGUMENT);
  // The statistic itself: trace 9 > n B^2 = 8; not symmetric; NaN; negative diagonal.
  EXPECT_EQ(call(m, DPCOV_COL_MAJOR, 3, gp, 3, 8, 1, 1, 1e-6, rng_, op, 3, &r),
            DPCOV_E_NORM_BOUND);
  EXPECT_NE(last().find("trace"), std::string::npos) << last();
  std::vector<double> bad = g;
  bad[1] = 0.25;
  EXPECT_EQ(call(m, DPCOV_COL_MAJOR, 3, bad.data(), 3, 10, 1, 1, 1e-6, rng_, op, 3, &r),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(last().find("symmetric"), std::string::npos) << last();
  bad = g;
  bad[4] = kNaN;
  EXPECT_EQ(call(m, DPCOV_COL_MAJOR, 3, bad.data(), 3, 10, 1, 1, 1e-6, rng_, op, 3, &r),
            DPCOV_E_NON_FINITE);
  bad = g;
  bad[8] = -0.5;
  EXPECT_EQ(call(m, DPCOV_COL_MAJOR, 3, bad.data(), 3, 10, 1, 1, 1e-6, rng_, op, 3, &r),
            DPCOV_E_INVALID_ARGUMENT);
  // Jiang without the unlock; inverse Gauss whose input violates the bound.
  EXPECT_EQ(call(DPCOV_MECHANISM_WISHART_JIANG, DPCOV_COL_MAJOR, 3, gp, 3, 10, 1, 1, 0.0, rng_,
                 op, 3, &r),
            DPCOV_E_NOT_PRIVATE);
  dpcov_mechanism_params p;
  dpcov_mechanism_params_default(&p);
  p.lambda_min_bound = 2.9;
  EXPECT_EQ(dpcov_mechanism_release(DPCOV_MECHANISM_INVERSE_GAUSS, DPCOV_COL_MAJOR, 3, gp, 3, 10,
                                    1.0, 1.0, 1e-6, &p, rng_, op, 3, &r),
            DPCOV_E_PRECONDITION);
  EXPECT_NE(last().find("lambda_min(G)"), std::string::npos) << last();
  for (const double v : out) EXPECT_EQ(v, 7.0) << "output written on failure";
  EXPECT_EQ(r.mechanism, static_cast<int32_t>(0xABABABAB)) << "receipt written on failure";
  EXPECT_EQ(peek(), next) << "generator advanced by a failed call";
}

TEST_F(CapiMechanism, ReleaseGramRejectsNullHandles) {
  std::vector<double> out(9);
  dpcov_receipt r = fresh_receipt();
  EXPECT_EQ(dpcov_mechanism_release_gram(DPCOV_MECHANISM_LAPLACE_SYM, nullptr, 1.0, 0.0, nullptr,
                                         rng_, DPCOV_COL_MAJOR, out.data(), 3, &r),
            DPCOV_E_NULL_POINTER);
  dpcov_gram *acc = nullptr;
  dpcov_gram_create(&acc, 3);
  EXPECT_EQ(dpcov_mechanism_release_gram(DPCOV_MECHANISM_LAPLACE_SYM, acc, 1.0, 0.0, nullptr,
                                         nullptr, DPCOV_COL_MAJOR, out.data(), 3, &r),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_mechanism_release_gram(DPCOV_MECHANISM_LAPLACE_SYM, acc, 1.0, 0.0, nullptr,
                                         rng_, DPCOV_COL_MAJOR, out.data(), 3, nullptr),
            DPCOV_E_NULL_POINTER);
  dpcov_gram_destroy(&acc);
}

TEST_F(CapiMechanism, LogDensityOfAnalyzeGaussIsTheGaussianOverTheUpperTriangle) {
  const std::vector<double> g = gram3();
  std::vector<double> y(9);
  dpcov_receipt r = fresh_receipt();
  ASSERT_EQ(release(DPCOV_MECHANISM_ANALYZE_GAUSS, g, 1.0, 1e-6, nullptr, y, r), DPCOV_OK);
  double value = 0.0;
  ASSERT_EQ(dpcov_mechanism_log_density(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_COL_MAJOR, 3,
                                        y.data(), 3, g.data(), 3, 10, 1.0, 1.0, 1e-6, nullptr,
                                        &value),
            DPCOV_OK);
  double expected = 0.0;
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i <= j; ++i) {
      const double x = y[i + 3 * j] - g[i + 3 * j];
      expected += -x * x / (2 * r.sigma * r.sigma) - std::log(r.sigma * std::sqrt(2 * M_PI));
    }
  EXPECT_NEAR(value, expected, 1e-12 * std::fabs(expected));
}

TEST_F(CapiMechanism, LogDensityOfLaplaceIsTheLaplaceOverTheUpperTriangle) {
  const std::vector<double> g = gram3();
  std::vector<double> y(9);
  dpcov_receipt r = fresh_receipt();
  ASSERT_EQ(release(DPCOV_MECHANISM_LAPLACE_SYM, g, 1.0, 0.0, nullptr, y, r), DPCOV_OK);
  double value = 0.0;
  ASSERT_EQ(dpcov_mechanism_log_density(DPCOV_MECHANISM_LAPLACE_SYM, DPCOV_ROW_MAJOR, 3, y.data(),
                                        3, g.data(), 3, 10, 1.0, 1.0, 0.0, nullptr, &value),
            DPCOV_OK);
  double expected = 0.0;
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i <= j; ++i)
      expected += -std::fabs(y[i + 3 * j] - g[i + 3 * j]) / r.scale - std::log(2 * r.scale);
  EXPECT_NEAR(value, expected, 1e-12 * std::fabs(expected));
}

TEST_F(CapiMechanism, WishartLogDensityIsMinusInfinityOffTheSupport) {
  // Jiang's counterexample in miniature: a release drawn around G' = 0 is evaluated against
  // G = e1 e1^T; when Y - G is not positive definite its density under G is 0.
  const double zero[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  const double e1[9] = {1, 0, 0, 0, 0, 0, 0, 0, 0};
  dpcov_mechanism_params p = runnable_params(DPCOV_MECHANISM_WISHART_JIANG);
  int off_support = 0;
  for (int trial = 0; trial < 200; ++trial) {
    double y[9];
    dpcov_receipt r = fresh_receipt();
    ASSERT_EQ(dpcov_mechanism_release(DPCOV_MECHANISM_WISHART_JIANG, DPCOV_COL_MAJOR, 3, zero, 3,
                                      1, 1.0, 1.0, 0.0, &p, rng_, y, 3, &r),
              DPCOV_OK);
    double under_g = 0.0, under_zero = 0.0;
    ASSERT_EQ(dpcov_mechanism_log_density(DPCOV_MECHANISM_WISHART_JIANG, DPCOV_COL_MAJOR, 3, y,
                                          3, e1, 3, 1, 1.0, 1.0, 0.0, &p, &under_g),
              DPCOV_OK);
    ASSERT_EQ(dpcov_mechanism_log_density(DPCOV_MECHANISM_WISHART_JIANG, DPCOV_COL_MAJOR, 3, y,
                                          3, zero, 3, 1, 1.0, 1.0, 0.0, &p, &under_zero),
              DPCOV_OK);
    EXPECT_TRUE(std::isfinite(under_zero));
    if (std::isinf(under_g)) {
      EXPECT_LT(under_g, 0.0);
      ++off_support;
    }
  }
  // P = 1 - exp(-1/3) = 0.2835 per draw; 200 draws give 0 with probability 1e-29.
  EXPECT_GT(off_support, 0);
}

TEST_F(CapiMechanism, LogDensityRejectsBadArguments) {
  const std::vector<double> g = gram3();
  std::vector<double> y = g;
  double value = 42.0;
  EXPECT_EQ(dpcov_mechanism_log_density(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_COL_MAJOR, 3,
                                        y.data(), 3, g.data(), 3, 10, 1.0, 1.0, 1e-6, nullptr,
                                        nullptr),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_mechanism_log_density(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_COL_MAJOR, 3,
                                        nullptr, 3, g.data(), 3, 10, 1.0, 1.0, 1e-6, nullptr,
                                        &value),
            DPCOV_E_NULL_POINTER);
  y[1] = 9.0;
  EXPECT_EQ(dpcov_mechanism_log_density(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_COL_MAJOR, 3,
                                        y.data(), 3, g.data(), 3, 10, 1.0, 1.0, 1e-6, nullptr,
                                        &value),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(last().find("released"), std::string::npos) << last();
  y = g;
  y[0] = kInf;
  EXPECT_EQ(dpcov_mechanism_log_density(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_COL_MAJOR, 3,
                                        y.data(), 3, g.data(), 3, 10, 1.0, 1.0, 1e-6, nullptr,
                                        &value),
            DPCOV_E_NON_FINITE);
  EXPECT_EQ(dpcov_mechanism_log_density(DPCOV_MECHANISM_WISHART_JIANG, DPCOV_COL_MAJOR, 3,
                                        g.data(), 3, g.data(), 3, 10, 1.0, 1.0, 0.0, nullptr,
                                        &value),
            DPCOV_E_NOT_PRIVATE);
  EXPECT_EQ(value, 42.0);
}

}  // namespace
