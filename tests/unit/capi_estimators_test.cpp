// The estimators through the C ABI: results on hand-checked problems in both layouts, and every
// bad argument of every entry point, with outputs left untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();
constexpr double kSentinel = -12345.0;

std::string last() {
  return dpcov_last_error_message();
}

// Simple regression data: columns x, 1, y of five rows; G = A^T A, column-major 3 x 3.
struct Simple {
  std::vector<double> x = {1, 2, 3, 4, 5}, y = {2.1, 3.9, 6.2, 7.8, 10.1};
  std::vector<double> g = std::vector<double>(9);
  Simple() {
    std::vector<std::vector<double>> cols = {x, std::vector<double>(5, 1.0), y};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        double s = 0;
        for (int r = 0; r < 5; ++r) s += cols[i][r] * cols[j][r];
        g[i + 3 * j] = s;
      }
  }
};

class CapiRegression : public ::testing::Test {
 protected:
  dpcov_status fit(const double *g, int64_t ldg = 3, int32_t layout = DPCOV_COL_MAJOR,
                   int64_t d = 3, int64_t n = 5, int64_t label = 2,
                   const int64_t *features = nullptr, int64_t num_features = 1,
                   const dpcov_regression_params *params = nullptr) {
    return dpcov_regression_fit(layout, d, g, ldg, n, label, features ? features : feature_,
                                num_features, params ? params : &params_, coef_.data(), se_.data(),
                                t_.data(), p_.data(), lo_.data(), hi_.data(), &summary_);
  }
  void SetUp() override {
    ASSERT_EQ(dpcov_regression_params_default(&params_), DPCOV_OK);
    params_.intercept_column = 1;
    summary_.struct_size = sizeof summary_;
  }
  void expect_untouched() {
    for (const auto *v : {&coef_, &se_, &t_, &p_, &lo_, &hi_})
      for (double e : *v) EXPECT_EQ(e, kSentinel) << "output written on failure";
    EXPECT_EQ(summary_.dof, -7);
  }
  Simple data_;
  int64_t feature_[1] = {0};
  dpcov_regression_params params_{};
  std::vector<double> coef_ = std::vector<double>(2, kSentinel), se_ = coef_, t_ = coef_,
                      p_ = coef_, lo_ = coef_, hi_ = coef_;
  dpcov_regression_summary summary_{sizeof(dpcov_regression_summary), 0, -7, 0, 0, 0, 0};
};

TEST_F(CapiRegression, SimpleRegressionMatchesTextbookFormulas) {
  ASSERT_EQ(fit(data_.g.data()), DPCOV_OK) << last();
  double mx = 0, my = 0;
  for (int i = 0; i < 5; ++i) mx += data_.x[i] / 5, my += data_.y[i] / 5;
  double sxx = 0, sxy = 0;
  for (int i = 0; i < 5; ++i) {
    sxx += (data_.x[i] - mx) * (data_.x[i] - mx);
    sxy += (data_.x[i] - mx) * (data_.y[i] - my);
  }
  const double b1 = sxy / sxx, b0 = my - b1 * mx;
  double rss = 0;
  for (int i = 0; i < 5; ++i) rss += std::pow(data_.y[i] - b0 - b1 * data_.x[i], 2);
  const double s2 = rss / 3;
  const double se0 = std::sqrt(s2 * (0.2 + mx * mx / sxx)), se1 = std::sqrt(s2 / sxx);
  // t_{0.975}(3) by mpmath (findroot on betainc, 40 digits); SciPy 1.10 gives
  // 3.1824463052842638, 1.7e-13 too high.
  const double tcrit = 3.1824463052837096;
  EXPECT_NEAR(coef_[0], b0, 1e-12);
  EXPECT_NEAR(coef_[1], b1, 1e-12);
  EXPECT_NEAR(se_[0], se0, 1e-10 * se0);
  EXPECT_NEAR(se_[1], se1, 1e-10 * se1);
  EXPECT_NEAR(t_[1], b1 / se1, 1e-9 * b1 / se1);
  EXPECT_NEAR(lo_[1], b1 - tcrit * se1, 1e-10);
  EXPECT_NEAR(hi_[0], b0 + tcrit * se0, 1e-10);
  EXPECT_GT(p_[0], 0.0);
  EXPECT_LT(p_[1], 1e-4);
  EXPECT_EQ(summary_.num_coefficients, 2);
  EXPECT_EQ(summary_.dof, 3);
  EXPECT_NEAR(summary_.rss, rss, 1e-10);
  EXPECT_NEAR(summary_.t_critical, tcrit, 1e-13);
  EXPECT_EQ(summary_.rss_clamped, 0);
}

