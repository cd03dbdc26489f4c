// The posterior's intervals where the labels fill their bound
// (core/estimators/adassp_posterior.hpp, proofs/adassp_posterior.md, "A truth on the prior's
// bound"): p = 3 regressors of independent +-1 entries (no intercept), labels +-1 = +-B_Y
// independent of them, so the true coefficients are 0 and the error sd is B_Y, the largest
// value |y| <= B_Y allows. A prior on sigma whose support ends at B_Y cuts the posterior at the
// truth, reads sigma low and prints intervals narrower than the estimate's spread: over the two
// cells below it covered 0.931 (n = 703, epsilon 0.5) and 0.926 (n = 200, epsilon 4), where the
// prior of sigma_prior_bound() covers 0.956 and 0.948 (600 releases each).
//
// Error rate: the share of the converged intervals that cover 0, pooled over both cells
// (K releases each, 3 coefficients a release), must be at least 0.935. The coefficients of one
// release share their sigma, so the standard error is taken with a design effect of 1.5: at
// K = 600 and a coverage of 0.95 it is 0.0045, and a calibrated posterior fails with probability
// about 5e-4 (z = 3.3); the prior ending at B_Y (0.9285 here) passes with probability about 0.07.
// About 80 CPU seconds.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "core/estimators/adassp_posterior.hpp"
#include "core/random/rng.hpp"
#include "stat_support.hpp"
#include "tests/unit/adassp_release.hpp"

namespace dpcov::estimators {
namespace {

struct Tally {
  int64_t covered = 0, counted = 0;
};

void cover_zero(int64_t n, double epsilon, int64_t releases, uint64_t seed, Tally &tally) {
  mechanisms::AdasspOptions options;
  options.release_label_square = true;
  const mechanisms::AdasspReceipt plan =
      mechanisms::plan_adassp(3, std::sqrt(3.0), 1.0, epsilon, 1e-6, options);
  random::Rng rng = random::Rng::from_seed(seed);
  for (int64_t k = 0; k < releases; ++k) {
    const mechanisms::AdasspFit fit = sign_rows_release(plan, n, 1.0, 1.0, rng);
    const PosteriorIntervals q = adassp_posterior_intervals(fit.xtx, fit.xty, fit.yty, n,
                                                            fit.receipt, -1, 0.95, 999, rng);
    for (size_t j = 0; j < 3; ++j) {
      if (q.converged[j] != 1) continue;
      ++tally.counted;
      tally.covered += q.ci_lower[j] <= 0.0 && 0.0 <= q.ci_upper[j] ? 1 : 0;
    }
  }
}

TEST(AdasspPosteriorLabelBound, LabelsOnTheirBoundAreCovered) {
  const int64_t releases = stat::scaled(600);
  Tally tally;
  cover_zero(703, 0.5, releases, 11, tally);
  cover_zero(200, 4.0, releases, 8, tally);
  ASSERT_GT(tally.counted, 5 * releases);  // nearly every interval converges in these cells
  const double coverage = static_cast<double>(tally.covered) / static_cast<double>(tally.counted);
  std::printf("%lld of %lld intervals cover 0: %.4f\n", static_cast<long long>(tally.covered),
              static_cast<long long>(tally.counted), coverage);
  EXPECT_GE(coverage, 0.935) << tally.covered << " of " << tally.counted << " intervals cover 0";
}

}  // namespace
}  // namespace dpcov::estimators
