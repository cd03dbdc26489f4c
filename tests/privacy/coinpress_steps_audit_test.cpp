// The exact per-step audit of CoinPress covariance (core/audit/coinpress_steps_audit.hpp, which
// states the transcript, its loss, the pair and the statistics; proofs/coinpress.md, "Audits").
// Default suite: the claim d = 3, n = 1000, K = 4, rho = 0.5, t = 3 with the shipped split
// 1/8, 1/8, 3/4. Error rate: alpha = 1e-6 per audit, split evenly (Bonferroni) over 2 directions
// x 3 statistics, so a release that matches its claim is flagged with probability <= 1e-6; fixed
// seeds. Known-broken variants, each with the claimed plan otherwise, must be flagged: step 2
// with half its sigma (rho spent on the pair 1.375 rho), step 3 with half its sigma (3.25 rho),
// step 2 clipped at 2 gamma with the sigma planned for gamma (every row of the pair is far out, so
// step 2's diagonal moves by 3 gamma^2 (counts) / n, about 250 sigma_2), and every step at 4 rho
// (1000 draws per direction, step 3 2000, the others 4000). The two-sample delta statistic flags
// all but step 2 at half its sigma (its delta(0) is 0.401 against the claim's 0.383: about 10^5
// draws; proofs/coinpress.md, "Audits"); the claim's-loss delta statistic flags none. The public
// audit's claim and pairs (audit_rows_exact_steps_pairs, behind dpcov_audit_rows_exact at t >= 2:
// n = 2000 from rho, the far-row pair and two rotations, 500 draws per direction and pair) pass
// the shipped release and flag step 2 at half its sigma. Suite 'long'
// (DPCOV_STAT_SCALE = 10): the same with 10 times the draws, and two more settings: the issue's d =
// 10, n = 3000, K = 10 sqrt(10), t = 3, and t = 5 (split 1/16 x 4, 3/4) with step 4 at half its
// sigma (1.1875 rho). DPCOV_STAT_VERBOSE=1 prints the statistics.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "core/audit/coinpress_steps_audit.hpp"
#include "core/audit/rows_exact_audit.hpp"
#include "core/error.hpp"
#include "core/mechanisms/statistic.hpp"
#include "dpcov.h"

