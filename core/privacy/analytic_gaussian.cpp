#include "analytic_gaussian.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "../check.hpp"
#include "calibration_count.hpp"
#include "certified_gaussian_delta.hpp"
#include "upward.hpp"

namespace dpcov::privacy {

namespace {

// Beyond this many halvings of the bracket the bisection has long met its 1e-12 tolerance
// (it needs about 40 + log2(D / sigma)); reaching it means a non-finite argument slipped through.
constexpr int kMaxIterations = 4000;

// Below this, erfc(-x / sqrt 2) is within a few hundred orders of magnitude of underflow; the
// asymptotic series is used instead (it has converged to double precision from |x| = 20 on).
constexpr double kAsymptoticBelow = -20.0;
// Above this, log Phi(x) is computed as log1p(-Phi(-x)): Phi(-x) = erfc(x / sqrt 2) / 2 is then
// accurate to a relative ulp, and log1p keeps that accuracy where Phi(x) is close to 1.
constexpr double kUpperTailAbove = 0.0;

// The double-precision search above lands within a relative 1e-12 of where its own evaluation
// of delta(sigma) crosses the target; that evaluation cancels (l2 - l1 of two large logarithms)
// and can be on the unsafe side. The returned sigma is therefore only one that MPFR's directed
// rounding certifies at sensitivity 1: the candidate if it passes; otherwise the smallest certified point found by
// growing steps above it, then bisection between the last refused and the certified point.
double certify(double candidate, double eps, double delta) {
  auto certified = [&](double sigma) {
    return gaussian_delta_certified_at_most(sigma, eps, 1.0, delta);
  };
  if (certified(candidate)) return candidate;
  double lo = candidate;
  // At least the smallest subnormal: for a subnormal candidate the relative step underflows to
  // zero, and the search would stand still.
  double step = std::max(candidate * 0x1p-45, std::numeric_limits<double>::denorm_min());
  double hi = lo + step;
  int iterations = 0;
  while (!certified(hi)) {
    lo = hi;
    step *= 2.0;
    hi = lo + step;
    if (!std::isfinite(hi) || ++iterations > kMaxIterations)
      fail(Status::Numerical, "analytic Gaussian calibration: no finite sigma is certified to ",
           "reach delta = ", delta, " at epsilon = ", eps);
  }
  while (hi - lo > 1e-12 * hi) {
    const double mid = lo + 0.5 * (hi - lo);
    if (certified(mid))
      hi = mid;
    else
      lo = mid;
  }
  return hi;
}

}  // namespace

double log_normal_cdf(double x) {
  if (x > kUpperTailAbove) return std::log1p(-0.5 * std::erfc(x / std::numbers::sqrt2));
  if (x >= kAsymptoticBelow) return std::log(0.5 * std::erfc(-x / std::numbers::sqrt2));
  // Phi(x) = phi(x) / |x| * (1 - 1/x^2 + 3/x^4 - 15/x^6 + ...) for x -> -infinity (Abramowitz &
  // Stegun 26.2.12). The series is asymptotic; its terms decrease while (2k - 1) < x^2, i.e. for
  // more than 800 terms at |x| >= 20, and fall below 1e-17 after about ten.
  const double inv_x2 = 1.0 / (x * x);
  double term = 1.0;
  double series = 1.0;
  for (int k = 1; k < 40 && std::fabs(term) > 1e-18; ++k) {
    term *= -(2.0 * k - 1.0) * inv_x2;
    series += term;
  }
  return -0.5 * x * x - std::log(-x) - 0.5 * std::log(2.0 * std::numbers::pi) + std::log(series);
}

double analytic_gaussian_delta(double sigma, double eps, double sensitivity) {
  check::positive_finite(sigma, "sigma");
  check::epsilon(eps);
  check::positive_finite(sensitivity, "sensitivity");
  const double a = sensitivity / (2.0 * sigma);
  const double b = eps * sigma / sensitivity;
  const double l1 = log_normal_cdf(a - b);
  const double l2 = eps + log_normal_cdf(-a - b);
  if (l2 >= l1) return 0.0;
  return std::exp(l1) * -std::expm1(l2 - l1);
}

double analytic_gaussian_unit_sigma(double eps, double delta) {
  count_calibration(Calibrator::AnalyticGaussian);
  check::epsilon(eps);
  check::delta(delta);
  // Invariant: delta(lo) > delta (or lo = 0) and delta(hi) <= delta. Moving lo up to each
  // rejected hi while doubling keeps the invariant and shortens the bisection.
  double lo = 0.0;
  double hi = 1.0;
  int iterations = 0;
  while (analytic_gaussian_delta(hi, eps, 1.0) > delta) {
    lo = hi;
    hi *= 2.0;
    if (!std::isfinite(hi) || ++iterations > kMaxIterations)
      fail(Status::Numerical, "analytic Gaussian calibration: no finite sigma reaches delta = ",
           delta, " at epsilon = ", eps);
  }
  while (hi - lo > 1e-12 * hi) {
    const double mid = lo + 0.5 * (hi - lo);
    if (analytic_gaussian_delta(mid, eps, 1.0) <= delta)
      hi = mid;
    else
      lo = mid;
    if (++iterations > kMaxIterations)
      fail(Status::NoConvergence, "analytic Gaussian calibration did not converge");
  }
  return certify(hi, eps, delta);
}

double analytic_gaussian_sigma_at(double unit_sigma, double sensitivity) {
  check::positive_finite(unit_sigma, "unit sigma");
  check::positive_finite(sensitivity, "sensitivity");
  // Rounded up, also below the normal range (one subnormal step up where the product is inexact):
  // sigma / D never falls below the certified unit sigma.
  const double sigma = upward::mul_up(sensitivity, unit_sigma);
  if (!std::isfinite(sigma))
    fail(Status::Numerical, "analytic Gaussian calibration: sigma = ", unit_sigma, " * ",
         sensitivity, " overflows");
  return sigma;
}

double analytic_gaussian_sigma(double eps, double delta, double sensitivity) {
  check::epsilon(eps);
  check::delta(delta);
  check::positive_finite(sensitivity, "sensitivity");
  return analytic_gaussian_sigma_at(analytic_gaussian_unit_sigma(eps, delta), sensitivity);
}

}  // namespace dpcov::privacy
