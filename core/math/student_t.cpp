#include "student_t.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "../error.hpp"

namespace dpcov::math {

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kLogSqrtTwoPi = 0.918938533204672741780329736406;
constexpr double kLogHalf = -0.693147180559945309417232121458;

// lgamma(x) - [(x - 1/2) log x - x + log sqrt(2 pi)] for x >= 10, by Stirling's series
// sum_k B_2k / (2k (2k - 1) x^(2k - 1)). At x = 10 the first omitted term is below 1e-17, far
// under the rounding of the terms it corrects.
double stirling_correction(double x) {
  const double r = 1.0 / x;
  const double r2 = r * r;
  return r * (1.0 / 12 +
              r2 * (-1.0 / 360 +
                    r2 * (1.0 / 1260 +
                          r2 * (-1.0 / 1680 +
                                r2 * (1.0 / 1188 + r2 * (-691.0 / 360360 + r2 * (1.0 / 156)))))));
}

// log Gamma(x) for 0 < x < 20. tgamma is used instead of lgamma because lgamma writes the global
// signgam and so is not reentrant; Gamma(x) neither overflows nor underflows on this range.
double log_gamma_small(double x) {
  return std::log(std::tgamma(x));
}

// log I_x(a, b) from the continued fraction of Numerical Recipes (betacf), evaluated with the
// modified Lentz method. It converges quickly for x < (a + 1) / (a + b + 2), in O(sqrt(max(a, b)))
// steps at worst; the caller arranges that condition through I_x(a, b) = 1 - I_{1-x}(b, a).
double log_incomplete_beta_cf(double a, double b, double x, double log_x, double log_y) {
  // Lentz's method replaces an exact zero denominator by this tiny value.
  constexpr double kTiny = 1e-300;
  const double qab = a + b;
  const double qap = a + 1.0;
  const double qam = a - 1.0;
  double c = 1.0;
  double d = 1.0 - qab * x / qap;
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1.0 / d;
  double h = d;
  const double max_steps = 1000.0 + 20.0 * std::sqrt(std::max(a, b));
  for (double m = 1.0; m <= max_steps; m += 1.0) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1.0 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1.0 + aa * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1.0 + aa / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1.0 / d;
    const double step = d * c;
    h *= step;
    if (std::fabs(step - 1.0) <= kEps)
      return a * log_x + b * log_y - log_beta(a, b) + std::log(h / a);
  }
  fail(Status::Numerical, "incomplete beta continued fraction did not converge for a = ", a,
       ", b = ", b, ", x = ", x);
}

// x = dof / (dof + t^2) and y = t^2 / (dof + t^2), with their logarithms, for 0 < |t| < inf.
// Whichever of t^2 / dof and dof / t^2 is at most 1 is formed, so nothing overflows and neither
// x nor y suffers cancellation.
struct TailArgs {
  double x, y, log_x, log_y;
};

TailArgs tail_args(double abs_t, double dof) {
  if (abs_t <= std::sqrt(dof)) {
    const double u = (abs_t / dof) * abs_t;
    const double log1p_u = std::log1p(u);
    return {1.0 / (1.0 + u), u / (1.0 + u), -log1p_u, std::log(u) - log1p_u};
  }
  const double r = (dof / abs_t) / abs_t;
  // Far in the tail dof / t^2 underflows, but its logarithm does not.
  const double log_r = r > 1e-300 ? std::log(r) : std::log(dof) - 2.0 * std::log(abs_t);
  const double log1p_r = std::log1p(r);
  return {r / (1.0 + r), 1.0 / (1.0 + r), log_r - log1p_r, -log1p_r};
}

// e^u erfc(sqrt(u)) / sqrt(u) for u > 0. Before erfc underflows, the asymptotic series
// (1 / (u sqrt(pi))) sum_k (-1)^k (2k - 1)!! / (2u)^k takes over; for u > 600 its ninth term is
// below 1e-20.
double scaled_erfc_over_z(double u) {
  const double z = std::sqrt(u);
  if (u <= 600.0) return std::erfc(z) * std::exp(u) / z;
  constexpr double kInvSqrtPi = 0.564189583547756286948079451561;
  double term = 1.0;
  double sum = 1.0;
  for (int k = 1; k <= 8; ++k) {
    term *= -(2.0 * k - 1.0) / (2.0 * u);
    sum += term;
  }
  return kInvSqrtPi * sum / u;
}

