// The scan's sampler (core/mechanisms/private_bound_scan.hpp) against its exact selection
// probabilities (private_bound_scan_log_probabilities, pinned against mpmath by
// proofs/check/private_bound_scan.py): Pearson chi-square over the candidates, fixed seeds,
// alpha = 1e-6 per assertion; two assertions on the correct sampler, so the file's false-failure
// rate is <= 2e-6. The same check must reject the mutant whose query noise has scale 1 / eps
// instead of 2 / eps (half the noise the proof needs; its privacy loss reaches 1.5 eps,
// tests/privacy/private_bound_scan_audit_test.cpp). Expected chi-square under the mutant at this
// sample size: about 11000, against a critical value of 35.9 (5 degrees of freedom).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/mechanisms/private_bound_scan.hpp"
#include "stat_support.hpp"

namespace dm = dpcov::mechanisms;

namespace {

// Rows above b_k: 8, 6, 4, 2, 1, 0 against a target of 3 at eps 1: the selection probabilities
// are 0.109, 0.165, 0.246, 0.251, 0.112, 0.117, so every expected count is above 20000.
const std::vector<uint64_t> kHistogram{10, 2, 2, 2, 1, 1, 0};
constexpr uint64_t kTarget = 3;
constexpr double kEps = 1.0;

dpcov::stat::Verdict check(dm::DiscreteLaplaceScale query, uint64_t seed) {
  const auto threshold = dm::private_bound_scan_threshold_scale(kEps);
  const std::vector<double> logs = dm::private_bound_scan_log_probabilities(
      kHistogram, kTarget, threshold, dm::private_bound_scan_query_scale(kEps));
  std::vector<double> probabilities;
  for (double l : logs) probabilities.push_back(std::exp(l));
  auto rng = dpcov::random::Rng::from_seed(seed);
  std::vector<int64_t> counts(probabilities.size(), 0);
  const int64_t n = dpcov::stat::scaled(200000);
  for (int64_t i = 0; i < n; ++i)
    ++counts[dm::private_bound_scan_select_with_scales(kHistogram, kTarget, threshold, query, rng)];
  return dpcov::stat::chi_square_bins(counts, probabilities, "private bound scan selection");
}

}  // namespace

TEST(PrivateBoundScanSampler, FollowsItsExactProbabilities) {
  const auto query = dm::private_bound_scan_query_scale(kEps);
  for (uint64_t seed : {20261124u, 20261125u}) {
    const auto verdict = check(query, seed);
    EXPECT_TRUE(verdict.pass) << verdict;
  }
  // And through the public entry point.
  auto rng = dpcov::random::Rng::from_seed(3);
  EXPECT_LT(dm::private_bound_scan_select(kHistogram, kTarget, kEps, rng), kHistogram.size() - 1);
}

TEST(PrivateBoundScanSampler, RejectsTheHalvedQueryNoiseMutant) {
  auto query = dm::private_bound_scan_query_scale(kEps);
  query.s *= 2;  // scale t / (2 s) = 1 / eps
  const auto verdict = check(query, 20261124u);
  EXPECT_FALSE(verdict.pass) << verdict;
}
