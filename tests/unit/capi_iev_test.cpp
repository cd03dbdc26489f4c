// IEV and the Kapralov-Talwar baseline through the C ABI (dpcov/mechanism.h): names, receipts of
// plan and release, the eigenvector options, and every bad argument (status, outputs and
// generator untouched).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "dpcov.h"

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const int32_t kEigen[] = {DPCOV_MECHANISM_IEV, DPCOV_MECHANISM_KT_RANK1};

// G of n = 10 rows of norm <= 1 (trace 9 <= 10).
std::vector<double> gram3() { return {3.0, 0.2, 0.1, 0.2, 3.5, -0.3, 0.1, -0.3, 2.5}; }

dpcov_receipt fresh_receipt() {
  dpcov_receipt r;
  std::memset(&r, 0xAB, sizeof r);
  r.struct_size = sizeof r;
  return r;
}

class CapiIev : public ::testing::TestWithParam<int32_t> {
 protected:
  void SetUp() override { ASSERT_EQ(dpcov_rng_create_seeded(&rng_, 11, 0), DPCOV_OK); }
  void TearDown() override { dpcov_rng_destroy(&rng_); }
  uint64_t next() {
    uint64_t v = 0;
    dpcov_rng_next_u64(rng_, &v);
    return v;
  }
  dpcov_status release(const dpcov_mechanism_params *p, double eps, std::vector<double> &out,
                       dpcov_receipt &r) {
    const std::vector<double> g = gram3();
    return dpcov_mechanism_release(GetParam(), DPCOV_COL_MAJOR, 3, g.data(), 3, 10, 1.0, eps, 0.0,
                                   p, rng_, out.data(), 3, &r);
  }
  // A failing release leaves the output, the receipt and the generator as they were.
  void expect_refused(const dpcov_mechanism_params &p, double eps, dpcov_status expected) {
    std::vector<double> out(9, 42.0);
    dpcov_receipt r = fresh_receipt();
    const dpcov_receipt before = r;
    dpcov_rng *copy = nullptr;
    unsigned char state[DPCOV_RNG_STATE_SIZE];
    ASSERT_EQ(dpcov_rng_state_save(rng_, state, sizeof state), DPCOV_OK);
    EXPECT_EQ(release(&p, eps, out, r), expected) << dpcov_last_error_message();
    for (double v : out) EXPECT_EQ(v, 42.0);
    EXPECT_EQ(std::memcmp(&r, &before, sizeof r), 0);
    ASSERT_EQ(dpcov_rng_create_seeded(&copy, 0, 0), DPCOV_OK);
    ASSERT_EQ(dpcov_rng_state_restore(copy, state, sizeof state), DPCOV_OK);
    uint64_t expected_next = 0;
    dpcov_rng_next_u64(copy, &expected_next);
    dpcov_rng_destroy(&copy);
    EXPECT_EQ(next(), expected_next);
  }
  dpcov_rng *rng_ = nullptr;
};

TEST_P(CapiIev, HasItsName) {
  EXPECT_STREQ(dpcov_mechanism_name(GetParam()),
               GetParam() == DPCOV_MECHANISM_IEV ? "iev" : "kt_rank1");
}