// log I_x(a, 1/2) for a >= 15 and 1 - x < 0.3, by the asymptotic expansion of DiDonato and Morris
// (ACM TOMS 708, 1992, BGRAT, eqs. 9-9.6) in powers of 1 / (a - 1/4). The continued fraction in x
// cannot serve there: its value hinges on 1 - x ~ 1 / a, which x itself carries only to a
// relative accuracy of about a * epsilon; the expansion needs only log x, which is exact enough.
double log_incomplete_beta_large_a_half(double a, double log_x) {
  constexpr double b = 0.5;
  constexpr int kTerms = 30;
  const double big_t = a + 0.5 * (b - 1.0);
  const double u = -big_t * log_x;
  // log of u^b e^-u / (B(a, b) T^b), the factor in front of the series.
  const double log_prefix = b * std::log(u) - u - log_beta(a, b) - b * std::log(big_t);
  // J_0 = Q(b, u) Gamma(b) / (u^b e^-u), with Q(1/2, u) = erfc(sqrt(u)) and Gamma(1/2) = sqrt(pi).
  constexpr double kSqrtPi = 1.772453850905516027298167483341;
  double j = kSqrtPi * scaled_erfc_over_z(u);
  double sum = j;
  double p[kTerms] = {1.0};
  const double half_log_x_sq = 0.25 * log_x * log_x;
  const double four_t_sq = 4.0 * big_t * big_t;
  double log_x_power = 1.0;  // (log(x) / 2)^(2n - 2)
  double b2n = b;            // b + 2n - 2
  for (int n = 1; n < kTerms; ++n) {
    // p_n = (1/n) sum_{m=1}^{n-1} (m b - n) p_{n-m} / (2m + 1)! + (b - 1) / (2n + 1)!  (eq. 9.4)
    double pn = 0.0;
    double inv_factorial = 1.0 / 6.0;  // 1 / (2m + 1)! for m = 1
    for (int m = 1; m < n; ++m) {
      pn += (m * b - n) * p[n - m] * inv_factorial;
      inv_factorial /= (2.0 * m + 2.0) * (2.0 * m + 3.0);
    }
    pn /= n;
    pn += (b - 1.0) * inv_factorial;  // inv_factorial is now 1 / (2n + 1)!
    p[n] = pn;
    // J_n from J_{n-1} (eq. 9.6).
    j = (b2n * (b2n + 1.0) * j + (u + b2n + 1.0) * log_x_power) / four_t_sq;
    log_x_power *= half_log_x_sq;
    b2n += 2.0;
    const double term = pn * j;
    sum += term;
    if (std::fabs(term) <= kEps * std::fabs(sum)) break;
  }
  return log_prefix + std::log(sum);
}

// P(|T| >= t) = I_x(dof / 2, 1 / 2), x = dof / (dof + t^2), for finite t > 0.
IncompleteBeta two_sided_tail(double abs_t, double dof) {
  const TailArgs s = tail_args(abs_t, dof);
  const double a = 0.5 * dof;
  // Where incomplete_beta would run the continued fraction in x with x close to 1.
  if (a >= 15.0 && s.y < 0.3 && s.x < (a + 1.0) / (a + 2.5)) {
    const double log_value = log_incomplete_beta_large_a_half(a, s.log_x);
    const double value = std::exp(log_value);
    return {value, 1.0 - value, log_value};
  }
  return incomplete_beta(a, 0.5, s.x, s.y, s.log_x, s.log_y);
}

}  // namespace

double log_beta(double a, double b) {
  const double p = std::min(a, b);
  const double q = std::max(a, b);
  if (p >= 10.0) {
    const double corr =
        stirling_correction(p) + stirling_correction(q) - stirling_correction(p + q);
    return -0.5 * std::log(q) + kLogSqrtTwoPi + corr + (p - 0.5) * std::log(p / (p + q)) +
           q * std::log1p(-p / (p + q));
  }
  if (q >= 10.0) {
    const double corr = stirling_correction(q) - stirling_correction(p + q);
    return log_gamma_small(p) + corr + p - p * std::log(p + q) +
           (q - 0.5) * std::log1p(-p / (p + q));
  }
  return log_gamma_small(p) + log_gamma_small(q) - log_gamma_small(p + q);
}

