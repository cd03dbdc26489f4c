// Exact-density audit of the private bound (core/mechanisms/private_bound.hpp). Its output is one
// of K candidates, so its log-probabilities are exact (up to rounding) and the privacy loss of a
// pair of neighbouring datasets is max_k |log p_k(D) - log p_k(D')|. The datasets enter only
// through the histogram of row norms over the grid, so neighbours are histograms that differ by
// one row added, removed, or moved from one cell to another (replace-one). Every neighbour of
// many random histograms and targets is checked: the loss stays <= eps, and reaches more than
// 0.85 eps somewhere (the bound is tight, so the audit looks where it matters). The mutant with
// the exponent factor eps instead of eps / 2 must be caught. Deterministic: no false failures.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/mechanisms/private_bound.hpp"
#include "core/random/rng.hpp"
#include "histogram_neighbours.hpp"

namespace dm = dpcov::mechanisms;
using dpcov::audit_support::Histogram;

namespace {

double loss(const Histogram &a, const Histogram &b, uint64_t target, double factor) {
  const auto la = dm::private_bound_log_probabilities(a, target, factor);
  const auto lb = dm::private_bound_log_probabilities(b, target, factor);
  double worst = 0.0;
  for (size_t k = 0; k < la.size(); ++k) worst = std::max(worst, std::abs(la[k] - lb[k]));
  return worst;
}

// The worst loss over every neighbour of 200 random histograms (2 to 12 candidates, up to 30
// rows per cell) at target numbers of clipped rows 0 to 40.
double worst_loss(double eps, double factor) {
  auto rng = dpcov::random::Rng::from_seed(20261124);
  double worst = 0.0;
  for (int trial = 0; trial < 200; ++trial) {
    Histogram h(2 + rng.next_u64() % 12);
    for (uint64_t &c : h) c = rng.next_u64() % 31;
    const uint64_t target = rng.next_u64() % 41;
    for (const Histogram &n : dpcov::audit_support::histogram_neighbours(h, true, true))
      worst = std::max(worst, loss(h, n, target, factor));
  }
  return worst / eps;
}

}  // namespace

TEST(PrivateBoundAudit, LossIsAtMostEpsilonOnEveryNeighbour) {
  for (double eps : {0.1, 1.0, 4.0}) {
    const double ratio = worst_loss(eps, dm::private_bound_exponent_factor(eps));
    EXPECT_LE(ratio, 1.0 + 1e-12) << "eps " << eps;
    EXPECT_GT(ratio, 0.85) << "eps " << eps;
  }
}

TEST(PrivateBoundAudit, CatchesTheFactorEpsilonMutant) {
  for (double eps : {0.1, 1.0, 4.0}) EXPECT_GT(worst_loss(eps, eps), 1.5) << "eps " << eps;
}
