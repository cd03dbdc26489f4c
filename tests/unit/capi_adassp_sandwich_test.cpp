// AdaSSP's robust (sandwich) intervals through the shared library: the plan's split and bounds,
// the meat's rows against a hand computation, the whole pipeline (fit, meat released by Analyze
// Gauss from the rows, intervals), and every bad argument failing with outputs untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "dpcov.h"

namespace {

const double kSentinel = -12345.0;
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

dpcov_sandwich_budget sentinel_budget() {
  dpcov_sandwich_budget b{};
  b.struct_size = sizeof b;
  b.fit_epsilon = b.meat_epsilon = b.residual_bound = kSentinel;
  return b;
}

TEST(CapiAdasspSandwichPlan, SplitsTheBudgetWithinTheRequestAndBoundsTheMeatRows) {
  dpcov_sandwich_budget b = sentinel_budget();
  ASSERT_EQ(dpcov_adassp_sandwich_plan(2.0, 1.5, 1.0, 1e-6, &b), DPCOV_OK)
      << dpcov_last_error_message();
  EXPECT_EQ(b.meat_share, 0.2);
  EXPECT_LE(b.fit_epsilon + b.meat_epsilon, 1.0);
  EXPECT_LE(b.fit_delta + b.meat_delta, 1e-6);
  EXPECT_NEAR(b.meat_epsilon, 0.2, 1e-15);
  EXPECT_GE(b.residual_bound, 3.0);
  EXPECT_GE(b.meat_row_bound, 6.0);
  EXPECT_NEAR(b.meat_row_bound, 6.0, 1e-14);
}

TEST(CapiAdasspSandwichPlan, RefusesBadArgumentsAndLeavesTheBudgetUntouched) {
  struct Case {
    double bx, by, eps, delta;
    dpcov_status expected;
  };
  const Case cases[] = {{0.0, 1.0, 1.0, 1e-6, DPCOV_E_INVALID_ARGUMENT},
                        {-1.0, 1.0, 1.0, 1e-6, DPCOV_E_INVALID_ARGUMENT},
                        {kNaN, 1.0, 1.0, 1e-6, DPCOV_E_NON_FINITE},
                        {1.0, kInf, 1.0, 1e-6, DPCOV_E_NON_FINITE},
                        {1.0, 1.0, 0.0, 1e-6, DPCOV_E_INVALID_ARGUMENT},
                        {1.0, 1.0, kNaN, 1e-6, DPCOV_E_NON_FINITE},
                        {1.0, 1.0, 1.0, 0.0, DPCOV_E_INVALID_ARGUMENT},
                        {1.0, 1.0, 1.0, 1.0, DPCOV_E_INVALID_ARGUMENT},
                        {1.0, 1.0, 4.9e-324, 1e-6, DPCOV_E_INVALID_ARGUMENT},
                        {1e300, 1e300, 1.0, 1e-6, DPCOV_E_NUMERICAL}};
  for (const Case &c : cases) {
    dpcov_sandwich_budget b = sentinel_budget();
    const dpcov_status s = dpcov_adassp_sandwich_plan(c.bx, c.by, c.eps, c.delta, &b);
    EXPECT_NE(s, DPCOV_OK) << c.bx << " " << c.by << " " << c.eps << " " << c.delta;
    EXPECT_EQ(b.fit_epsilon, kSentinel);
    EXPECT_EQ(b.residual_bound, kSentinel);
    EXPECT_STRNE(dpcov_last_error_message(), "");
  }
  EXPECT_EQ(dpcov_adassp_sandwich_plan(1.0, 1.0, 1.0, 1e-6, nullptr), DPCOV_E_NULL_POINTER);
  dpcov_sandwich_budget unset = sentinel_budget();
  unset.struct_size = 0;
  EXPECT_EQ(dpcov_adassp_sandwich_plan(1.0, 1.0, 1.0, 1e-6, &unset), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(unset.fit_epsilon, kSentinel);
}

TEST(CapiAdasspSandwichRows, AreClippedResidualsTimesTheRegressors) {
  // Rows [x1, x2, y]; beta0 = (1, 0): residuals -0.1 and 3, the second clipped to R = 2; the
  // third row, of norm 5 > bound_x = 1, is scaled to B_X R = 2.
  const double xy[9] = {0.6, 0.8, 0.5, 0.0, 1.0, 3.0, 3.0, 4.0, 10.0};
  const double beta0[2] = {1.0, 0.0};
  std::vector<double> u(6, kSentinel);
  ASSERT_EQ(dpcov_adassp_sandwich_rows(DPCOV_ROW_MAJOR, 3, 2, xy, 3, beta0, 1.0, 2.0, u.data(), 2),
            DPCOV_OK)
      << dpcov_last_error_message();
  EXPECT_NEAR(u[0], -0.06, 1e-15);
  EXPECT_NEAR(u[1], -0.08, 1e-15);
  EXPECT_EQ(u[2], 0.0);
  EXPECT_EQ(u[3], 2.0);
  EXPECT_NEAR(u[4], 1.2, 1e-15);
  EXPECT_NEAR(u[5], 1.6, 1e-15);
  // The same rows column-major give the same u, column-major.
  const double xy_col[9] = {0.6, 0.0, 3.0, 0.8, 1.0, 4.0, 0.5, 3.0, 10.0};
  std::vector<double> v(6, kSentinel);
  ASSERT_EQ(dpcov_adassp_sandwich_rows(DPCOV_COL_MAJOR, 3, 2, xy_col, 3, beta0, 1.0, 2.0, v.data(),
                                       3),
            DPCOV_OK);
  for (int r = 0; r < 3; ++r)
    for (int j = 0; j < 2; ++j) EXPECT_EQ(v[j * 3 + r], u[r * 2 + j]);
}

TEST(CapiAdasspSandwichRows, KeepTheRowBoundForRowsNearTheLargestDouble) {
  const double xy[3] = {1e308, 1e308, 1.0};
  const double beta0[2] = {1e300, 0.0};
  std::vector<double> u(2, kSentinel);
  ASSERT_EQ(dpcov_adassp_sandwich_rows(DPCOV_ROW_MAJOR, 1, 2, xy, 3, beta0, 1.0, 2.0, u.data(), 2),
            DPCOV_OK);
  EXPECT_LE(std::hypot(u[0], u[1]), 2.0 * (1 + 1e-15));
  EXPECT_TRUE(std::isfinite(u[0]) && std::isfinite(u[1]));
}

TEST(CapiAdasspSandwichRows, RefuseBadArgumentsAndLeaveTheRowsUntouched) {
  const double xy[3] = {0.6, 0.8, 0.5}, beta0[2] = {1.0, 0.0}, nan_xy[3] = {0.6, kNaN, 0.5},
               nan_beta[2] = {kNaN, 0.0};
  std::vector<double> u(2, kSentinel);
  const auto rows = [&](int32_t layout, int64_t n, int64_t p, const double *a, int64_t lda,
                        const double *b, double bx, double r, double *out, int64_t ldu) {
    const dpcov_status s = dpcov_adassp_sandwich_rows(layout, n, p, a, lda, b, bx, r, out, ldu);
    EXPECT_EQ(u[0], kSentinel);
    EXPECT_EQ(u[1], kSentinel);
    return s;
  };
  EXPECT_EQ(rows(DPCOV_ROW_MAJOR, 1, 2, nullptr, 3, beta0, 1, 2, u.data(), 2), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(rows(DPCOV_ROW_MAJOR, 1, 2, xy, 3, nullptr, 1, 2, u.data(), 2), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(rows(DPCOV_ROW_MAJOR, 1, 2, xy, 3, beta0, 1, 2, nullptr, 2), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(rows(7, 1, 2, xy, 3, beta0, 1, 2, u.data(), 2), DPCOV_E_LAYOUT);
  EXPECT_EQ(rows(DPCOV_ROW_MAJOR, -1, 2, xy, 3, beta0, 1, 2, u.data(), 2), DPCOV_E_DIMENSION);
  EXPECT_EQ(rows(DPCOV_ROW_MAJOR, 1, 0, xy, 3, beta0, 1, 2, u.data(), 2), DPCOV_E_DIMENSION);
  EXPECT_EQ(rows(DPCOV_ROW_MAJOR, 1, 2, xy, 2, beta0, 1, 2, u.data(), 2), DPCOV_E_LAYOUT);
  EXPECT_EQ(rows(DPCOV_ROW_MAJOR, 1, 2, xy, 3, beta0, 1, 2, u.data(), 1), DPCOV_E_LAYOUT);
  EXPECT_EQ(rows(DPCOV_ROW_MAJOR, 1, 2, nan_xy, 3, beta0, 1, 2, u.data(), 2), DPCOV_E_NON_FINITE);
  EXPECT_EQ(rows(DPCOV_ROW_MAJOR, 1, 2, xy, 3, nan_beta, 1, 2, u.data(), 2), DPCOV_E_NON_FINITE);
  EXPECT_EQ(rows(DPCOV_ROW_MAJOR, 1, 2, xy, 3, beta0, 0, 2, u.data(), 2), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(rows(DPCOV_ROW_MAJOR, 1, 2, xy, 3, beta0, 1, -2, u.data(), 2), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(rows(DPCOV_ROW_MAJOR, 1, 2, xy, 3, beta0, kNaN, 2, u.data(), 2), DPCOV_E_NON_FINITE);
  EXPECT_EQ(rows(DPCOV_ROW_MAJOR, 1, 2, xy, 3, beta0, 1e300, 1e300, u.data(), 2),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_adassp_sandwich_rows(DPCOV_ROW_MAJOR, 0, 2, nullptr, 3, beta0, 1, 2, nullptr, 2),
            DPCOV_OK);
}

dpcov_sandwich_budget sized_budget() {
  dpcov_sandwich_budget b{};
  b.struct_size = sizeof b;
  return b;
}

// 2000 rows [1, x1, x2, y] with error sd proportional to |x1|, bounded as a fit reads them.
class CapiAdasspSandwich : public ::testing::Test {
 protected:
  static constexpr int64_t kRows = 2000, kP = 3;
  void SetUp() override {
    ASSERT_EQ(dpcov_rng_create_seeded(&rng_, 33, 0), DPCOV_OK);
    for (int64_t i = 0; i < kRows; ++i) {
      const double x1 = 0.6 * std::sin(0.37 * static_cast<double>(i)),
                   x2 = 0.5 * std::cos(0.91 * static_cast<double>(i));
      const double e = 0.3 * std::abs(x1) * std::sin(1.7 * static_cast<double>(i) + 0.2);
      const double row[4] = {1.0, x1, x2, 0.1 + 0.5 * x1 - 0.25 * x2 + e};
      rows_.insert(rows_.end(), row, row + 4);
    }
    ASSERT_EQ(dpcov_adassp_sandwich_plan(bound_x_, 1.0, 4.0, 1e-6, &budget_), DPCOV_OK);
  }
  void TearDown() override { dpcov_rng_destroy(&rng_); }
  // The fit at the plan's share, then the meat released by Analyze Gauss at the other.
  void release() {
    std::vector<double> g(16, 0.0);
    for (int64_t i = 0; i < kRows; ++i)
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b) g[a * 4 + b] += rows_[i * 4 + a] * rows_[i * 4 + b];
    const int64_t features[3] = {0, 1, 2};
    receipt_.struct_size = sizeof receipt_;
    ASSERT_EQ(dpcov_adassp_fit(DPCOV_ROW_MAJOR, 4, g.data(), 4, 3, features, kP, bound_x_, 1.0,
                               budget_.fit_epsilon, budget_.fit_delta, nullptr, rng_,
                               beta0_.data(), xtx_.data(), kP, xty_.data(), &receipt_),
              DPCOV_OK)
        << dpcov_last_error_message();
    std::vector<double> u(static_cast<size_t>(kRows * kP));
    ASSERT_EQ(dpcov_adassp_sandwich_rows(DPCOV_ROW_MAJOR, kRows, kP, rows_.data(), 4,
                                         beta0_.data(), bound_x_, budget_.residual_bound,
                                         u.data(), kP),
              DPCOV_OK);
    dpcov_row_bounding spec;
    ASSERT_EQ(dpcov_row_bounding_default(&spec), DPCOV_OK);
    spec.bound = budget_.meat_row_bound;
    spec.mechanism = DPCOV_MECHANISM_ANALYZE_GAUSS;
    spec.epsilon = budget_.meat_epsilon;
    spec.delta = budget_.meat_delta;
    dpcov_gram *gram = nullptr;
    ASSERT_EQ(dpcov_gram_create_bounded(&gram, kP, &spec), DPCOV_OK) << dpcov_last_error_message();
    ASSERT_EQ(dpcov_gram_add_raw_rows(gram, DPCOV_ROW_MAJOR, kRows, kP, u.data(), kP, nullptr),
              DPCOV_OK);
    meat_receipt_.struct_size = sizeof meat_receipt_;
    const dpcov_status s = dpcov_mechanism_release_gram(
        DPCOV_MECHANISM_ANALYZE_GAUSS, gram, budget_.meat_epsilon, budget_.meat_delta, nullptr,
        rng_, DPCOV_ROW_MAJOR, meat_.data(), kP, &meat_receipt_);
    dpcov_gram_destroy(&gram);
    ASSERT_EQ(s, DPCOV_OK) << dpcov_last_error_message();
  }
  dpcov_status intervals(std::vector<double> &out, const double *meat, double level = 0.95,
                         int64_t draws = 199, int64_t p = kP) {
    return dpcov_adassp_sandwich_intervals(DPCOV_ROW_MAJOR, p, xtx_.data(), kP, xty_.data(),
                                           &receipt_, meat, kP, level, draws, rng_, out.data(),
                                           out.data() + 3, out.data() + 6, out.data() + 9,
                                           out.data() + 12);
  }
  dpcov_status robust(std::vector<double> &out, const double *meat,
                      const dpcov_receipt *meat_receipt) {
    return dpcov_adassp_robust_intervals(DPCOV_ROW_MAJOR, kP, xtx_.data(), kP, xty_.data(),
                                         &receipt_, meat, kP, meat_receipt, 0.95, 199, rng_,
                                         out.data(), out.data() + 3, out.data() + 6,
                                         out.data() + 9, out.data() + 12);
  }
  std::vector<unsigned char> state() const {
    std::vector<unsigned char> bytes(DPCOV_RNG_STATE_SIZE);
    dpcov_rng_state_save(rng_, bytes.data(), bytes.size());
    return bytes;
  }
  dpcov_rng *rng_ = nullptr;
  const double bound_x_ = std::sqrt(1.61);
  dpcov_sandwich_budget budget_ = sized_budget();
  dpcov_adassp_receipt receipt_{};
  dpcov_receipt meat_receipt_{};
  std::vector<double> rows_, beta0_ = std::vector<double>(3), xtx_ = std::vector<double>(9),
                             xty_ = std::vector<double>(3), meat_ = std::vector<double>(9);
};

TEST_F(CapiAdasspSandwich, GivesFiniteIntervalsAroundTheReleasedSolution) {
  release();
  std::vector<double> out(15, kSentinel);
  ASSERT_EQ(intervals(out, meat_.data()), DPCOV_OK) << dpcov_last_error_message();
  for (int j = 0; j < 3; ++j) {
    EXPECT_TRUE(std::isfinite(out[j]));
    EXPECT_GT(out[3 + j], 0.0);
    EXPECT_LT(out[9 + j], out[12 + j]);
  }
  // At epsilon 4 and n = 2000 the slope of x1 (0.5) is far from 0 and inside its interval.
  EXPECT_LT(out[9 + 1], 0.5);
  EXPECT_GT(out[12 + 1], 0.5);
  EXPECT_GT(out[9 + 1], 0.0);
}

TEST_F(CapiAdasspSandwich, RefusesBadArgumentsWithOutputsAndGeneratorUntouched) {
  release();
  std::vector<double> asymmetric = meat_, nan_meat = meat_;
  asymmetric[1] += 1.0;
  nan_meat[4] = kNaN;
  const std::vector<unsigned char> before = state();
  std::vector<double> out(15, kSentinel);
  const auto untouched = [&] {
    for (double v : out) EXPECT_EQ(v, kSentinel);
    EXPECT_EQ(state(), before);
  };
  EXPECT_EQ(intervals(out, asymmetric.data()), DPCOV_E_INVALID_ARGUMENT);
  untouched();
  EXPECT_EQ(intervals(out, nan_meat.data()), DPCOV_E_NON_FINITE);
  untouched();
  EXPECT_EQ(intervals(out, nullptr), DPCOV_E_NULL_POINTER);
  untouched();
  EXPECT_EQ(intervals(out, meat_.data(), 0.0), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(intervals(out, meat_.data(), kNaN), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(intervals(out, meat_.data(), 0.95, 3), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(intervals(out, meat_.data(), 0.95, 199, 2), DPCOV_E_DIMENSION);
  untouched();
  dpcov_adassp_receipt unsized = receipt_;
  unsized.struct_size = 0;
  EXPECT_EQ(dpcov_adassp_sandwich_intervals(DPCOV_ROW_MAJOR, kP, xtx_.data(), kP, xty_.data(),
                                            &unsized, meat_.data(), kP, 0.95, 199, rng_,
                                            out.data(), nullptr, nullptr, nullptr, nullptr),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_adassp_sandwich_intervals(DPCOV_ROW_MAJOR, kP, xtx_.data(), kP, xty_.data(),
                                            &receipt_, meat_.data(), kP, 0.95, 199, nullptr,
                                            out.data(), nullptr, nullptr, nullptr, nullptr),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_adassp_sandwich_intervals(DPCOV_ROW_MAJOR, kP, xtx_.data(), kP, xty_.data(),
                                            &receipt_, meat_.data(), kP, 0.95, 199, rng_,
                                            nullptr, nullptr, nullptr, nullptr, nullptr),
            DPCOV_E_NULL_POINTER);
  untouched();
}

// The meat's noise redrawn: a meat of 0 with the meat's noise law gives each coefficient's worlds
// the spread of that noise (E[(w_j' E w_j)_+] > 0, proofs/sandwich.md "One coefficient at a
// time") on top of the fit's privacy noise, all a fixed meat of 0 gives them (here the redrawn
// standard errors are 1.10-1.28 times the fixed ones; the standard error of a standard deviation
// of 199 draws is about 5%).
TEST_F(CapiAdasspSandwich, RedrawingTheMeatsNoiseWidensTheIntervalsOfANoisyMeat) {
  release();
  const std::vector<double> zero(9, 0.0);
  std::vector<double> fixed(15, kSentinel), redrawn(15, kSentinel);
  ASSERT_EQ(intervals(fixed, zero.data()), DPCOV_OK) << dpcov_last_error_message();
  ASSERT_EQ(robust(redrawn, zero.data(), &meat_receipt_), DPCOV_OK) << dpcov_last_error_message();
  for (int j = 0; j < 3; ++j) {
    EXPECT_EQ(redrawn[j], fixed[j]);  // the same centre
    EXPECT_GT(redrawn[3 + j], 1.05 * fixed[3 + j]) << j;
  }
  // On the released meat both give intervals around the released solution.
  ASSERT_EQ(robust(redrawn, meat_.data(), &meat_receipt_), DPCOV_OK);
  EXPECT_LT(redrawn[9 + 1], 0.5);
  EXPECT_GT(redrawn[12 + 1], 0.5);
}

TEST_F(CapiAdasspSandwich, RobustIntervalsRefuseABadMeatReceiptWithOutputsAndGeneratorUntouched) {
  release();
  const std::vector<unsigned char> before = state();
  std::vector<double> out(15, kSentinel);
  EXPECT_EQ(robust(out, meat_.data(), nullptr), DPCOV_E_NULL_POINTER);
  dpcov_receipt bad = meat_receipt_;
  bad.struct_size = 0;
  EXPECT_EQ(robust(out, meat_.data(), &bad), DPCOV_E_INVALID_ARGUMENT);
  bad = meat_receipt_;
  bad.dim = kP + 1;
  EXPECT_EQ(robust(out, meat_.data(), &bad), DPCOV_E_INVALID_ARGUMENT);
  bad = meat_receipt_;
  bad.mechanism = DPCOV_MECHANISM_IEV;
  EXPECT_EQ(robust(out, meat_.data(), &bad), DPCOV_E_INVALID_ARGUMENT);
  for (const double sigma : {0.0, -1.0, kNaN, double(INFINITY)}) {
    bad = meat_receipt_;
    bad.sigma = sigma;
    EXPECT_NE(robust(out, meat_.data(), &bad), DPCOV_OK) << sigma;
  }
  EXPECT_EQ(robust(out, nullptr, &meat_receipt_), DPCOV_E_NULL_POINTER);
  for (double v : out) EXPECT_EQ(v, kSentinel);
  EXPECT_EQ(state(), before);
}

TEST_F(CapiAdasspSandwich, RefusesWhereTheReleasedXtxIsNotPositiveDefinite) {
  release();
  for (double &v : xtx_) v = -v;
  std::vector<double> out(15, kSentinel);
  EXPECT_EQ(intervals(out, meat_.data()), DPCOV_E_PRECONDITION);
  for (double v : out) EXPECT_EQ(v, kSentinel);
}

}  // namespace