TEST_F(CapiRegression, RowMajorPaddedInputGivesTheSameResultAndOptionalOutputsMayBeNull) {
  ASSERT_EQ(fit(data_.g.data()), DPCOV_OK);
  std::vector<double> rm(3 * 5, kNaN);  // padding holds NaN, which must never be read
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) rm[i * 5 + j] = data_.g[i + 3 * j];
  std::vector<double> coef(2);
  ASSERT_EQ(dpcov_regression_fit(DPCOV_ROW_MAJOR, 3, rm.data(), 5, 5, 2, feature_, 1, &params_,
                                 coef.data(), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr),
            DPCOV_OK)
      << last();
  EXPECT_EQ(coef[0], coef_[0]);
  EXPECT_EQ(coef[1], coef_[1]);
}

TEST_F(CapiRegression, DefaultParamsMeanNoInterceptNoRidgeAndLevel95) {
  dpcov_regression_params p;
  ASSERT_EQ(dpcov_regression_params_default(&p), DPCOV_OK);
  EXPECT_EQ(p.struct_size, sizeof p);
  EXPECT_EQ(p.intercept_column, -1);
  EXPECT_EQ(p.ridge, 0.0);
  EXPECT_EQ(p.level, 0.95);
  EXPECT_EQ(dpcov_regression_params_default(nullptr), DPCOV_E_NULL_POINTER);
  std::vector<double> coef(1);
  ASSERT_EQ(dpcov_regression_fit(DPCOV_COL_MAJOR, 3, data_.g.data(), 3, 5, 2, feature_, 1, nullptr,
                                 coef.data(), nullptr, nullptr, nullptr, nullptr, nullptr, nullptr),
            DPCOV_OK);
  EXPECT_NEAR(coef[0], data_.g[0 + 3 * 2] / data_.g[0], 1e-14);  // x'y / x'x
}

