// The post-processing entry points of dpcov/postprocess.h: results on matrices with known spectra,
// the constants of the shifts, and bad arguments (status, untouched outputs).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// Q diag(values) Q^T for the rotation Q by 30 degrees in the (0, 1) plane (d = 3), column-major,
// made exactly symmetric.
std::vector<double> rotated(double a, double b, double c) {
  const double cs = std::cos(M_PI / 6), sn = std::sin(M_PI / 6);
  std::vector<double> m(9, 0.0);
  m[0] = a * cs * cs + b * sn * sn;
  m[4] = a * sn * sn + b * cs * cs;
  m[1] = m[3] = (a - b) * cs * sn;
  m[8] = c;
  return m;
}

std::vector<double> eigenvalues(const std::vector<double> &m) {
  // Closed form for the block structure of rotated(): the 2 x 2 block and m[8].
  const double tr = m[0] + m[4], det = m[0] * m[4] - m[1] * m[3];
  const double disc = std::sqrt(tr * tr / 4 - det);
  return {tr / 2 - disc, tr / 2 + disc, m[8]};
}

TEST(CapiPostprocess, PsdProjectionZeroesNegativeEigenvalues) {
  std::vector<double> m = rotated(-2.0, 5.0, -1.0);
  ASSERT_EQ(dpcov_postprocess_psd_project(DPCOV_COL_MAJOR, 3, m.data(), 3), DPCOV_OK);
  const std::vector<double> ev = eigenvalues(m);
  EXPECT_NEAR(ev[0], 0.0, 1e-12);
  EXPECT_NEAR(ev[1], 5.0, 1e-12);
  EXPECT_NEAR(ev[2], 0.0, 1e-12);
  EXPECT_EQ(m[1], m[3]);
}

