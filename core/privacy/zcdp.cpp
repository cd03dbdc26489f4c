#include "zcdp.hpp"

#include <algorithm>
#include <cmath>

#include "../check.hpp"
#include "upward.hpp"

namespace dpcov::privacy {

namespace {

void check_rho(double rho) {
  check::positive_finite(rho, "rho");
}

// The Canonne-Kamath-Steinke bound at alpha = 1 + m, in round-to-nearest (for the search only).
double cks_bound_nearest(double rho, double log_inv_delta, double m) {
  return rho + m * rho + (log_inv_delta - m * std::log1p(1.0 / m) - std::log1p(m)) / m;
}

// glibc's log1p is accurate to within one ulp (as log, see upward::log_up); two ulps down is
// therefore <= the exact value.
double log1p_down(double x) {
  return upward::bump_down(upward::bump_down(std::log1p(x)));
}

// The same bound with every operation rounded towards +infinity. With alpha - 1 = m:
//   (alpha - 1) ln(1 - 1/alpha) = -m ln(1 + 1/m),  ln alpha = ln(1 + m),
// so the bound is rho + m rho + (ln(1/delta) - m ln(1 + 1/m) - ln(1 + m)) / m, and each subtracted
// term is bounded from below.
double cks_bound_upward(double rho, double delta, double m) {
  using namespace upward;
  const double log_inv_delta = log_inverse_up(delta);
  const double t2 = mul_down(m, log1p_down(div_down(1.0, m)));
  const double t3 = log1p_down(m);
  const double numerator = add_up(add_up(log_inv_delta, -t2), -t3);
  return add_up(add_up(rho, mul_up(m, rho)), div_up(numerator, m));
}

}  // namespace

double zcdp_gaussian_sigma(double rho, double sensitivity) {
  check_rho(rho);
  check::positive_finite(sensitivity, "sensitivity");
  using namespace upward;
  // sqrt(2 rho) is rounded down so that the quotient is rounded up.
  const double s = std::sqrt(2.0 * rho);  // 2 rho is exact; sqrt is correctly rounded
  const double root_down = std::fma(s, s, -2.0 * rho) > 0.0 ? bump_down(s) : s;
  const double sigma = div_up(sensitivity, root_down);
  // A tiny rho against a large sensitivity overflows: no finite noise scale exists.
  if (!std::isfinite(sigma))
    fail(DPCOV_E_NUMERICAL, "the Gaussian noise scale sensitivity / sqrt(2 rho) overflows (rho = ",
         rho, ", sensitivity = ", sensitivity, ")");
  return sigma;
}

double zcdp_epsilon(double rho, double delta) {
  check_rho(rho);
  check::delta(delta);
  const double log_inv_delta = -std::log(delta);  // 1/delta overflows for a subnormal delta
  // The bound is smooth and unimodal in u = ln(alpha - 1) (its minimiser is near
  // alpha = 1 + sqrt(ln(1/delta) / rho)): a grid over u, then golden-section refinement.
  double best_u = 0.0;
  double best = INFINITY;
  for (int i = 0; i <= 400; ++i) {
    const double u = -30.0 + 0.25 * i;
    const double value = cks_bound_nearest(rho, log_inv_delta, std::exp(u));
    if (value < best) {
      best = value;
      best_u = u;
    }
  }
  double lo = best_u - 0.25;
  double hi = best_u + 0.25;
  const double g = 0.5 * (std::sqrt(5.0) - 1.0);
  for (int i = 0; i < 100; ++i) {
    const double a = hi - g * (hi - lo);
    const double b = lo + g * (hi - lo);
    if (cks_bound_nearest(rho, log_inv_delta, std::exp(a)) <
        cks_bound_nearest(rho, log_inv_delta, std::exp(b)))
      hi = b;
    else
      lo = a;
  }
  const double certified = cks_bound_upward(rho, delta, std::exp(0.5 * (lo + hi)));
  // The infimum is below Bun-Steinke's bound; keep the certified value only where it is smaller
  // (it always is, but the comparison costs nothing and keeps the promise in the header exact).
  const double bun_steinke = zcdp_epsilon_bun_steinke(rho, delta);
  // The bound is negative for a small rho at a large delta (alpha > 1/delta makes the log terms
  // negative): the mechanism is then (0, delta)-DP, and an epsilon below 0 means nothing.
  const double epsilon = std::max(0.0, certified < bun_steinke ? certified : bun_steinke);
  check::finite_result(epsilon, "epsilon of the zCDP guarantee");  // rho near the largest double
  return epsilon;
}

double zcdp_epsilon_bun_steinke(double rho, double delta) {
  check_rho(rho);
  check::delta(delta);
  using namespace upward;
  const double log_inv_delta = log_inverse_up(delta);
  return add_up(rho, mul_up(2.0, sqrt_up(mul_up(rho, log_inv_delta))));
}

double zcdp_rho_for_epsilon(double epsilon, double delta) {
  check::epsilon(epsilon);
  check::delta(delta);
  // zcdp_epsilon(lo) <= epsilon is kept invariant (lo = 0 holds it vacuously), so the result
  // always meets the target; hi starts above the answer (the bound grows like rho).
  double lo = 0.0;
  double hi = epsilon;
  for (int i = 0; i < 64 && zcdp_epsilon(hi, delta) <= epsilon; ++i) {
    lo = hi;
    hi *= 2.0;
  }
  for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (zcdp_epsilon(mid, delta) <= epsilon)
      lo = mid;
    else
      hi = mid;
  }
  if (!(lo > 0.0))
    fail(DPCOV_E_NUMERICAL, "no rho > 0 meets epsilon = ", epsilon, " at delta = ", delta);
  return lo;
}

double zcdp_rho_gaussian(double sensitivity, double sigma) {
  check::positive_finite(sensitivity, "sensitivity");
  check::positive_finite(sigma, "sigma");
  const double ratio = upward::div_up(sensitivity, sigma);
  return upward::div_up(upward::mul_up(ratio, ratio), 2.0);
}

double zcdp_rho_pure(double epsilon) {
  check::positive_finite(epsilon, "epsilon");
  return upward::div_up(upward::mul_up(epsilon, epsilon), 2.0);
}

double zcdp_rho_cap(double epsilon, double delta) {
  check::positive_finite(epsilon, "epsilon");
  check::delta(delta);
  // Rounded down: the numerator down, the denominator up (it grows with L).
  const double high = upward::log_inverse_up(delta);
  const double denominator_root =
      upward::add_up(upward::sqrt_up(upward::add_up(high, epsilon)), upward::sqrt_up(high));
  return upward::div_down(upward::mul_down(epsilon, epsilon),
                          upward::mul_up(denominator_root, denominator_root));
}

}  // namespace dpcov::privacy
