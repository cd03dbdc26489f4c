// dpcov/adassp.h through the shared library: a fit, its receipt, layouts, the paper option, and
// every bad argument (status, outputs and generator untouched).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "dpcov.h"
#include "support/adassp_gram.hpp"

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();
const double kSentinel = -12345.0;

using dpcov::test::adassp_gram4;

class CapiAdassp : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(dpcov_rng_create_seeded(&rng_, 15, 0), DPCOV_OK);
    ASSERT_EQ(dpcov_adassp_params_default(&params_), DPCOV_OK);
    receipt_.struct_size = sizeof receipt_;
  }
  void TearDown() override { dpcov_rng_destroy(&rng_); }
  uint64_t peek() {
    unsigned char state[DPCOV_RNG_STATE_SIZE];
    dpcov_rng_state_save(rng_, state, sizeof state);
    dpcov_rng *copy = nullptr;
    dpcov_rng_create_seeded(&copy, 0, 0);
    dpcov_rng_state_restore(copy, state, sizeof state);
    uint64_t v = 0;
    dpcov_rng_next_u64(copy, &v);
    dpcov_rng_destroy(&copy);
    return v;
  }
  dpcov_status run(const dpcov_adassp_params *params, double epsilon = 1.0, double delta = 1e-6,
                   double bound_x = std::sqrt(1.5), double bound_y = 1.0, const double *g = nullptr,
                   int64_t label = 3, const int64_t *features = nullptr, int64_t num = 3,
                   int32_t layout = DPCOV_ROW_MAJOR, int64_t ldg = 4, int64_t ld_xtx = 3,
                   dpcov_rng *rng = reinterpret_cast<dpcov_rng *>(1)) {
    coef_.assign(3, kSentinel);
    xtx_.assign(9, kSentinel);
    xty_.assign(3, kSentinel);
    return dpcov_adassp_fit(layout, 4, g ? g : g_.data(), ldg, label,
                            features ? features : features_, num, bound_x, bound_y, epsilon, delta,
                            params, rng == reinterpret_cast<dpcov_rng *>(1) ? rng_ : rng,
                            coef_.data(), xtx_.data(), ld_xtx, xty_.data(), &receipt_);
  }
  bool untouched() const {
    for (const auto *v : {&coef_, &xtx_, &xty_})
      for (double x : *v)
        if (x != kSentinel) return false;
    return receipt_.mechanism == 0;
  }
  dpcov_rng *rng_ = nullptr;
  dpcov_adassp_params params_{};
  dpcov_adassp_receipt receipt_{};
  std::vector<double> g_ = adassp_gram4();
  const int64_t features_[3] = {0, 1, 2};
  std::vector<double> coef_, xtx_, xty_;
};

TEST_F(CapiAdassp, DefaultsAreJointAnalyticReplaceOneRhoFivePercent) {
  EXPECT_EQ(params_.struct_size, sizeof(dpcov_adassp_params));
  EXPECT_EQ(params_.calibration, DPCOV_ADASSP_JOINT_ANALYTIC);
  EXPECT_EQ(params_.neighbour, DPCOV_NEIGHBOUR_REPLACE_ONE);
  EXPECT_EQ(params_.rho, 0.05);
  EXPECT_EQ(dpcov_adassp_params_default(nullptr), DPCOV_E_NULL_POINTER);
}

TEST_F(CapiAdassp, FitFillsEveryOutputAndAReceiptThatRecomputes) {
  ASSERT_EQ(run(nullptr), DPCOV_OK) << dpcov_last_error_message();
  EXPECT_EQ(receipt_.mechanism, DPCOV_MECHANISM_ADASSP);
  EXPECT_STREQ(dpcov_mechanism_name(receipt_.mechanism), "adassp");
  EXPECT_EQ(receipt_.num_regressors, 3);
  EXPECT_EQ(receipt_.seed_fixed, 1);
  EXPECT_EQ(receipt_.epsilon, 1.0);
  EXPECT_LE(receipt_.delta_exact, 1e-6);
  EXPECT_GE(receipt_.sensitivity_lambda_min, 1.5 * (1 - 1e-15));
  EXPECT_LE(receipt_.sensitivity_lambda_min, 1.5 * (1 + 1e-15));
  EXPECT_GE(receipt_.sensitivity_gram, std::sqrt(2.0) * 1.5 * (1 - 1e-15));
  EXPECT_GE(receipt_.sensitivity_cross, 2.0 * std::sqrt(1.5) * (1 - 1e-15));
  // Each statistic has a third of mu^2: Delta_k / sigma_k is the same for all three.
  const double r0 = receipt_.sensitivity_lambda_min / receipt_.sigma_lambda_min;
  EXPECT_NEAR(receipt_.sensitivity_gram / receipt_.sigma_gram, r0, 1e-12 * r0);
  EXPECT_NEAR(receipt_.sensitivity_cross / receipt_.sigma_cross, r0, 1e-12 * r0);
  EXPECT_GE(receipt_.sigma_gram_off_diagonal, receipt_.sigma_gram / std::sqrt(2.0));
  EXPECT_EQ(receipt_.ridge, std::fmax(0.0, receipt_.noise_norm_bound - receipt_.released_lambda_min));
  EXPECT_EQ(receipt_.eigenvalue_floor, receipt_.sigma_gram);
  for (double c : coef_) EXPECT_TRUE(std::isfinite(c));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(xtx_[i * 3 + j], xtx_[j * 3 + i]);
  EXPECT_NE(std::strstr(receipt_.theorem, "proofs/adassp.md"), nullptr);
}