namespace dpcov {
namespace {

constexpr int64_t kTrials = 4000;
constexpr double kRho = 0.5, kAlpha = 1e-6;

struct Setting {
  int64_t dim, n;
  double k_bound;
  int64_t steps;
};
constexpr Setting kShipped{3, 1000, 4.0, 3};

int64_t scale() {
  const char *s = std::getenv("DPCOV_STAT_SCALE");
  return s == nullptr ? 1 : std::max<int64_t>(1, std::atoll(s));
}

mechanisms::CoinpressRequest claim(const Setting &s = kShipped, double rho = kRho) {
  mechanisms::CoinpressRequest r;
  r.dim = s.dim;
  r.n = s.n;
  r.rho = rho;
  r.k_bound = s.k_bound;
  r.steps = s.steps;
  return r;
}

mechanisms::CoinpressSteps planned(const Setting &s = kShipped, double rho = kRho) {
  return mechanisms::coinpress_steps(mechanisms::coinpress_plan(claim(s, rho)));
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
                                       int64_t trials = kTrials, const Setting &s = kShipped) {
  const audit::CoinpressStepsAuditReport v =
      audit::audit_coinpress_steps(claim(s), run(steps), trials * scale(), kAlpha, seed);
  const char *verbose = std::getenv("DPCOV_STAT_VERBOSE");
  if (verbose != nullptr && std::string(verbose) == "1")
    for (const audit::TranscriptDirection *d : {&v.forward, &v.backward})
      std::cerr << "  coinpress d = " << s.dim << ", n = " << s.n << ", t = " << s.steps << ", "
                << label << ", " << trials * scale() << " draws: KS " << d->ks << " (threshold "
                << d->ks_threshold << "), rho lower bound " << d->rho_lower << " (claim " << kRho
                << "), delta(eps) lower " << d->delta.lower << " (estimate " << d->delta.estimate
                << ", claim 1e-6), two-sample delta(" << d->two_sample.epsilon << ") lower "
                << d->two_sample.lower << " (estimate " << d->two_sample.estimate << ", claim "
                << d->two_sample.claim << "), min shift / sensitivity " << d->min_shift_ratio
                << "\n";
  return v;
}

void expect_not_flagged_and_tight(const audit::CoinpressStepsAuditReport &v) {
  EXPECT_FALSE(v.violation());
  for (const audit::TranscriptDirection *d : {&v.forward, &v.backward}) {
    EXPECT_GT(d->min_shift_ratio, 0.99);
    EXPECT_LE(d->min_shift_ratio, 1.0 + 1e-12);
    // The lower bound on the spent rho sits near the claim.
    EXPECT_GT(d->rho_lower, 0.8 * kRho);
  }
}

void expect_flagged_by_both(const audit::CoinpressStepsAuditReport &v) {
  EXPECT_TRUE(v.forward.pair_flag && v.forward.conformance_flag);
  EXPECT_TRUE(v.backward.pair_flag && v.backward.conformance_flag);
}

// The public release is the plan's steps: the same draws give the same estimate, and the run
// hands back one noisy moment per step.
TEST(CoinpressStepsAudit, TheReleaseRunsThePlansSteps) {
  const auto [x, x_prime] = audit::coinpress_steps_audit_pair(claim());
  random::Rng a = random::Rng::from_seed(5), b = random::Rng::from_seed(5);
  const mechanisms::CoinpressRelease release = mechanisms::coinpress_release(x.view(), claim(), a);
  std::vector<Matrix> transcript;
  const Matrix estimate = mechanisms::coinpress_run(x.view(), planned(), b, &transcript);
  for (int64_t j = 0; j < kShipped.dim; ++j)
    for (int64_t i = 0; i < kShipped.dim; ++i) EXPECT_EQ(release.covariance(i, j), estimate(i, j));
  EXPECT_EQ(transcript.size(), 3u);
}

TEST(CoinpressStepsAudit, BadArgumentsAreRefused) {
  const auto status = [](auto f) -> int {
    try {
      f();
    } catch (const Error &e) {
      return static_cast<dpcov_status>(e.status());
    }
    return DPCOV_OK;
  };
  EXPECT_EQ(status([] { audit::audit_coinpress_steps(claim(), 1, kAlpha, 1); }),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status([] { audit::audit_coinpress_steps(claim(), 10, 1.0, 1); }),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status([] {
              audit::audit_coinpress_steps(claim({1, 1000, 4.0, 3}), 10, kAlpha, 1);
            }),
            DPCOV_E_INVALID_ARGUMENT);
  // A transcript with a step missing.
  mechanisms::CoinpressSteps two = planned();
  two.sigma.pop_back();
  two.clip_radius.pop_back();
  EXPECT_EQ(status([&] { audit::audit_coinpress_steps(claim(), run(two), 10, kAlpha, 1); }),
            DPCOV_E_DIMENSION);
}

// Every row is clipped at every step and the images of the axes stay near the axes: each step's
// means move by the sensitivity sqrt(2) gamma^2 / n to within 1% (measured: 0.12% in the worst of
// 8000 draws).
TEST(CoinpressStepsAudit, TheCorrectReleaseIsNotFlaggedAndThePairIsTight) {
  expect_not_flagged_and_tight(audit("as shipped", planned(), 11));
  // The library's own release, as audit_coinpress_steps runs it.
  EXPECT_FALSE(audit::audit_coinpress_steps(claim(), 500, kAlpha, 3).violation());
}

TEST(CoinpressStepsAudit, StepTwoAtHalfItsSigmaIsFlagged) {
  mechanisms::CoinpressSteps steps = planned();
  steps.sigma[1] /= 2.0;
  expect_flagged_by_both(audit("step 2 at sigma / 2", steps, 13));
}

TEST(CoinpressStepsAudit, StepThreeAtHalfItsSigmaIsFlagged) {
  mechanisms::CoinpressSteps steps = planned();
  steps.sigma[2] /= 2.0;
  const audit::CoinpressStepsAuditReport v = audit("step 3 at sigma / 2", steps, 17, 2000);
  expect_flagged_by_both(v);
  EXPECT_TRUE(v.forward.two_sample_flag && v.backward.two_sample_flag);
}

TEST(CoinpressStepsAudit, StepTwoClippedWiderIsFlagged) {
  mechanisms::CoinpressSteps steps = planned();
  steps.clip_radius[1] *= 2.0;
  const audit::CoinpressStepsAuditReport v = audit("step 2 clipped at 2 gamma", steps, 19);
  EXPECT_TRUE(v.forward.conformance_flag && v.backward.conformance_flag);
  // The Gaussian-pair rho bound trusts the claimed shift; the two-sample delta sees the real one.
  EXPECT_TRUE(v.forward.two_sample_flag && v.backward.two_sample_flag);
}

TEST(CoinpressStepsAudit, FourRhoIsFlagged) {
  const audit::CoinpressStepsAuditReport v = audit("4 rho", planned(kShipped, 4.0 * kRho), 23, 1000);
  expect_flagged_by_both(v);
  EXPECT_TRUE(v.forward.two_sample_flag && v.backward.two_sample_flag);
}

// Retry until success: a release that redraws until a check on the private data passes (here:
// no noisy variance of step 1 below the data's, a plausible guard against underestimates, passed
// with probability 1/8 at d = 3) returns noise conditioned on the data. Every step's noise is
// fresh and at its planned sigma, so only the law of the accepted draws is wrong: the conformance
// test sees step 1's diagonal residuals all positive (KS 0.086 / 0.080 against 0.021 at 1000
// draws). Their spread in the pair's direction is smaller (the difference of two half-normals:
// variance 1 - 2 / pi of the claim's, so step 1 spends 2.75 times its share, 1.22 rho in all),
// which the rho bound needs more draws to see (0.496 / 0.482 at 1000).
TEST(CoinpressStepsAudit, ARetryUntilADataCheckPassesIsFlagged) {
  const mechanisms::CoinpressSteps steps = planned();
  const audit::TranscriptRelease retry = [steps](const Matrix &rows, random::Rng &rng) {
    const Matrix first = mechanisms::coinpress_step_moment(
        rows.view(), mechanisms::scaled_identity(kShipped.dim, 1.0 / std::sqrt(steps.k_bound)),
        steps.clip_radius[0]);
    for (;;) {
      std::vector<Matrix> transcript;
      mechanisms::coinpress_run(rows.view(), steps, rng, &transcript);
      bool passed = true;
      for (int64_t j = 0; j < kShipped.dim; ++j) passed = passed && transcript[0](j, j) >= first(j, j);
      if (passed) return transcript;
    }
  };
  const audit::CoinpressStepsAuditReport v =
      audit::audit_coinpress_steps(claim(), retry, 500 * scale(), kAlpha, 53);
  const char *verbose = std::getenv("DPCOV_STAT_VERBOSE");
  if (verbose != nullptr && std::string(verbose) == "1")
    for (const audit::TranscriptDirection *d : {&v.forward, &v.backward})
      std::cerr << "  coinpress retry until step 1's variances pass: KS " << d->ks
                << " (threshold " << d->ks_threshold << "), rho lower bound " << d->rho_lower
                << ", two-sample delta(" << d->two_sample.epsilon << ") lower "
                << d->two_sample.lower << " (claim " << d->two_sample.claim << ")\n";
  EXPECT_TRUE(v.forward.conformance_flag && v.backward.conformance_flag);
}

// What dpcov_audit_rows_exact(_pairs) and `dpcov audit -m coinpress --steps 3` run
// (audit_rows_exact_steps_pairs): the claim d = 3, K = 4, t = 3 at rho = 0.5 with n from rho
// (2000), the far-row pair and two rotations of it, alpha = 1e-6 over the three pairs (1e-6 / 18
// per test), 500 draws per direction and pair: the shipped release passes and its axis pair is
// tight; step 2 at half its sigma is flagged by the conformance test (its rho, 1.375 rho, needs
// more draws for the rho bound to pass the claim: measured 0.45 and 0.49 here, above the shipped
// release's 0.36 and 0.35).
TEST(CoinpressStepsAudit, ThePublicAuditsPairsFlagStepTwoAtHalfItsSigma) {
  audit::RowsExactRequest request;
  request.mechanism = audit::RowsMechanism::Coinpress;
  request.steps = 3;
  request.rho = kRho;
  const mechanisms::CoinpressRequest claimed = audit::rows_exact_coinpress_request(request);
  EXPECT_EQ(claimed.n, 2000);
  mechanisms::CoinpressSteps steps =
      mechanisms::coinpress_steps(mechanisms::coinpress_plan(claimed));
  const int64_t trials = 500 * scale();
  const auto print = [](const std::string &label, const audit::RowsExactStepsPairs &p) {
    const char *verbose = std::getenv("DPCOV_STAT_VERBOSE");
    if (verbose != nullptr && std::string(verbose) == "1")
      for (const audit::TranscriptDirection *d : {&p.worst.forward, &p.worst.backward})
        std::cerr << "  coinpress public audit, " << label << ", worst pair " << p.worst_pair
                  << ": KS " << d->ks << " (threshold " << d->ks_threshold << "), rho lower bound "
                  << d->rho_lower << " (claim " << kRho << "), two-sample delta("
                  << d->two_sample.epsilon << ") lower " << d->two_sample.lower << " (claim "
                  << d->two_sample.claim << "), min shift / sensitivity " << d->min_shift_ratio
                  << "\n";
  };
  const audit::RowsExactStepsPairs shipped =
      audit::audit_rows_exact_steps_pairs(request, run(steps), 3, trials, kAlpha, 43);
  print("as shipped", shipped);
  EXPECT_FALSE(shipped.worst.violation());
  EXPECT_EQ(shipped.samples, 3 * 2 * trials);
  const audit::RowsExactStepsPairs axis =
      audit::audit_rows_exact_steps_pairs(request, run(steps), 1, trials, kAlpha, 43);
  for (const audit::TranscriptDirection *d : {&axis.worst.forward, &axis.worst.backward})
    EXPECT_GT(d->min_shift_ratio, 0.99);
  steps.sigma[1] /= 2.0;
  const audit::RowsExactStepsPairs half =
      audit::audit_rows_exact_steps_pairs(request, run(steps), 3, trials, kAlpha, 47);
  print("step 2 at sigma / 2", half);
  EXPECT_TRUE(half.worst.forward.conformance_flag && half.worst.backward.conformance_flag);
}

// The issue's setting (Sigma = I there; here the audit's pair).
TEST(CoinpressStepsAudit, LongTheIssuesSetting) {
  if (scale() == 1) GTEST_SKIP() << "suite 'long' only (DPCOV_STAT_SCALE)";
  const Setting s{10, 3000, 10.0 * std::sqrt(10.0), 3};
  expect_not_flagged_and_tight(audit("as shipped", planned(s), 29, 1000, s));
  mechanisms::CoinpressSteps half = planned(s);
  half.sigma[1] /= 2.0;
  expect_flagged_by_both(audit("step 2 at sigma / 2", half, 31, 1000, s));
}

TEST(CoinpressStepsAudit, LongFiveSteps) {
  if (scale() == 1) GTEST_SKIP() << "suite 'long' only (DPCOV_STAT_SCALE)";
  const Setting s{3, 1000, 4.0, 5};
  expect_not_flagged_and_tight(audit("as shipped", planned(s), 37, kTrials, s));
  mechanisms::CoinpressSteps half = planned(s);
  half.sigma[3] /= 2.0;
  expect_flagged_by_both(audit("step 4 at sigma / 2", half, 41, kTrials, s));
}

}  // namespace
}  // namespace dpcov
