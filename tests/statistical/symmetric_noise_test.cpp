// Symmetric noise matrices: the upper-triangle entries (diagonal and off-diagonal pooled
// separately) against the exact N(0, sigma^2) and Laplace(b) CDFs (one-sample KS), and the
// mirrored lower triangle identical to the upper one.
// alpha = 1e-6 per assertion on a correct sampler: 4 assertions, family-wise false-failure rate
// <= 4e-6. Mutant that must be rejected: the common "symmetrise by averaging" construction
// (N + N^T) / 2 of a full iid matrix, whose off-diagonal entries have the wrong spread.
#include <gtest/gtest.h>

#include <boost/math/distributions/laplace.hpp>
#include <boost/math/distributions/normal.hpp>

#include <functional>
#include <string>
#include <vector>

#include "core/random/samplers.hpp"
#include "stat_support.hpp"

namespace dpcov::random {
namespace {

using NoiseSampler = std::function<void(Rng &, Matrix &)>;
using EntrySampler = std::function<double(Rng &)>;

constexpr int64_t kDim = 20;
constexpr int64_t kMatrices = 1000;  // 210 000 off-diagonal and 20 000 diagonal entries

// The wrong construction: every entry of a full matrix drawn, then (N + N^T) / 2.
NoiseSampler averaged(const EntrySampler &entry) {
  return [entry](Rng &rng, Matrix &out) {
    Matrix full(out.rows(), out.cols());
    for (int64_t j = 0; j < full.cols(); ++j)
      for (int64_t i = 0; i < full.rows(); ++i) full(i, j) = entry(rng);
    for (int64_t j = 0; j < full.cols(); ++j)
      for (int64_t i = 0; i < full.rows(); ++i) out(i, j) = 0.5 * (full(i, j) + full(j, i));
  };
}

std::vector<stat::Verdict> checks(const NoiseSampler &s, const std::function<double(double)> &cdf,
                                  uint64_t seed) {
  Rng rng = Rng::from_seed(seed, 6);
  std::vector<double> diagonal, off_diagonal;
  Matrix m(kDim, kDim);
  bool mirrored = true;
  const int64_t n = stat::scaled(kMatrices);
  for (int64_t r = 0; r < n; ++r) {
    s(rng, m);
    for (int64_t j = 0; j < kDim; ++j)
      for (int64_t i = 0; i <= j; ++i) {
        (i == j ? diagonal : off_diagonal).push_back(m(i, j));
        mirrored = mirrored && m(i, j) == m(j, i);
      }
  }
  EXPECT_TRUE(mirrored);
  return {stat::ks_one_sample(diagonal, cdf, "diagonal entries"),
          stat::ks_one_sample(off_diagonal, cdf, "off-diagonal entries")};
}

bool all_pass(const std::vector<stat::Verdict> &v) {
  for (const auto &x : v)
    if (!x.pass) return false;
  return true;
}

std::string describe(const std::vector<stat::Verdict> &v) {
  std::string s;
  for (const auto &x : v) s += (x.pass ? "  pass " : "  FAIL ") + x.what + "\n";
  return s;
}

TEST(SymmetricGaussianNoiseStatistics, EntriesAreNormalWithSigmaAndAveragingIsCaught) {
  const double sigma = 3.0;
  const boost::math::normal dist(0.0, sigma);
  const auto cdf = [&](double x) { return boost::math::cdf(dist, x); };
  const auto good =
      checks([&](Rng &r, Matrix &m) { symmetric_gaussian_noise(r, sigma, m); }, cdf, 51);
  EXPECT_TRUE(all_pass(good)) << describe(good);
  const auto bad = checks(averaged([&](Rng &r) { return sigma * standard_normal(r); }), cdf, 51);
  EXPECT_FALSE(all_pass(bad)) << describe(bad);
}

TEST(SymmetricLaplaceNoiseStatistics, EntriesAreLaplaceWithScaleAndAveragingIsCaught) {
  const double b = 0.25;
  const boost::math::laplace_distribution<> dist(0.0, b);
  const auto cdf = [&](double x) { return boost::math::cdf(dist, x); };
  const auto good = checks([&](Rng &r, Matrix &m) { symmetric_laplace_noise(r, b, m); }, cdf, 52);
  EXPECT_TRUE(all_pass(good)) << describe(good);
  const auto bad = checks(averaged([&](Rng &r) { return laplace(r, b); }), cdf, 52);
  EXPECT_FALSE(all_pass(bad)) << describe(bad);
}

}  // namespace
}  // namespace dpcov::random