TEST_F(CapiAdassp, LayoutsGiveTheSameFitFromTheSameSeed) {
  ASSERT_EQ(run(nullptr), DPCOV_OK);
  const std::vector<double> row_coef = coef_;
  dpcov_rng_destroy(&rng_);
  ASSERT_EQ(dpcov_rng_create_seeded(&rng_, 15, 0), DPCOV_OK);
  // g is symmetric, so the same buffer is its own column-major form.
  ASSERT_EQ(run(nullptr, 1.0, 1e-6, std::sqrt(1.5), 1.0, nullptr, 3, nullptr, 3, DPCOV_COL_MAJOR),
            DPCOV_OK);
  EXPECT_EQ(coef_, row_coef);
}

TEST_F(CapiAdassp, LargeEpsilonRecoversTheExactCoefficients) {
  ASSERT_EQ(run(nullptr, 1e6, 1e-6), DPCOV_OK);
  EXPECT_NEAR(coef_[0], 0.0, 1e-3);
  EXPECT_NEAR(coef_[1], 0.5, 1e-3);
  EXPECT_NEAR(coef_[2], -0.25, 1e-3);
}

TEST_F(CapiAdassp, PaperConstantsAreNoisierAndStillWithinDelta) {
  ASSERT_EQ(run(nullptr), DPCOV_OK);
  const double joint = receipt_.sigma_gram;
  params_.calibration = DPCOV_ADASSP_PAPER;
  params_.neighbour = DPCOV_NEIGHBOUR_ADD_REMOVE;
  ASSERT_EQ(run(&params_), DPCOV_OK) << dpcov_last_error_message();
  EXPECT_EQ(receipt_.calibration, DPCOV_ADASSP_PAPER);
  EXPECT_LE(receipt_.delta_exact, 1e-6);
  EXPECT_GT(receipt_.sigma_lambda_min, 1.5 * 3.0 * std::sqrt(std::log(6e6)) * (1 - 1e-12));
  EXPECT_GT(receipt_.sigma_gram, joint / std::sqrt(2.0));
}

TEST_F(CapiAdassp, PaperConstantsUnderReplaceOneAreRefusedWhenTheyMissDelta) {
  // Exact delta of the paper's constants with replace-one sensitivities at eps = 4, delta = 1e-6
  // is 4.6e-6 (proofs/adassp.md).
  params_.calibration = DPCOV_ADASSP_PAPER;
  const uint64_t before = peek();
  EXPECT_EQ(run(&params_, 4.0, 1e-6), DPCOV_E_PRECONDITION);
  EXPECT_TRUE(untouched());
  EXPECT_EQ(peek(), before);
}

