// The exact samplers' inlined fast paths (core/random/discrete.cpp: 64-bit comparisons below
// 2^(64 - kChunkBits), the proposal's uniform with its width computed once, no division at s = 1;
// core/random/exp_minus_one.hpp: the stored digits of 1/e) against
// reference implementations built from the generic public steps: the same bits must give the
// same draws, so the fast paths change the speed and nothing else. Deterministic (fixed seeds);
// the laws themselves are tested in tests/statistical/discrete_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "core/random/bit_source.hpp"
#include "core/random/discrete.hpp"
#include "core/random/exp_minus_one.hpp"

namespace dpcov::random {
namespace {

// CKS Algorithm 2 from the public uniform_below_lemire() (2 <= t <= 2^32) or uniform_below(),
// and bernoulli_exp().
int64_t reference_laplace(BitSource &bits, uint64_t s, uint64_t t) {
  for (;;) {
    const u128 u = t >= 2 && t <= (uint64_t{1} << 32) ? uniform_below_lemire(bits, t, kLemireExtraBits)
                                                      : uniform_below(bits, t);
    if (!bernoulli_exp(bits, u, t)) continue;
    u128 v = 0;
    while (bernoulli_exp(bits, 1, 1)) ++v;
    const u128 y = (u + u128{t} * v) / s;
    const bool negative = bits.bit();
    if (negative && y == 0) continue;
    return negative ? -static_cast<int64_t>(y) : static_cast<int64_t>(y);
  }
}

// floor(sqrt(v)) for v < 2^62.
uint64_t floor_sqrt(uint64_t v) {
  auto x = static_cast<uint64_t>(std::sqrt(static_cast<double>(v)));
  while (u128{x} * x > v) --x;
  while (u128{x + 1} * (x + 1) <= v) ++x;
  return x;
}

// CKS Algorithm 3 with the exponent split as discrete.cpp splits it (D^2 / (2 a t^2) =
// D1^2 / (2 a) + (2 D1 t + D0) D0 / (2 a t^2) for |D| = D1 t + D0), from reference_laplace()
// and the public bernoulli_exp().
int64_t reference_gaussian(BitSource &bits, uint64_t sigma2) {
  const u128 a = sigma2;
  const uint64_t t = floor_sqrt(sigma2) + 1;
  for (;;) {
    const int64_t y = reference_laplace(bits, 1, t);
    const u128 abs_y = y < 0 ? u128{static_cast<uint64_t>(-(y + 1))} + 1 : u128{static_cast<uint64_t>(y)};
    const u128 yt = abs_y * t;
    const u128 d = yt >= a ? yt - a : a - yt;
    const u128 d1 = d / t, d0 = d % t;
    if (bernoulli_exp(bits, d1 * d1, 2 * a) && bernoulli_exp(bits, (2 * d1 * t + d0) * d0, 2 * a * t * t))
      return y;
  }
}

TEST(DiscretePaths, SmallDenominatorsCompareAsTheChunksDoFromTheSameBits) {
  // bernoulli_rational() below 2^(64 - kChunkBits) (64-bit arithmetic) and up to 2^64 against the
  // 128-bit chunked comparison at kChunkBits; the word read after each shows that both read as
  // many bits.
  std::mt19937_64 pick(7);
  Rng r1 = Rng::from_seed(11), r2 = Rng::from_seed(11);
  BitSource fast(r1), generic(r2);
  for (int i = 0; i < 20000; ++i) {
    const int width = 2 + static_cast<int>(pick() % 62);
    const uint64_t den = 2 + pick() % ((uint64_t{1} << width) - 2);
    const uint64_t num = 1 + pick() % (den - 1);
    ASSERT_EQ(bernoulli_rational(fast, num, den), bernoulli_rational_chunked(generic, num, den, kChunkBits))
        << num << " / " << den;
    ASSERT_EQ(fast.bits(7), generic.bits(7));
  }
}

TEST(DiscretePaths, LaplaceFillDrawsWhatTheGenericStepsDrawFromTheSameBits) {
  // t = 1 (no uniform), small t, t = 2^32 (the last the 32-bit uniform takes), t above it (the
  // 64-bit uniform); s = 1 (no division) and s = 3.
  for (const uint64_t t : {uint64_t{1}, uint64_t{2}, uint64_t{3}, uint64_t{1000003},
                           uint64_t{1} << 32, (uint64_t{1} << 32) + 1, uint64_t{1} << 45})
    for (const uint64_t s : {uint64_t{1}, uint64_t{3}}) {
      Rng r1 = Rng::from_seed(t + s), r2 = Rng::from_seed(t + s);
      std::vector<int64_t> fast(3000);
      discrete_laplace_fill(r1, s, t, fast);
      BitSource bits(r2);
      for (size_t i = 0; i < fast.size(); ++i)
        ASSERT_EQ(fast[i], reference_laplace(bits, s, t)) << "t = " << t << ", s = " << s << ", draw " << i;
    }
}

TEST(DiscretePaths, GaussianFillDrawsWhatTheGenericStepsDrawFromTheSameBits) {
  // Small variances, a realistic release's (sigma ~ 7.6e7 grid units) and the largest accepted.
  for (const uint64_t sigma2 : {uint64_t{1}, uint64_t{10}, uint64_t{400}, uint64_t{1000000000000},
                                uint64_t{5760000000000000}, (uint64_t{1} << 62) - 1}) {
    Rng r1 = Rng::from_seed(sigma2), r2 = Rng::from_seed(sigma2);
    std::vector<int64_t> fast(3000);
    discrete_gaussian_fill(r1, sigma2, fast);
    BitSource bits(r2);
    for (size_t i = 0; i < fast.size(); ++i)
      ASSERT_EQ(fast[i], reference_gaussian(bits, sigma2)) << "sigma^2 = " << sigma2 << ", draw " << i;
  }
}

TEST(ExpMinusOne, StoredDigitsAreMpfrsAndAnIndependentExpansions) {
  // MPFR's first word is the stored one; its first three words are floor(2^192 / e) as an
  // independent multiple-precision evaluation gives it (mpmath, 400 bits:
  // 0x5e2d58d8b3bcdf1a badec7829054f90d da9805aab56c7733).
  EXPECT_EQ(exp_minus_one_word(0), exp_minus_one_first_word());
  EXPECT_EQ(exp_minus_one_first_word(), 0x5e2d58d8b3bcdf1aULL);
  EXPECT_EQ(exp_minus_one_word(1), 0xbadec7829054f90dULL);
  EXPECT_EQ(exp_minus_one_word(2), 0xda9805aab56c7733ULL);
}

TEST(ExpMinusOne, StoredAndComputedDigitsGiveTheSameDrawsFromTheSameBits) {
  Rng r1 = Rng::from_seed(5), r2 = Rng::from_seed(5);
  BitSource stored(r1), computed(r2);
  for (int i = 0; i < 20000; ++i) {
    ASSERT_EQ(bernoulli_exp_minus_one(stored),
              uniform_below_expansion(computed, [](uint64_t w) { return exp_minus_one_word(w); }));
    ASSERT_EQ(stored.bits(7), computed.bits(7));
  }
}

}  // namespace
}  // namespace dpcov::random
