// The private bound's sampler (core/mechanisms/private_bound.hpp) against its exact selection
// probabilities: Pearson chi-square over the candidates, fixed seed, alpha = 1e-6 per assertion;
// two assertions on the correct sampler, so the file's false-failure rate is <= 2e-6. The same
// check must reject the mutant that uses the factor eps instead of eps / 2 (the sensitivity-1/2
// mistake, which doubles the privacy loss).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/mechanisms/private_bound.hpp"
#include "stat_support.hpp"

namespace dm = dpcov::mechanisms;

namespace {

// Rows above b_k: 9, 8, 7, 6, 5, 4 against a target of 6 clipped rows: utilities -3, -2, -1, 0,
// -1, -2; all
// expected counts well above 1000 at the sample size below.
const std::vector<uint64_t> kHistogram{40, 1, 1, 1, 1, 1, 4};
constexpr uint64_t kTarget = 6;
constexpr double kEps = 1.0;

dpcov::stat::Verdict check(double factor, uint64_t seed) {
  const std::vector<double> logs = dm::private_bound_log_probabilities(
      kHistogram, kTarget, dm::private_bound_exponent_factor(kEps));
  std::vector<double> probabilities;
  for (double l : logs) probabilities.push_back(std::exp(l));
  auto rng = dpcov::random::Rng::from_seed(seed);
  std::vector<int64_t> counts(probabilities.size(), 0);
  const int64_t n = dpcov::stat::scaled(200000);
  for (int64_t i = 0; i < n; ++i)
    ++counts[dm::private_bound_select_with_factor(kHistogram, kTarget, factor, rng)];
  return dpcov::stat::chi_square_bins(counts, probabilities, "private bound selection");
}

}  // namespace

TEST(PrivateBoundSampler, FollowsTheExponentialMechanism) {
  const double factor = dm::private_bound_exponent_factor(kEps);
  for (uint64_t seed : {20261124u, 20261125u}) {
    const auto verdict = check(factor, seed);
    EXPECT_TRUE(verdict.pass) << verdict;
  }
  // And through the public entry point.
  auto rng = dpcov::random::Rng::from_seed(3);
  EXPECT_LT(dm::private_bound_select(kHistogram, kTarget, kEps, rng), kHistogram.size() - 1);
}

TEST(PrivateBoundSampler, RejectsTheFactorEpsilonMutant) {
  const auto verdict = check(kEps, 20261124u);
  EXPECT_FALSE(verdict.pass) << verdict;
}
