// dpcov_adassp_intervals through the shared library: the posterior answers where the bootstrap
// refuses, the bootstrap's answer is kept where it answers, the conclusiveness flag follows its
// public rule, and every bad argument fails with outputs and generator untouched. The same for
// dpcov_adassp_profile_intervals, which answers on every release without draws.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

const double kSentinel = -12345.0;
const int32_t kIntSentinel = -7;

// 200 rows [1, x1, x2, y], y = 0.5 x1 - 0.25 x2 plus a residual orthogonal to them with
// e'e = 2: ||(1, x)|| <= sqrt(1.5), |y| <= 1, column 0 the intercept (row-major, 4 x 4).
std::vector<double> gram4() {
  std::vector<double> g(16, 0.0);
  for (int i = 0; i < 200; ++i) {
    const double x[3] = {1.0, 0.7 * std::sin(0.37 * i), 0.5 * std::cos(0.91 * i)};
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) g[a * 4 + b] += x[a] * x[b];
  }
  for (int a = 0; a < 3; ++a) g[a * 4 + 3] = g[3 * 4 + a] = 0.5 * g[a * 4 + 1] - 0.25 * g[a * 4 + 2];
  g[15] = 0.25 * g[5] - 0.25 * g[6] + 0.0625 * g[10] + 2.0;
  return g;
}

struct Answer {
  std::vector<double> coef = std::vector<double>(3, kSentinel), se = coef, p = coef, lo = coef,
                      hi = coef;
  std::vector<int32_t> conclusive = std::vector<int32_t>(3, kIntSentinel);
  int32_t method = kIntSentinel;
};

class CapiAdasspIntervals : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(dpcov_rng_create_seeded(&rng_, 33, 0), DPCOV_OK); }
  void TearDown() override { dpcov_rng_destroy(&rng_); }
  // An AdaSSP fit with y'y at epsilon of gram4's rows.
  void fit(double epsilon) {
    dpcov_adassp_params params;
    ASSERT_EQ(dpcov_adassp_params_default(&params), DPCOV_OK);
    params.release_label_square = 1;
    receipt_.struct_size = sizeof receipt_;
    const int64_t features[3] = {0, 1, 2};
    std::vector<double> coef(3);
    ASSERT_EQ(dpcov_adassp_fit(DPCOV_ROW_MAJOR, 4, g_.data(), 4, 3, features, 3, std::sqrt(1.5),
                               1.0, epsilon, 1e-6, &params, rng_, coef.data(), xtx_.data(), 3,
                               xty_.data(), &receipt_),
              DPCOV_OK)
        << dpcov_last_error_message();
  }
  dpcov_status intervals(Answer &a, int64_t draws = 999) {
    return dpcov_adassp_intervals(DPCOV_ROW_MAJOR, 3, xtx_.data(), 3, xty_.data(), 200, &receipt_,
                                  0, 0.95, draws, rng_, a.coef.data(), a.se.data(), a.p.data(),
                                  a.lo.data(), a.hi.data(), a.conclusive.data(), &a.method);
  }
  std::vector<unsigned char> state() const {
    std::vector<unsigned char> bytes(DPCOV_RNG_STATE_SIZE);
    dpcov_rng_state_save(rng_, bytes.data(), bytes.size());
    return bytes;
  }
  dpcov_rng *rng_ = nullptr;
  dpcov_adassp_receipt receipt_{};
  std::vector<double> g_ = gram4(), xtx_ = std::vector<double>(9), xty_ = std::vector<double>(3);
};

