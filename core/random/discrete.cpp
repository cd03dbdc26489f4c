#include "discrete.hpp"

#include "../error.hpp"
#include "bit_source.hpp"
#include "exp_minus_one.hpp"

namespace dpcov::random {

namespace {

// floor(sqrt(v)) for v < 2^64, exactly: integer Newton iteration from 2^ceil(w/2) >= sqrt(v), w
// the bit width of v, which decreases monotonically to the floor in a few steps, each a 64-bit
// division (x <= 2^32 and v / x <= sqrt(v) keep every sum below 2^34).
uint64_t isqrt(uint64_t v) {
  if (v < 2) return v;
  const int width = 64 - __builtin_clzll(v);
  uint64_t x = uint64_t{1} << ((width + 1) / 2);
  for (uint64_t y = (x + v / x) / 2; y < x; y = (x + v / x) / 2) x = y;
  return x;
}

// num / den, by a 64-bit division when both fit (the usual case here, and several times faster
// than the 128-bit library division).
u128 div(u128 num, u128 den) {
  constexpr u128 kWord = ~uint64_t{0};
  if (num <= kWord && den <= kWord) return static_cast<uint64_t>(num) / static_cast<uint64_t>(den);
  return num / den;
}

// U < p = num / den for U uniform on [0, 1), read b bits at a time: U = (w + V) 2^-b with w
// the b-bit draw and V uniform on [0, 1) (the bits after it), so with g = num 2^b - w den,
// U < p iff V den < g: false if g <= 0, true if g >= den, and otherwise (at most one w of the
// 2^b) U < p iff V < g / den, the same question for the fraction g / den < 1. num < den < 2^64
// and b <= 64 keep every product below 2^128; num < den <= 2^(64 - b) keeps them below 2^64,
// where Word = uint64_t does the same arithmetic without 128-bit products (most comparisons of
// a discrete Gaussian draw: the Laplace proposal's exp(-u / t) and its geometric part).
template <class Word>
inline bool compare_chunked(BitSource &bits, Word num, Word den, int b) {
  for (;;) {
    const Word w_den = Word{bits.bits(b)} * den, target = num << b;
    if (w_den >= target) return false;
    const Word g = target - w_den;
    if (g >= den) return true;
    num = g;
  }
}

// U < p = num / den for 0 < num < den, one binary digit at a time: the digits of p from long
// division (remainder r < den, next digit 2r >= den) against fair bits; the first difference
// decides, two digits on average. r + r is computed only when r < den - r, so it cannot
// overflow. A remainder of 0 means p has no more 1 digits, and U (almost surely not ending in
// zeros) is above it.
inline bool compare_digits(BitSource &bits, u128 num, u128 den) {
  u128 r = num;
  for (;;) {
    const bool p_digit = r >= den - r;
    r = p_digit ? r - (den - r) : r + r;
    if (bits.bit() != p_digit) return p_digit;
    if (r == 0) return false;
  }
}

// The largest denominator the chunked comparison takes in 128-bit arithmetic: with num < den <=
// 2^(128 - kChunkBits), both w den and num 2^kChunkBits stay below 2^128.
constexpr u128 kChunkedMax = u128{1} << (128 - kChunkBits);

// Bernoulli(num / den) for 0 <= num <= den, den >= 1 (bernoulli_rational() once its arguments
// are checked; the samplers below call it directly, their arguments being in range by
// construction): the certain cases without a draw; kChunkBits bits at a time up to kChunkedMax,
// which decide all but a 2^-kChunkBits share of the comparisons with one multiplication (in
// 64-bit arithmetic while den 2^kChunkBits <= 2^64); one binary digit at a time above. The
// Gaussian's second acceptance factor has a denominator near 2^107 at a release's variance: its
// comparisons in chunks cost one 128-bit product where digits took a loop of 128-bit steps.
inline bool bernoulli_within(BitSource &bits, u128 num, u128 den) {
  if (num == 0 || num == den) return num == den;
  if (den <= (uint64_t{1} << (64 - kChunkBits)))
    return compare_chunked<uint64_t>(bits, static_cast<uint64_t>(num), static_cast<uint64_t>(den),
                                     kChunkBits);
  if (den <= kChunkedMax) return compare_chunked<u128>(bits, num, den, kChunkBits);
  return compare_digits(bits, num, den);
}

// CKS Algorithm 1 for gamma = num / den in [0, 1]: K = 1, 2, ... while Bernoulli(gamma / K)
// succeeds; P(the final K is odd) = exp(-gamma). For den < 2^64, Bernoulli(gamma / K) is one
// comparison with num / (den K), below 2^128 for every K < 2^64 (P(K >= k) <= 1 / (k - 1)!);
// above, it is drawn as the independent Bernoulli(gamma) and Bernoulli(1 / K), so that den is
// never multiplied.
inline bool bernoulli_exp_at_most_one(BitSource &bits, u128 num, u128 den) {
  uint64_t k = 1;
  if (den <= ~uint64_t{0}) {
    while (bernoulli_within(bits, num, den * k)) ++k;
  } else {
    while (bernoulli_within(bits, num, den) && bernoulli_within(bits, 1, k)) ++k;
  }
  return (k & 1U) == 1U;
}

// bernoulli_exp(bits, num, den) for den >= 1 (checked by the callers): exp(-gamma) =
// exp(-1)^floor(gamma) exp(-frac(gamma)), the whole part as Bernoulli(1/e) trials compared with
// the digits of 1/e (exp_minus_one.hpp), stopping at the first failure.
inline bool exp_draw(BitSource &bits, u128 num, u128 den) {
  if (num < den) return bernoulli_exp_at_most_one(bits, num, den);  // the common case: no division
  const u128 whole = div(num, den);
  for (u128 left = whole; left > 0; --left)
    if (!bernoulli_exp_minus_one(bits)) return false;
  return bernoulli_exp_at_most_one(bits, num - whole * den, den);
}

// uniform_below_lemire(bits, bound, extra_bits) for 2 <= bound <= 2^32 with the draw's width and
// mask computed once per law rather than once per draw; the same bits read and the same result.
struct ProposalUniform {
  ProposalUniform(uint64_t bound_, int extra_bits)
      : bound(bound_), width(64 - __builtin_clzll(bound_ - 1) + extra_bits),
        mask((uint64_t{1} << width) - 1) {}
  uint64_t operator()(BitSource &bits) const {
    uint64_t x = bits.bits(width);
    // x bound < 2^(2 * 32 + 24) fits in 128 bits; its low part is (x bound) mod 2^width.
    u128 m = u128{x} * bound;
    if ((static_cast<uint64_t>(m) & mask) < bound) {
      const uint64_t threshold = (mask + 1 - bound) % bound;  // 2^width mod bound
      while ((static_cast<uint64_t>(m) & mask) < threshold) {
        x = bits.bits(width);
        m = u128{x} * bound;
      }
    }
    return static_cast<uint64_t>(m >> width);
  }
  uint64_t bound;
  int width;
  uint64_t mask;
};

// CKS Algorithm 2 with the parameters checked by the caller (s, t >= 1).
int64_t laplace_draw(BitSource &bits, uint64_t s, uint64_t t) {
  // X = U + t V with U uniform on {0..t-1} kept with probability exp(-U/t) and V geometric
  // (P(V = v) = (1 - 1/e) e^-v, from the digits of 1/e), so P(X = x) is proportional to exp(-x / t); then Y = floor(X /
  // s) with a fair sign, rejecting "-0" so that 0 is not counted twice. For 2 <= t <= 2^32 (every
  // proposal of the discrete Gaussian) U is drawn by Lemire's multiplication with
  // kLemireExtraBits extra bits (uniform_below_lemire), which almost never rejects, where masked
  // rejection rejects up to half of its tries, each a mispredicted branch; s = 1 needs no
  // division.
  const bool small = t >= 2 && t <= (uint64_t{1} << 32);
  const ProposalUniform small_uniform(small ? t : 2, kLemireExtraBits);
  for (;;) {
    const u128 u = small ? u128{small_uniform(bits)} : uniform_below(bits, t);
    if (!bernoulli_exp_at_most_one(bits, u, t)) continue;  // u / t < 1
    const u128 v = geometric_exp_minus_one(bits);
    const u128 x = u + u128{t} * v;
    const u128 y = s == 1 ? x : div(x, s);
    const bool negative = bits.bit();
    if (negative && y == 0) continue;
    if (y > static_cast<u128>(INT64_MAX))
      fail(Status::Numerical, "discrete Laplace variate beyond the 64-bit range");
    const int64_t magnitude = static_cast<int64_t>(y);
    return negative ? -magnitude : magnitude;
  }
}

// CKS Algorithm 3 for the variance a = sigma2 and its proposal scale t = floor(sqrt(a)) + 1.
int64_t gaussian_draw(BitSource &bits, uint64_t sigma2, uint64_t t) {
  const u128 a = sigma2;
  for (;;) {
    const int64_t y = laplace_draw(bits, 1, t);
    const u128 abs_y = y < 0 ? u128{static_cast<uint64_t>(-(y + 1))} + 1 : u128{static_cast<uint64_t>(y)};
    // Accept with probability exp(-(|y| - a/t)^2 / (2a)) = exp(-D^2 / (2 a t^2)), D = |y| t - a.
    // With |D| = D1 t + D0 (0 <= D0 < t):
    //   D^2 / (2 a t^2) = D1^2 / (2a) + (2 D1 t + D0) D0 / (2 a t^2),
    // and exp(-sum) is the product of two independent Bernoulli(exp(-term)): the first term is
    // about ((|y| - sigma) / sigma)^2 / 2 with a denominator below 2^63, the second below
    // (|y| / sigma + 1) / sigma. |y| < 2^63, t <= 2^31 and a < 2^62 keep |D| < 2^94, so
    // (2 D1 t + D0) D0 <= 2 |D| t < 2^126 and 2 a t^2 < 2^126.
    const u128 yt = abs_y * t;
    const u128 d = yt >= a ? yt - a : a - yt;
    const u128 d1 = div(d, t), d0 = d - d1 * t;
    if (exp_draw(bits, d1 * d1, 2 * a) && exp_draw(bits, (2 * d1 * t + d0) * d0, 2 * a * t * t))
      return y;
  }
}

void check_laplace(uint64_t s, uint64_t t) {
  if (s == 0 || t == 0) fail(Status::Internal, "discrete_laplace: s and t must be >= 1");
}

void check_gaussian(uint64_t sigma2) {
  if (sigma2 == 0 || sigma2 >= (uint64_t{1} << 62))
    fail(Status::Internal, "discrete_gaussian: sigma^2 = ", sigma2, " outside [1, 2^62)");
}

}  // namespace

u128 uniform_below(BitSource &bits, u128 bound) {
  if (bound == 0) fail(Status::Internal, "uniform_below: empty range");
  const u128 top = bound - 1;
  if (top == 0) return 0;
  if (top <= 0xffffffffU) {
    // Masked rejection on w = bit width of bound - 1 bits: a w-bit draw is below bound with
    // probability bound / 2^w > 1/2, and each try costs w bits rather than a word.
    const int width = 64 - __builtin_clzll(static_cast<uint64_t>(top));
    for (;;) {
      const uint64_t x = bits.bits(width);
      if (x <= top) return x;
    }
  }
  if (top <= ~uint64_t{0}) {
    // Lemire (2019): the high word of w * bound is uniform on {0..bound-1} once the products whose
    // low word falls below 2^64 mod bound are rejected; that remainder (a division) is needed
    // only when the low word is below bound, i.e. rarely.
    const uint64_t b = static_cast<uint64_t>(top) + 1;
    if (b == 0) return bits.bits(64);  // bound = 2^64
    u128 m = u128{bits.bits(64)} * b;
    if (static_cast<uint64_t>(m) < b) {
      const uint64_t threshold = (0 - b) % b;  // 2^64 mod b
      while (static_cast<uint64_t>(m) < threshold) m = u128{bits.bits(64)} * b;
    }
    return m >> 64;
  }
  // Above 2^64: draws of the bit width of bound - 1, rejected at bound or above (acceptance >
  // 1/2, no division).
  const int width = 64 - __builtin_clzll(static_cast<uint64_t>(top >> 64));  // high word
  for (;;) {
    const u128 w = (u128{bits.bits(width)} << 64) | bits.bits(64);
    if (w < bound) return w;
  }
}

uint64_t uniform_below_lemire(BitSource &bits, uint64_t bound, int extra_bits) {
  if (bound < 2 || bound > (uint64_t{1} << 32) || extra_bits < 0 || extra_bits > 24)
    fail(Status::Internal, "uniform_below_lemire: bound ", bound, " or extra bits ", extra_bits,
         " out of range");
  return ProposalUniform(bound, extra_bits)(bits);
}

u128 uniform_below(Rng &rng, u128 bound) {
  BitSource bits(rng);
  return uniform_below(bits, bound);
}

bool bernoulli_rational_chunked(BitSource &bits, u128 num, u128 den, int b) {
  return compare_chunked<u128>(bits, num, den, b);
}

bool bernoulli_rational(BitSource &bits, u128 num, u128 den) {
  if (den == 0 || num > den) fail(Status::Internal, "bernoulli_rational: not a probability");
  return bernoulli_within(bits, num, den);
}

bool bernoulli_rational(Rng &rng, u128 num, u128 den) {
  BitSource bits(rng);
  return bernoulli_rational(bits, num, den);
}

bool bernoulli_exp(BitSource &bits, u128 num, u128 den) {
  if (den == 0) fail(Status::Internal, "bernoulli_exp: zero denominator");
  return exp_draw(bits, num, den);
}

bool bernoulli_exp(Rng &rng, u128 num, u128 den) {
  BitSource bits(rng);
  return bernoulli_exp(bits, num, den);
}

void discrete_laplace_fill(Rng &rng, uint64_t s, uint64_t t, std::span<int64_t> out) {
  check_laplace(s, t);
  BitSource bits(rng);
  for (int64_t &x : out) x = laplace_draw(bits, s, t);
}

int64_t discrete_laplace(Rng &rng, uint64_t s, uint64_t t) {
  int64_t x = 0;
  discrete_laplace_fill(rng, s, t, {&x, 1});
  return x;
}

void discrete_gaussian_fill(Rng &rng, uint64_t sigma2, std::span<int64_t> out) {
  check_gaussian(sigma2);
  const uint64_t t = isqrt(sigma2) + 1;  // floor(sigma) + 1 < 2^31 + 1
  BitSource bits(rng);
  for (int64_t &x : out) x = gaussian_draw(bits, sigma2, t);
}

int64_t discrete_gaussian(Rng &rng, uint64_t sigma2) {
  int64_t x = 0;
  discrete_gaussian_fill(rng, sigma2, {&x, 1});
  return x;
}

}  // namespace dpcov::random
