// The auditor's own statistics (core/audit/distributions.hpp, confidence.hpp) against Boost.Math,
// an independent implementation: incomplete beta and gamma functions, chi-square quantiles,
// Clopper-Pearson bounds (Boost's beta quantiles), and the empirical-Bernstein and DKW bounds
// against their formulas.
#include <gtest/gtest.h>

#include <boost/math/distributions/beta.hpp>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/special_functions/beta.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <cmath>
#include <vector>

#include "core/audit/confidence.hpp"
#include "core/audit/distributions.hpp"
#include "core/error.hpp"

namespace dpcov::audit {
namespace {

double relative_error(double a, double b) { return std::fabs(a - b) / std::fabs(b); }

TEST(AuditDistributions, IncompleteBetaMatchesBoost) {
  for (const double a : {0.5, 1.0, 3.0, 40.0, 1e3, 1e6})
    for (const double b : {0.5, 2.0, 17.0, 1e4, 1e7})
      for (const double x : {1e-9, 1e-4, 0.01, 0.3, 0.5, 0.9, 0.999}) {
        const double expected = boost::math::ibeta(a, b, x);
        if (expected < 1e-300) continue;
        // The prefactor's lgamma(a + b) - lgamma(b) cancels: its rounding error is a few ulps of
        // lgamma(a + b) (about 3e-8 relative at b = 1e7).
        EXPECT_LT(relative_error(incomplete_beta(a, b, x), expected),
                  1e-12 + 2e-15 * std::lgamma(a + b + 2.0))
            << "a = " << a << ", b = " << b << ", x = " << x;
      }
}

TEST(AuditDistributions, IncompleteGammaMatchesBoost) {
  for (const double a : {0.5, 1.0, 2.5, 30.0, 1115.0, 5e5})
    for (const double ratio : {1e-3, 0.2, 0.9, 1.0, 1.1, 3.0}) {
      const double x = a * ratio;
      const double expected = boost::math::gamma_p(a, x);
      if (expected < 1e-300) continue;
      EXPECT_LT(relative_error(incomplete_gamma_lower(a, x), expected), a > 1e5 ? 1e-8 : 1e-11)
          << "a = " << a << ", x = " << x;
    }
}

TEST(AuditDistributions, ChiSquareQuantileMatchesBoost) {
  for (const double dof : {1.0, 6.0, 100.0, 2230.0, 1e5})
    for (const double p : {1e-12, 1e-7, 0.05, 0.5, 0.99}) {
      const boost::math::chi_squared dist(dof);
      EXPECT_LT(relative_error(chi_square_quantile(p, dof), boost::math::quantile(dist, p)), 1e-9)
          << "dof = " << dof << ", p = " << p;
    }
}

TEST(AuditDistributions, LaplaceAndNormalCdfsAreExact) {
  EXPECT_DOUBLE_EQ(laplace_cdf(0.0), 0.5);
  EXPECT_DOUBLE_EQ(laplace_cdf(std::log(2.0)), 0.75);
  EXPECT_DOUBLE_EQ(laplace_cdf(-std::log(2.0)), 0.25);
  EXPECT_NEAR(normal_cdf(-1.959963984540054), 0.025, 1e-15);
  EXPECT_GT(normal_cdf(-38.0), 0.0);  // erfc keeps the far tail
}

// Clopper-Pearson: lower = Beta(k, n - k + 1) quantile at alpha, upper = Beta(k + 1, n - k)
// quantile at 1 - alpha (Boost's inverse incomplete beta).
TEST(AuditConfidence, ClopperPearsonMatchesBetaQuantiles) {
  for (const int64_t n : {10, 1000, 1000000})
    for (const int64_t k : {int64_t{0}, int64_t{1}, n / 3, n - 1, n})
      for (const double alpha : {1e-9, 1e-3, 0.05}) {
        const double lower = clopper_pearson_lower(k, n, alpha);
        const double upper = clopper_pearson_upper(k, n, alpha);
        const double nd = static_cast<double>(n), kd = static_cast<double>(k);
        const double want_lower =
            k == 0 ? 0.0 : boost::math::quantile(boost::math::beta_distribution<>(kd, nd - kd + 1), alpha);
        const double want_upper =
            k == n ? 1.0 : boost::math::quantile(boost::math::beta_distribution<>(kd + 1, nd - kd), 1 - alpha);
        // Conservative (never inside the exact interval) and within 1e-5 relative of it.
        EXPECT_LE(lower, want_lower) << "k = " << k << ", n = " << n;
        EXPECT_GE(lower, want_lower * (1 - 1e-5)) << "k = " << k << ", n = " << n;
        EXPECT_GE(upper, want_upper) << "k = " << k << ", n = " << n;
        EXPECT_LE(upper - want_upper, 1e-5 * (1 - want_upper) + 1e-15) << "k = " << k << ", n = " << n;
      }
}

TEST(AuditConfidence, EmpiricalBernsteinIsTheMaurerPontilFormula) {
  const MeanBounds b = empirical_bernstein(0.3, 0.04, 1001, 1.0, 1e-6);
  const double log_term = std::log(2e6);
  const double width = std::sqrt(2 * 0.04 * log_term / 1001) + 7 * log_term / (3 * 1000.0);
  EXPECT_DOUBLE_EQ(b.lower, 0.3 - width);
  EXPECT_DOUBLE_EQ(b.upper, 0.3 + width);
  // Clamped to the range of the variable.
  EXPECT_EQ(empirical_bernstein(0.0, 0.0, 10, 1.0, 1e-6).lower, 0.0);
  EXPECT_EQ(empirical_bernstein(1.0, 0.0, 10, 1.0, 1e-6).upper, 1.0);
  EXPECT_THROW(empirical_bernstein(0.5, 0.1, 1, 1.0, 1e-6), Error);
}

TEST(AuditConfidence, DkwThresholdIsMassartsConstant) {
  EXPECT_DOUBLE_EQ(dkw_threshold(5000, 1e-6), std::sqrt(std::log(2e6) / 10000.0));
}

TEST(AuditConfidence, KsDistanceOfAPerfectGridIsHalfAStep) {
  // The points (i + 1/2) / m under the uniform distribution: sup |F_m - F| = 1 / (2m).
  std::vector<double> values;
  for (int i = 0; i < 100; ++i) values.push_back((i + 0.5) / 100.0);
  const auto uniform = [](double x, const double *) { return x; };
  EXPECT_NEAR(ks_distance(values, uniform, nullptr), 0.005, 1e-15);
}

}  // namespace
}  // namespace dpcov::audit
