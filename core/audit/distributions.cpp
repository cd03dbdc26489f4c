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

// Lentz's method replaces a vanishing denominator by this, as Numerical Recipes does.
constexpr double kTiny = 1e-300;
constexpr double kEps = 1e-15;
// Both the continued fractions and the gamma series need O(sqrt(max(a, b))) terms (Numerical
// Recipes section 6.4); this allows parameters far beyond the 1e8 the auditor can reach.
constexpr int kMaxIterations = 1000000;
// Where ln I_0 switches from its power series to its asymptotic series.
constexpr double kBesselSeriesLimit = 50.0;

[[noreturn]] void no_convergence(const char *what, double a, double b, double x) {
  fail(Status::Numerical, what, " did not converge at a = ", a, ", b = ", b, ", x = ", x);
}

}  // namespace

double incomplete_beta(double a, double b, double x) {
  if (!(a > 0.0) || !(b > 0.0) || !std::isfinite(a) || !std::isfinite(b) || !(x >= 0.0) ||
      !(x <= 1.0))
    fail(Status::InvalidArgument, "incomplete_beta needs a, b > 0 finite and x in [0, 1], got a = ",
         a, ", b = ", b, ", x = ", x);
  // The estimators' evaluation, which keeps full relative accuracy for large a, b.
  return estimators::incomplete_beta(a, b, x).value;
}

double incomplete_gamma_lower(double a, double x) {
  if (!(a > 0.0) || !std::isfinite(a) || !(x >= 0.0))
    fail(Status::InvalidArgument, "incomplete_gamma_lower needs a > 0 finite and x >= 0, got a = ",
         a, ", x = ", x);
  if (x == 0.0) return 0.0;
  if (std::isinf(x)) return 1.0;
  const double log_front = a * std::log(x) - x - std::lgamma(a);
  if (x < a + 1.0) {
    double ap = a, term = 1.0 / a, sum = term;
    for (int n = 1; n <= kMaxIterations; ++n) {
      ap += 1.0;
      term *= x / ap;
      sum += term;
      if (std::fabs(term) < std::fabs(sum) * kEps) return sum * std::exp(log_front);
    }
    no_convergence("incomplete gamma series", a, 0.0, x);
  }
  double b = x + 1.0 - a;
  double c = 1.0 / kTiny;
  double d = 1.0 / b;
  double h = d;
  for (int i = 1; i <= kMaxIterations; ++i) {
    const double an = -i * (i - a);
    b += 2.0;
    d = an * d + b;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = b + an / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    const double del = d * c;
    h *= del;
    if (std::fabs(del - 1.0) <= kEps) return 1.0 - std::exp(log_front) * h;
  }
  no_convergence("incomplete gamma continued fraction", a, 0.0, x);
}

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

double laplace_cdf(double x) {
  return x < 0.0 ? 0.5 * std::exp(x) : 1.0 - 0.5 * std::exp(-x);
}

double chi_square_cdf(double x, double dof) {
  if (x <= 0.0) return 0.0;
  return incomplete_gamma_lower(dof / 2.0, x / 2.0);
}

double chi_square_quantile(double p, double dof) {
  if (!(p > 0.0) || !(p < 1.0) || !(dof > 0.0) || !std::isfinite(dof))
    fail(Status::InvalidArgument, "chi_square_quantile needs p in (0, 1) and dof > 0, got p = ", p,
         ", dof = ", dof);
  double lo = 0.0, hi = dof + 10.0 * std::sqrt(2.0 * dof) + 100.0;
  while (chi_square_cdf(hi, dof) < p) hi *= 2.0;
  while (hi - lo > 1e-14 * hi) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (chi_square_cdf(mid, dof) < p ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
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
    fail(Status::InvalidArgument, "the circle Bingham angle CDF needs finite c >= 0 and psi, got c = ",
         c, ", psi = ", psi);
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
