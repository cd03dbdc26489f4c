// The exact discrete samplers (core/random/discrete.hpp) against their exact probability mass
// functions: Pearson chi-square on bins with expected counts >= 1000 (stat_support.hpp) and
// z-tests of Bernoulli frequencies, alpha = 1e-6 per assertion on a correct sampler. This file
// makes 35 such assertions: family-wise false-failure rate <= 3.5e-5. Each check also runs on a
// mutant (a wrong parameter, the sign rule of Algorithm 2 without its rejection of -0, a uniform
// reduced modulo its bound without rejection, a lazy comparison that stops early, a wrong digit
// of 1/e, a geometric off by one) and must fail there.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/random/bit_source.hpp"
#include "core/random/discrete.hpp"
#include "core/random/exp_minus_one.hpp"
#include "stat_support.hpp"

namespace dpcov::random {
namespace {

constexpr int64_t kDraws = 200000;

using IntSampler = std::function<int64_t(Rng &)>;
using Pmf = std::function<double(int64_t)>;

// Bins: every integer whose expected count is >= 1000, plus the two tails pooled.
stat::Verdict chi_square_against(const IntSampler &sampler, const Pmf &pmf, uint64_t seed,
                                 const std::string &what) {
  const int64_t n = stat::scaled(kDraws);
  const double threshold = 1000.0 / static_cast<double>(n);
  int64_t lo = 0, hi = 0;
  while (pmf(lo - 1) >= threshold) --lo;
  while (pmf(hi + 1) >= threshold) ++hi;
  double inside = 0.0;
  for (int64_t x = lo; x <= hi; ++x) inside += pmf(x);
  double below = 0.0;
  for (int64_t x = lo - 1; pmf(x) > 1e-300 && x > lo - 100000; --x) below += pmf(x);
  const double above = 1.0 - inside - below;
  std::vector<int64_t> counts(static_cast<size_t>(hi - lo + 3), 0);
  Rng rng = Rng::from_seed(seed, 21);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t x = sampler(rng);
    const size_t bin = x < lo ? 0 : x > hi ? counts.size() - 1 : static_cast<size_t>(x - lo + 1);
    ++counts[bin];
  }
  std::vector<double> p(counts.size());
  p.front() = below;
  p.back() = above;
  for (int64_t x = lo; x <= hi; ++x) p[static_cast<size_t>(x - lo + 1)] = pmf(x);
  // Merge a tail whose expected count is under 1000 into its neighbour.
  if (p.front() < threshold) {
    p[1] += p.front();
    counts[1] += counts.front();
    p.erase(p.begin());
    counts.erase(counts.begin());
  }
  if (p.back() < threshold) {
    p[p.size() - 2] += p.back();
    counts[counts.size() - 2] += counts.back();
    p.pop_back();
    counts.pop_back();
  }
  return stat::chi_square_bins(counts, p, what);
}

// P(x) = tanh(1 / (2 tau)) exp(-|x| / tau), tau = t / s.
Pmf discrete_laplace_pmf(double tau) {
  return [tau](int64_t x) {
    return std::tanh(0.5 / tau) * std::exp(-std::fabs(static_cast<double>(x)) / tau);
  };
}

// P(x) = exp(-x^2 / (2 sigma2)) / sum_y exp(-y^2 / (2 sigma2)).
Pmf discrete_gaussian_pmf(double sigma2) {
  double z = 0.0;
  const int64_t reach = static_cast<int64_t>(40.0 * std::sqrt(sigma2)) + 40;
  for (int64_t y = -reach; y <= reach; ++y)
    z += std::exp(-static_cast<double>(y) * static_cast<double>(y) / (2.0 * sigma2));
  return [sigma2, z](int64_t x) {
    return std::exp(-static_cast<double>(x) * static_cast<double>(x) / (2.0 * sigma2)) / z;
  };
}

stat::Verdict bernoulli_frequency(const std::function<bool(Rng &)> &draw, double p,
                                  uint64_t seed, const std::string &what, int64_t draws = kDraws) {
  const int64_t n = stat::scaled(draws);
  Rng rng = Rng::from_seed(seed, 22);
  int64_t hits = 0;
  for (int64_t i = 0; i < n; ++i) hits += draw(rng) ? 1 : 0;
  const double nn = static_cast<double>(n);
  return stat::z_test(static_cast<double>(hits) / nn, p, std::sqrt(p * (1.0 - p) / nn), what);
}

TEST(BernoulliExp, FrequencyIsExpOfMinusGammaBelowAndAboveOne) {
  // gamma = 0.3, 1, 2.7 (the reduction to floor(gamma) Bernoulli(exp(-1)) trials).
  const std::vector<std::pair<u128, u128>> gammas = {{3, 10}, {1, 1}, {27, 10}};
  uint64_t seed = 1;
  for (const auto &[num, den] : gammas) {
    const double gamma = static_cast<double>(num) / static_cast<double>(den);
    const auto correct = [&](Rng &r) { return bernoulli_exp(r, num, den); };
    const stat::Verdict good = bernoulli_frequency(correct, std::exp(-gamma), seed, "exp(-gamma)");
    EXPECT_TRUE(good.pass) << gamma << " " << good;
    // Mutant: gamma off by 5%.
    const auto wrong = [&](Rng &r) { return bernoulli_exp(r, num * 21, den * 20); };
    const stat::Verdict bad = bernoulli_frequency(wrong, std::exp(-gamma), seed, "mutant");
    EXPECT_FALSE(bad.pass) << gamma << " " << bad;
    ++seed;
  }
}

TEST(BernoulliExp, HandlesHugeRationalsWithoutOverflow) {
  // gamma = (2^126 - 1) / 2^126 is just below 1: frequency exp(-1) to the test's resolution.
  const u128 den = u128{1} << 126;
  const stat::Verdict good = bernoulli_frequency(
      [&](Rng &r) { return bernoulli_exp(r, den - 1, den); }, std::exp(-1.0), 4, "huge");
  EXPECT_TRUE(good.pass) << good;
}

// uniform_below on both of its paths (Lemire's multiply below 2^64, masked rejection above),
// on six equal bins; the mutant reduces a full-width draw modulo the bound without rejecting its
// top, which gives the low values twice the weight (bounds chosen so that the bias is large).
TEST(UniformBelow, IsUniformOnSixBinsOnBothPathsAndCatchesModuloBias) {
  const u128 two64 = u128{1} << 64;
  const std::vector<u128> bounds = {6, (u128{3} << 62), 3 * two64 + 1, (u128{3} << 126) + 1};
  uint64_t seed = 40;
  for (const u128 bound : bounds) {
    const u128 q = bound / 6;
    std::vector<double> p(6, static_cast<double>(q) / static_cast<double>(bound));
    p[5] = static_cast<double>(bound - 5 * q) / static_cast<double>(bound);
    const auto bins = [&](const std::function<u128(Rng &)> &draw, const std::string &what) {
      Rng rng = Rng::from_seed(seed, 23);
      std::vector<int64_t> counts(6, 0);
      for (int64_t i = 0; i < stat::scaled(kDraws); ++i) {
        const u128 x = draw(rng);
        if (x >= bound) return stat::Verdict{false, 0.0, 0.0, what + ": out of range"};
        ++counts[static_cast<size_t>(std::min<u128>(x / q, 5))];
      }
      return stat::chi_square_bins(counts, p, what);
    };
    const int width = bound - 1 <= ~uint64_t{0}
                          ? 64
                          : 128 - __builtin_clzll(static_cast<uint64_t>((bound - 1) >> 64));
    const auto biased = [&](Rng &r) -> u128 {
      if (width == 64) return r.next_u64() % static_cast<uint64_t>(bound);
      const uint64_t mask = width == 128 ? ~uint64_t{0} : (uint64_t{1} << (width - 64)) - 1;
      return ((u128{r.next_u64() & mask} << 64) | r.next_u64()) % bound;
    };
    const stat::Verdict good = bins([&](Rng &r) { return uniform_below(r, bound); }, "uniform_below");
    EXPECT_TRUE(good.pass) << static_cast<double>(bound) << " " << good;
    if (bound > 6) {
      const stat::Verdict bad = bins(biased, "uniform modulo the bound");
      EXPECT_FALSE(bad.pass) << static_cast<double>(bound) << " " << bad;
    }
    ++seed;
  }
}

TEST(DiscreteLaplace, FollowsItsPmfAtSeveralScales) {
  // (s, t): scale t / s = 0.5, 3, 10/3.
  const std::vector<std::pair<uint64_t, uint64_t>> params = {{2, 1}, {1, 3}, {3, 10}};
  uint64_t seed = 10;
  for (const auto &[s, t] : params) {
    const double tau = static_cast<double>(t) / static_cast<double>(s);
    const stat::Verdict good = chi_square_against(
        [&](Rng &r) { return discrete_laplace(r, s, t); }, discrete_laplace_pmf(tau), seed,
        "discrete Laplace");
    EXPECT_TRUE(good.pass) << tau << " " << good;
    const stat::Verdict bad = chi_square_against(
        [&](Rng &r) { return discrete_laplace(r, s, t); }, discrete_laplace_pmf(1.05 * tau), seed,
        "discrete Laplace against a 5% wider law");
    EXPECT_FALSE(bad.pass) << tau << " " << bad;
    ++seed;
  }
}

TEST(DiscreteLaplace, IsCaughtWithoutTheRejectionOfMinusZero) {
  // Algorithm 2 (s = 1) with its "-0" rejection removed: 0 then comes from both signs and has
  // probability 1 - exp(-1/t) instead of tanh(1 / (2t)).
  const uint64_t t = 3;
  const auto unrejected = [t](Rng &r) {
    for (;;) {
      const u128 u = uniform_below(r, t);
      if (!bernoulli_exp(r, u, t)) continue;
      u128 v = 0;
      while (bernoulli_exp(r, 1, 1)) ++v;
      const auto y = static_cast<int64_t>(u + u128{t} * v);
      return (r.next_u64() & 1U) != 0 ? -y : y;
    }
  };
  const stat::Verdict bad =
      chi_square_against(unrejected, discrete_laplace_pmf(3.0), 13, "unrejected -0 mutant");
  EXPECT_FALSE(bad.pass) << bad;
}

TEST(DiscreteGaussian, FollowsItsPmfAtSeveralVariances) {
  uint64_t seed = 20;
  for (const uint64_t sigma2 : {uint64_t{1}, uint64_t{10}, uint64_t{400}}) {
    const double s2 = static_cast<double>(sigma2);
    const stat::Verdict good = chi_square_against(
        [&](Rng &r) { return discrete_gaussian(r, sigma2); }, discrete_gaussian_pmf(s2), seed,
        "discrete Gaussian");
    EXPECT_TRUE(good.pass) << sigma2 << " " << good;
    const stat::Verdict bad = chi_square_against(
        [&](Rng &r) { return discrete_gaussian(r, sigma2); }, discrete_gaussian_pmf(1.1 * s2),
        seed, "discrete Gaussian against a 10% wider variance");
    EXPECT_FALSE(bad.pass) << sigma2 << " " << bad;
    ++seed;
  }
}

TEST(DiscreteGaussian, LargeVarianceHasTheExactVarianceToTheTestsResolution) {
  // sigma^2 = 10^12 (integer grid units of a realistic release): mean 0 and variance within
  // z-tests (the variance of x^2 is 2 sigma^4 to within 1e-9 at this sigma).
  const uint64_t sigma2 = 1000000000000ULL;
  const int64_t n = stat::scaled(kDraws);
  Rng rng = Rng::from_seed(30, 21);
  double sum = 0.0, sum2 = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const double x = static_cast<double>(discrete_gaussian(rng, sigma2));
    sum += x;
    sum2 += x * x;
  }
  const double nn = static_cast<double>(n), s2 = static_cast<double>(sigma2);
  const stat::Verdict mean = stat::z_test(sum / nn, 0.0, std::sqrt(s2 / nn), "mean");
  EXPECT_TRUE(mean.pass) << mean;
  const stat::Verdict var = stat::z_test(sum2 / nn, s2, s2 * std::sqrt(2.0 / nn), "variance");
  EXPECT_TRUE(var.pass) << var;
  const stat::Verdict wrong = stat::z_test(sum2 / nn, 1.05 * s2, s2 * std::sqrt(2.0 / nn), "mutant");
  EXPECT_FALSE(wrong.pass) << wrong;
}

