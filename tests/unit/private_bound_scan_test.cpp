// The scan's pieces (core/mechanisms/private_bound_scan.hpp): its noise scales, the exact
// probabilities on cases with a known answer, the sampler's range, and the validation of every
// argument. The scales and probabilities are pinned against mpmath by
// proofs/check/private_bound_scan.py, the sampler by tests/statistical/private_bound_scan_test.cpp,
// the privacy by tests/privacy/private_bound_scan_audit_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "core/mechanisms/private_bound_scan.hpp"
#include "dpcov.h"

namespace dm = dpcov::mechanisms;

namespace {

dpcov_status status_of(auto &&call) {
  try {
    call();
  } catch (const dpcov::Error &e) {
    return static_cast<dpcov_status>(e.status());
  }
  return DPCOV_OK;
}

double scale(dm::DiscreteLaplaceScale s) {
  return static_cast<double>(s.t) / static_cast<double>(s.s);
}

}  // namespace

TEST(PrivateBoundScan, ScalesAreTwoOverEpsilonRoundedUpToTheGrid) {
  EXPECT_EQ(scale(dm::private_bound_scan_threshold_scale(1.0)), 2.0);
  EXPECT_EQ(scale(dm::private_bound_scan_query_scale(0.5)), 4.0);
  EXPECT_EQ(dm::private_bound_scan_threshold_scale(1.0).s, dm::kScanScaleDenominator);
  // 2 / 0.1 = 20.000000000000001...: 0.1 is slightly above 1/10, so the exact t is below
  // 20 * 2^24 and rounds up to it.
  EXPECT_EQ(dm::private_bound_scan_query_scale(0.1).t, 20 * dm::kScanScaleDenominator);
  // Never below 2 / eps, and the next t down would be.
  for (double eps : {0.3, 0.7, 1e-3, 3.3, 123.456, 0x1p-26}) {
    const auto s = dm::private_bound_scan_threshold_scale(eps);
    EXPECT_GE(static_cast<long double>(s.t) * eps, 2.0L * s.s) << eps;
    EXPECT_LT(static_cast<long double>(s.t - 1) * eps, 2.0L * s.s) << eps;
  }
  // The largest epsilon accepted keeps t >= 1.
  EXPECT_EQ(dm::private_bound_scan_query_scale(DPCOV_MAX_EPSILON).t, 1u);
}

TEST(PrivateBoundScan, ScalesRefuseBadEpsilons) {
  for (double eps : {0.0, -1.0, 0x1p-27, std::nan(""), std::numeric_limits<double>::infinity(),
                     1e300}) {
    EXPECT_EQ(status_of([&] { dm::private_bound_scan_threshold_scale(eps); }),
              DPCOV_E_INVALID_ARGUMENT)
        << eps;
    EXPECT_EQ(status_of([&] { dm::private_bound_scan_query_scale(eps); }), DPCOV_E_INVALID_ARGUMENT)
        << eps;
  }
}

TEST(PrivateBoundScan, ProbabilitiesSumToOneAndPeakJustAboveTheData) {
  // 40 rows in (b_0, b_1], none above: rows above b_k = 40, 0, 0, 0, 0, 0; target 2.
  const std::vector<uint64_t> h{0, 40, 0, 0, 0, 0, 0};
  const auto s = dm::private_bound_scan_threshold_scale(2.0);
  const std::vector<double> logs = dm::private_bound_scan_log_probabilities(h, 2, s, s);
  double total = 0.0;
  for (double l : logs) total += std::exp(l);
  EXPECT_NEAR(total, 1.0, 1e-12);
  EXPECT_LT(std::exp(logs[0]), 1e-6);  // 40 rows above b_0: the scan passes it
  EXPECT_GT(std::exp(logs[1]), 0.5);   // and stops at the first candidate above the data
  // Past the data each candidate stops the scan with the same probability, so the chance of
  // reaching it falls geometrically (the top one takes every pass).
  for (size_t k = 2; k + 1 < logs.size(); ++k) EXPECT_LT(logs[k], logs[k - 1]) << k;
}

TEST(PrivateBoundScan, OneCandidateIsAlwaysChosen) {
  const auto s = dm::private_bound_scan_threshold_scale(1.0);
  EXPECT_EQ(dm::private_bound_scan_log_probabilities({4, 5}, 0, s, s), (std::vector<double>{0.0}));
  auto rng = dpcov::random::Rng::from_seed(1);
  EXPECT_EQ(dm::private_bound_scan_select({4, 5}, 0, 1.0, rng), 0u);
}

TEST(PrivateBoundScan, SelectionIsInRange) {
  auto rng = dpcov::random::Rng::from_seed(7);
  for (int i = 0; i < 1000; ++i)
    EXPECT_LT(dm::private_bound_scan_select({0, 0, 0, 9}, 100, 0.1, rng), 3u);
}

TEST(PrivateBoundScan, BadArgumentsAreRefused) {
  auto rng = dpcov::random::Rng::from_seed(1);
  const uint64_t half = uint64_t{1} << 52;
  for (const auto &histogram : std::vector<std::vector<uint64_t>>{{}, {5}, {half, half, 1}}) {
    EXPECT_EQ(status_of([&] { dm::private_bound_scan_select(histogram, 0, 1.0, rng); }),
              DPCOV_E_INVALID_ARGUMENT);
    EXPECT_EQ(status_of([&] {
                dm::private_bound_scan_log_probabilities(histogram, 0, {1, 1}, {1, 1});
              }),
              DPCOV_E_INVALID_ARGUMENT);
  }
  EXPECT_EQ(status_of([&] {
              dm::private_bound_scan_select_with_scales({1, 2}, 0, {0, 1}, {1, 1}, rng);
            }),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status_of([&] {
              dm::private_bound_scan_select_with_scales({1, 2}, 0, {1, 1}, {1, 0}, rng);
            }),
            DPCOV_E_INVALID_ARGUMENT);
}
