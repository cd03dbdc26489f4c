#include "chi_square.hpp"

#include <cmath>

#include "../error.hpp"

namespace dpcov::math {

namespace {

// Lentz's method replaces a vanishing denominator by this, as Numerical Recipes does.
constexpr double kTiny = 1e-300;
constexpr double kEps = 1e-15;
// The gamma series and continued fraction need O(sqrt(a)) terms (Numerical Recipes section 6.2);
// this allows parameters far beyond the 1e8 the auditor can reach.
constexpr int kMaxIterations = 1000000;

[[noreturn]] void no_convergence(const char *what, double a, double b, double x) {
  fail(Status::Numerical, what, " did not converge at a = ", a, ", b = ", b, ", x = ", x);
}

}  // namespace

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

}  // namespace dpcov::math
