#include "zcdp.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cmath>
#include <limits>

#include "../check.hpp"
#include "../error.hpp"
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
  // sqrt(2 rho) is rounded down so that the quotient is rounded up. 2 rho is exact unless it
  // overflows (rho > DBL_MAX / 2): there sqrt(2) sqrt(rho), each rounded down, stands for it (an
  // infinite root made sigma 2^-1074 at rho = 1e308, 1e150 times too small).
  const double root_down = rho <= std::numeric_limits<double>::max() / 2
                               ? sqrt_down(2.0 * rho)
                               : mul_down(sqrt_down(2.0), sqrt_down(rho));
  const double sigma = div_up(sensitivity, root_down);
  // A tiny rho against a large sensitivity overflows: no finite noise scale exists.
  if (!std::isfinite(sigma))
    fail(Status::Numerical, "the Gaussian noise scale sensitivity / sqrt(2 rho) overflows (rho = ",
         rho, ", sensitivity = ", sensitivity, ")");
  return sigma;
}

namespace {

// The bound, possibly infinite (rho near the largest double); zcdp_epsilon refuses that.
double zcdp_epsilon_unchecked(double rho, double delta) {
  const double log_inv_delta = -std::log(delta);  // 1/delta overflows for a subnormal delta
  // The bound is smooth and unimodal in u = ln(alpha - 1): its derivative in m = alpha - 1 is
  // (rho m^2 + ln(1 + m) - ln(1/delta)) / m^2, whose numerator increases in m, so the minimiser
  // m* solves rho m^2 + ln(1 + m) = ln(1/delta). Each term alone puts it at u_rho =
  // ln sqrt(ln(1/delta) / rho) or u_log = ln(expm1(ln(1/delta))), and ln m* is below the smaller
  // of the two and within a few units of it. A grid over u, then golden-section refinement. The
  // grid covers [-30, 70] and 30 either side of that smaller value, on the same lattice: it leaves
  // [-30, 70] for rho below about 1e-58, above about 1e29, or delta near 1 (u in [-373, 375] over
  // the doubles), where a grid ending at -30 and 70 fell back on Bun-Steinke's bound, up to 42%
  // above the infimum (rho = delta = 1e-300), and made zcdp_rho_for_epsilon stop short of its
  // answer (31.2 for 36.7 at epsilon = 1e-6, delta = 1 - 2^-53).
  const double u_c = std::min(0.5 * (std::log(log_inv_delta) - std::log(rho)),
                              std::log(std::expm1(log_inv_delta)));
  const int first = static_cast<int>(std::floor(4.0 * std::min(-30.0, u_c - 30.0)));
  const int last = static_cast<int>(std::ceil(4.0 * std::max(70.0, u_c + 30.0)));
  double best_u = 0.0;
  double best = INFINITY;
  for (int i = first; i <= last; ++i) {
    const double u = 0.25 * i;
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
  return std::max(0.0, certified < bun_steinke ? certified : bun_steinke);
}

}  // namespace

double zcdp_epsilon(double rho, double delta) {
  check_rho(rho);
  check::delta(delta);
  const double epsilon = zcdp_epsilon_unchecked(rho, delta);
  check::finite_result(epsilon, "epsilon of the zCDP guarantee");  // rho near the largest double
  return epsilon;
}

double zcdp_receipt_epsilon(double rho, double delta) {
  const double epsilon = zcdp_epsilon(rho, delta);
  if (epsilon > check::kMaxEpsilon)
    fail(Status::InvalidArgument, "rho = ", rho, " is (epsilon, delta)-DP only at epsilon = ",
         epsilon, ", above DPCOV_MAX_EPSILON = 2^40, where the noise falls below the rounding of "
         "the statistic and the release is not private as computed (docs/epsilon-cap.md)");
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
  // A bisection on the bit patterns of the doubles in [0, DBL_MAX] (ordered as the doubles are),
  // down to adjacent doubles in at most 63 steps. epsilon(rho) <= epsilon is kept invariant for lo
  // (lo = 0 holds it vacuously), so the result always meets the target. Every target starts from
  // the same bracket, so for epsilon_1 < epsilon_2 the two searches probe the same rho until one
  // probe meets epsilon_2 but not epsilon_1; from there the first stays below it and the second at
  // or above it: rho never falls as epsilon grows, even where the computed bound is not monotone
  // in rho at the last bits (near the plateau at tiny epsilon, where the bound is 0 below a rho
  // fixed by delta, a bracket started at epsilon made rho fall by up to 1e-13 relative as epsilon
  // grew). The whole range is searched: a tiny epsilon can have an answer near 1 (1.4e-12 at
  // epsilon = 1e-300, delta = 1e-6), and an answer can lie far below epsilon (epsilon = 1.5e-55,
  // delta = 1.8e-104). An infinite bound (rho near the largest double) is above every target.
  constexpr double kMax = std::numeric_limits<double>::max();
  const auto meets = [&](double rho) { return zcdp_epsilon_unchecked(rho, delta) <= epsilon; };
  if (meets(kMax)) return kMax;
  uint64_t lo_bits = std::bit_cast<uint64_t>(0.0);
  uint64_t hi_bits = std::bit_cast<uint64_t>(kMax);
  while (hi_bits - lo_bits > 1) {
    const uint64_t mid_bits = lo_bits + (hi_bits - lo_bits) / 2;
    if (meets(std::bit_cast<double>(mid_bits)))
      lo_bits = mid_bits;
    else
      hi_bits = mid_bits;
  }
  const double lo = std::bit_cast<double>(lo_bits);
  if (!(lo > 0.0))
    fail(Status::Numerical, "no rho > 0 meets epsilon = ", epsilon, " at delta = ", delta);
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