TEST(BernoulliRational, LazyComparisonsHaveFrequencyNumOverDenOnEveryPath) {
  // The chunked comparison at b = 1 and 3 bits, where its remainder step runs on up to half of
  // the chunks; the public function (kChunkBits-bit chunks below 2^64, digits above) at an 18-bit,
  // a 41-bit, a 64-bit and a 101-bit denominator.
  const u128 near64 = ~uint64_t{0}, above = (u128{1} << 100) + 7, two40 = (u128{1} << 40) + 1;
  struct Case {
    u128 num, den;
    int b;  // 0: bernoulli_rational itself
  };
  const std::vector<Case> cases = {{1, 3, 1},           {5, 7, 3},          {128001, 256000, 0},
                                   {two40 / 3, two40, 0}, {near64 / 3, near64, 0}, {above / 3, above, 0}};
  uint64_t seed = 50;
  for (const Case &c : cases) {
    const double p = static_cast<double>(c.num) / static_cast<double>(c.den);
    const auto draw = [&](Rng &r) {
      BitSource bits(r);
      return c.b == 0 ? bernoulli_rational(bits, c.num, c.den)
                      : bernoulli_rational_chunked(bits, c.num, c.den, c.b);
    };
    const stat::Verdict good = bernoulli_frequency(draw, p, seed, "num / den");
    EXPECT_TRUE(good.pass) << p << " b = " << c.b << " " << good;
    ++seed;
  }
  // Mutant: the chunk's undecided case (0 < g < den) taken as success instead of asking again
  // for g / den. At p = 1/3 and b = 2 that is w = 1, so the frequency is 1/2.
  const auto early = [&](Rng &r) {
    BitSource bits(r);
    return u128{bits.bits(2)} * 3 < (u128{1} << 2);
  };
  const stat::Verdict bad = bernoulli_frequency(early, 1.0 / 3.0, seed, "early mutant");
  EXPECT_FALSE(bad.pass) << bad;
  // The same mutant at the public chunk width, where the undecided chunk comes once in 2^8: at
  // p = 128001 / 256000 (just above 1/2) it is w = 128 with g / den = 1/1000, so the mutant's
  // frequency is p + (1 - 1/1000) / 256, 0.0039 above p: about 10 standard errors at 8 kDraws.
  const auto early8 = [&](Rng &r) {
    BitSource bits(r);
    return u128{bits.bits(kChunkBits)} * 256000 < (u128{128001} << kChunkBits);
  };
  const stat::Verdict bad8 =
      bernoulli_frequency(early8, 128001.0 / 256000.0, seed, "early mutant, public width", 8 * kDraws);
  EXPECT_FALSE(bad8.pass) << bad8;
}