TEST_F(CapiAdassp, BadArgumentsLeaveOutputsAndGeneratorUntouched) {
  const uint64_t before = peek();
  auto expect = [&](dpcov_status want, dpcov_status got) {
    EXPECT_EQ(got, want) << dpcov_last_error_message();
    EXPECT_TRUE(untouched());
    EXPECT_EQ(peek(), before);
  };
  for (double eps : {0.0, -1.0}) expect(DPCOV_E_INVALID_ARGUMENT, run(nullptr, eps));
  for (double eps : {kNaN, kInf}) expect(DPCOV_E_NON_FINITE, run(nullptr, eps));
  for (double delta : {0.0, 1.0, -1e-6}) expect(DPCOV_E_INVALID_ARGUMENT, run(nullptr, 1.0, delta));
  expect(DPCOV_E_NON_FINITE, run(nullptr, 1.0, kNaN));
  for (double b : {0.0, -1.0}) {
    expect(DPCOV_E_INVALID_ARGUMENT, run(nullptr, 1.0, 1e-6, b));
    expect(DPCOV_E_INVALID_ARGUMENT, run(nullptr, 1.0, 1e-6, 1.0, b));
  }
  expect(DPCOV_E_NON_FINITE, run(nullptr, 1.0, 1e-6, kNaN));
  expect(DPCOV_E_NON_FINITE, run(nullptr, 1.0, 1e-6, 1.0, kInf));
  expect(DPCOV_E_NULL_POINTER, dpcov_adassp_fit(DPCOV_ROW_MAJOR, 4, nullptr, 4, 3, features_, 3,
                                                1.0, 1.0, 1.0, 1e-6, nullptr, rng_, coef_.data(),
                                                nullptr, 0, nullptr, &receipt_));
  expect(DPCOV_E_NULL_POINTER, run(nullptr, 1.0, 1e-6, 1.0, 1.0, nullptr, 3, nullptr, 3,
                                   DPCOV_ROW_MAJOR, 4, 3, nullptr));
  expect(DPCOV_E_NULL_POINTER, dpcov_adassp_fit(DPCOV_ROW_MAJOR, 4, g_.data(), 4, 3, features_, 3,
                                                1.0, 1.0, 1.0, 1e-6, nullptr, rng_, nullptr,
                                                nullptr, 0, nullptr, &receipt_));
  EXPECT_EQ(dpcov_adassp_fit(DPCOV_ROW_MAJOR, 4, g_.data(), 4, 3, features_, 3, 1.0, 1.0, 1.0,
                             1e-6, nullptr, rng_, coef_.data(), nullptr, 0, nullptr, nullptr),
            DPCOV_E_NULL_POINTER);
  expect(DPCOV_E_LAYOUT, run(nullptr, 1.0, 1e-6, 1.0, 1.0, nullptr, 3, nullptr, 3, 7));
  // Leading dimensions below the row length.
  expect(DPCOV_E_LAYOUT, run(nullptr, 1.0, 1e-6, 1.0, 1.0, nullptr, 3, nullptr, 3,
                             DPCOV_ROW_MAJOR, 3));
  expect(DPCOV_E_LAYOUT, run(nullptr, 1.0, 1e-6, 1.0, 1.0, nullptr, 3, nullptr, 3,
                             DPCOV_ROW_MAJOR, 4, 2));
  for (int64_t label : {-1, 4}) expect(DPCOV_E_DIMENSION, run(nullptr, 1.0, 1e-6, 1.0, 1.0, nullptr, label));
  const int64_t with_label[3] = {0, 3, 1};
  const int64_t repeated[3] = {0, 1, 1};
  const int64_t outside[3] = {0, 1, 9};
  for (const int64_t *f : {with_label, repeated, outside})
    expect(DPCOV_E_DIMENSION, run(nullptr, 1.0, 1e-6, 1.0, 1.0, nullptr, 3, f));
  expect(DPCOV_E_DIMENSION, run(nullptr, 1.0, 1e-6, 1.0, 1.0, nullptr, 3, nullptr, 0));
  std::vector<double> bad = g_;
  bad[1] = kNaN;
  expect(DPCOV_E_NON_FINITE, run(nullptr, 1.0, 1e-6, 1.0, 1.0, bad.data()));
  bad = g_;
  bad[1] += 1.0;
  expect(DPCOV_E_INVALID_ARGUMENT, run(nullptr, 1.0, 1e-6, 1.0, 1.0, bad.data()));
  dpcov_adassp_params p = params_;
  p.rho = 0.0;
  expect(DPCOV_E_INVALID_ARGUMENT, run(&p));
  p = params_;
  p.rho = 1.0;
  expect(DPCOV_E_INVALID_ARGUMENT, run(&p));
  p = params_;
  p.calibration = 7;
  expect(DPCOV_E_INVALID_ARGUMENT, run(&p));
  p = params_;
  p.neighbour = 5;
  expect(DPCOV_E_INVALID_ARGUMENT, run(&p));
  p = params_;
  p.struct_size = 4;
  expect(DPCOV_E_INVALID_ARGUMENT, run(&p));
  receipt_.struct_size = 8;
  expect(DPCOV_E_INVALID_ARGUMENT, run(nullptr));
}