TEST_P(CapiIev, ReleaseReceiptEqualsThePlanExceptSeedAndProposalCounts) {
  dpcov_mechanism_params p;
  ASSERT_EQ(dpcov_mechanism_params_default(&p), DPCOV_OK);
  p.budget_split = DPCOV_BUDGET_SPLIT_ADAPTIVE;
  p.beta = 0.1;
  p.rank = 2;
  dpcov_receipt planned = fresh_receipt(), released = fresh_receipt();
  ASSERT_EQ(dpcov_mechanism_plan(GetParam(), 3, 10, 1.0, 1.0, 0.0, &p, &planned), DPCOV_OK);
  std::vector<double> out(9);
  ASSERT_EQ(release(&p, 1.0, out, released), DPCOV_OK) << dpcov_last_error_message();
  EXPECT_EQ(planned.rank, 2);
  EXPECT_EQ(planned.budget_split, DPCOV_BUDGET_SPLIT_ADAPTIVE);
  const bool iev = GetParam() == DPCOV_MECHANISM_IEV;  // IEV's default exponent is twice KT's
  EXPECT_EQ(planned.calibration,
            iev ? DPCOV_CALIBRATION_BINGHAM_SENSITIVITY : DPCOV_CALIBRATION_BINGHAM_PUBLISHED);
  EXPECT_DOUBLE_EQ(planned.epsilon_eigenvalues, 0.5);
  EXPECT_DOUBLE_EQ(planned.scale, 4.0);
  EXPECT_DOUBLE_EQ(planned.beta, 0.1);
  EXPECT_DOUBLE_EQ(planned.tau, 4.0 * std::log(40.0));
  EXPECT_DOUBLE_EQ(planned.exponent_factor, iev ? 0.5 : 0.25);
  EXPECT_DOUBLE_EQ(planned.clip_upper, 10.0);
  EXPECT_EQ(planned.bingham_proposals, 0);
  EXPECT_GE(released.bingham_proposals, 2);
  EXPECT_EQ(released.bingham_rejections, released.bingham_proposals - 2);
  EXPECT_EQ(released.seed_fixed, 1);
  planned.seed_fixed = released.seed_fixed;
  EXPECT_EQ(released.generator, DPCOV_GENERATOR_PCG64);
  planned.generator = released.generator;
  planned.bingham_proposals = released.bingham_proposals;
  planned.bingham_rejections = released.bingham_rejections;
  EXPECT_EQ(std::memcmp(&planned, &released, sizeof planned), 0);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(out[i + 3 * j], out[j + 3 * i]);
}

TEST_P(CapiIev, SensitivityCalibrationDoublesTheExponentUnderReplaceOne) {
  dpcov_mechanism_params p;
  dpcov_mechanism_params_default(&p);
  p.calibration = DPCOV_CALIBRATION_BINGHAM_SENSITIVITY;
  p.budget_split = DPCOV_BUDGET_SPLIT_UNIFORM;
  dpcov_receipt r = fresh_receipt();
  ASSERT_EQ(dpcov_mechanism_plan(GetParam(), 3, 10, 1.0, 1.0, 0.0, &p, &r), DPCOV_OK);
  EXPECT_DOUBLE_EQ(r.exponent_factor, 0.5);
  EXPECT_EQ(r.calibration, DPCOV_CALIBRATION_BINGHAM_SENSITIVITY);
  EXPECT_DOUBLE_EQ(r.epsilon_step, 1.0 / 6.0);
}

TEST_P(CapiIev, RefusesBadOptionsBeforeAnyWork) {
  dpcov_mechanism_params p;
  dpcov_mechanism_params_default(&p);
  p.rank = 4;  // > d
  expect_refused(p, 1.0, DPCOV_E_INVALID_ARGUMENT);
  p.rank = -1;
  expect_refused(p, 1.0, DPCOV_E_INVALID_ARGUMENT);
  dpcov_mechanism_params_default(&p);
  p.budget_split = 3;
  expect_refused(p, 1.0, DPCOV_E_INVALID_ARGUMENT);
  p.budget_split = -1;
  expect_refused(p, 1.0, DPCOV_E_INVALID_ARGUMENT);
  dpcov_mechanism_params_default(&p);
  p.budget_split = DPCOV_BUDGET_SPLIT_UNIFORM;
  p.beta = 0.05;  // beta without the adaptive split
  expect_refused(p, 1.0, DPCOV_E_INVALID_ARGUMENT);
  p.budget_split = DPCOV_BUDGET_SPLIT_ADAPTIVE;
  for (double beta : {1.0, 2.0, -0.1, kNaN}) {
    p.beta = beta;
    expect_refused(p, 1.0, DPCOV_E_INVALID_ARGUMENT);
  }
  dpcov_mechanism_params_default(&p);
  p.calibration = DPCOV_CALIBRATION_ANALYTIC_GAUSSIAN;
  expect_refused(p, 1.0, DPCOV_E_INVALID_ARGUMENT);
  p.calibration = 8;
  expect_refused(p, 1.0, DPCOV_E_INVALID_ARGUMENT);
  dpcov_mechanism_params_default(&p);
  p.lambda_min_bound = 1.0;  // an inverse-Gauss option
  expect_refused(p, 1.0, DPCOV_E_INVALID_ARGUMENT);
  dpcov_mechanism_params_default(&p);
  for (double eps : {0.0, -1.0, kNaN}) expect_refused(p, eps, eps != eps ? DPCOV_E_NON_FINITE : DPCOV_E_INVALID_ARGUMENT);
}