TEST_F(CapiRegression, RejectsEachBadArgumentAndLeavesOutputsUntouched) {
  const double *g = data_.g.data();
  struct Case {
    dpcov_status want;
    dpcov_status got;
    const char *what;
  };
  std::vector<Case> cases;
  const auto add = [&](dpcov_status want, dpcov_status got, const char *what) {
    cases.push_back({want, got, what});
    EXPECT_EQ(got, want) << what << ": " << last();
    EXPECT_FALSE(last().empty()) << what;
    expect_untouched();
  };
  add(DPCOV_E_NULL_POINTER, fit(nullptr), "g NULL");
  add(DPCOV_E_LAYOUT, fit(g, 3, 7), "layout");
  add(DPCOV_E_DIMENSION, fit(g, 3, DPCOV_COL_MAJOR, 1), "d = 1");
  add(DPCOV_E_DIMENSION, fit(g, 3, DPCOV_COL_MAJOR, 0), "d = 0");
  add(DPCOV_E_LAYOUT, fit(g, 2), "ldg < d");
  std::vector<double> asym = data_.g;
  asym[1] += 1e-9;
  add(DPCOV_E_INVALID_ARGUMENT, fit(asym.data()), "not symmetric");
  std::vector<double> nan = data_.g;
  nan[4] = kNaN;
  add(DPCOV_E_NON_FINITE, fit(nan.data()), "NaN in g");
  nan[4] = kInf;
  add(DPCOV_E_NON_FINITE, fit(nan.data()), "Inf in g");
  add(DPCOV_E_DIMENSION, fit(g, 3, DPCOV_COL_MAJOR, 3, 5, 2, nullptr, -1), "num_features < 0");
  EXPECT_EQ(dpcov_regression_fit(DPCOV_COL_MAJOR, 3, g, 3, 5, 2, nullptr, 1, &params_, coef_.data(),
                                 nullptr, nullptr, nullptr, nullptr, nullptr, nullptr),
            DPCOV_E_NULL_POINTER);
  add(DPCOV_E_INVALID_ARGUMENT, fit(g, 3, DPCOV_COL_MAJOR, 3, 5, 3), "label out of range");
  add(DPCOV_E_INVALID_ARGUMENT, fit(g, 3, DPCOV_COL_MAJOR, 3, 5, -1), "label negative");
  const int64_t dup[2] = {0, 0}, is_label[1] = {2}, is_intercept[1] = {1}, out_of_range[1] = {3};
  add(DPCOV_E_INVALID_ARGUMENT, fit(g, 3, DPCOV_COL_MAJOR, 3, 5, 2, dup, 2), "duplicate feature");
  add(DPCOV_E_INVALID_ARGUMENT, fit(g, 3, DPCOV_COL_MAJOR, 3, 5, 2, is_label, 1),
      "feature = label");
  add(DPCOV_E_INVALID_ARGUMENT, fit(g, 3, DPCOV_COL_MAJOR, 3, 5, 2, is_intercept, 1),
      "feature = intercept");
  add(DPCOV_E_INVALID_ARGUMENT, fit(g, 3, DPCOV_COL_MAJOR, 3, 5, 2, out_of_range, 1),
      "feature out of range");
  add(DPCOV_E_INVALID_ARGUMENT, fit(g, 3, DPCOV_COL_MAJOR, 3, 2), "n <= p");
  dpcov_regression_params p = params_;
  p.struct_size = 0;
  add(DPCOV_E_INVALID_ARGUMENT, fit(g, 3, DPCOV_COL_MAJOR, 3, 5, 2, nullptr, 1, &p), "struct_size");
  p = params_;
  p.intercept_column = 2;
  add(DPCOV_E_INVALID_ARGUMENT, fit(g, 3, DPCOV_COL_MAJOR, 3, 5, 2, nullptr, 1, &p),
      "intercept = label");
  p.intercept_column = 5;
  add(DPCOV_E_INVALID_ARGUMENT, fit(g, 3, DPCOV_COL_MAJOR, 3, 5, 2, nullptr, 1, &p),
      "intercept out of range");
  p = params_;
  p.ridge = -1;
  add(DPCOV_E_INVALID_ARGUMENT, fit(g, 3, DPCOV_COL_MAJOR, 3, 5, 2, nullptr, 1, &p), "ridge < 0");
  p.ridge = kNaN;
  add(DPCOV_E_NON_FINITE, fit(g, 3, DPCOV_COL_MAJOR, 3, 5, 2, nullptr, 1, &p), "ridge NaN");
  p = params_;
  p.level = 1.0;
  add(DPCOV_E_INVALID_ARGUMENT, fit(g, 3, DPCOV_COL_MAJOR, 3, 5, 2, nullptr, 1, &p), "level 1");
  p.level = -0.5;
  add(DPCOV_E_INVALID_ARGUMENT, fit(g, 3, DPCOV_COL_MAJOR, 3, 5, 2, nullptr, 1, &p), "level < 0");
  p.level = kNaN;
  add(DPCOV_E_NON_FINITE, fit(g, 3, DPCOV_COL_MAJOR, 3, 5, 2, nullptr, 1, &p), "level NaN");
  p = params_;
  p.intercept_column = -1;
  add(DPCOV_E_INVALID_ARGUMENT, fit(g, 3, DPCOV_COL_MAJOR, 3, 5, 2, nullptr, 0, &p),
      "no coefficient");
  summary_.struct_size = 8;
  add(DPCOV_E_INVALID_ARGUMENT, fit(g), "summary struct_size");
  summary_.struct_size = sizeof summary_;
  EXPECT_EQ(dpcov_regression_fit(DPCOV_COL_MAJOR, 3, g, 3, 5, 2, feature_, 1, &params_, nullptr,
                                 se_.data(), nullptr, nullptr, nullptr, nullptr, nullptr),
            DPCOV_E_NULL_POINTER);
  expect_untouched();
  // An indefinite release: X'X = [[1, 2], [2, 1]] with features 0 and 1.
  std::vector<double> indefinite = {1, 2, 0.5, 2, 1, 0.3, 0.5, 0.3, 4};
  const int64_t both[2] = {0, 1};
  p = params_;
  p.intercept_column = -1;
  add(DPCOV_E_NOT_POSITIVE_DEFINITE,
      fit(indefinite.data(), 3, DPCOV_COL_MAJOR, 3, 5, 2, both, 2, &p), "indefinite");
  EXPECT_NE(last().find("ridge"), std::string::npos);
}

