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
// of delta(sigma) crosses the target; that evaluation is accurate to a relative ~1e-12, not
// exact, and can be on the unsafe side. The returned sigma is therefore only one that MPFR's directed
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

// Where a = D / (2 sigma) is at most this, delta is computed from the slope of erfcx over the
// short interval between its two terms (delta_near_terms); above it the terms differ enough for
// their logarithms' difference (relative error about b^3 1e-16 / (2 a)).
constexpr double kNearTermsUpTo = 1.0;

// 12-point Gauss-Legendre on [-1, 1]: the positive nodes and their weights (the rule is
// symmetric).
constexpr double kNodes[6] = {0.12523340851146891547, 0.36783149899818019375,
                              0.58731795428661744730, 0.76990267419430468704,
                              0.90411725637047485668, 0.98156063424671925069};
constexpr double kWeights[6] = {0.24914704581340278500, 0.23349253653835480876,
                                0.20316742672306592175, 0.16007832854334622633,
                                0.10693932599531843096, 0.04717533638651182720};

// -d/dt erfcx(t) = 2 / sqrt(pi) - 2 t erfcx(t) > 0, erfcx(t) = e^{t^2} erfc(t). From t = 10 on by
// erfcx's asymptotic series (Abramowitz & Stegun 7.1.23):
// (2 / sqrt pi) sum_{k >= 1} (-1)^{k+1} (2k - 1)!! / (2 t^2)^k, whose terms shrink by (2k + 1) /
// (2 t^2) <= 0.01; below, directly, t^2 split into two doubles so that e^{t^2} keeps its relative
// accuracy (the difference then loses at most log10(2 t^2) of its digits).
double erfcx_slope(double t) {
  const double two_over_root_pi = 2.0 * std::numbers::inv_sqrtpi;
  if (t >= 10.0) {
    const double x = 0.5 / (t * t);
    double term = x;
    double sum = 0.0;
    for (int k = 1; k < 40 && term > 1e-18 * x; ++k) {
      sum += (k % 2 == 1) ? term : -term;
      term *= (2.0 * k + 1.0) * x;
    }
    return two_over_root_pi * sum;
  }
  const double square = t * t;
  const double square_low = std::fma(t, t, -square);
  const double erfcx = std::exp(square) * (1.0 + square_low) * std::erfc(t);
  return two_over_root_pi - 2.0 * t * erfcx;
}

// delta = Phi(a - b) - e^eps Phi(-a - b) with 2 a b = eps. Writing Phi(-z) = e^{-z^2/2}
// erfcx(z / sqrt 2) / 2, the e^eps cancels the second term's extra factor exactly:
// delta = e^{-(b - a)^2 / 2} (erfcx(u - h) - erfcx(u + h)) / 2, u = b / sqrt 2, h = a / sqrt 2,
// and the difference is the integral of erfcx_slope over [u - h, u + h]: no subtraction of the
// two terms, whose relative gap (about eps / b^2) can be below a double's precision.
double delta_near_terms(double a, double b) {
  const double u = b / std::numbers::sqrt2;
  const double h = a / std::numbers::sqrt2;
  double sum = 0.0;
  for (int i = 0; i < 6; ++i)
    sum += kWeights[i] * (erfcx_slope(u - h * kNodes[i]) + erfcx_slope(u + h * kNodes[i]));
  const double difference = h * sum;
  return std::exp(-0.5 * (b - a) * (b - a) + std::log(0.5 * difference));
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
  if (a <= kNearTermsUpTo) return delta_near_terms(a, b);
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
