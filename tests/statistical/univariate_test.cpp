// Univariate samplers against their exact CDFs (Boost.Math), by one-sample Kolmogorov-Smirnov
// with the finite-sample DKW-Massart critical value (stat_support.hpp), plus exact moments.
// alpha = 1e-6 per assertion on a correct sampler; this file makes 25 such assertions, so its
// family-wise false-failure rate is <= 2.5e-5. Each check is also run on a deliberately wrong
// sampler and must fail there.
#include <gtest/gtest.h>

#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/exponential.hpp>
#include <boost/math/distributions/gamma.hpp>
#include <boost/math/distributions/laplace.hpp>
#include <boost/math/distributions/normal.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "core/random/samplers.hpp"
#include "stat_support.hpp"

namespace dpcov::random {
namespace {

using Sampler = std::function<double(Rng &)>;

// 2 * 10^5 draws: the KS critical value is 0.0060, while a 5% scale error moves the CDF of every
// distribution tested here by more than 0.011 somewhere (e.g. 0.0116 for the normal at x = 1).
constexpr int64_t kDraws = 200000;

std::vector<double> draw(const Sampler &s, uint64_t seed, int64_t n = kDraws) {
  Rng rng = Rng::from_seed(seed, 1);
  std::vector<double> out(static_cast<size_t>(stat::scaled(n)));
  for (double &x : out) x = s(rng);
  return out;
}

template <class Dist>
stat::Verdict ks(const Sampler &s, const Dist &dist, uint64_t seed, const std::string &what,
                 int64_t n = kDraws) {
  return stat::ks_one_sample(draw(s, seed, n),
                             [&](double x) { return boost::math::cdf(dist, x); }, what);
}

TEST(Uniform01Statistics, FollowsTheUniformCdf) {
  const auto cdf = [](double x) { return std::clamp(x, 0.0, 1.0); };
  const Sampler correct = [](Rng &r) { return uniform01(r); };
  const Sampler squashed = [](Rng &r) { return std::pow(uniform01(r), 1.05); };
  const stat::Verdict good = stat::ks_one_sample(draw(correct, 1), cdf, "uniform01");
  EXPECT_TRUE(good.pass) << good;
  const stat::Verdict bad = stat::ks_one_sample(draw(squashed, 1), cdf, "uniform01^1.05");
  EXPECT_FALSE(bad.pass) << bad;
}

TEST(NormalStatistics, FollowsPhiAndIsCaughtWhenTheScaleIsOffByFivePercent) {
  const boost::math::normal phi;
  const Sampler correct = [](Rng &r) { return standard_normal(r); };
  const Sampler wide = [](Rng &r) { return 1.05 * standard_normal(r); };
  const stat::Verdict good = ks(correct, phi, 2, "normal");
  EXPECT_TRUE(good.pass) << good;
  const stat::Verdict bad = ks(wide, phi, 2, "1.05 * normal");
  EXPECT_FALSE(bad.pass) << bad;
}

TEST(NormalStatistics, BatchesFollowPhiAndAreCaughtWhenTheScaleIsOffByFivePercent) {
  // The batch path (words drawn ahead in blocks of 256) in batches of 300, so that blocks end
  // inside batches and rare draws meet block edges; its values equal single draws' bit for bit
  // (random_samplers_test), and this checks the law of what a Bingham proposal reads.
  const auto batches = [](uint64_t seed, double scale) {
    Rng rng = Rng::from_seed(seed, 1);
    std::vector<double> out(static_cast<size_t>(stat::scaled(kDraws)));
    constexpr size_t kBatch = 300;
    for (size_t i = 0; i < out.size(); i += kBatch)
      standard_normals(rng, out.data() + i, static_cast<int64_t>(std::min(kBatch, out.size() - i)));
    for (double &x : out) x *= scale;
    return out;
  };
  const boost::math::normal phi;
  const auto cdf = [&](double x) { return boost::math::cdf(phi, x); };
  const stat::Verdict good = stat::ks_one_sample(batches(5, 1.0), cdf, "normal batches");
  EXPECT_TRUE(good.pass) << good;
  const stat::Verdict bad = stat::ks_one_sample(batches(5, 1.05), cdf, "1.05 * normal batches");
  EXPECT_FALSE(bad.pass) << bad;
}

TEST(NormalStatistics, FourthMomentIsThree) {
  // x^4 has mean 3 and variance 105 - 9 = 96; the z-test uses the exact standard error.
  auto fourth = [](const Sampler &s) {
    const std::vector<double> x = draw(s, 3);
    double m = 0.0;
    for (double v : x) m += v * v * v * v;
    const double n = static_cast<double>(x.size());
    return stat::z_test(m / n, 3.0, std::sqrt(96.0 / n), "E x^4");
  };
  const stat::Verdict good = fourth([](Rng &r) { return standard_normal(r); });
  EXPECT_TRUE(good.pass) << good;
  const stat::Verdict bad = fourth([](Rng &r) { return 1.05 * standard_normal(r); });
  EXPECT_FALSE(bad.pass) << bad;
}

TEST(NormalStatistics, TailBeyondTheZigguratBaseFollowsPhi) {
  // Only about 2.6e-4 of the draws come from the exact tail (|z| > r = 3.654); condition on it so
  // that a broken tail method cannot hide in the bulk: P(|z| <= x | |z| > 3.5).
  Rng rng = Rng::from_seed(4, 1);
  std::vector<double> tail;
  const int64_t want = stat::scaled(20000);
  while (static_cast<int64_t>(tail.size()) < want) {
    const double z = std::fabs(standard_normal(rng));
    if (z > 3.5) tail.push_back(z);
  }
  const boost::math::normal phi;
  const double above = boost::math::cdf(boost::math::complement(phi, 3.5));
  const auto cdf = [&](double x) {
    return x <= 3.5 ? 0.0 : 1.0 - boost::math::cdf(boost::math::complement(phi, x)) / above;
  };
  const stat::Verdict good = stat::ks_one_sample(tail, cdf, "|z| given |z| > 3.5");
  EXPECT_TRUE(good.pass) << good;
  for (double &z : tail) z = 3.5 + (z - 3.5) * 1.1;
  const stat::Verdict bad = stat::ks_one_sample(tail, cdf, "stretched tail");
  EXPECT_FALSE(bad.pass) << bad;
}

TEST(ExponentialStatistics, FollowsTheExponentialCdfAndCatchesAWrongRate) {
  const boost::math::exponential_distribution<> e(1.0);
  const stat::Verdict good = ks([](Rng &r) { return exponential(r); }, e, 5, "exponential");
  EXPECT_TRUE(good.pass) << good;
  const stat::Verdict bad = ks([](Rng &r) { return exponential(r) / 1.05; }, e, 5, "rate 1.05");
  EXPECT_FALSE(bad.pass) << bad;
}

TEST(LaplaceStatistics, FollowsTheLaplaceCdfAndMeanAbsoluteValueIsTheScale) {
  // A 5% scale error moves the Laplace CDF by at most 0.0088, so 10^6 draws (critical value
  // 0.0027) are used here.
  constexpr int64_t kLaplaceDraws = 1000000;
  for (double b : {0.01, 1.0, 250.0}) {
    const boost::math::laplace_distribution<> dist(0.0, b);
    const stat::Verdict good =
        ks([b](Rng &r) { return laplace(r, b); }, dist, 6, "laplace", kLaplaceDraws);
    EXPECT_TRUE(good.pass) << good << " b = " << b;
    const stat::Verdict bad = ks([b](Rng &r) { return laplace(r, 1.05 * b); }, dist, 6,
                                 "laplace, scale 1.05 b", kLaplaceDraws);
    EXPECT_FALSE(bad.pass) << bad << " b = " << b;
  }
  // E|x| = b and Var|x| = b^2 (|x| is exponential with mean b).
  auto mean_abs = [](double scale_used) {
    std::vector<double> x = draw([scale_used](Rng &r) { return laplace(r, scale_used); }, 7);
    for (double &v : x) v = std::fabs(v);
    const double n = static_cast<double>(x.size());
    return stat::z_test(stat::mean_and_error(x).mean, 2.0, 2.0 / std::sqrt(n), "E|x|");
  };
  const stat::Verdict good = mean_abs(2.0);
  EXPECT_TRUE(good.pass) << good;
  const stat::Verdict bad = mean_abs(2.1);
  EXPECT_FALSE(bad.pass) << bad;
}

TEST(GammaStatistics, FollowsTheGammaCdfForShapesAboveOneAndCatchesAFivePercentScale) {
  for (double a : {1.0, 1.7, 10.0, 1000.0}) {
    const boost::math::gamma_distribution<> dist(a, 1.0);
    const stat::Verdict good = ks([a](Rng &r) { return gamma(r, a); }, dist, 8, "gamma");
    EXPECT_TRUE(good.pass) << good << " shape " << a;
    const stat::Verdict bad =
        ks([a](Rng &r) { return 1.05 * gamma(r, a); }, dist, 8, "1.05 * gamma");
    EXPECT_FALSE(bad.pass) << bad << " shape " << a;
  }
}

TEST(GammaStatistics, FollowsTheGammaCdfForShapesBelowOneAndCatchesAMissingBoost) {
  // The mutant forgets the U^{1/a} factor and returns Gamma(a + 1): the classic shape < 1 bug.
  for (double a : {0.05, 0.3, 0.5, 0.9}) {
    const boost::math::gamma_distribution<> dist(a, 1.0);
    const stat::Verdict good = ks([a](Rng &r) { return gamma(r, a); }, dist, 9, "gamma");
    EXPECT_TRUE(good.pass) << good << " shape " << a;
    const stat::Verdict bad =
        ks([a](Rng &r) { return gamma(r, a + 1.0); }, dist, 9, "gamma without boost");
    EXPECT_FALSE(bad.pass) << bad << " shape " << a;
  }
}

TEST(ChiSquareStatistics, FollowsTheChiSquareCdfAndCatchesOneDegreeOfFreedomTooMany) {
  for (double k : {0.7, 1.0, 3.0, 10.5, 200.0}) {
    const boost::math::chi_squared dist(k);
    const stat::Verdict good = ks([k](Rng &r) { return chi_square(r, k); }, dist, 10, "chi2");
    EXPECT_TRUE(good.pass) << good << " k = " << k;
    const stat::Verdict bad =
        ks([k](Rng &r) { return chi_square(r, k + 1.0); }, dist, 10, "chi2 with k + 1");
    EXPECT_FALSE(bad.pass) << bad << " k = " << k;
  }
}

}  // namespace
}  // namespace dpcov::random