TEST(ExpMinusOne, ComparisonWithTheDigitsOfOneOverEIsBernoulliOneOverE) {
  // The stored first word (the path of every draw; that MPFR's words give the same draws from the
  // same bits is tests/unit/discrete_paths_test.cpp's), and MPFR's words from the second on, the
  // number frac(2^64 / e) = 0.7299...: Bernoulli of it exercises the words only MPFR computes (one
  // MPFR evaluation per draw, hence kDraws draws).
  const auto stored = [](Rng &r) {
    BitSource bits(r);
    return bernoulli_exp_minus_one(bits);
  };
  const auto beyond = [](Rng &r) {
    BitSource bits(r);
    return uniform_below_expansion(bits, [](uint64_t i) { return exp_minus_one_word(i + 1); });
  };
  const double inv_e = std::exp(-1.0);
  const stat::Verdict good = bernoulli_frequency(stored, inv_e, 70, "stored digits", 8 * kDraws);
  EXPECT_TRUE(good.pass) << good;
  const double second = std::ldexp(static_cast<double>(exp_minus_one_word(1)), -64);
  const stat::Verdict good_beyond = bernoulli_frequency(beyond, second, 71, "MPFR's digits");
  EXPECT_TRUE(good_beyond.pass) << good_beyond;
  // Mutant: digit 8 of 1/e (0 in 0.01011110...) set, which adds 2^-8 = 0.0039 to the frequency:
  // about 10 standard errors at 8 kDraws.
  const auto wrong_digit = [](Rng &r) {
    BitSource bits(r);
    return uniform_below_expansion(bits, [](uint64_t i) {
      return i == 0 ? exp_minus_one_first_word() | (uint64_t{1} << 56) : exp_minus_one_word(i);
    });
  };
  const stat::Verdict bad = bernoulli_frequency(wrong_digit, inv_e, 70, "digit 8 set", 8 * kDraws);
  EXPECT_FALSE(bad.pass) << bad;
}