// The data of gram4 plus a residual orthogonal to the regressors with e'e = 2 (s^2 = 2 / 197).
TEST_F(CapiAdassp, IntervalsFromAFitThatReleasedLabelSquareContainTheExactCoefficients) {
  std::vector<double> g = adassp_gram4();
  g[15] += 2.0;
  params_.release_label_square = 1;
  ASSERT_EQ(run(&params_, 1e6, 1e-6, std::sqrt(1.5), 1.0, g.data()), DPCOV_OK)
      << dpcov_last_error_message();
  EXPECT_EQ(receipt_.label_square_released, 1);
  EXPECT_EQ(receipt_.sensitivity_label_square, 1.0);
  // Four equal shares of mu^2.
  const double r0 = receipt_.sensitivity_lambda_min / receipt_.sigma_lambda_min;
  EXPECT_NEAR(receipt_.sensitivity_label_square / receipt_.sigma_label_square, r0, 1e-12 * r0);
  EXPECT_NEAR(receipt_.released_label_square, g[15], 0.05);
  std::vector<double> ols(3, kSentinel), se(3), p(3), lower(3), upper(3);
  ASSERT_EQ(dpcov_adassp_bootstrap_intervals(DPCOV_ROW_MAJOR, 3, xtx_.data(), 3, xty_.data(), 200,
                                             &receipt_, 0.95, 199, rng_, ols.data(), se.data(),
                                             p.data(), lower.data(), upper.data()),
            DPCOV_OK)
      << dpcov_last_error_message();
  const double exact[3] = {0.0, 0.5, -0.25};
  for (int j = 0; j < 3; ++j) {
    EXPECT_NEAR(ols[j], exact[j], 1e-3);
    EXPECT_LE(lower[j], exact[j]);
    EXPECT_GE(upper[j], exact[j]);
    EXPECT_GT(se[j], 0.0);
  }
  EXPECT_LT(p[1], 0.05);
  EXPECT_LT(p[2], 0.05);
}