// At epsilon = 0.1 the noise on X'X (sigma about 10^2) swamps X'X (diagonal about 50 for the
// slopes): the bootstrap refuses, the posterior answers with honest intervals.
TEST_F(CapiAdasspIntervals, PosteriorAnswersWhereTheBootstrapRefuses) {
  fit(0.1);
  std::vector<double> out(3);
  ASSERT_EQ(dpcov_adassp_bootstrap_intervals(DPCOV_ROW_MAJOR, 3, xtx_.data(), 3, xty_.data(), 200,
                                             &receipt_, 0.95, 999, rng_, out.data(), nullptr,
                                             nullptr, out.data(), out.data()),
            DPCOV_E_PRECONDITION);
  Answer a;
  ASSERT_EQ(intervals(a), DPCOV_OK) << dpcov_last_error_message();
  EXPECT_EQ(a.method, DPCOV_INTERVALS_POSTERIOR);
  const double exact[3] = {0.0, 0.5, -0.25};
  const double half_range[3] = {1.0, 1.0 / std::sqrt(0.5), 1.0 / std::sqrt(0.5)};  // B_Y, B_Y/B
  for (int j = 0; j < 3; ++j) {
    EXPECT_TRUE(std::isfinite(a.lo[j]) && std::isfinite(a.hi[j]));
    EXPECT_LT(a.lo[j], a.coef[j]);
    EXPECT_GT(a.hi[j], a.coef[j]);
    EXPECT_LE(a.lo[j], exact[j]);
    EXPECT_GE(a.hi[j], exact[j]);
    EXPECT_GT(a.se[j], 0.0);
    EXPECT_GE(a.p[j], 0.0);
    EXPECT_LE(a.p[j], 1.0);
    // An interval that covers every value that matters is 0; another is 1, or -2 where a prior
    // holds most of its width (the sampling share, which the ABI does not return).
    const bool covers_all = a.lo[j] <= -half_range[j] && a.hi[j] >= half_range[j];
    if (covers_all)
      EXPECT_EQ(a.conclusive[j], 0) << j;
    else
      EXPECT_TRUE(a.conclusive[j] == 1 || a.conclusive[j] == -2) << j << " " << a.conclusive[j];
  }
}

// The posterior in other label units: the same release with y scaled by s (X'y by s, y'y by
// s^2, their noise scales and B_Y with them) gives the intervals scaled by s, from the label's
// largest units to its smallest, where its sums in the data's units would overflow or underflow.
TEST_F(CapiAdasspIntervals, ThePosteriorIsTheSameInEveryUnitOfTheLabel) {
  fit(0.1);
  const std::vector<unsigned char> start = state();
  Answer base;
  ASSERT_EQ(intervals(base), DPCOV_OK) << dpcov_last_error_message();
  ASSERT_EQ(base.method, DPCOV_INTERVALS_POSTERIOR);
  const dpcov_adassp_receipt r = receipt_;
  const std::vector<double> xty = xty_;
  for (double s : {0x1p-300, 0x1p-40, 0x1p40, 0x1p250}) {
    receipt_ = r;
    receipt_.bound_y = r.bound_y * s;
    receipt_.sensitivity_cross = r.sensitivity_cross * s;
    receipt_.sigma_cross = r.sigma_cross * s;
    receipt_.sensitivity_label_square = r.sensitivity_label_square * s * s;
    receipt_.sigma_label_square = r.sigma_label_square * s * s;
    receipt_.released_label_square = r.released_label_square * s * s;
    for (int j = 0; j < 3; ++j) xty_[j] = xty[j] * s;
    ASSERT_EQ(dpcov_rng_state_restore(rng_, start.data(), start.size()), DPCOV_OK);
    Answer a;
    ASSERT_EQ(intervals(a), DPCOV_OK) << s << ": " << dpcov_last_error_message();
    for (int j = 0; j < 3; ++j) {
      EXPECT_EQ(a.coef[j], base.coef[j] * s) << s << " " << j;
      EXPECT_EQ(a.lo[j], base.lo[j] * s) << s << " " << j;
      EXPECT_EQ(a.hi[j], base.hi[j] * s) << s << " " << j;
      EXPECT_EQ(a.conclusive[j], base.conclusive[j]) << s << " " << j;
    }
  }
}