TEST_P(CapiIev, RefusesABadStatisticAndNullPointers) {
  std::vector<double> out(9, 42.0);
  dpcov_receipt r = fresh_receipt();
  std::vector<double> g = gram3();
  g[1] = 0.3;  // not symmetric
  EXPECT_EQ(dpcov_mechanism_release(GetParam(), DPCOV_COL_MAJOR, 3, g.data(), 3, 10, 1.0, 1.0, 0.0,
                                    nullptr, rng_, out.data(), 3, &r),
            DPCOV_E_INVALID_ARGUMENT);
  g = gram3();
  EXPECT_EQ(dpcov_mechanism_release(GetParam(), DPCOV_COL_MAJOR, 3, g.data(), 3, 5, 1.0, 1.0, 0.0,
                                    nullptr, rng_, out.data(), 3, &r),
            DPCOV_E_NORM_BOUND);  // trace 9 > n B^2 = 5
  EXPECT_EQ(dpcov_mechanism_release(GetParam(), DPCOV_COL_MAJOR, 3, g.data(), 3, 10, 1.0, 1.0, 0.0,
                                    nullptr, nullptr, out.data(), 3, &r),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_mechanism_release(GetParam(), DPCOV_COL_MAJOR, 3, nullptr, 3, 10, 1.0, 1.0, 0.0,
                                    nullptr, rng_, out.data(), 3, &r),
            DPCOV_E_NULL_POINTER);
  for (double v : out) EXPECT_EQ(v, 42.0);
  double density = 7.0;
  EXPECT_EQ(dpcov_mechanism_log_density(GetParam(), DPCOV_COL_MAJOR, 3, g.data(), 3, g.data(), 3,
                                        10, 1.0, 1.0, 0.0, nullptr, &density),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(density, 7.0);
}

INSTANTIATE_TEST_SUITE_P(Mechanisms, CapiIev, ::testing::ValuesIn(kEigen),
                         [](const auto &param_info) {
                           return std::string(dpcov_mechanism_name(param_info.param));
                         });

TEST(CapiIevOptions, DoNotApplyToOtherMechanisms) {
  dpcov_mechanism_params p;
  dpcov_mechanism_params_default(&p);
  EXPECT_EQ(p.budget_split, DPCOV_BUDGET_SPLIT_DEFAULT);
  EXPECT_EQ(p.beta, 0.0);
  EXPECT_EQ(p.rank, 0);
  dpcov_receipt r = fresh_receipt();
  p.rank = 2;
  EXPECT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_LAPLACE_SYM, 3, 10, 1.0, 1.0, 0.0, &p, &r),
            DPCOV_E_INVALID_ARGUMENT);
  dpcov_mechanism_params_default(&p);
  p.budget_split = DPCOV_BUDGET_SPLIT_UNIFORM;
  EXPECT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 10, 1.0, 1.0, 1e-6, &p, &r),
            DPCOV_E_INVALID_ARGUMENT);
  dpcov_mechanism_params_default(&p);
  p.calibration = DPCOV_CALIBRATION_BINGHAM_PUBLISHED;
  EXPECT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_LAPLACE_SYM, 3, 10, 1.0, 1.0, 0.0, &p, &r),
            DPCOV_E_INVALID_ARGUMENT);
  dpcov_mechanism_params_default(&p);
  EXPECT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_LAPLACE_SYM, 3, 10, 1.0, 1.0, 0.0, &p, &r), DPCOV_OK);
  EXPECT_EQ(r.budget_split, DPCOV_BUDGET_SPLIT_DEFAULT);
  EXPECT_EQ(r.rank, 0);
  EXPECT_EQ(r.clip_upper, 0.0);
}

}  // namespace