TEST(CapiPostprocess, EigenvalueClipToTheGramRange) {
  // Amin et al.: [0, n B^2] with n = 4, B = 1.
  std::vector<double> m = rotated(-2.0, 9.0, 3.0);
  ASSERT_EQ(dpcov_postprocess_eigenvalues_clip(DPCOV_ROW_MAJOR, 3, m.data(), 3, 0.0, 4.0),
            DPCOV_OK);
  const std::vector<double> ev = eigenvalues(m);
  EXPECT_NEAR(ev[0], 0.0, 1e-12);
  EXPECT_NEAR(ev[1], 4.0, 1e-12);
  EXPECT_NEAR(ev[2], 3.0, 1e-12);
  std::vector<double> untouched = rotated(1.0, 2.0, 3.0);
  const std::vector<double> copy = untouched;
  EXPECT_EQ(dpcov_postprocess_eigenvalues_clip(DPCOV_COL_MAJOR, 3, untouched.data(), 3, 1.0, 0.0),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_postprocess_eigenvalues_clip(DPCOV_COL_MAJOR, 3, untouched.data(), 3, kNaN, 1.0),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(untouched, copy);
}

TEST(CapiPostprocess, AnalyzeGaussShiftAddsTheBoundOnlyWhenNotPositiveDefinite) {
  // c = sigma (2 sqrt(d) + 2 sqrt(ln(1/nu))) = 2 (2 sqrt 3 + 2 sqrt(ln 20)).
  const double c = 2.0 * (2.0 * std::sqrt(3.0) + 2.0 * std::sqrt(std::log(20.0)));
  std::vector<double> m = rotated(-1.0, 5.0, 2.0);
  double shift = -1.0;
  ASSERT_EQ(dpcov_postprocess_analyze_gauss_shift(DPCOV_COL_MAJOR, 3, m.data(), 3, 2.0, 0.05,
                                                  &shift),
            DPCOV_OK);
  EXPECT_NEAR(shift, c, 1e-12);
  EXPECT_NEAR(eigenvalues(m)[0], -1.0 + c, 1e-12);
  std::vector<double> pd = rotated(1.0, 5.0, 2.0);
  const std::vector<double> before = pd;
  ASSERT_EQ(dpcov_postprocess_analyze_gauss_shift(DPCOV_COL_MAJOR, 3, pd.data(), 3, 2.0, 0.05,
                                                  &shift),
            DPCOV_OK);
  EXPECT_EQ(shift, 0.0);
  EXPECT_EQ(pd, before);
  EXPECT_EQ(dpcov_postprocess_analyze_gauss_shift(DPCOV_COL_MAJOR, 3, pd.data(), 3, 2.0, 1.0,
                                                  &shift),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_postprocess_analyze_gauss_shift(DPCOV_COL_MAJOR, 3, pd.data(), 3, 0.0, 0.5,
                                                  &shift),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_postprocess_analyze_gauss_shift(DPCOV_COL_MAJOR, 3, pd.data(), 3, 2.0, 0.5,
                                                  nullptr),
            DPCOV_E_NULL_POINTER);
}

TEST(CapiPostprocess, WishartMeanSubtractRemovesKTimesScale) {
  std::vector<double> m = rotated(300.0, 250.0, 260.0);
  ASSERT_EQ(dpcov_postprocess_wishart_mean_subtract(DPCOV_COL_MAJOR, 3, m.data(), 3, 223.0, 1.0),
            DPCOV_OK);
  const std::vector<double> ev = eigenvalues(m);
  EXPECT_NEAR(ev[0], 27.0, 1e-9);
  EXPECT_NEAR(ev[1], 77.0, 1e-9);
  EXPECT_NEAR(ev[2], 37.0, 1e-9);
  EXPECT_EQ(dpcov_postprocess_wishart_mean_subtract(DPCOV_COL_MAJOR, 3, m.data(), 3, 0.0, 1.0),
            DPCOV_E_INVALID_ARGUMENT);
}

dpcov_receipt receipt_of(int32_t mechanism, int64_t dim) {
  dpcov_receipt r{};
  r.struct_size = sizeof r;
  r.mechanism = mechanism;
  r.dim = dim;
  return r;
}

TEST(CapiPostprocess, GramEstimateRemovesEachMechanismsMean) {
  const std::vector<double> release = rotated(300.0, 250.0, 260.0);
  int32_t unbiased = -1;
  struct Case {
    int32_t mechanism;
    double dof, scale, w;
    double factor, shift;  // the estimate is factor * release - shift * I
    int32_t unbiased;
  };
  const Case cases[] = {
      {DPCOV_MECHANISM_ANALYZE_GAUSS, 0, 0, 0, 1.0, 0.0, 1},
      {DPCOV_MECHANISM_LAPLACE_SYM, 0, 0, 0, 1.0, 0.0, 1},
      {DPCOV_MECHANISM_WISHART_ADDITIVE, 223.0, 0.5, 0, 1.0, 111.5, 1},
      {DPCOV_MECHANISM_JL_RIDGE, 0, 0, 3.0, 1.0, 9.0, 1},
      {DPCOV_MECHANISM_JL_RIDGE_SIGMA_MIN, 0, 0, 0.0, 1.0, 0.0, 1},
      {DPCOV_MECHANISM_INVERSE_WISHART, 40.0, 0, 2.0, 36.0, 4.0, 1},
      {DPCOV_MECHANISM_INVERSE_WISHART_SIGMA_MIN, 40.0, 0, 0.5, 36.0, 0.25, 1},
      {DPCOV_MECHANISM_IEV, 0, 0, 0, 1.0, 0.0, 0},
      {DPCOV_MECHANISM_KT_RANK1, 0, 0, 0, 1.0, 0.0, 0},
  };
  for (const Case &c : cases) {
    dpcov_receipt r = receipt_of(c.mechanism, 3);
    r.dof = c.dof;
    r.scale = c.scale;
    r.appended_w = c.w;
    std::vector<double> m = release;
    ASSERT_EQ(dpcov_postprocess_gram_estimate(DPCOV_COL_MAJOR, 3, m.data(), 3, &r, &unbiased),
              DPCOV_OK)
        << c.mechanism << ": " << dpcov_last_error_message();
    EXPECT_EQ(unbiased, c.unbiased) << c.mechanism;
    for (int i = 0; i < 9; ++i)
      EXPECT_NEAR(m[i], c.factor * release[i] - (i % 4 == 0 ? c.shift : 0.0), 1e-9)
          << c.mechanism << " entry " << i;
  }
}

TEST(CapiPostprocess, GramEstimateRefusesBadReceiptsAndLeavesTheReleaseUntouched) {
  const std::vector<double> release = rotated(300.0, 250.0, 260.0);
  std::vector<double> m = release;
  int32_t unbiased = -1;
  const auto refused = [&](const dpcov_receipt *r, int32_t *out, dpcov_status expected,
                           const char *what) {
    EXPECT_EQ(dpcov_postprocess_gram_estimate(DPCOV_COL_MAJOR, 3, m.data(), 3, r, out), expected)
        << what;
    EXPECT_EQ(m, release) << what;
    EXPECT_EQ(unbiased, -1) << what;
    EXPECT_STRNE(dpcov_last_error_message(), "") << what;
  };
  dpcov_receipt wishart = receipt_of(DPCOV_MECHANISM_WISHART_ADDITIVE, 3);
  wishart.dof = 223.0;
  wishart.scale = 1.0;
  refused(nullptr, &unbiased, DPCOV_E_NULL_POINTER, "no receipt");
  refused(&wishart, nullptr, DPCOV_E_NULL_POINTER, "no unbiased");
  dpcov_receipt r = wishart;
  r.struct_size = 4;
  refused(&r, &unbiased, DPCOV_E_INVALID_ARGUMENT, "struct_size too small");
  r = wishart;
  r.dim = 4;
  refused(&r, &unbiased, DPCOV_E_INVALID_ARGUMENT, "a receipt of another d");
  r.dim = 3;
  r.mechanism = 999;
  refused(&r, &unbiased, DPCOV_E_INVALID_ARGUMENT, "an unknown mechanism");
  r.mechanism = DPCOV_MECHANISM_ADASSP;
  refused(&r, &unbiased, DPCOV_E_INVALID_ARGUMENT, "not a Gram mechanism");
  r = wishart;
  r.dof = kNaN;
  refused(&r, &unbiased, DPCOV_E_NON_FINITE, "dof NaN");
  r.dof = 0.0;
  refused(&r, &unbiased, DPCOV_E_INVALID_ARGUMENT, "dof 0");
  r = receipt_of(DPCOV_MECHANISM_JL_RIDGE, 3);
  r.appended_w = -1.0;
  refused(&r, &unbiased, DPCOV_E_INVALID_ARGUMENT, "w < 0");
  r.appended_w = kInf;
  refused(&r, &unbiased, DPCOV_E_NON_FINITE, "w infinite");
  r = receipt_of(DPCOV_MECHANISM_INVERSE_WISHART, 3);
  r.dof = 4.0;  // m = d + 1: the mean does not exist
  refused(&r, &unbiased, DPCOV_E_PRECONDITION, "m <= d + 1");
  r.dof = 40.0;
  r.appended_w = 1.0;
  std::vector<double> asymmetric = release;
  asymmetric[1] += 1.0;
  EXPECT_EQ(dpcov_postprocess_gram_estimate(DPCOV_COL_MAJOR, 3, asymmetric.data(), 3, &r,
                                            &unbiased),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(unbiased, -1);
}

TEST(CapiPostprocess, WishartShiftFallsBackToTheDavidsonSzarekBound) {
  // k = 223, d = 3, B = 1, nu = 0.05: (sqrt 223 - sqrt 3 - sqrt(2 ln 40))^2.
  const double ds = std::pow(std::sqrt(223.0) - std::sqrt(3.0) - std::sqrt(2.0 * std::log(40.0)), 2);
  double shift = -1.0;
  std::vector<double> big = rotated(300.0, 250.0, 260.0);
  ASSERT_EQ(dpcov_postprocess_wishart_shift(DPCOV_COL_MAJOR, 3, big.data(), 3, 223.0, 1.0, 0.05,
                                            &shift),
            DPCOV_OK);
  EXPECT_EQ(shift, 223.0);
  std::vector<double> mid = rotated(200.0, 250.0, 260.0);
  ASSERT_EQ(dpcov_postprocess_wishart_shift(DPCOV_COL_MAJOR, 3, mid.data(), 3, 223.0, 1.0, 0.05,
                                            &shift),
            DPCOV_OK);
  EXPECT_NEAR(shift, ds, 1e-9);
  EXPECT_NEAR(eigenvalues(mid)[0], 200.0 - ds, 1e-9);
  std::vector<double> small = rotated(50.0, 60.0, 70.0);
  const std::vector<double> copy = small;
  ASSERT_EQ(dpcov_postprocess_wishart_shift(DPCOV_COL_MAJOR, 3, small.data(), 3, 223.0, 1.0,
                                            0.05, &shift),
            DPCOV_OK);
  EXPECT_EQ(shift, 0.0);
  EXPECT_EQ(small, copy);
  EXPECT_EQ(dpcov_postprocess_wishart_shift(DPCOV_COL_MAJOR, 3, small.data(), 3, 1.5, 1.0, 0.05,
                                            &shift),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_postprocess_wishart_shift(DPCOV_COL_MAJOR, 3, small.data(), 3, 223.0, 1.0, 0.0,
                                            &shift),
            DPCOV_E_INVALID_ARGUMENT);
}

TEST(CapiPostprocess, RejectsBadMatricesLeavingThemUntouched) {
  std::vector<double> m = rotated(1.0, 2.0, 3.0);
  EXPECT_EQ(dpcov_postprocess_psd_project(DPCOV_COL_MAJOR, 3, nullptr, 3), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_postprocess_psd_project(5, 3, m.data(), 3), DPCOV_E_LAYOUT);
  EXPECT_EQ(dpcov_postprocess_psd_project(DPCOV_COL_MAJOR, 0, m.data(), 3), DPCOV_E_DIMENSION);
  EXPECT_EQ(dpcov_postprocess_psd_project(DPCOV_COL_MAJOR, 3, m.data(), 2), DPCOV_E_LAYOUT);
  std::vector<double> bad = m;
  bad[3] += 1.0;
  const std::vector<double> bad_copy = bad;
  EXPECT_EQ(dpcov_postprocess_psd_project(DPCOV_COL_MAJOR, 3, bad.data(), 3),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("symmetric"), std::string::npos);
  EXPECT_EQ(bad, bad_copy);
  bad = m;
  bad[8] = kInf;
  EXPECT_EQ(dpcov_postprocess_psd_project(DPCOV_COL_MAJOR, 3, bad.data(), 3), DPCOV_E_NON_FINITE);
}

// Row then column: entry (c, c) is multiplied by r twice, every other entry of row or column c
// once, the rest not at all, in both layouts; held == value leaves the matrix as it was.
TEST(CapiPostprocess, ConstantRescaleMultipliesRowAndColumnByValueOverHeld) {
  const double held = 1.0 - 0x1p-16, r = 1.0 / held;  // a constant 1 held slightly off
  for (const int32_t layout : {DPCOV_ROW_MAJOR, DPCOV_COL_MAJOR}) {
    std::vector<double> m = rotated(4.0, 7.0, 3.0);
    m[2] = m[6] = 0.5;  // (0, 2)
    const std::vector<double> before = m;
    ASSERT_EQ(dpcov_postprocess_constant_rescale(layout, 3, m.data(), 3, 0, held, 1.0), DPCOV_OK);
    EXPECT_EQ(m[0], before[0] * r * r);
    for (const int k : {1, 2}) {  // (0, k) and (k, 0) in either layout
      EXPECT_EQ(m[k], before[k] * r);
      EXPECT_EQ(m[3 * k], before[3 * k] * r);
    }
    for (const int k : {4, 5, 7, 8}) EXPECT_EQ(m[k], before[k]);
    std::vector<double> same = before;
    ASSERT_EQ(dpcov_postprocess_constant_rescale(layout, 3, same.data(), 3, 2, 3.0, 3.0),
              DPCOV_OK);
    EXPECT_EQ(same, before);
  }
}

TEST(CapiPostprocess, ConstantRescaleRefusesBadArgumentsLeavingTheMatrixUntouched) {
  std::vector<double> m = rotated(4.0, 7.0, 3.0);
  const std::vector<double> copy = m;
  const auto call = [&](int64_t column, double held, double value) {
    return dpcov_postprocess_constant_rescale(DPCOV_ROW_MAJOR, 3, m.data(), 3, column, held, value);
  };
  EXPECT_EQ(call(-1, 1.0, 1.0), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(3, 1.0, 1.0), DPCOV_E_INVALID_ARGUMENT);
  for (const double bad : {0.0, -1.0, kNaN, kInf}) {
    EXPECT_EQ(call(0, bad, 1.0), DPCOV_E_INVALID_ARGUMENT) << bad;
    EXPECT_EQ(call(0, 1.0, bad), DPCOV_E_INVALID_ARGUMENT) << bad;
  }
  EXPECT_EQ(call(0, 1e-300, 1e300), DPCOV_E_INVALID_ARGUMENT);  // r overflows
  EXPECT_EQ(call(0, 1.0, 1e300), DPCOV_E_NUMERICAL);            // an entry overflows
  EXPECT_EQ(m, copy);
  EXPECT_EQ(dpcov_postprocess_constant_rescale(DPCOV_ROW_MAJOR, 3, nullptr, 3, 0, 1.0, 1.0),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_postprocess_constant_rescale(7, 3, m.data(), 3, 0, 1.0, 1.0), DPCOV_E_LAYOUT);
  EXPECT_EQ(dpcov_postprocess_constant_rescale(DPCOV_ROW_MAJOR, 0, m.data(), 3, 0, 1.0, 1.0),
            DPCOV_E_DIMENSION);
  EXPECT_EQ(dpcov_postprocess_constant_rescale(DPCOV_ROW_MAJOR, 3, m.data(), 2, 0, 1.0, 1.0),
            DPCOV_E_LAYOUT);
  m[1] = 9.0;  // not symmetric
  EXPECT_EQ(call(0, 1.0, 2.0), DPCOV_E_INVALID_ARGUMENT);
}

}  // namespace
