// The exact per-step audit of CoinPress covariance with t = 3
// (core/audit/coinpress_steps_audit.hpp, which states the transcript, its loss, the pair and the
// statistics; proofs/coinpress.md, "Audits") on the claim d = 3, n = 1000, K = 4, rho = 0.5 with
// the shipped split 1/8, 1/8, 3/4. Error rate: alpha = 1e-6 per audit, split evenly (Bonferroni)
// over 2 directions x 3 statistics, so the shipped release is flagged with probability <= 1e-6;
// fixed seeds. Known-broken variants, each with the claimed plan otherwise, must be flagged: step 2
// with half its sigma (rho spent on the pair 1.375 rho), step 3 with half its sigma (3.25 rho),
// step 2 clipped at 2 gamma with the sigma planned for gamma (its mean moves by 3 gamma^2 / n =
// 0.75 sigma_2 on one entry), and every step at 4 rho (the last two far above the claim: 1000 draws
// per direction, the others 4000). DPCOV_STAT_VERBOSE=1 prints the statistics.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "core/audit/coinpress_steps_audit.hpp"

namespace dpcov {
namespace {

constexpr int64_t kDim = 3, kRows = 1000, kTrials = 4000;
constexpr double kRho = 0.5, kAlpha = 1e-6;

mechanisms::CoinpressRequest claim(double rho = kRho) {
  mechanisms::CoinpressRequest r;
  r.dim = kDim;
  r.n = kRows;
  r.rho = rho;
  r.k_bound = 4.0;
  r.steps = 3;
  return r;
}

mechanisms::CoinpressSteps planned(double rho = kRho) {
  return mechanisms::coinpress_steps(mechanisms::coinpress_plan(claim(rho)));
}

audit::TranscriptRelease run(const mechanisms::CoinpressSteps &steps) {
  return [steps](const Matrix &rows, random::Rng &rng) {
    std::vector<Matrix> transcript;
    mechanisms::coinpress_run(rows.view(), steps, rng, &transcript);
    return transcript;
  };
}

audit::CoinpressStepsAuditReport audit(const std::string &label,
                                       const mechanisms::CoinpressSteps &steps, uint64_t seed,
                                       int64_t trials = kTrials) {
  const audit::CoinpressStepsAuditReport v =
      audit::audit_coinpress_steps(claim(), run(steps), trials, kAlpha, seed);
  const char *verbose = std::getenv("DPCOV_STAT_VERBOSE");
  if (verbose != nullptr && std::string(verbose) == "1")
    for (const audit::TranscriptDirection *d : {&v.forward, &v.backward})
      std::cerr << "  coinpress t = 3, " << label << ": KS " << d->ks << " (threshold "
                << d->ks_threshold << "), rho lower bound " << d->rho_lower << " (claim " << kRho
                << "), delta(eps) lower " << d->delta.lower << " (estimate " << d->delta.estimate
                << ", claim 1e-6), min shift / sensitivity " << d->min_shift_ratio << "\n";
  return v;
}

// The public release is the plan's steps: the same draws give the same estimate, and the
// transcript's last step, projected and mapped back, is that estimate.
TEST(CoinpressStepsAudit, TheReleaseRunsThePlansSteps) {
  const auto [x, x_prime] = audit::coinpress_steps_audit_pair(claim());
  random::Rng a = random::Rng::from_seed(5), b = random::Rng::from_seed(5);
  const mechanisms::CoinpressRelease release = mechanisms::coinpress_release(x.view(), claim(), a);
  std::vector<Matrix> transcript;
  const Matrix estimate = mechanisms::coinpress_run(x.view(), planned(), b, &transcript);
  for (int64_t j = 0; j < kDim; ++j)
    for (int64_t i = 0; i < kDim; ++i) EXPECT_EQ(release.covariance(i, j), estimate(i, j));
  EXPECT_EQ(transcript.size(), 3u);
}

// The far row is clipped at every step and its images stay near the axes: each step's means move
// by the sensitivity sqrt(2) gamma^2 / n to within 3% (measured: 1.8% in the worst of 8000 draws).
TEST(CoinpressStepsAudit, TheCorrectReleaseIsNotFlaggedAndThePairIsTight) {
  const audit::CoinpressStepsAuditReport v = audit("as shipped", planned(), 11);
  EXPECT_FALSE(v.violation());
  for (const audit::TranscriptDirection *d : {&v.forward, &v.backward}) {
    EXPECT_GT(d->min_shift_ratio, 0.97);
    EXPECT_LE(d->min_shift_ratio, 1.0 + 1e-12);
    // The lower bound on the spent rho sits near the claim.
    EXPECT_GT(d->rho_lower, 0.8 * kRho);
  }
  // The library's own release, as audit_coinpress_steps runs it.
  EXPECT_FALSE(audit::audit_coinpress_steps(claim(), 500, kAlpha, 3).violation());
}

TEST(CoinpressStepsAudit, StepTwoAtHalfItsSigmaIsFlagged) {
  mechanisms::CoinpressSteps steps = planned();
  steps.sigma[1] /= 2.0;
  const audit::CoinpressStepsAuditReport v = audit("step 2 at sigma / 2", steps, 13);
  EXPECT_TRUE(v.forward.pair_flag && v.forward.conformance_flag);
  EXPECT_TRUE(v.backward.pair_flag && v.backward.conformance_flag);
}

TEST(CoinpressStepsAudit, StepThreeAtHalfItsSigmaIsFlagged) {
  mechanisms::CoinpressSteps steps = planned();
  steps.sigma[2] /= 2.0;
  const audit::CoinpressStepsAuditReport v = audit("step 3 at sigma / 2", steps, 17, 1000);
  EXPECT_TRUE(v.forward.pair_flag && v.forward.conformance_flag);
  EXPECT_TRUE(v.backward.pair_flag && v.backward.conformance_flag);
}

TEST(CoinpressStepsAudit, StepTwoClippedWiderIsFlagged) {
  mechanisms::CoinpressSteps steps = planned();
  steps.clip_radius[1] *= 2.0;
  const audit::CoinpressStepsAuditReport v = audit("step 2 clipped at 2 gamma", steps, 19);
  EXPECT_TRUE(v.forward.conformance_flag && v.backward.conformance_flag);
}

TEST(CoinpressStepsAudit, FourRhoIsFlagged) {
  const audit::CoinpressStepsAuditReport v = audit("4 rho", planned(4.0 * kRho), 23, 1000);
  EXPECT_TRUE(v.forward.pair_flag && v.forward.conformance_flag);
  EXPECT_TRUE(v.backward.pair_flag && v.backward.conformance_flag);
}

}  // namespace
}  // namespace dpcov
