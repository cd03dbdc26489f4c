// The auditor's own statistics (core/audit/distributions.hpp, confidence.hpp, and the chi-square
// law of core/math/chi_square.hpp) against Boost.Math, an independent implementation: incomplete
// beta and gamma functions, chi-square quantiles,
// Clopper-Pearson bounds (Boost's beta quantiles), and the empirical-Bernstein and DKW bounds
// against their formulas; ln I_0 and the Bingham law on the circle against Boost's Bessel function
// and quadrature.
#include <gtest/gtest.h>

#include <boost/math/distributions/beta.hpp>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/special_functions/bessel.hpp>
#include <boost/math/special_functions/beta.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include "core/audit/confidence.hpp"
#include "core/audit/distributions.hpp"
#include "core/math/chi_square.hpp"
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
      EXPECT_LT(relative_error(math::incomplete_gamma_lower(a, x), expected),
                a > 1e5 ? 1e-8 : 1e-11)
          << "a = " << a << ", x = " << x;
    }
}

TEST(AuditDistributions, ChiSquareQuantileMatchesBoost) {
  for (const double dof : {1.0, 6.0, 100.0, 2230.0, 1e5})
    for (const double p : {1e-12, 1e-7, 0.05, 0.5, 0.99}) {
      const boost::math::chi_squared dist(dof);
      EXPECT_LT(relative_error(math::chi_square_quantile(p, dof), boost::math::quantile(dist, p)),
                1e-9)
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

// ln I_0 against Boost on both sides of the switch from the power series to the asymptotic one.
TEST(AuditDistributions, LogBesselI0MatchesBoost) {
  for (const double x : {0.0, 1e-8, 0.3, 1.0, 7.5, 30.0, 49.9, 50.0, 50.1, 120.0, 700.0})
    EXPECT_NEAR(log_bessel_i0(x), std::log(boost::math::cyl_bessel_i(0, x)),
                2e-15 * (1.0 + x)) << "x = " << x;
  // Beyond Boost's overflow: against its exponentially scaled series at 1e4 (I_0(x) e^{-x}
  // sqrt(2 pi x) = 1 + 1/(8x) + 9/(128 x^2) + ...).
  const double x = 1e4;
  const double expected = x - 0.5 * std::log(2.0 * std::numbers::pi * x) + std::log1p(1.0 / (8.0 * x) + 9.0 / (128.0 * x * x));
  EXPECT_NEAR(log_bessel_i0(x), expected, 1e-11);
  // Up to DBL_MAX, where 2 pi x overflows: ln I_0(x) = x - ln(2 pi x) / 2 + O(1/x).
  for (const double big : {1e300, 1e307, std::numeric_limits<double>::max()}) {
    const double log_two_pi_x = std::log(2.0 * std::numbers::pi) + std::log(big);
    EXPECT_EQ(log_bessel_i0(big), big - 0.5 * log_two_pi_x) << "x = " << big;
  }
  EXPECT_THROW(log_bessel_i0(-1.0), Error);
}

// The circle normaliser against Gauss-Kronrod quadrature of (1/2pi) int exp(u^T A u) over the
// circle, for A = diag(a1, a2) rotated (the normaliser depends on the eigenvalues only).
TEST(AuditDistributions, CircleBinghamNormaliserMatchesQuadrature) {
  for (const double a1 : {0.0, 0.7, 5.0, 40.0})
    for (const double a2 : {-3.0, 0.0, 0.5}) {
      if (a2 > a1) continue;
      const auto f = [&](double t) {
        return std::exp(a1 * std::cos(t) * std::cos(t) + a2 * std::sin(t) * std::sin(t) - a1);
      };
      const double integral =
          boost::math::quadrature::gauss_kronrod<double, 61>::integrate(f, 0.0, 2.0 * std::numbers::pi, 15, 1e-14);
      EXPECT_NEAR(bingham_circle_log_normaliser(a1, a2), a1 + std::log(integral / (2.0 * std::numbers::pi)), 1e-13)
          << "a1 = " << a1 << ", a2 = " << a2;
    }
  EXPECT_THROW(bingham_circle_log_normaliser(0.0, 1.0), Error);
}

// The folded-angle distribution function against quadrature of its density
// exp(c cos 2psi) / (pi I_0(c)), from the uniform law (c = 0) to a sharp one (c = 400).
TEST(AuditDistributions, CircleBinghamAngleCdfMatchesQuadrature) {
  for (const double c : {0.0, 0.01, 1.5, 4.0, 30.0, 400.0})
    for (const double psi : {0.0, 1e-3, 0.05, 0.4, 1.0, std::numbers::pi / 2.0, 2.0, 3.1}) {
      const auto f = [c](double s) { return std::exp(c * (std::cos(2.0 * s) - 1.0)); };
      const auto integrate = [&](double hi) {
        return hi <= 0.0 ? 0.0
                         : boost::math::quadrature::gauss_kronrod<double, 61>::integrate(
                               f, 0.0, hi, 15, 1e-14);
      };
      const double expected = integrate(psi) / integrate(std::numbers::pi);
      EXPECT_NEAR(bingham_circle_angle_cdf(c, psi), expected, 1e-12) << "c = " << c << ", psi = " << psi;
    }
  // Reduced modulo pi: -psi is pi - psi.
  EXPECT_NEAR(bingham_circle_angle_cdf(3.0, -0.4), bingham_circle_angle_cdf(3.0, std::numbers::pi - 0.4), 1e-15);
}

}  // namespace
}  // namespace dpcov::audit
