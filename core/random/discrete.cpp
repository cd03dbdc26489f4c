#include "discrete.hpp"

#include "../error.hpp"

namespace dpcov::random {

namespace {

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

// num / den, by a 64-bit division when both fit (the usual case here, and several times faster
// than the 128-bit library division).
u128 div(u128 num, u128 den) {
  constexpr u128 kWord = ~uint64_t{0};
  if (num <= kWord && den <= kWord) return static_cast<uint64_t>(num) / static_cast<uint64_t>(den);
  return num / den;
}

}  // namespace

u128 uniform_below(Rng &rng, u128 bound) {
  if (bound == 0) fail(DPCOV_E_INTERNAL, "uniform_below: empty range");
  if (bound - 1 <= ~uint64_t{0}) {
    // Lemire (2019): the high word of w * bound is uniform on {0..bound-1} once the products whose
    // low word falls below 2^64 mod bound are rejected; that remainder (a division) is needed
    // only when the low word is below bound, i.e. rarely.
    const uint64_t b = static_cast<uint64_t>(bound - 1) + 1;
    if (b == 0) return rng.next_u64();  // bound = 2^64
    u128 m = u128{rng.next_u64()} * b;
    if (static_cast<uint64_t>(m) < b) {
      const uint64_t threshold = (0 - b) % b;  // 2^64 mod b
      while (static_cast<uint64_t>(m) < threshold) m = u128{rng.next_u64()} * b;
    }
    return m >> 64;
  }
  // Above 2^64: draws of the bit width of bound - 1, rejected at bound or above (acceptance >
  // 1/2, no division).
  const int width = 64 - __builtin_clzll(static_cast<uint64_t>((bound - 1) >> 64));  // high word
  const uint64_t high_mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  for (;;) {
    const u128 w = (u128{rng.next_u64() & high_mask} << 64) | rng.next_u64();
    if (w < bound) return w;
  }
}

bool bernoulli_rational(Rng &rng, u128 num, u128 den) {
  if (den == 0 || num > den) fail(DPCOV_E_INTERNAL, "bernoulli_rational: not a probability");
  if (num == 0 || num == den) return num == den;  // certain: no draw needed
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
  if (num < den) return bernoulli_exp_at_most_one(rng, num, den);  // the common case: no division
  const u128 whole = div(num, den);
  for (u128 left = whole; left > 0; --left)
    if (!bernoulli_exp_at_most_one(rng, 1, 1)) return false;
  return bernoulli_exp_at_most_one(rng, num - whole * den, den);
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
    const u128 y = div(u + u128{t} * v, s);
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
    const u128 d1 = div(d, t), d0 = d - d1 * t;
    if (bernoulli_exp(rng, d1 * d1, 2 * a) && bernoulli_exp(rng, d1 * d0, a * t) &&
        bernoulli_exp(rng, d0 * d0, 2 * a * t * t))
      return y;
  }
}

}  // namespace dpcov::random