TEST_F(CapiAdasspIntervals, WhereTheBootstrapAnswersItsAnswerIsKept) {
  fit(1e6);
  unsigned char state[DPCOV_RNG_STATE_SIZE];
  ASSERT_EQ(dpcov_rng_state_save(rng_, state, sizeof state), DPCOV_OK);
  Answer b;
  ASSERT_EQ(dpcov_adassp_bootstrap_intervals(DPCOV_ROW_MAJOR, 3, xtx_.data(), 3, xty_.data(), 200,
                                             &receipt_, 0.95, 999, rng_, b.coef.data(),
                                             b.se.data(), b.p.data(), b.lo.data(), b.hi.data()),
            DPCOV_OK);
  ASSERT_EQ(dpcov_rng_state_restore(rng_, state, sizeof state), DPCOV_OK);
  Answer a;
  ASSERT_EQ(intervals(a), DPCOV_OK) << dpcov_last_error_message();
  EXPECT_EQ(a.method, DPCOV_INTERVALS_BOOTSTRAP);
  EXPECT_EQ(a.lo, b.lo);
  EXPECT_EQ(a.hi, b.hi);
  EXPECT_EQ(a.coef, b.coef);
  EXPECT_EQ(a.conclusive, std::vector<int32_t>(3, 1));
}

TEST_F(CapiAdasspIntervals, BadArgumentsLeaveOutputsAndGeneratorUntouched) {
  fit(1.0);
  const std::vector<unsigned char> before = state();
  Answer a;
  const auto call = [&](int64_t intercept, int64_t draws, double level = 0.95, int64_t n = 200,
                        const dpcov_adassp_receipt *r = nullptr, bool null_flags = false,
                        bool null_method = false, bool null_ci = false) {
    return dpcov_adassp_intervals(
        DPCOV_ROW_MAJOR, 3, xtx_.data(), 3, xty_.data(), n, r ? r : &receipt_, intercept, level,
        draws, rng_, a.coef.data(), a.se.data(), a.p.data(), null_ci ? nullptr : a.lo.data(),
        a.hi.data(), null_flags ? nullptr : a.conclusive.data(), null_method ? nullptr : &a.method);
  };
  EXPECT_EQ(call(-2, 999), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(3, 999), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(0, 38), DPCOV_E_INVALID_ARGUMENT);  // an end would not be an order statistic
  EXPECT_EQ(call(0, DPCOV_MAX_SIMULATION_DRAWS + 1), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(0, 999, 0.0), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(0, 999, std::numeric_limits<double>::quiet_NaN()), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(call(0, 999, 0.95, 3), DPCOV_OK);  // n <= p
  EXPECT_EQ(call(0, 999, 0.95, 200, nullptr, true), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(0, 999, 0.95, 200, nullptr, false, true), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(0, 999, 0.95, 200, nullptr, false, false, true), DPCOV_E_NULL_POINTER);
  dpcov_adassp_receipt without = receipt_;
  without.label_square_released = 0;
  EXPECT_EQ(call(0, 999, 0.95, 200, &without), DPCOV_E_INVALID_ARGUMENT);
  dpcov_adassp_receipt no_scale = receipt_;
  no_scale.sigma_gram = 0.0;
  EXPECT_EQ(call(0, 999, 0.95, 200, &no_scale), DPCOV_E_INVALID_ARGUMENT);
  dpcov_adassp_receipt small = receipt_;
  small.struct_size = 8;
  EXPECT_EQ(call(0, 999, 0.95, 200, &small), DPCOV_E_INVALID_ARGUMENT);
  // The bounds decide what is conclusive, on either method.
  for (double bad : {std::numeric_limits<double>::quiet_NaN(), -1.0, 0.0}) {
    dpcov_adassp_receipt bounds = receipt_;
    bounds.bound = bad;
    EXPECT_NE(call(0, 999, 0.95, 200, &bounds), DPCOV_OK) << bad;
    bounds = receipt_;
    bounds.bound_y = bad;
    EXPECT_NE(call(0, 999, 0.95, 200, &bounds), DPCOV_OK) << bad;
  }
  xty_[1] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(call(0, 999), DPCOV_E_NON_FINITE);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("released_xty[1]"), std::string::npos);
  xty_[1] = 0.0;
  xtx_[1] = std::numeric_limits<double>::infinity();
  EXPECT_EQ(call(0, 999), DPCOV_E_NON_FINITE);
  for (const auto *v : {&a.coef, &a.se, &a.p, &a.lo, &a.hi})
    for (double x : *v) EXPECT_EQ(x, kSentinel);
  for (int32_t c : a.conclusive) EXPECT_EQ(c, kIntSentinel);
  EXPECT_EQ(a.method, kIntSentinel);
  EXPECT_EQ(state(), before);
}