TEST(ExpMinusOne, GeometricFollowsItsPmfAndCatchesAnOffByOne) {
  // P(V = v) = (1 - 1/e) e^-v; the mutant counts the failing trial too (V + 1).
  const Pmf pmf = [](int64_t v) {
    return v < 0 ? 0.0 : (1.0 - std::exp(-1.0)) * std::exp(-static_cast<double>(v));
  };
  const auto geometric = [](Rng &r) {
    BitSource bits(r);
    return static_cast<int64_t>(geometric_exp_minus_one(bits));
  };
  const stat::Verdict good = chi_square_against(geometric, pmf, 72, "geometric");
  EXPECT_TRUE(good.pass) << good;
  const auto off_by_one = [&](Rng &r) { return geometric(r) + 1; };
  const stat::Verdict bad = chi_square_against(off_by_one, pmf, 72, "geometric + 1");
  EXPECT_FALSE(bad.pass) << bad;
}

TEST(UniformBelowLemire, IsUniformWithAndWithoutExtraBitsAndCatchesAMissingRejection) {
  // bound 3 with no extra bit (b = 2, so one draw of four is rejected) and bound 3 2^20 + 1 with
  // the discrete Laplace's kLemireExtraBits, on six equal bins (bound 3: three bins). Mutant: the
  // multiplication without its rejection, which at bound 3, b = 2 gives 0 half of the time.
  const u128 big = (u128{3} << 20) + 1;
  struct Case {
    uint64_t bound;
    int extra;
  };
  uint64_t seed = 73;
  for (const Case c : {Case{3, 0}, Case{static_cast<uint64_t>(big), kLemireExtraBits}}) {
    const size_t bins = c.bound == 3 ? 3 : 6;
    const uint64_t q = c.bound / bins;
    std::vector<double> p(bins, static_cast<double>(q) / static_cast<double>(c.bound));
    p.back() = static_cast<double>(c.bound - (bins - 1) * q) / static_cast<double>(c.bound);
    const auto count = [&](const std::function<uint64_t(BitSource &)> &draw, const std::string &what) {
      Rng rng = Rng::from_seed(seed, 24);
      BitSource bits(rng);
      std::vector<int64_t> counts(bins, 0);
      for (int64_t i = 0; i < stat::scaled(kDraws); ++i) {
        const uint64_t x = draw(bits);
        if (x >= c.bound) return stat::Verdict{false, 0.0, 0.0, what + ": out of range"};
        ++counts[std::min<size_t>(x / q, bins - 1)];
      }
      return stat::chi_square_bins(counts, p, what);
    };
    const stat::Verdict good =
        count([&](BitSource &b) { return uniform_below_lemire(b, c.bound, c.extra); }, "Lemire");
    EXPECT_TRUE(good.pass) << c.bound << " " << good;
    if (c.extra == 0) {
      const stat::Verdict bad = count(
          [&](BitSource &b) { return static_cast<uint64_t>((b.bits(2) * c.bound) >> 2); },
          "Lemire without rejection");
      EXPECT_FALSE(bad.pass) << bad;
    }
    ++seed;
  }
}

