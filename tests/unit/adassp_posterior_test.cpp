// The posterior intervals' convergence check (core/estimators/adassp_posterior.hpp): a release
// the chains mix on is printed; the d = 10 release of heavy-tailed rows at n = 500, whose chains
// do not mix in the sweeps given, is reported unconverged and not printed (adassp_intervals:
// kUnconverged); the same seed gives the same chains.
//
// The sampling share of each coefficient (PosteriorIntervals::sampling_share) and the print rule on
// it (adassp_intervals: kPriorDecides): near 1 on a release that pins every coefficient down,
// below min_sampling_share on the slopes of a release whose noise swamps X'X; min_sampling_share
// gives the one-dimensional Gaussian interval its stated coverage at the prior's centre.
//
// Fixed seeds: each assertion is one deterministic run. Over 20 release seeds of each case the
// well-posed one converged in every release and the d = 10 one in none (measured with this file's
// cases before fixing the seeds), so a seed's verdict is not a borderline one.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "adassp_release.hpp"
#include "core/estimators/adassp_intervals.hpp"
#include "core/estimators/adassp_posterior.hpp"
#include "core/estimators/chain_convergence.hpp"
#include "core/random/rng.hpp"

namespace dpcov::estimators {
namespace {

PosteriorIntervals posterior(const Released &r, int64_t draws, uint64_t seed) {
  random::Rng rng = random::Rng::from_seed(seed, 3);
  return adassp_posterior_intervals(r.fit.xtx, r.fit.xty, r.fit.yty, r.n, r.fit.receipt, 0, 0.95,
                                    draws, rng);
}

TEST(AdasspPosteriorConvergence, WellPosedReleaseConvergesAndIsPrinted) {
  const Released r = release(2000, 2, false, 1.0, 5);
  const PosteriorIntervals q = posterior(r, 999, 1);
  for (size_t j = 0; j < 3; ++j) {
    EXPECT_EQ(q.converged[j], 1) << j;
    EXPECT_LT(q.rhat[j], kMaxRhat) << j;
    EXPECT_GE(q.ess_bulk[j], kMinEss) << j;
  }
  EXPECT_LT(q.sweeps, 4 * 2 * 250 * 4);  // converged before the last lengthening
  random::Rng rng = random::Rng::from_seed(1, 3);
  const RegressionIntervals a = adassp_intervals(r.fit.xtx, r.fit.xty, r.fit.yty, r.n,
                                                 r.fit.receipt, 0, 0.95, 999, rng);
  for (int32_t c : a.conclusive) EXPECT_NE(c, kUnconverged);
}

TEST(AdasspPosteriorConvergence, HeavyTailedDimensionTenIsUnconvergedAndNotPrinted) {
  // Seed 11: 7 of the 11 coefficients unconverged with OpenBLAS on one thread, 6 on two (seed 7
  // had 2 and 0: the BLAS's summation order moves a chain near the limits).
  const Released r = release(500, 10, true, 0.5, 11);
  const PosteriorIntervals q = posterior(r, 199, 1);
  int unconverged = 0;
  for (size_t j = 0; j < q.converged.size(); ++j) unconverged += q.converged[j] == 0 ? 1 : 0;
  EXPECT_GT(unconverged, 0);
  EXPECT_EQ(q.sweeps, 4 * 2 * 50 * 4);  // lengthened twice, then given up
  random::Rng rng = random::Rng::from_seed(1, 3);
  const RegressionIntervals a = adassp_intervals(r.fit.xtx, r.fit.xty, r.fit.yty, r.n,
                                                 r.fit.receipt, 0, 0.95, 199, rng);
  ASSERT_EQ(a.method, IntervalMethod::Posterior);
  for (size_t j = 0; j < a.conclusive.size(); ++j)
    EXPECT_EQ(a.conclusive[j] == kUnconverged, q.converged[j] == 0) << j;
}

TEST(AdasspPosteriorConvergence, SameSeedSameChains) {
  const Released r = release(500, 2, false, 1.0, 9);
  const PosteriorIntervals a = posterior(r, 199, 4), b = posterior(r, 199, 4);
  EXPECT_EQ(a.ci_lower, b.ci_lower);
  EXPECT_EQ(a.ci_upper, b.ci_upper);
  EXPECT_EQ(a.rhat, b.rhat);
}

TEST(AdasspPosteriorSamplingShare, MinSamplingShareMissesTheCentreAFifthOfTheNominalRate) {
  // With prior N(0, t^2) and likelihood N(beta, s^2) the posterior interval at a truth at the
  // prior's centre is off by N(0, w^2 s^2), w = t^2 / (t^2 + s^2), against a posterior standard
  // deviation sqrt(w) s: its coverage is 2 Phi(z / sqrt(w)) - 1, and w is the sampling share.
  EXPECT_NEAR(min_sampling_share(0.95), 0.57897, 1e-5);
  for (double level : {0.5, 0.8, 0.9, 0.95, 0.99}) {
    const double z = normal_quantile(0.5 * (1.0 + level));
    const double at_centre = std::erf(z / std::sqrt(min_sampling_share(level)) / std::sqrt(2.0));
    EXPECT_NEAR(1.0 - at_centre, 0.2 * (1.0 - level), 1e-9) << level;
  }
}

TEST(AdasspPosteriorPrior, SigmaSupportReachesHalfAgainPastTheLabelBound) {
  // |y| <= B_Y bounds the error sd by B_Y; the support's margin keeps that truth inside it
  // (proofs/adassp_posterior.md, "A truth on the prior's bound").
  for (double bound_y : {0.25, 1.0, 7.0}) {
    mechanisms::AdasspOptions options;
    options.release_label_square = true;
    const mechanisms::AdasspReceipt plan =
        mechanisms::plan_adassp(3, 2.0, bound_y, 1.0, 1e-6, options);
    EXPECT_EQ(sigma_prior_bound(plan), 1.5 * bound_y) << bound_y;
  }
}

TEST(AdasspPosteriorSamplingShare, ReleaseThatPinsTheCoefficientsIsDecidedByIt) {
  // n = 2e4, epsilon = 1: the posterior is the likelihood's and its chains mix (0.89-1.04 over
  // release seeds 5-7; where they do not mix, as at epsilon 4 here, the share means nothing and
  // the convergence check withholds the interval).
  const Released r = release(20000, 2, false, 1.0, 5);
  const PosteriorIntervals q = posterior(r, 999, 1);
  for (size_t j = 0; j < 3; ++j) {
    ASSERT_EQ(q.converged[j], 1) << j;
    EXPECT_GT(q.sampling_share[j], 0.8) << j;
  }
}

TEST(AdasspPosteriorSamplingShare, SlopesSwampedByTheNoiseAreThePriors) {
  // Gaussian rows, n = 500, d = 3, epsilon = 1: signal to noise 0.93 on a slope's X'X~ diagonal
  // and 0.40 on its X'y~ (proofs/adassp_posterior.md), so the slopes' posteriors are nearly
  // their priors and hardly move with the release.
  const Released r = release(500, 3, false, 1.0, 11);
  const PosteriorIntervals q = posterior(r, 999, 1);
  for (size_t j = 1; j < 4; ++j) EXPECT_LT(q.sampling_share[j], min_sampling_share(0.95)) << j;
  random::Rng rng = random::Rng::from_seed(1, 3);
  const RegressionIntervals a = adassp_intervals(r.fit.xtx, r.fit.xty, r.fit.yty, r.n,
                                                 r.fit.receipt, 0, 0.95, 999, rng);
  ASSERT_EQ(a.method, IntervalMethod::Posterior);
  for (size_t j = 1; j < 4; ++j) EXPECT_NE(a.conclusive[j], kConclusive) << j;
}

}  // namespace
}  // namespace dpcov::estimators