TEST(CapiPca, TopKOfADiagonalMatrixInEitherLayout) {
  // diag(1, 4, 2): components e1 (4), e2 (2).
  const double a[9] = {1, 0, 0, 0, 4, 0, 0, 0, 2};
  for (int32_t layout : {DPCOV_ROW_MAJOR, DPCOV_COL_MAJOR}) {
    double values[2], ratio[2];
    std::vector<double> vectors(3 * 4, kSentinel);
    const int64_t ldv = layout == DPCOV_ROW_MAJOR ? 4 : 4;
    ASSERT_EQ(dpcov_pca_top_k(layout, 3, a, 3, 2, values, vectors.data(), ldv, ratio), DPCOV_OK)
        << last();
    EXPECT_DOUBLE_EQ(values[0], 4.0);
    EXPECT_DOUBLE_EQ(values[1], 2.0);
    EXPECT_DOUBLE_EQ(ratio[0], 4.0 / 7.0);
    const auto at = [&](int i, int j) {
      return layout == DPCOV_ROW_MAJOR ? vectors[i * ldv + j] : vectors[i + j * ldv];
    };
    EXPECT_DOUBLE_EQ(at(1, 0), 1.0);
    EXPECT_DOUBLE_EQ(at(2, 1), 1.0);
    EXPECT_DOUBLE_EQ(at(0, 0), 0.0);
  }
}

TEST(CapiPca, RejectsEachBadArgumentAndLeavesOutputsUntouched) {
  const double a[9] = {1, 0, 0, 0, 4, 0, 0, 0, 2};
  const double asym[9] = {1, 1, 0, 0, 4, 0, 0, 0, 2};
  const double nan[9] = {1, 0, 0, 0, kNaN, 0, 0, 0, 2};
  const double negative[9] = {-1, 0, 0, 0, -4, 0, 0, 0, 2};
  double values[3] = {kSentinel, kSentinel, kSentinel},
         ratio[3] = {kSentinel, kSentinel, kSentinel};
  double vectors[9] = {kSentinel};
  const auto call = [&](int32_t layout, int64_t d, const double *m, int64_t lda, int64_t k,
                        double *vals, double *vecs, int64_t ldv, double *r) {
    const dpcov_status s = dpcov_pca_top_k(layout, d, m, lda, k, vals, vecs, ldv, r);
    EXPECT_EQ(values[0], kSentinel);
    EXPECT_EQ(ratio[0], kSentinel);
    EXPECT_EQ(vectors[0], kSentinel);
    return s;
  };
  EXPECT_EQ(call(DPCOV_COL_MAJOR, 3, nullptr, 3, 1, values, vectors, 3, ratio),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(5, 3, a, 3, 1, values, vectors, 3, ratio), DPCOV_E_LAYOUT);
  EXPECT_EQ(call(DPCOV_COL_MAJOR, 0, a, 3, 1, values, vectors, 3, ratio), DPCOV_E_DIMENSION);
  EXPECT_EQ(call(DPCOV_COL_MAJOR, 3, a, 2, 1, values, vectors, 3, ratio), DPCOV_E_LAYOUT);
  EXPECT_EQ(call(DPCOV_COL_MAJOR, 3, asym, 3, 1, values, vectors, 3, ratio),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(DPCOV_COL_MAJOR, 3, nan, 3, 1, values, vectors, 3, ratio), DPCOV_E_NON_FINITE);
  EXPECT_EQ(call(DPCOV_COL_MAJOR, 3, a, 3, 0, values, vectors, 3, ratio), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(DPCOV_COL_MAJOR, 3, a, 3, 4, values, vectors, 3, ratio), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(DPCOV_COL_MAJOR, 3, a, 3, 1, nullptr, vectors, 3, ratio), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(DPCOV_COL_MAJOR, 3, a, 3, 2, values, vectors, 2, ratio), DPCOV_E_LAYOUT);
  EXPECT_EQ(call(DPCOV_ROW_MAJOR, 3, a, 3, 2, values, vectors, 1, ratio), DPCOV_E_LAYOUT);
  // Trace -3: the ratios are those of the PSD projection diag(0, 0, 2).
  EXPECT_EQ(dpcov_pca_top_k(DPCOV_COL_MAJOR, 3, negative, 3, 1, values, vectors, 3, ratio),
            DPCOV_OK);
  EXPECT_EQ(ratio[0], 1.0);
}

