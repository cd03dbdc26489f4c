// Exact audit of the private bound's scan (core/mechanisms/private_bound_scan.hpp). Its output is
// one of K candidates and its noise is discrete, so its log-probabilities are exact sums
// (private_bound_scan_log_probabilities, pinned against mpmath by
// proofs/check/private_bound_scan.py), and the privacy loss of a pair of neighbouring datasets is
// max_k |log p_k(D) - log p_k(D')|. The data enter only through the histogram of row norms over
// the grid, so neighbours are histograms one row apart: a row added or removed (add/remove) or
// moved between cells (replace-one). Every neighbour of random histograms is checked under both
// relations with the same scales (the counts are monotone under both): the loss stays <= eps and
// exceeds 0.98 eps somewhere (the audit looks where the bound is tight: histograms with one or
// two occupied cells and many empty ones). Two mutants must be caught: the query noise halved to
// scale 1 / eps, and the threshold noise halved (either spends 1.5 eps on the worst pair).
// Deterministic: no false failures.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/mechanisms/private_bound_scan.hpp"
#include "core/random/rng.hpp"
#include "histogram_neighbours.hpp"

namespace dm = dpcov::mechanisms;
using dpcov::audit_support::Histogram;
using Scale = dm::DiscreteLaplaceScale;

namespace {

double loss(const Histogram &a, const Histogram &b, uint64_t target, Scale threshold, Scale query) {
  const auto la = dm::private_bound_scan_log_probabilities(a, target, threshold, query);
  const auto lb = dm::private_bound_scan_log_probabilities(b, target, threshold, query);
  double worst = 0.0;
  for (size_t k = 0; k < la.size(); ++k) worst = std::max(worst, std::abs(la[k] - lb[k]));
  return worst;
}

// The worst loss, over eps, on every neighbour of 60 histograms: half with one or two occupied
// cells among 3 to 9 (up to 8 rows), half random (2 to 7 cells, up to 4 rows each); targets 0 to 5.
double worst_loss(double eps, Scale threshold, Scale query, bool replace) {
  auto rng = dpcov::random::Rng::from_seed(20261124);
  double worst = 0.0;
  for (int trial = 0; trial < 60; ++trial) {
    Histogram h;
    if (trial % 2 == 0) {
      h.assign(3 + rng.next_u64() % 7, 0);
      h[rng.next_u64() % h.size()] += 1 + rng.next_u64() % 8;
      if (rng.next_u64() % 2 == 0) h[rng.next_u64() % h.size()] += rng.next_u64() % 3;
    } else {
      h.resize(2 + rng.next_u64() % 6);
      for (uint64_t &c : h) c = rng.next_u64() % 5;
    }
    const uint64_t target = rng.next_u64() % 6;
    for (const Histogram &n : dpcov::audit_support::histogram_neighbours(h, !replace, replace))
      worst = std::max(worst, loss(h, n, target, threshold, query));
  }
  return worst / eps;
}

Scale halved(Scale s) {
  return {2 * s.s, s.t};
}

}  // namespace

TEST(PrivateBoundScanAudit, LossIsAtMostEpsilonOnEveryNeighbourUnderBothRelations) {
  for (double eps : {1.0, 4.0}) {
    const Scale threshold = dm::private_bound_scan_threshold_scale(eps);
    const Scale query = dm::private_bound_scan_query_scale(eps);
    for (bool replace : {false, true}) {
      const double ratio = worst_loss(eps, threshold, query, replace);
      EXPECT_LE(ratio, 1.0 + 1e-9) << "eps " << eps << (replace ? " replace-one" : " add/remove");
      EXPECT_GT(ratio, 0.98) << "eps " << eps << (replace ? " replace-one" : " add/remove");
    }
  }
}

TEST(PrivateBoundScanAudit, CatchesTheHalvedQueryNoise) {
  for (double eps : {1.0, 4.0})
    for (bool replace : {false, true}) {
      const Scale threshold = dm::private_bound_scan_threshold_scale(eps);
      const Scale query = halved(dm::private_bound_scan_query_scale(eps));
      EXPECT_GT(worst_loss(eps, threshold, query, replace), 1.2) << "eps " << eps;
    }
}

TEST(PrivateBoundScanAudit, CatchesTheHalvedThresholdNoise) {
  for (double eps : {1.0, 4.0})
    for (bool replace : {false, true}) {
      const Scale threshold = halved(dm::private_bound_scan_threshold_scale(eps));
      const Scale query = dm::private_bound_scan_query_scale(eps);
      EXPECT_GT(worst_loss(eps, threshold, query, replace), 1.2) << "eps " << eps;
    }
}
