#include "discrete.hpp"

#include "../error.hpp"

namespace dpcov::random {

namespace {

u128 next_u128(Rng &rng) {
  const u128 high = rng.next_u64();
  return (high << 64) | rng.next_u64();
}

// floor(sqrt(v)) for v < 2^64, exactly (integer Newton iteration from above).
uint64_t isqrt(uint64_t v) {
  if (v < 2) return v;
  u128 x = v, y = (x + 1) / 2;
  while (y < x) {
    x = y;
    y = (x + v / x) / 2;
  }
  return static_cast<uint64_t>(x);
}

}  // namespace

u128 uniform_below(Rng &rng, u128 bound) {
  if (bound == 0) fail(DPCOV_E_INTERNAL, "uniform_below: empty range");
  // Reject the top (2^w mod bound) words so that every residue has the same weight.
  if (bound - 1 <= ~uint64_t{0}) {
    const uint64_t max = static_cast<uint64_t>(bound - 1);
    if (max == ~uint64_t{0}) return rng.next_u64();
    const uint64_t b = max + 1;
    const uint64_t limit = ~uint64_t{0} - (~uint64_t{0} % b + 1) % b;
    for (;;) {
      const uint64_t w = rng.next_u64();
      if (w <= limit) return w % b;
    }
  }
  const u128 all = ~u128{0};
  const u128 limit = all - (all % bound + 1) % bound;
  for (;;) {
    const u128 w = next_u128(rng);
    if (w <= limit) return w % bound;
  }
}

bool bernoulli_rational(Rng &rng, u128 num, u128 den) {
  if (den == 0 || num > den) fail(DPCOV_E_INTERNAL, "bernoulli_rational: not a probability");
  return uniform_below(rng, den) < num;
}

namespace {

// CKS Algorithm 1 for gamma = num / den in [0, 1]: K = 1, 2, ... while Bernoulli(gamma / K)
// succeeds; P(the final K is odd) = exp(-gamma).
bool bernoulli_exp_at_most_one(Rng &rng, u128 num, u128 den) {
  u128 k = 1;
  while (bernoulli_rational(rng, num, den) && bernoulli_rational(rng, 1, k)) ++k;
  return (k & 1U) == 1U;
}

}  // namespace

bool bernoulli_exp(Rng &rng, u128 num, u128 den) {
  if (den == 0) fail(DPCOV_E_INTERNAL, "bernoulli_exp: zero denominator");
  for (u128 whole = num / den; whole > 0; --whole)
    if (!bernoulli_exp_at_most_one(rng, 1, 1)) return false;
  return bernoulli_exp_at_most_one(rng, num % den, den);
}

int64_t discrete_laplace(Rng &rng, uint64_t s, uint64_t t) {
  if (s == 0 || t == 0) fail(DPCOV_E_INTERNAL, "discrete_laplace: s and t must be >= 1");
  // CKS Algorithm 2: X = U + t V with U uniform on {0..t-1} kept with probability exp(-U/t) and
  // V geometric (P(V = v) = (1 - 1/e) e^-v), so P(X = x) is proportional to exp(-x / t); then
  // Y = floor(X / s) with a fair sign, rejecting "-0" so that 0 is not counted twice.
  for (;;) {
    const u128 u = uniform_below(rng, t);
    if (!bernoulli_exp(rng, u, t)) continue;
    u128 v = 0;
    while (bernoulli_exp_at_most_one(rng, 1, 1)) ++v;
    const u128 y = (u + u128{t} * v) / s;
    const bool negative = (rng.next_u64() & 1U) != 0;
    if (negative && y == 0) continue;
    if (y > static_cast<u128>(INT64_MAX))
      fail(DPCOV_E_NUMERICAL, "discrete Laplace variate beyond the 64-bit range");
    const int64_t magnitude = static_cast<int64_t>(y);
    return negative ? -magnitude : magnitude;
  }
}

int64_t discrete_gaussian(Rng &rng, uint64_t sigma2) {
  if (sigma2 == 0 || sigma2 >= (uint64_t{1} << 62))
    fail(DPCOV_E_INTERNAL, "discrete_gaussian: sigma^2 = ", sigma2, " outside [1, 2^62)");
  const uint64_t t = isqrt(sigma2) + 1;  // floor(sigma) + 1 < 2^31 + 1
  const u128 a = sigma2;
  for (;;) {
    const int64_t y = discrete_laplace(rng, 1, t);
    const u128 abs_y = y < 0 ? u128{static_cast<uint64_t>(-(y + 1))} + 1 : u128{static_cast<uint64_t>(y)};
    // Accept with probability exp(-(|y| - a/t)^2 / (2a)) = exp(-D^2 / (2 a t^2)), D = |y| t - a.
    // With |D| = D1 t + D0 (0 <= D0 < t):
    //   D^2 / (2 a t^2) = D1^2 / (2a) + D1 D0 / (a t) + D0^2 / (2 a t^2),
    // and exp(-sum) is the product of three independent Bernoulli(exp(-term)). |y| < 2^63,
    // t < 2^32 and a < 2^62 bound every numerator and denominator below 2^127.
    const u128 yt = abs_y * t;
    const u128 d = yt >= a ? yt - a : a - yt;
    const u128 d1 = d / t, d0 = d % t;
    if (bernoulli_exp(rng, d1 * d1, 2 * a) && bernoulli_exp(rng, d1 * d0, a * t) &&
        bernoulli_exp(rng, d0 * d0, 2 * a * t * t))
      return y;
  }
}

}  // namespace dpcov::random