TEST(CapiPca, SubspaceDistanceOfARotation) {
  // diag(2, 1) and the same rotated by 0.25 rad: top-1 subspaces at angle 0.25.
  const double c = std::cos(0.25), s = std::sin(0.25);
  const double a[4] = {2, 0, 0, 1};
  double b[4] = {2 * c * c + s * s, c * s, c * s, 2 * s * s + c * c};
  double spectral = kSentinel, frobenius = kSentinel, angles[1] = {kSentinel};
  ASSERT_EQ(
      dpcov_pca_subspace_distance(DPCOV_ROW_MAJOR, 2, a, 2, b, 2, 1, &spectral, &frobenius, angles),
      DPCOV_OK)
      << last();
  EXPECT_NEAR(angles[0], 0.25, 1e-14);
  EXPECT_NEAR(spectral, s, 1e-14);
  EXPECT_NEAR(frobenius, s, 1e-14);
  ASSERT_EQ(dpcov_pca_subspace_distance(DPCOV_ROW_MAJOR, 2, a, 2, b, 2, 2, &spectral, &frobenius,
                                        nullptr),
            DPCOV_OK);
  EXPECT_NEAR(spectral, 0.0, 1e-15);  // both top-2 subspaces are the whole plane
}

TEST(CapiPca, SubspaceDistanceRejectsEachBadArgument) {
  const double a[4] = {2, 0, 0, 1}, asym[4] = {2, 1, 0, 1}, nan[4] = {2, 0, 0, kNaN};
  double sp = kSentinel, fr = kSentinel, an[2] = {kSentinel, kSentinel};
  const auto call = [&](const double *x, const double *y, int64_t ldb, int64_t k, double *o1,
                        double *o2) {
    const dpcov_status st =
        dpcov_pca_subspace_distance(DPCOV_COL_MAJOR, 2, x, 2, y, ldb, k, o1, o2, an);
    EXPECT_EQ(sp, kSentinel);
    EXPECT_EQ(fr, kSentinel);
    EXPECT_EQ(an[0], kSentinel);
    return st;
  };
  EXPECT_EQ(call(nullptr, a, 2, 1, &sp, &fr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(a, nullptr, 2, 1, &sp, &fr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(a, a, 1, 1, &sp, &fr), DPCOV_E_LAYOUT);
  EXPECT_EQ(call(a, asym, 2, 1, &sp, &fr), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(a, nan, 2, 1, &sp, &fr), DPCOV_E_NON_FINITE);
  EXPECT_EQ(call(a, a, 2, 0, &sp, &fr), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(a, a, 2, 3, &sp, &fr), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(a, a, 2, 1, nullptr, &fr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(a, a, 2, 1, &sp, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_pca_subspace_distance(DPCOV_COL_MAJOR, -1, a, 2, a, 2, 1, &sp, &fr, an),
            DPCOV_E_DIMENSION);
}

class CapiGlasso : public ::testing::Test {
 protected:
  // S with off-diagonals at most 0.3: rho = 0.3 gives the diagonal solution 1 / (S_ii + rho).
  const double s_[9] = {2.0, 0.3, -0.1, 0.3, 1.0, 0.2, -0.1, 0.2, 1.5};
  double theta_[9], cov_[9];
  dpcov_glasso_params params_{};
  dpcov_glasso_info info_{};
  void SetUp() override {
    ASSERT_EQ(dpcov_glasso_params_default(&params_), DPCOV_OK);
    for (int i = 0; i < 9; ++i) theta_[i] = cov_[i] = kSentinel;
    info_.struct_size = sizeof info_;
    info_.iterations = -7;
  }
  dpcov_status solve(const double *s, double rho, const dpcov_glasso_params *p = nullptr,
                     const double *warm = nullptr, int64_t lds = 3, int64_t ldp = 3, int64_t d = 3,
                     int32_t layout = DPCOV_COL_MAJOR) {
    return dpcov_glasso_solve(layout, d, s, lds, rho, p ? p : &params_, warm, 3, theta_, ldp, cov_,
                              3, &info_);
  }
  void expect_untouched() {
    for (int i = 0; i < 9; ++i) {
      EXPECT_EQ(theta_[i], kSentinel);
      EXPECT_EQ(cov_[i], kSentinel);
    }
    EXPECT_EQ(info_.iterations, -7);
  }
};

TEST_F(CapiGlasso, DefaultsPenaliseTheDiagonal) {
  EXPECT_EQ(params_.struct_size, sizeof params_);
  EXPECT_EQ(params_.penalize_diagonal, 1);
  EXPECT_EQ(params_.tol, 1e-6);
  EXPECT_EQ(params_.max_iter, 1000);
  EXPECT_EQ(dpcov_glasso_params_default(nullptr), DPCOV_E_NULL_POINTER);
}

TEST_F(CapiGlasso, LargePenaltySolutionIsDiagonalWithItsInverse) {
  ASSERT_EQ(solve(s_, 0.3), DPCOV_OK) << last();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const double want = i == j ? 1.0 / (s_[i * 4] + 0.3) : 0.0;
      EXPECT_DOUBLE_EQ(theta_[i + 3 * j], want);
      EXPECT_NEAR(cov_[i + 3 * j], i == j ? s_[i * 4] + 0.3 : 0.0, 1e-15);
    }
  EXPECT_GE(info_.iterations, 1);
  EXPECT_LE(info_.kkt_residual, params_.tol);
  EXPECT_EQ(info_.start, DPCOV_GLASSO_START_COVARIANCE);
  // The same solution as warm start: converges at once.
  double warm[9];
  for (int i = 0; i < 9; ++i) warm[i] = theta_[i];
  ASSERT_EQ(solve(s_, 0.3, nullptr, warm), DPCOV_OK) << last();
  EXPECT_EQ(info_.start, DPCOV_GLASSO_START_WARM);
  EXPECT_EQ(info_.iterations, 1);
}

TEST_F(CapiGlasso, SmallPenaltySolutionHasOffDiagonalEntriesAndSmallResidual) {
  dpcov_glasso_params p = params_;
  p.penalize_diagonal = 0;
  p.tol = 1e-10;
  ASSERT_EQ(solve(s_, 0.05, &p), DPCOV_OK) << last();
  EXPECT_NE(theta_[1], 0.0);
  EXPECT_EQ(theta_[1], theta_[3]);
  EXPECT_LE(info_.kkt_residual, 1e-10);
  EXPECT_NEAR(info_.duality_gap, 0.0, 1e-8);
}

TEST_F(CapiGlasso, RejectsEachBadArgumentAndLeavesOutputsUntouched) {
  const auto expect = [&](dpcov_status want, dpcov_status got, const char *what) {
    EXPECT_EQ(got, want) << what << ": " << last();
    expect_untouched();
  };
  expect(DPCOV_E_NULL_POINTER, solve(nullptr, 0.1), "s NULL");
  expect(DPCOV_E_LAYOUT, solve(s_, 0.1, nullptr, nullptr, 3, 3, 3, 9), "layout");
  expect(DPCOV_E_DIMENSION, solve(s_, 0.1, nullptr, nullptr, 3, 3, 0), "d = 0");
  expect(DPCOV_E_LAYOUT, solve(s_, 0.1, nullptr, nullptr, 2), "lds < d");
  double asym[9], nan[9];
  for (int i = 0; i < 9; ++i) asym[i] = nan[i] = s_[i];
  asym[1] = 0.31;
  nan[4] = kNaN;
  expect(DPCOV_E_INVALID_ARGUMENT, solve(asym, 0.1), "s not symmetric");
  expect(DPCOV_E_NON_FINITE, solve(nan, 0.1), "NaN in s");
  expect(DPCOV_E_INVALID_ARGUMENT, solve(s_, -0.1), "rho < 0");
  expect(DPCOV_E_NON_FINITE, solve(s_, kNaN), "rho NaN");
  expect(DPCOV_E_NON_FINITE, solve(s_, kInf), "rho Inf");
  dpcov_glasso_params p = params_;
  p.struct_size = 4;
  expect(DPCOV_E_INVALID_ARGUMENT, solve(s_, 0.1, &p), "params struct_size");
  p = params_;
  p.penalize_diagonal = 2;
  expect(DPCOV_E_INVALID_ARGUMENT, solve(s_, 0.1, &p), "penalize_diagonal");
  p = params_;
  p.tol = 0.0;
  expect(DPCOV_E_INVALID_ARGUMENT, solve(s_, 0.1, &p), "tol 0");
  p.tol = kNaN;
  expect(DPCOV_E_NON_FINITE, solve(s_, 0.1, &p), "tol NaN");
  p = params_;
  p.max_iter = 0;
  expect(DPCOV_E_INVALID_ARGUMENT, solve(s_, 0.1, &p), "max_iter 0");
  expect(DPCOV_E_INVALID_ARGUMENT, solve(s_, 0.1, nullptr, asym), "warm start not symmetric");
  expect(DPCOV_E_NON_FINITE, solve(s_, 0.1, nullptr, nan), "warm start NaN");
  const double not_pd[9] = {1, 2, 0, 2, 1, 0, 0, 0, 1};
  expect(DPCOV_E_NOT_POSITIVE_DEFINITE, solve(s_, 0.1, nullptr, not_pd), "warm start not PD");
  expect(DPCOV_E_LAYOUT, solve(s_, 0.1, nullptr, nullptr, 3, 2), "ldp < d");
  EXPECT_EQ(dpcov_glasso_solve(DPCOV_COL_MAJOR, 3, s_, 3, 0.1, nullptr, nullptr, 0, nullptr, 3,
                               cov_, 3, &info_),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_glasso_solve(DPCOV_COL_MAJOR, 3, s_, 3, 0.1, nullptr, nullptr, 0, theta_, 3, cov_,
                               1, &info_),
            DPCOV_E_LAYOUT);
  info_.struct_size = 1;
  expect(DPCOV_E_INVALID_ARGUMENT, solve(s_, 0.1), "info struct_size");
  info_.struct_size = sizeof info_;
  // S with eigenvalue -0.8 and a penalty too small for any feasible start.
  const double indefinite[9] = {1, 0.9, 0.9, 0.9, 1, -0.9, 0.9, -0.9, 1};
  expect(DPCOV_E_NOT_POSITIVE_DEFINITE, solve(indefinite, 0.1), "indefinite S");
  EXPECT_NE(last().find("rho"), std::string::npos);
  p = params_;
  p.max_iter = 1;
  p.tol = 1e-15;
  p.penalize_diagonal = 0;
  expect(DPCOV_E_NO_CONVERGENCE, solve(s_, 0.01, &p), "max_iter reached");
}

TEST(CapiMetrics, ErrorsOnHandCases) {
  const double a[4] = {1, 2, 2, 4}, b[4] = {1, 0, 0, 1};
  double out = kSentinel;
  ASSERT_EQ(dpcov_metric_frobenius_error(DPCOV_ROW_MAJOR, 2, 2, a, 2, b, 2, 1, &out), DPCOV_OK);
  EXPECT_NEAR(out, std::sqrt(17.0 / 2.0), 1e-15);
  ASSERT_EQ(dpcov_metric_frobenius_error(DPCOV_ROW_MAJOR, 2, 2, a, 2, b, 2, 0, &out), DPCOV_OK);
  EXPECT_NEAR(out, std::sqrt(17.0), 1e-15);
  // A - B = [[0, 2], [2, 3]]: eigenvalues (3 +- 5) / 2, so ||A - B||_2 = 4.
  ASSERT_EQ(dpcov_metric_spectral_error(DPCOV_COL_MAJOR, 2, 2, a, 2, b, 2, 0, &out), DPCOV_OK);
  EXPECT_NEAR(out, 4.0, 1e-14);
  const double u[2] = {3, 4}, v[2] = {0, 0};
  ASSERT_EQ(dpcov_metric_vector_error(2, u, v, 0, &out), DPCOV_OK);
  EXPECT_DOUBLE_EQ(out, 5.0);
  dpcov_support_recovery rec{};
  rec.struct_size = sizeof rec;
  const double est[4] = {1, 0.5, 0.5, 1};
  ASSERT_EQ(dpcov_metric_support_recovery(DPCOV_COL_MAJOR, 2, est, 2, b, 2, 0.0, &rec), DPCOV_OK);
  EXPECT_EQ(rec.false_positives, 1);
  EXPECT_EQ(rec.precision, 0.0);
  EXPECT_EQ(rec.recall, 1.0);
}

TEST(CapiMetrics, RejectEachBadArgumentAndLeaveOutputUntouched) {
  const double a[4] = {1, 2, 2, 4}, zero[4] = {0, 0, 0, 0}, nan[4] = {1, kNaN, 0, 0};
  double out = kSentinel;
  for (auto metric : {dpcov_metric_frobenius_error, dpcov_metric_spectral_error}) {
    EXPECT_EQ(metric(DPCOV_ROW_MAJOR, 2, 2, nullptr, 2, a, 2, 0, &out), DPCOV_E_NULL_POINTER);
    EXPECT_EQ(metric(DPCOV_ROW_MAJOR, 2, 2, a, 2, nullptr, 2, 0, &out), DPCOV_E_NULL_POINTER);
    EXPECT_EQ(metric(DPCOV_ROW_MAJOR, 2, 2, a, 2, a, 2, 0, nullptr), DPCOV_E_NULL_POINTER);
    EXPECT_EQ(metric(0, 2, 2, a, 2, a, 2, 0, &out), DPCOV_E_LAYOUT);
    EXPECT_EQ(metric(DPCOV_ROW_MAJOR, 0, 2, a, 2, a, 2, 0, &out), DPCOV_E_DIMENSION);
    EXPECT_EQ(metric(DPCOV_ROW_MAJOR, 2, 0, a, 2, a, 2, 0, &out), DPCOV_E_DIMENSION);
    EXPECT_EQ(metric(DPCOV_ROW_MAJOR, 2, 2, a, 1, a, 2, 0, &out), DPCOV_E_LAYOUT);
    EXPECT_EQ(metric(DPCOV_ROW_MAJOR, 2, 2, a, 2, a, 1, 0, &out), DPCOV_E_LAYOUT);
    EXPECT_EQ(metric(DPCOV_ROW_MAJOR, 2, 2, nan, 2, a, 2, 0, &out), DPCOV_E_NON_FINITE);
    EXPECT_EQ(metric(DPCOV_ROW_MAJOR, 2, 2, a, 2, nan, 2, 0, &out), DPCOV_E_NON_FINITE);
    EXPECT_EQ(metric(DPCOV_ROW_MAJOR, 2, 2, a, 2, a, 2, 2, &out), DPCOV_E_INVALID_ARGUMENT);
    EXPECT_EQ(metric(DPCOV_ROW_MAJOR, 2, 2, a, 2, zero, 2, 1, &out), DPCOV_E_INVALID_ARGUMENT);
    EXPECT_EQ(out, kSentinel);
  }
  const double u[2] = {1, 2}, u_nan[2] = {1, kNaN}, u_zero[2] = {0, 0};
  EXPECT_EQ(dpcov_metric_vector_error(0, u, u, 0, &out), DPCOV_E_DIMENSION);
  EXPECT_EQ(dpcov_metric_vector_error(2, nullptr, u, 0, &out), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_metric_vector_error(2, u, nullptr, 0, &out), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_metric_vector_error(2, u, u, 0, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_metric_vector_error(2, u_nan, u, 0, &out), DPCOV_E_NON_FINITE);
  EXPECT_EQ(dpcov_metric_vector_error(2, u, u_nan, 0, &out), DPCOV_E_NON_FINITE);
  EXPECT_EQ(dpcov_metric_vector_error(2, u, u, -1, &out), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_metric_vector_error(2, u, u_zero, 1, &out), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(out, kSentinel);
  dpcov_support_recovery rec{};
  rec.struct_size = sizeof rec;
  rec.true_positives = -7;
  EXPECT_EQ(dpcov_metric_support_recovery(DPCOV_ROW_MAJOR, 2, nullptr, 2, a, 2, 0.1, &rec),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_metric_support_recovery(DPCOV_ROW_MAJOR, 2, a, 2, nullptr, 2, 0.1, &rec),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_metric_support_recovery(DPCOV_ROW_MAJOR, 2, a, 2, a, 2, 0.1, nullptr),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_metric_support_recovery(DPCOV_ROW_MAJOR, 0, a, 2, a, 2, 0.1, &rec),
            DPCOV_E_DIMENSION);
  EXPECT_EQ(dpcov_metric_support_recovery(DPCOV_ROW_MAJOR, 2, a, 1, a, 2, 0.1, &rec),
            DPCOV_E_LAYOUT);
  EXPECT_EQ(dpcov_metric_support_recovery(DPCOV_ROW_MAJOR, 2, nan, 2, a, 2, 0.1, &rec),
            DPCOV_E_NON_FINITE);
  EXPECT_EQ(dpcov_metric_support_recovery(DPCOV_ROW_MAJOR, 2, a, 2, a, 2, -0.1, &rec),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_metric_support_recovery(DPCOV_ROW_MAJOR, 2, a, 2, a, 2, kNaN, &rec),
            DPCOV_E_NON_FINITE);
  rec.struct_size = 3;
  EXPECT_EQ(dpcov_metric_support_recovery(DPCOV_ROW_MAJOR, 2, a, 2, a, 2, 0.1, &rec),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(rec.true_positives, -7);
}

}  // namespace
