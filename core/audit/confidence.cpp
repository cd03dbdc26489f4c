#include "confidence.hpp"

#include <algorithm>
#include <cmath>

#include "../error.hpp"
#include "distributions.hpp"

namespace dpcov::audit {

namespace {

void check_counts(int64_t k, int64_t n, double alpha) {
  if (n < 1 || k < 0 || k > n)
    fail(Status::InvalidArgument, "binomial counts need 0 <= k <= n and n >= 1, got k = ", k,
         ", n = ", n);
  if (!(alpha > 0.0) || !(alpha < 1.0))
    fail(Status::InvalidArgument, "alpha must be in (0, 1), got ", alpha);
}

// incomplete_beta() loses up to about 2e-15 lgamma(n) relative (3e-7 at n = 1e7, far more than
// the auditor draws); the bounds move outward by this much so that they stay conservative.
constexpr double kMargin = 1e-6;

// The lower end of a bracket [lo, hi] of the x in (0, 1) where the increasing function f crosses
// `target`, bisected to the last bits: f(lo) < target.
template <class F>
double solve_increasing_from_below(F f, double target) {
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 1100 && hi - lo > 1e-300 + 1e-15 * lo; ++i) {
    const double mid = 0.5 * (lo + hi);
    (f(mid) < target ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace

double clopper_pearson_lower(int64_t k, int64_t n, double alpha) {
  check_counts(k, n, alpha);
  if (k == 0) return 0.0;
  const double a = static_cast<double>(k), b = static_cast<double>(n - k + 1);
  // P[Bin(n, p) >= k] = I_p(k, n - k + 1), increasing in p.
  const double p =
      solve_increasing_from_below([&](double x) { return incomplete_beta(a, b, x); }, alpha);
  return p * (1.0 - kMargin);
}

double clopper_pearson_upper(int64_t k, int64_t n, double alpha) {
  check_counts(k, n, alpha);
  if (k == n) return 1.0;
  // P[Bin(n, p) <= k] = I_{1-p}(n - k, k + 1): solve for q = 1 - p, where I_q is increasing and
  // its small values (about alpha) keep their relative accuracy.
  const double a = static_cast<double>(n - k), b = static_cast<double>(k + 1);
  const double q =
      solve_increasing_from_below([&](double x) { return incomplete_beta(a, b, x); }, alpha);
  return std::min(1.0, 1.0 - q * (1.0 - kMargin));
}

MeanBounds empirical_bernstein(double mean, double variance, int64_t n, double range,
                               double alpha) {
  if (n < 2) fail(Status::InvalidArgument, "empirical Bernstein bounds need n >= 2, got ", n);
  if (!(alpha > 0.0) || !(alpha < 1.0))
    fail(Status::InvalidArgument, "alpha must be in (0, 1), got ", alpha);
  // ln 2 - ln alpha, not ln(2 / alpha): 2 / alpha overflows below alpha = 1.1e-308, and the
  // infinite width times a zero variance made the bound NaN (a CoinPress per-step audit at
  // alpha = 1e-310 failed with Status::Numerical after all its draws).
  const double log_term = std::log(2.0) - std::log(alpha);
  const double nd = static_cast<double>(n);
  const double width = std::sqrt(2.0 * std::max(variance, 0.0) * log_term / nd) +
                       7.0 * range * log_term / (3.0 * (nd - 1.0));
  return {mean, std::clamp(mean - width, 0.0, range), std::clamp(mean + width, 0.0, range)};
}

double dkw_threshold(int64_t m, double alpha) {
  if (m < 1) fail(Status::InvalidArgument, "DKW threshold needs m >= 1 draws, got ", m);
  return std::sqrt((std::log(2.0) - std::log(alpha)) / (2.0 * static_cast<double>(m)));
}

double ks_distance(std::vector<double> &values, double (*cdf)(double, const double *),
                   const double *parameters) {
  std::sort(values.begin(), values.end());
  const double m = static_cast<double>(values.size());
  double distance = 0.0;
  for (size_t i = 0; i < values.size(); ++i) {
    const double f = cdf(values[i], parameters);
    const double above = static_cast<double>(i + 1) / m - f;
    const double below = f - static_cast<double>(i) / m;
    distance = std::max({distance, above, below});
  }
  return distance;
}

}  // namespace dpcov::audit
