#include "distributions.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include "../error.hpp"
#include "../math/student_t.hpp"

namespace dpcov::audit {

namespace {

constexpr double kEps = 1e-15;
// The series below stop far sooner; a cap against a loop that never ends.
constexpr int kMaxIterations = 1000000;
// Where ln I_0 switches from its power series to its asymptotic series.
constexpr double kBesselSeriesLimit = 50.0;

}  // namespace

double incomplete_beta(double a, double b, double x) {
  if (!(a > 0.0) || !(b > 0.0) || !std::isfinite(a) || !std::isfinite(b) || !(x >= 0.0) ||
      !(x <= 1.0))
    fail(Status::InvalidArgument, "incomplete_beta needs a, b > 0 finite and x in [0, 1], got a = ",
         a, ", b = ", b, ", x = ", x);
  // The estimators' evaluation, which keeps full relative accuracy for large a, b.
  return math::incomplete_beta(a, b, x).value;
}

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

double laplace_cdf(double x) {
  return x < 0.0 ? 0.5 * std::exp(x) : 1.0 - 0.5 * std::exp(-x);
}

double log_bessel_i0(double x) {
  if (!(x >= 0.0) || !std::isfinite(x))
    fail(Status::InvalidArgument, "log_bessel_i0 needs a finite x >= 0, got ", x);
  if (x <= kBesselSeriesLimit) {
    const double quarter_square = 0.25 * x * x;
    double term = 1.0, sum = 1.0;
    for (int k = 1; k < kMaxIterations; ++k) {
      term *= quarter_square / (static_cast<double>(k) * static_cast<double>(k));
      sum += term;
      if (term < kEps * sum) break;
    }
    return std::log(sum);
  }
  double term = 1.0, sum = 1.0;
  for (int k = 1; k < kMaxIterations; ++k) {
    const double odd = 2.0 * k - 1.0;
    const double next = term * odd * odd / (8.0 * k * x);
    if (next >= term) break;  // the asymptotic series starts to diverge (never before k = 2x)
    term = next;
    sum += term;
    if (term < kEps * sum) break;
  }
  // ln(2 pi) + ln x, not ln(2 pi x): the product overflows above DBL_MAX / (2 pi).
  return x - 0.5 * (std::log(2.0 * std::numbers::pi) + std::log(x)) + std::log(sum);
}

double bingham_circle_log_normaliser(double a1, double a2) {
  if (!std::isfinite(a1) || !std::isfinite(a2) || !(a1 >= a2))
    fail(Status::InvalidArgument, "the circle Bingham normaliser needs finite a1 >= a2, got a1 = ",
         a1, ", a2 = ", a2);
  return 0.5 * (a1 + a2) + log_bessel_i0(0.5 * (a1 - a2));
}

double bingham_circle_angle_cdf(double c, double psi) {
  if (!(c >= 0.0) || !std::isfinite(c) || !std::isfinite(psi))
    fail(Status::InvalidArgument,
         "the circle Bingham angle CDF needs finite c >= 0 and psi, got c = ", c, ", psi = ", psi);
  const double pi = std::numbers::pi;
  psi -= pi * std::floor(psi / pi);
  if (c == 0.0) return psi / pi;
  // Terms used: I_j / I_0 < 1e-17 once j > sqrt(2 c ln 1e17) ~ 8.85 sqrt(c), and much earlier
  // for small c. The continued fraction starts twice as far out, where its tail is negligible.
  const int terms = 20 + static_cast<int>(std::ceil(10.0 * std::sqrt(c)));
  std::vector<double> ratio(static_cast<size_t>(terms) + 1);  // ratio[j] = I_j / I_{j-1}
  double next = 0.0;
  for (int j = 2 * terms + 50; j >= 1; --j) {
    next = 1.0 / (2.0 * j / c + next);
    if (j <= terms) ratio[static_cast<size_t>(j)] = next;
  }
  double sum = psi, relative = 1.0;
  for (int j = 1; j <= terms; ++j) {
    relative *= ratio[static_cast<size_t>(j)];  // I_j / I_0
    if (relative < 1e-17) break;
    sum += relative * std::sin(2.0 * j * psi) / j;
  }
  return std::clamp(sum / pi, 0.0, 1.0);
}

}  // namespace dpcov::audit