IncompleteBeta incomplete_beta(double a, double b, double x, double y, double log_x, double log_y) {
  // Tests on the logarithms, not on x and y: far in a tail x may underflow while log x, and so
  // the value, is still representable.
  if (log_x == -kInf) return {0.0, 1.0, -kInf};
  if (log_y == -kInf) return {1.0, 0.0, 0.0};
  if (x < (a + 1.0) / (a + b + 2.0)) {
    const double log_value = log_incomplete_beta_cf(a, b, x, log_x, log_y);
    const double value = std::exp(log_value);
    return {value, 1.0 - value, log_value};
  }
  const double complement = std::exp(log_incomplete_beta_cf(b, a, y, log_y, log_x));
  return {1.0 - complement, complement, std::log1p(-complement)};
}

IncompleteBeta incomplete_beta(double a, double b, double x) {
  const double y = 1.0 - x;
  // For x >= 1/2, 1 - x is exact, so log(y) is accurate and log(x) comes from it.
  if (x < 0.5) return incomplete_beta(a, b, x, y, std::log(x), std::log1p(-x));
  return incomplete_beta(a, b, x, y, std::log1p(-y), std::log(y));
}

double student_t_two_sided_p(double t, double dof) {
  const double abs_t = std::fabs(t);
  if (abs_t == 0.0) return 1.0;
  if (std::isinf(abs_t)) return 0.0;
  return two_sided_tail(abs_t, dof).value;
}

double student_t_sf(double t, double dof) {
  if (t == 0.0) return 0.5;
  if (std::isinf(t)) return t > 0 ? 0.0 : 1.0;
  const IncompleteBeta tail = two_sided_tail(std::fabs(t), dof);
  return t > 0 ? 0.5 * tail.value : 0.5 + 0.5 * tail.complement;
}

double student_t_cdf(double t, double dof) {
  return student_t_sf(-t, dof);
}

double student_t_pdf(double t, double dof) {
  if (std::isinf(t)) return 0.0;
  const double log_x = t == 0.0 ? 0.0 : tail_args(std::fabs(t), dof).log_x;
  return std::exp(0.5 * (dof + 1.0) * log_x - 0.5 * std::log(dof) - log_beta(0.5 * dof, 0.5));
}

double student_t_upper_quantile(double q, double dof) {
  if (q >= 0.5) return 0.0;
  const double log_q = std::log(q);
  const double log_b = log_beta(0.5 * dof, 0.5);
  // Since x <= dof / t^2, the density is at most dof^(dof/2) t^(-dof-1) / B(dof/2, 1/2), whose tail
  // integral dof^(dof/2 - 1) t^(-dof) / B equals q at this u = log t: an upper bound on the root.
  double u = ((0.5 * dof - 1.0) * std::log(dof) - log_b - log_q) / dof;
  // Newton's method on h(u) = log P(T > e^u) - log q, which is close to linear in u in the tails,
  // inside a bracket [lo, hi] that every evaluation narrows; a step leaving it is replaced by
  // bisection (or a unit step while the bracket is still open on one side).
  double lo = -kInf;
  double hi = kInf;
  // |h| below this is rounding noise in log P(T > t), relative a few ulps of P.
  const double noise = 8.0 * kEps * std::max(1.0, std::fabs(log_q));
  constexpr int kMaxSteps = 200;
  for (int step = 0; step < kMaxSteps; ++step) {
    const double t = std::exp(u);
    const double log_sf = kLogHalf + two_sided_tail(t, dof).log_value;
    const double h = log_sf - log_q;
    if (std::fabs(h) <= noise) return t;
    if (h > 0.0)
      lo = u;
    else
      hi = u;
    const double log_pdf =
        0.5 * (dof + 1.0) * tail_args(t, dof).log_x - 0.5 * std::log(dof) - log_b;
    const double slope = -std::exp(u + log_pdf - log_sf);  // d log P(T > t) / d log t
    double next = u - h / slope;
    if (!(next > lo && next < hi))
      next =
          std::isfinite(lo) && std::isfinite(hi) ? 0.5 * (lo + hi) : (h > 0.0 ? u + 1.0 : u - 1.0);
    if (std::fabs(next - u) <= 2.0 * kEps) return std::exp(next);
    u = next;
  }
  fail(Status::Numerical, "Student t quantile did not converge for q = ", q, ", dof = ", dof);
}

}  // namespace dpcov::math
