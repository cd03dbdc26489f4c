// Guaranteed OLS intervals from an Analyze Gauss release (core/mechanisms/ols_analyze_gauss.hpp):
// pinned constants, the deterministic inequalities of proofs/ols_analyze_gauss.md under the worst
// noise the bound allows, and every error path.
#include <gtest/gtest.h>

#include <cmath>

#include "core/error.hpp"
#include "core/solvers/regression.hpp"
#include "core/math/student_t.hpp"
#include "core/linalg/blas.hpp"
#include "core/mechanisms/ols_analyze_gauss.hpp"
#include "core/random/normal.hpp"
#include "core/random/rng.hpp"
#include "dpcov.h"

namespace dpcov::mechanisms {
namespace {

// G = A^T A for n rows [x_1, x_2, x_3, y], y = x . (0.5, -0.5, 0.25) + noise, rows of norm < 1.
Matrix data_gram(int64_t n, random::Rng &rng) {
  Matrix a(n, 4);
  for (int64_t i = 0; i < n; ++i) {
    const double x0 = 0.1 * random::standard_normal(rng), x1 = 0.1 * random::standard_normal(rng),
                 x2 = 0.1 * random::standard_normal(rng);
    a(i, 0) = x0;
    a(i, 1) = x1;
    a(i, 2) = x2;
    a(i, 3) = 0.5 * x0 - 0.5 * x1 + 0.25 * x2 + 0.1 * random::standard_normal(rng);
  }
  return linalg::multiply(a, a, linalg::Trans::Yes, linalg::Trans::No);
}

solvers::RegressionSpec spec_for(int64_t n) {
  solvers::RegressionSpec spec;
  spec.label = 3;
  spec.features = {0, 1, 2};
  spec.rows = n;
  spec.level = 0.95;
  return spec;
}

// mpmath, 40 digits: sigma sqrt(2 F^{-1}_{chi2_{k(k+1)/2}}(1 - nu)) (proofs/check/ols_analyze_gauss.py).
TEST(OlsAnalyzeGauss, NoiseBoundIsPinned) {
  EXPECT_NEAR(analyze_gauss_noise_norm_bound(1.0, 4, 0.025), 6.4004964418094002331, 1e-11);
  EXPECT_NEAR(analyze_gauss_noise_norm_bound(5.0, 11, 0.025), 67.211942450297079817, 1e-10);
  EXPECT_NEAR(analyze_gauss_noise_norm_bound(0.5, 2, 0.005), 2.5335899891851731641, 1e-11);
  EXPECT_NEAR(analyze_gauss_ols_noise_miss(0.95), 0.025, 1e-16);
}

// The theorem's event: ||E||_2 <= eta. Noise scaled to spectral norm exactly eta (the worst case
// the proof allows) must keep beta_hat inside every data interval, whatever its direction.
TEST(OlsAnalyzeGauss, DataIntervalsHoldForEveryNoiseOfNormEta) {
  random::Rng rng = random::Rng::from_seed(7);
  const int64_t n = 20000;
  const Matrix g = data_gram(n, rng);
  const solvers::RegressionSpec spec = spec_for(n);
  const solvers::RegressionResult exact = solvers::regress(g.view(), spec);
  const double sigma = 1.0;
  const double eta = analyze_gauss_noise_norm_bound(sigma, 4, analyze_gauss_ols_noise_miss(0.95));
  for (int trial = 0; trial < 300; ++trial) {
    Matrix e(4, 4);
    for (int64_t j = 0; j < 4; ++j)
      for (int64_t i = 0; i <= j; ++i) e(i, j) = e(j, i) = random::standard_normal(rng);
    const std::vector<double> values = linalg::eigvalsh(e);
    const double norm = std::fmax(std::fabs(values.front()), std::fabs(values.back()));
    Matrix released = g;
    for (int64_t j = 0; j < 4; ++j)
      for (int64_t i = 0; i < 4; ++i) released(i, j) += eta * e(i, j) / norm;
    const AnalyzeGaussIntervals r = analyze_gauss_ols_intervals(released.view(), sigma, spec);
    ASSERT_LT(r.kappa, 1.0);
    for (size_t j = 0; j < 3; ++j) {
      EXPECT_LE(r.data_ci_lower[j], exact.coefficients[j]) << "trial " << trial << ", j " << j;
      EXPECT_GE(r.data_ci_upper[j], exact.coefficients[j]) << "trial " << trial << ", j " << j;
      // The model interval contains the classical t-interval's half-width around beta_hat at
      // the sampling share (1 - level) / 2, hence the classical interval itself.
      const double classical = math::student_t_upper_quantile(0.0125, n - 3.0) *
                               exact.std_errors[j];
      EXPECT_LE(r.ci_lower[j], exact.coefficients[j] - classical) << "trial " << trial;
      EXPECT_GE(r.ci_upper[j], exact.coefficients[j] + classical) << "trial " << trial;
    }
  }
}

TEST(OlsAnalyzeGauss, ExactReleaseGivesTheClassicalIntervalAtTheSamplingShare) {
  random::Rng rng = random::Rng::from_seed(8);
  const int64_t n = 5000;
  const Matrix g = data_gram(n, rng);
  const solvers::RegressionSpec spec = spec_for(n);
  const solvers::RegressionResult exact = solvers::regress(g.view(), spec);
  const AnalyzeGaussIntervals r = analyze_gauss_ols_intervals(g.view(), 1e-12, spec);
  const double t = math::student_t_upper_quantile(0.0125, n - 3.0);
  EXPECT_NEAR(r.t_critical, t, 1e-12);
  EXPECT_EQ(r.dof, n - 3);
  for (size_t j = 0; j < 3; ++j) {
    EXPECT_NEAR(r.coefficients[j], exact.coefficients[j], 1e-12);
    EXPECT_NEAR(r.ci_upper[j] - r.coefficients[j], t * exact.std_errors[j], 1e-9);
    EXPECT_NEAR(r.data_ci_upper[j], r.coefficients[j], 1e-9);
    EXPECT_EQ(r.reject[j], true);
  }
}

TEST(OlsAnalyzeGauss, NoiseAboveTheLeastEigenvalueIsRefusedWithBothNumbers) {
  random::Rng rng = random::Rng::from_seed(9);
  const Matrix g = data_gram(200, rng);  // lambda_min(X'X) about 2
  try {
    analyze_gauss_ols_intervals(g.view(), 1.0, spec_for(200));
    FAIL() << "expected DPCOV_E_PRECONDITION";
  } catch (const Error &e) {
    EXPECT_EQ(e.status(), dpcov::Status::Precondition);
    EXPECT_NE(std::string(e.what()).find("lambda_min"), std::string::npos) << e.what();
  }
}

TEST(OlsAnalyzeGauss, BadInputsAreRejected) {
  random::Rng rng = random::Rng::from_seed(10);
  const Matrix g = data_gram(1000, rng);
  solvers::RegressionSpec spec = spec_for(1000);
  const auto status_of = [&](double sigma, const solvers::RegressionSpec &s) -> int {
    try {
      analyze_gauss_ols_intervals(g.view(), sigma, s);
    } catch (const Error &e) {
      return static_cast<int>(e.status());
    }
    return DPCOV_OK;
  };
  EXPECT_EQ(status_of(0.0, spec), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status_of(NAN, spec), DPCOV_E_NON_FINITE);
  spec.ridge = 1.0;
  EXPECT_EQ(status_of(1e-3, spec), DPCOV_E_INVALID_ARGUMENT);
  spec = spec_for(3);
  EXPECT_EQ(status_of(1e-3, spec), DPCOV_E_INVALID_ARGUMENT);  // n <= p
  spec = spec_for(1000);
  spec.level = 1.0;
  EXPECT_EQ(status_of(1e-3, spec), DPCOV_E_INVALID_ARGUMENT);
  Matrix asymmetric = g;
  asymmetric(0, 1) += 1.0;
  EXPECT_THROW(analyze_gauss_ols_intervals(asymmetric.view(), 1e-3, spec_for(1000)), Error);
  EXPECT_EQ(status_of(1e-3, spec_for(1000)), DPCOV_OK);
}

}  // namespace
}  // namespace dpcov::mechanisms
