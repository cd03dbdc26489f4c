// Arithmetic rounded towards +infinity (or -infinity), for privacy constants.
//
// A noise scale computed in round-to-nearest can land one unit in the last place below its exact
// value, i.e. on the unsafe side. These helpers return the double nearest to the exact result on
// the requested side: the rounding error of +, *, / and sqrt is recovered exactly with an fma or a
// two-sum (error-free transformations), and the result moves by one ulp only if it is on the wrong
// side. An exact result stays exact, so a scale of 11 is 11, not 11.000000000000002. A product,
// quotient or square root below 2^-969 has an error the fma may round to 0 (the constants sweep
// found a sensitivity below its exact value that way, and the Analyze Gauss sweep another at
// B^2 = 2^-1000 (1 + 2^-51)): such a result moves by one ulp whatever the fma says, which covers
// its at most half-ulp error.
#pragma once

#include <cmath>
#include <limits>

namespace dpcov::privacy::upward {

inline double bump_up(double x) { return std::nextafter(x, std::numeric_limits<double>::infinity()); }
inline double bump_down(double x) {
  return std::nextafter(x, -std::numeric_limits<double>::infinity());
}

// True for a value from which on the fma's residual keeps its sign: |x| >= 2^-969 (or infinite).
// A residual a b - p (or s s - x, a - q b) is a multiple of ulp(a) ulp(b), about 2^-104 |p|;
// below 2^-969 that can be under half the smallest subnormal, and the fma rounds it to 0: at
// B = 2^-500 (1 + 2^-52), B^2 rounded "up" came out below its exact value.
inline bool error_is_exact(double x) {
  return std::fabs(x) >= std::numeric_limits<double>::min() * 0x1p53;
}

// Rounding error of a + b (Knuth's two-sum): a + b = s + err exactly.
inline double sum_error(double a, double b, double s) {
  const double bb = s - a;
  return (a - (s - bb)) + (b - bb);
}

inline double add_up(double a, double b) {
  const double s = a + b;
  return sum_error(a, b, s) > 0.0 ? bump_up(s) : s;
}
inline double add_down(double a, double b) {
  const double s = a + b;
  return sum_error(a, b, s) < 0.0 ? bump_down(s) : s;
}
inline double sub_down(double a, double b) { return add_down(a, -b); }

// a * b = p + fma(a, b, -p) exactly.
// Below the normal range (operands >= 0): a zero operand gives an exact 0; otherwise the result
// moves one ulp to the safe side, and a lower bound that underflows to 0 stays 0.
inline double mul_up(double a, double b) {
  const double p = a * b;
  if (!error_is_exact(p)) return a == 0.0 || b == 0.0 ? p : bump_up(p);
  return std::fma(a, b, -p) > 0.0 ? bump_up(p) : p;
}
inline double mul_down(double a, double b) {
  const double p = a * b;
  if (!error_is_exact(p)) return p > 0.0 ? bump_down(p) : p;
  return std::fma(a, b, -p) < 0.0 ? bump_down(p) : p;
}

// x / 2 rounded down (x >= 0): exact unless x is subnormal with its last bit set, where 0.5 x
// rounds to nearest, which can be up (3 2^-1074 / 2 gave 2 2^-1074): a budget split in halves
// then spent 4/3 of its total.
inline double half_down(double x) {
  const double h = 0.5 * x;
  return 2.0 * h <= x ? h : bump_down(h);
}

// For b > 0: a - q b = fma(-q, b, a) exactly, and its sign is the sign of a/b - q.
inline double div_up(double a, double b) {
  const double q = a / b;
  // The residual is a multiple of ulp(q) ulp(b), about 2^-104 |a|: a must be large enough too.
  if (!error_is_exact(q) || !error_is_exact(a)) return a == 0.0 ? q : bump_up(q);
  return std::fma(-q, b, a) > 0.0 ? bump_up(q) : q;
}
inline double div_down(double a, double b) {
  const double q = a / b;
  if (!error_is_exact(q) || !error_is_exact(a)) return q > 0.0 ? bump_down(q) : q;
  return std::fma(-q, b, a) < 0.0 ? bump_down(q) : q;
}

// The smallest double integer t with t b >= a (a >= 0, b > 0): the ceiling of the quotient
// rounded up. Exact (ceil(a / b)) while that is below 2^53; above, where doubles are spaced 2 or
// more apart, the next representable integer up (adding 1 to a double there changes nothing, which
// let a noise parameter fall below its exact value).
inline double ceil_quotient_up(double a, double b) { return std::ceil(div_up(a, b)); }

// s = sqrt(x) is below the exact root iff s * s < x.
inline double sqrt_up(double x) {
  const double s = std::sqrt(x);
  if (!error_is_exact(x)) return x == 0.0 ? s : bump_up(s);
  return std::fma(s, s, -x) < 0.0 ? bump_up(s) : s;
}

// The square root rounded down (x >= 0): s = sqrt(x) is above the exact root iff s * s > x. Below
// 2^-969 the fma's residual can round to 0 (at x = 78 2^-1074 it did, and a noise sigma computed
// from this root came out below its exact value), so the root moves down one ulp there.
inline double sqrt_down(double x) {
  const double s = std::sqrt(x);
  if (!error_is_exact(x)) return s > 0.0 ? bump_down(s) : s;
  return std::fma(s, s, -x) > 0.0 ? bump_down(s) : s;
}

// glibc's log is accurate to within one ulp; two ulps up is therefore >= the exact logarithm.
inline double log_up(double x) { return bump_up(bump_up(std::log(x))); }

// ln(1/x) for x in (0, 1], rounded up, as -ln(x): 1/x is not formed, since it overflows for a
// subnormal x (ln(1/x) is at most 745) and could round. glibc's log is within one ulp, so two ulps
// up is above the exact value.
inline double log_inverse_up(double x) { return bump_up(bump_up(-std::log(x))); }

// glibc's expm1 is accurate to within one ulp (as log); two ulps up is >= e^x - 1.
inline double expm1_up(double x) { return bump_up(bump_up(std::expm1(x))); }

}  // namespace dpcov::privacy::upward