TEST(DiscreteGaussian, RealisticVarianceFollowsTheNormalOnFortyBins) {
  // sigma^2 = 5.76e15 (a release's grid units, sigma = 7.6e7): the acceptance's second factor
  // has a denominator 2 a t^2 near 2^107, compared in 128-bit chunks. The discrete Gaussian's
  // mass on [l, h) is Phi((h - 1/2) / sigma) - Phi((l - 1/2) / sigma) to within 1e-7 here
  // (Poisson summation: the periodic error is below exp(-2 pi^2 sigma^2); the rest is the
  // midpoint rule's, O(1 / sigma^2) per bin), far below the test's resolution. Bins: 40 equal
  // normal quantiles. Mutant: the same draws against 1.1 sigma^2.
  const uint64_t sigma2 = 5760000000000000ULL;
  const double sigma = std::sqrt(static_cast<double>(sigma2));
  const int64_t n = stat::scaled(kDraws);
  std::vector<int64_t> draws(static_cast<size_t>(n));
  Rng rng = Rng::from_seed(75, 21);
  discrete_gaussian_fill(rng, sigma2, draws);
  const auto verdict = [&](double s, const std::string &what) {
    constexpr int kBins = 40;
    const boost::math::normal normal(0.0, s);
    std::vector<double> edges(kBins - 1);
    for (int i = 1; i < kBins; ++i)
      edges[static_cast<size_t>(i - 1)] = std::ceil(boost::math::quantile(normal, i / double{kBins}));
    std::vector<int64_t> counts(kBins, 0);
    for (const int64_t x : draws) {
      const auto at = std::upper_bound(edges.begin(), edges.end(), static_cast<double>(x));
      ++counts[static_cast<size_t>(at - edges.begin())];
    }
    std::vector<double> p(kBins);
    double below = 0.0;
    for (int i = 0; i < kBins; ++i) {
      const double upper = i + 1 < kBins ? boost::math::cdf(normal, edges[static_cast<size_t>(i)] - 0.5) : 1.0;
      p[static_cast<size_t>(i)] = upper - below;
      below = upper;
    }
    return stat::chi_square_bins(counts, p, what);
  };
  const stat::Verdict good = verdict(sigma, "discrete Gaussian, sigma^2 = 5.76e15");
  EXPECT_TRUE(good.pass) << good;
  const stat::Verdict bad = verdict(sigma * std::sqrt(1.1), "against a 10% wider variance");
  EXPECT_FALSE(bad.pass) << bad;
}