struct ProfileAnswer {
  std::vector<double> coef = std::vector<double>(3, kSentinel), p = coef, lo = coef, hi = coef;
  std::vector<int32_t> conclusive = std::vector<int32_t>(3, kIntSentinel);
};

dpcov_status profile(const std::vector<double> &xtx, const std::vector<double> &xty,
                     const dpcov_adassp_receipt &receipt, ProfileAnswer &a,
                     const double *meat = nullptr, int64_t n = 200, double level = 0.95,
                     int64_t intercept = 0) {
  return dpcov_adassp_profile_intervals(DPCOV_ROW_MAJOR, 3, xtx.data(), 3, xty.data(), n,
                                        &receipt, meat, 3, intercept, level, a.coef.data(),
                                        a.p.data(), a.lo.data(), a.hi.data(),
                                        a.conclusive.data());
}

// Where the noise swamps X'X the profile still answers, without a draw: each interval holds the
// estimate, and the slopes' cannot support a conclusion.
TEST_F(CapiAdasspIntervals, ProfileAnswersWhereTheBootstrapRefuses) {
  fit(0.1);
  const std::vector<unsigned char> before = state();
  ProfileAnswer a;
  ASSERT_EQ(profile(xtx_, xty_, receipt_, a), DPCOV_OK) << dpcov_last_error_message();
  EXPECT_EQ(state(), before);
  for (int j = 0; j < 3; ++j) {
    EXPECT_TRUE(std::isfinite(a.lo[j]) && std::isfinite(a.hi[j])) << j;
    EXPECT_LE(a.lo[j], a.coef[j]) << j;
    EXPECT_GE(a.hi[j], a.coef[j]) << j;
    EXPECT_TRUE(a.p[j] >= 0.0 && a.p[j] <= 1.0) << j;
  }
  EXPECT_EQ(a.conclusive[1], 0);
  EXPECT_EQ(a.conclusive[2], 0);
}

// Where the noise is negligible the profile is the Gaussian interval of beta~, as the bootstrap's
// is: the same estimate, widths within a quarter of each other, conclusive both.
TEST_F(CapiAdasspIntervals, ProfileAgreesWithTheBootstrapWhereTheNoiseIsNegligible) {
  fit(1e6);
  Answer b;
  ASSERT_EQ(dpcov_adassp_bootstrap_intervals(DPCOV_ROW_MAJOR, 3, xtx_.data(), 3, xty_.data(), 200,
                                             &receipt_, 0.95, 999, rng_, b.coef.data(),
                                             b.se.data(), b.p.data(), b.lo.data(), b.hi.data()),
            DPCOV_OK);
  ProfileAnswer a;
  ASSERT_EQ(profile(xtx_, xty_, receipt_, a), DPCOV_OK) << dpcov_last_error_message();
  for (int j = 0; j < 3; ++j) {
    EXPECT_NEAR(a.coef[j], b.coef[j], 1e-9 * (1.0 + std::fabs(b.coef[j]))) << j;
    const double ratio = (a.hi[j] - a.lo[j]) / (b.hi[j] - b.lo[j]);
    EXPECT_GT(ratio, 0.8) << j;
    EXPECT_LT(ratio, 1.25) << j;
    EXPECT_EQ(a.conclusive[j], 1) << j;
  }
  // The meat's positive part in place of s^2 X'X~: y'y and n are not read.
  const std::vector<double> meat = {2.0 / 200.0 * xtx_[0], 0.0, 0.0,
                                    0.0, 2.0 / 200.0 * xtx_[4], 0.0,
                                    0.0, 0.0, 2.0 / 200.0 * xtx_[8]};
  dpcov_adassp_receipt without = receipt_;
  without.label_square_released = 0;
  ProfileAnswer robust;
  ASSERT_EQ(profile(xtx_, xty_, without, robust, meat.data(), 0), DPCOV_OK)
      << dpcov_last_error_message();
  EXPECT_EQ(robust.coef, a.coef);
}

