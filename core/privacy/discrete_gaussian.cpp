#include "discrete_gaussian.hpp"

#include <cmath>

#include "../check.hpp"
#include "../error.hpp"
#include "upward.hpp"

namespace dpcov::privacy {

double zcdp_delta_at(double rho, double eps, double alpha) {
  return std::exp((alpha - 1.0) * (alpha * rho - eps) + alpha * std::log1p(-1.0 / alpha)) /
         (alpha - 1.0);
}

double zcdp_delta(double rho, double eps) {
  // d/dalpha of the log of the bound is (2 alpha - 1) rho - eps + ln(1 - 1/alpha): increasing
  // in alpha, so its root (the minimiser) is found by bisection.
  double lo = 1.0 + 1e-9, hi = (eps + 1.0) / (2.0 * rho) + 2.0;
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    if ((2.0 * mid - 1.0) * rho - eps + std::log1p(-1.0 / mid) < 0.0) lo = mid; else hi = mid;
  }
  const double delta = zcdp_delta_at(rho, eps, 0.5 * (lo + hi));
  return delta < 1.0 ? delta : 1.0;
}

double zcdp_rho_for(double eps, double delta) {
  check::positive_finite(eps, "epsilon");
  check::finite(delta, "delta");
  if (!(delta > 0.0 && delta < 1.0))
    fail(DPCOV_E_INVALID_ARGUMENT, "delta must be in (0, 1), got ", delta);
  const double target = delta * (1.0 - 1e-9);
  double lo = 0.0, hi = eps + 1.0;  // zcdp_delta(eps + 1, eps) >= delta for delta < 1
  for (int it = 0; it < 200 && hi - lo > 1e-12 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (zcdp_delta(mid, eps) <= target) lo = mid; else hi = mid;
  }
  if (!(lo > 0.0)) fail(DPCOV_E_PRECONDITION, "no rho > 0 reaches delta = ", delta, " at eps = ", eps);
  return lo;
}

uint64_t discrete_gaussian_variance(double delta_squared, double rho) {
  // The smallest integer s2 with 2 rho s2 >= Delta^2 (from 2^53 on, the smallest double one).
  const double sigma2 = upward::ceil_quotient_up(delta_squared, 2.0 * rho);
  if (!(sigma2 < 0x1.0p62))
    fail(DPCOV_E_PRECONDITION, "the discrete Gaussian variance ", sigma2,
         " in grid units is 2^62 or more: epsilon or delta too small for the exact sampler");
  return static_cast<uint64_t>(sigma2);
}

}  // namespace dpcov::privacy