TEST(DiscreteFill, BatchesFollowTheSamePmfs) {
  // One source for a whole batch (what a release draws): the Gaussian at sigma^2 = 10 and the
  // Laplace at t / s = 3, each against its PMF and against a 10% (5%) wider law.
  constexpr size_t kBatch = 4096;
  const auto batched = [&](auto fill) {
    auto buffer = std::make_shared<std::vector<int64_t>>();
    auto at = std::make_shared<size_t>(0);
    return [=](Rng &r) {
      if (*at == buffer->size()) {
        buffer->assign(kBatch, 0);
        fill(r, std::span<int64_t>(*buffer));
        *at = 0;
      }
      return (*buffer)[(*at)++];
    };
  };
  const auto gauss = batched([](Rng &r, std::span<int64_t> out) { discrete_gaussian_fill(r, 10, out); });
  const stat::Verdict good = chi_square_against(gauss, discrete_gaussian_pmf(10.0), 60, "gaussian fill");
  EXPECT_TRUE(good.pass) << good;
  const stat::Verdict bad =
      chi_square_against(gauss, discrete_gaussian_pmf(11.0), 60, "gaussian fill, 10% wider");
  EXPECT_FALSE(bad.pass) << bad;
  const auto laplace = batched([](Rng &r, std::span<int64_t> out) { discrete_laplace_fill(r, 1, 3, out); });
  const stat::Verdict good_l = chi_square_against(laplace, discrete_laplace_pmf(3.0), 61, "laplace fill");
  EXPECT_TRUE(good_l.pass) << good_l;
  const stat::Verdict bad_l =
      chi_square_against(laplace, discrete_laplace_pmf(3.15), 61, "laplace fill, 5% wider");
  EXPECT_FALSE(bad_l.pass) << bad_l;
}

}  // namespace
}  // namespace dpcov::random