TEST_F(CapiAdasspIntervals, ProfileBadArgumentsLeaveOutputsUntouched) {
  fit(1.0);
  ProfileAnswer a;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(profile(xtx_, xty_, receipt_, a, nullptr, 200, 0.95, -2), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(profile(xtx_, xty_, receipt_, a, nullptr, 200, 0.95, 3), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(profile(xtx_, xty_, receipt_, a, nullptr, 200, 1.0), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(profile(xtx_, xty_, receipt_, a, nullptr, 200, nan), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(profile(xtx_, xty_, receipt_, a, nullptr, 3), DPCOV_E_INVALID_ARGUMENT);  // n <= p
  dpcov_adassp_receipt without = receipt_;
  without.label_square_released = 0;
  EXPECT_EQ(profile(xtx_, xty_, without, a), DPCOV_E_INVALID_ARGUMENT);
  dpcov_adassp_receipt no_scale = receipt_;
  no_scale.sigma_gram = 0.0;
  EXPECT_EQ(profile(xtx_, xty_, no_scale, a), DPCOV_E_INVALID_ARGUMENT);
  dpcov_adassp_receipt units = receipt_;
  units.max_rows_per_unit = 4;
  EXPECT_EQ(profile(xtx_, xty_, units, a), DPCOV_E_INCOMPATIBLE);
  dpcov_adassp_receipt small = receipt_;
  small.struct_size = 8;
  EXPECT_EQ(profile(xtx_, xty_, small, a), DPCOV_E_INVALID_ARGUMENT);
  const std::vector<double> lopsided = {1.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0};
  EXPECT_EQ(profile(xtx_, xty_, receipt_, a, lopsided.data()), DPCOV_E_INVALID_ARGUMENT);
  const std::vector<double> singular(9, 1.0);
  EXPECT_EQ(profile(singular, xty_, receipt_, a), DPCOV_E_PRECONDITION);
  EXPECT_EQ(dpcov_adassp_profile_intervals(DPCOV_ROW_MAJOR, 3, xtx_.data(), 3, xty_.data(), 200,
                                           &receipt_, nullptr, 3, 0, 0.95, a.coef.data(),
                                           a.p.data(), a.lo.data(), a.hi.data(), nullptr),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_adassp_profile_intervals(DPCOV_ROW_MAJOR, 3, xtx_.data(), 3, xty_.data(), 200,
                                           nullptr, nullptr, 3, 0, 0.95, a.coef.data(),
                                           a.p.data(), a.lo.data(), a.hi.data(),
                                           a.conclusive.data()),
            DPCOV_E_NULL_POINTER);
  std::vector<double> infinite = xtx_;
  infinite[1] = std::numeric_limits<double>::infinity();
  EXPECT_EQ(profile(infinite, xty_, receipt_, a), DPCOV_E_NON_FINITE);
  for (const auto *v : {&a.coef, &a.p, &a.lo, &a.hi})
    for (double x : *v) EXPECT_EQ(x, kSentinel);
  for (int32_t c : a.conclusive) EXPECT_EQ(c, kIntSentinel);
}

}  // namespace
