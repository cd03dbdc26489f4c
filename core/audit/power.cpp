#include "power.hpp"

#include <cmath>

#include "confidence.hpp"

namespace dpcov::audit {

double detectable_delta_bernstein(double claimed_delta, int64_t n, double alpha) {
  const double nd = static_cast<double>(n);
  const auto lower = [&](double p) {
    return empirical_bernstein(p, p * (1.0 - p) * nd / (nd - 1.0), n, 1.0, alpha).lower;
  };
  if (!(lower(1.0) > claimed_delta)) return 1.0;
  double lo = 0.0, hi = 1.0;  // lower(lo) <= claim < lower(hi)
  for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (lower(mid) > claimed_delta ? hi : lo) = mid;
  }
  return hi;
}

double detectable_violation_probability(int64_t n) {
  return -std::expm1(-std::log(2.0) / static_cast<double>(n));
}

double detectable_delta_black_box(double epsilon, double claimed_delta, int64_t trials,
                                  double alpha) {
  const double other = std::exp(epsilon) * clopper_pearson_upper(0, trials, alpha);
  const auto flagged = [&](int64_t k) {
    return clopper_pearson_lower(k, trials, alpha) - other > claimed_delta;
  };
  if (!flagged(trials)) return 1.0;
  int64_t lo = 0, hi = trials;  // not flagged at lo, flagged at hi
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    (flagged(mid) ? hi : lo) = mid;
  }
  return static_cast<double>(hi) / static_cast<double>(trials);
}

}  // namespace dpcov::audit