TEST_F(CapiAdassp, LabelSquareOptionIsCheckedAndJointOnly) {
  params_.release_label_square = 2;
  EXPECT_EQ(run(&params_), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_TRUE(untouched());
  params_.release_label_square = 1;
  params_.calibration = DPCOV_ADASSP_PAPER;
  EXPECT_EQ(run(&params_), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_TRUE(untouched());
}

TEST_F(CapiAdassp, BadIntervalArgumentsLeaveOutputsAndGeneratorUntouched) {
  std::vector<double> g = adassp_gram4();
  g[15] += 2.0;
  ASSERT_EQ(run(nullptr, 1.0, 1e-6, std::sqrt(1.5), 1.0, g.data()), DPCOV_OK);
  const dpcov_adassp_receipt without = receipt_;
  params_.release_label_square = 1;
  ASSERT_EQ(run(&params_, 1e6, 1e-6, std::sqrt(1.5), 1.0, g.data()), DPCOV_OK);
  const uint64_t before = peek();
  std::vector<double> out(3, kSentinel);
  const auto call = [&](const dpcov_adassp_receipt *r, int64_t p = 3, const double *xtx = nullptr,
                        int64_t ld = 3, const double *xty = nullptr, int64_t n = 200,
                        double level = 0.95, int64_t draws = 199,
                        dpcov_rng *rng = reinterpret_cast<dpcov_rng *>(1),
                        double *coef = reinterpret_cast<double *>(1)) {
    return dpcov_adassp_bootstrap_intervals(
        DPCOV_ROW_MAJOR, p, xtx ? xtx : xtx_.data(), ld, xty ? xty : xty_.data(), n, r, level,
        draws, rng == reinterpret_cast<dpcov_rng *>(1) ? rng_ : rng,
        coef == reinterpret_cast<double *>(1) ? out.data() : coef, out.data(), out.data(),
        out.data(), out.data());
  };
  EXPECT_EQ(call(&without), DPCOV_E_INVALID_ARGUMENT);  // y'y not released
  EXPECT_EQ(call(nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(&receipt_, 3, nullptr, 3, nullptr, 200, 0.95, 199, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(&receipt_, 3, nullptr, 3, nullptr, 200, 0.95, 199,
                 reinterpret_cast<dpcov_rng *>(1), nullptr),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(&receipt_, 2), DPCOV_E_DIMENSION);
  EXPECT_EQ(call(&receipt_, 3, nullptr, 2), DPCOV_E_LAYOUT);
  EXPECT_NE(call(&receipt_, 3, nullptr, 3, nullptr, 3), DPCOV_OK);  // n <= p
  EXPECT_EQ(call(&receipt_, 3, nullptr, 3, nullptr, 200, 1.5), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(&receipt_, 3, nullptr, 3, nullptr, 200, 0.95, 5), DPCOV_E_INVALID_ARGUMENT);
  std::vector<double> bad = xtx_;
  bad[1] = kNaN;
  EXPECT_EQ(call(&receipt_, 3, bad.data()), DPCOV_E_NON_FINITE);
  bad = xtx_;
  bad[1] += 1.0;
  EXPECT_EQ(call(&receipt_, 3, bad.data()), DPCOV_E_INVALID_ARGUMENT);  // not symmetric
  std::vector<double> bad_xty = xty_;
  bad_xty[0] = kInf;
  EXPECT_EQ(call(&receipt_, 3, nullptr, 3, bad_xty.data()), DPCOV_E_NON_FINITE);
  dpcov_adassp_receipt small = receipt_;
  small.struct_size = 8;
  EXPECT_EQ(call(&small), DPCOV_E_INVALID_ARGUMENT);
  for (double x : out) EXPECT_EQ(x, kSentinel);
  EXPECT_EQ(peek(), before);
}

}  // namespace

namespace {

// The constants of a plan and of a fit, field by field (the release's own fields excluded).
void expect_same_constants(const dpcov_adassp_receipt &a, const dpcov_adassp_receipt &b) {
  EXPECT_EQ(a.mechanism, b.mechanism);
  EXPECT_EQ(a.neighbour, b.neighbour);
  EXPECT_EQ(a.calibration, b.calibration);
  EXPECT_EQ(a.num_regressors, b.num_regressors);
  for (const auto field :
       {&dpcov_adassp_receipt::bound, &dpcov_adassp_receipt::bound_y,
        &dpcov_adassp_receipt::epsilon, &dpcov_adassp_receipt::delta,
        &dpcov_adassp_receipt::delta_exact, &dpcov_adassp_receipt::failure_probability,
        &dpcov_adassp_receipt::sensitivity_lambda_min, &dpcov_adassp_receipt::sensitivity_gram,
        &dpcov_adassp_receipt::sensitivity_cross, &dpcov_adassp_receipt::sigma_lambda_min,
        &dpcov_adassp_receipt::sigma_gram, &dpcov_adassp_receipt::sigma_gram_off_diagonal,
        &dpcov_adassp_receipt::sigma_cross, &dpcov_adassp_receipt::lambda_min_shift,
        &dpcov_adassp_receipt::noise_norm_bound, &dpcov_adassp_receipt::eigenvalue_floor,
        &dpcov_adassp_receipt::sensitivity_label_square,
        &dpcov_adassp_receipt::sigma_label_square, &dpcov_adassp_receipt::rho})
    EXPECT_EQ(a.*field, b.*field);
  EXPECT_EQ(a.label_square_released, b.label_square_released);
  EXPECT_STREQ(a.theorem, b.theorem);
}

}  // namespace

TEST_F(CapiAdassp, PlanHasEveryConstantOfTheFitWithoutData) {
  for (const int32_t label_square : {0, 1}) {
    params_.release_label_square = label_square;
    ASSERT_EQ(run(&params_), DPCOV_OK) << dpcov_last_error_message();
    dpcov_adassp_receipt plan{};
    plan.struct_size = sizeof plan;
    ASSERT_EQ(dpcov_adassp_plan(3, std::sqrt(1.5), 1.0, 1.0, 1e-6, &params_, &plan), DPCOV_OK);
    expect_same_constants(plan, receipt_);
    EXPECT_GT(plan.rho, 0.0);
    EXPECT_EQ(plan.seed_fixed, 0);
    EXPECT_EQ(plan.released_lambda_min, 0.0);
    EXPECT_EQ(plan.ridge, 0.0);
  }
}

TEST_F(CapiAdassp, PlanAndFitStateIdealizedNumerics) {
  // Floating-point Gaussian noise: the receipt says so, as a release's receipt does.
  ASSERT_EQ(run(nullptr), DPCOV_OK) << dpcov_last_error_message();
  dpcov_adassp_receipt plan{};
  plan.struct_size = sizeof plan;
  plan.numerics = -1;
  ASSERT_EQ(dpcov_adassp_plan(3, std::sqrt(1.5), 1.0, 1.0, 1e-6, nullptr, &plan), DPCOV_OK);
  EXPECT_EQ(plan.numerics, DPCOV_NUMERICS_IDEALIZED);
  receipt_.numerics = -1;
  ASSERT_EQ(run(nullptr), DPCOV_OK) << dpcov_last_error_message();
  EXPECT_EQ(receipt_.numerics, DPCOV_NUMERICS_IDEALIZED);
}

TEST_F(CapiAdassp, AFitFailsWithItsPlansStatusWhenTheDataAreBadToo) {
  // A non-finite g and a bad setting: the fit named g (DPCOV_E_NON_FINITE) where its plan failed
  // on the setting (found by fuzz_solvers). It now runs the plan's checks first.
  std::vector<double> bad = g_;
  bad[5] = kInf;
  dpcov_adassp_receipt plan{};
  plan.struct_size = sizeof plan;
  const uint64_t next = peek();
  for (const double epsilon : {0.0, -1.0, kNaN}) {
    const dpcov_status planned = dpcov_adassp_plan(3, std::sqrt(1.5), 1.0, epsilon, 1e-6, nullptr,
                                                   &plan);
    EXPECT_NE(planned, DPCOV_OK);
    EXPECT_EQ(run(nullptr, epsilon, 1e-6, std::sqrt(1.5), 1.0, bad.data()), planned) << epsilon;
    EXPECT_TRUE(untouched());
  }
  params_.calibration = DPCOV_ADASSP_PAPER;
  params_.neighbour = DPCOV_NEIGHBOUR_REPLACE_ONE;
  ASSERT_EQ(dpcov_adassp_plan(3, 1.0, 1.0, 4.0, 1e-6, &params_, &plan), DPCOV_E_PRECONDITION);
  EXPECT_EQ(run(&params_, 4.0, 1e-6, 1.0, 1.0, bad.data()), DPCOV_E_PRECONDITION);
  EXPECT_TRUE(untouched());
  EXPECT_EQ(peek(), next) << "generator advanced by a failed fit";
}

TEST_F(CapiAdassp, PlanRefusesWhatTheFitRefusesAndLeavesTheReceiptUntouched) {
  dpcov_adassp_receipt plan{};
  plan.struct_size = sizeof plan;
  EXPECT_EQ(dpcov_adassp_plan(3, 1.0, 1.0, 1.0, 1e-6, nullptr, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_adassp_plan(0, 1.0, 1.0, 1.0, 1e-6, nullptr, &plan), DPCOV_E_DIMENSION);
  EXPECT_EQ(dpcov_adassp_plan(3, 0.0, 1.0, 1.0, 1e-6, nullptr, &plan), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_adassp_plan(3, kInf, 1.0, 1.0, 1e-6, nullptr, &plan), DPCOV_E_NON_FINITE);
  EXPECT_EQ(dpcov_adassp_plan(3, 1.0, -1.0, 1.0, 1e-6, nullptr, &plan), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_adassp_plan(3, 1.0, kNaN, 1.0, 1e-6, nullptr, &plan), DPCOV_E_NON_FINITE);
  EXPECT_EQ(dpcov_adassp_plan(3, 1.0, 1.0, 0.0, 1e-6, nullptr, &plan), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_adassp_plan(3, 1.0, 1.0, kNaN, 1e-6, nullptr, &plan), DPCOV_E_NON_FINITE);
  EXPECT_EQ(dpcov_adassp_plan(3, 1.0, 1.0, 1.0, 0.0, nullptr, &plan), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_adassp_plan(3, 1.0, 1.0, 1.0, kInf, nullptr, &plan), DPCOV_E_INVALID_ARGUMENT);
  params_.rho = 1.5;
  EXPECT_EQ(dpcov_adassp_plan(3, 1.0, 1.0, 1.0, 1e-6, &params_, &plan), DPCOV_E_INVALID_ARGUMENT);
  params_.rho = 0.05;
  params_.calibration = DPCOV_ADASSP_PAPER;
  params_.neighbour = DPCOV_NEIGHBOUR_REPLACE_ONE;
  EXPECT_EQ(dpcov_adassp_plan(3, 1.0, 1.0, 4.0, 1e-6, &params_, &plan), DPCOV_E_PRECONDITION);
  dpcov_adassp_receipt small = plan;
  small.struct_size = 8;
  EXPECT_EQ(dpcov_adassp_plan(3, 1.0, 1.0, 1.0, 1e-6, nullptr, &small), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(plan.mechanism, 0);
  EXPECT_EQ(plan.rho, 0.0);
}
