// The exact-density audit of one-step CoinPress covariance (core/mechanisms/coinpress.hpp,
// proofs/coinpress.md, "Audits") through the public entry coinpress_release with t = 1, with the
// library's exact-density audit (core/audit/rows_exact_audit.hpp, the function behind
// dpcov_audit_rows_exact; core/audit/gaussian_release_audit.hpp states the statistics).
//
// With t = 1 the release is A^{-1} proj_PSD(W^T W / n + E) A^{-T}, A = I / sqrt(K), W the rows
// A x clipped to gamma, E symmetric with iid N(0, sigma_1^2) upper-triangle entries. At K = 4,
// A^{-1} = 2 I, so the release is exactly 4 proj_PSD(W^T W / n + E); where every eigenvalue of
// W^T W / n is at least 40 sigma_1 above 0 the projection binds with negligible probability
// (P(||E||_F > 40 sigma_1) <= P(chi2(6) > 800) < 1e-150 at d = 3), and the audit checks that it
// never did. The release is then S + 4 E, S = X^T X / n of the rows clipped to sqrt(K) gamma = 2
// gamma: Gaussian upper-triangle entries of sigma 4 sigma_1 around S.
// With t >= 2 the release is A_{t-1}^{-1} Z_t A_{t-1}^{-T}, where A_{t-1} is a function of the
// unreleased Z_1..Z_{t-1}: its density is an integral over them, and the release alone stays
// black-box (rows_black_box_audit_test.cpp); the transcript it post-processes has an exact
// density per step, audited in coinpress_steps_audit_test.cpp (and by dpcov_audit_rows_exact).
//
// The pair (the library's, rows_exact_subject; n = 1000 at rho = 0.5): as in dly_exact_audit_test.cpp with the unit 2 gamma (so that A x has norm gamma): one
// row at 4 gamma e_1 in X and 4 gamma e_2 in X' (clipped to 2 gamma e_1, 2 gamma e_2), the other
// 999 rows 100 at 2 gamma e_1, 300 at 2 gamma e_2, 500 at 2 gamma e_3, 99 at 0: the change of
// S attains the sensitivity sqrt(2) (2 gamma)^2 / n over the upper triangle.
//
// Error rate: alpha = 1e-6 per audit; fixed seeds. Known-broken releases flagged: the release at
// 4 rho while claiming rho, and a wider clip with the noise of the claimed gamma (beta = 1e-8, so
// gamma' > 2 gamma, at rho (gamma' / gamma)^4: the same sigma_1, the changed row passes unclipped).
// The receipts carry nothing data-dependent.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/error.hpp"
#include "core/mechanisms/coinpress.hpp"
#include "core/privacy/coinpress.hpp"
#include "gaussian_release_audit.hpp"

namespace dpcov::audit::gaussian_release {
namespace {

constexpr int64_t kDim = 3, kRows = 1000, kTrials = 4000;
constexpr double kRho = 0.5, kBound = 4.0, kAlpha = 1e-6, kMargin = 40.0;

RowsExactRequest claim() {
  RowsExactRequest r;
  r.mechanism = RowsMechanism::Coinpress;
  r.rho = kRho;
  return r;
}

mechanisms::CoinpressRelease release(double rho, double beta, ConstMatrixView rows,
                                     random::Rng &rng) {
  mechanisms::CoinpressRequest r = rows_exact_coinpress_request(claim());
  r.rho = rho;
  r.beta = beta;
  return mechanisms::coinpress_release(rows, r, rng);
}

Verdict audit_at(double rho, double beta, uint64_t seed, const std::string &label) {
  return audit_printed(
      rows_exact_subject(claim()),
      [=](ConstMatrixView rows, random::Rng &rng) {
        return release(rho, beta, rows, rng).covariance;
      },
      kTrials, kAlpha, seed, label);
}

TEST(CoinpressExactAudit, ThePairIsTightAndTheProjectionFar) {
  const Subject s = rows_exact_subject(claim());
  const mechanisms::CoinpressRequest r = rows_exact_coinpress_request(claim());
  EXPECT_EQ(r.n, kRows);
  EXPECT_EQ(r.dim, kDim);
  EXPECT_EQ(r.k_bound, kBound);
  EXPECT_EQ(r.steps, 1);
  EXPECT_EQ(s.unit, 2.0 * mechanisms::coinpress_plan(r).clip_radius);
  EXPECT_NEAR(s.shift().first, std::sqrt(2.0) * s.unit * s.unit / kRows, 1e-13);
  expect_tight_pair(s);
  EXPECT_GE(clamp_margin(s), kMargin);
}

TEST(CoinpressExactAudit, ReceiptsAreTheSameOnBothDatasets) {
  const Subject s = rows_exact_subject(claim());
  random::Rng rng = random::Rng::from_seed(3);
  const mechanisms::CoinpressReceipt first = release(kRho, 0.1, s.rows[0].view(), rng).receipt;
  for (int trial = 0; trial < 20; ++trial)
    EXPECT_EQ(release(kRho, 0.1, s.rows[trial % 2].view(), rng).receipt, first);
  EXPECT_EQ(kBound * first.step_sigma[0], s.sigma);
}

// The library's audit (dpcov_audit_rows_exact) of the library's release.
TEST(CoinpressExactAudit, TheCorrectReleaseIsNotFlagged) {
  const Verdict v = audit_rows_exact(claim(), kTrials, kAlpha, 31);
  print_verdict(v, rows_exact_subject(claim()), "coinpress t = 1");
  EXPECT_FALSE(v.flagged());
  EXPECT_GT(v.pair.rho_lower, 0.5 * v.claimed_rho);
}

TEST(CoinpressExactAudit, FourRhoIsFlagged) {
  const Verdict v = audit_at(4.0 * kRho, 0.1, 37, "coinpress t = 1 at 4 rho");
  EXPECT_TRUE(v.conformance_flag() && v.rho_flag());
  EXPECT_TRUE((v.report.findings & kGaussianProfileExceeded) != 0);
}

TEST(CoinpressExactAudit, AWiderClipIsFlagged) {
  const double gamma = privacy::coinpress_clip_radius(kDim, 0.1);
  const double wide = privacy::coinpress_clip_radius(kDim, 1e-8);
  ASSERT_GT(wide, 2.0 * gamma);
  const double rho = kRho * std::pow(wide / gamma, 4.0);
  // The same noise as the claim, to a few ulps.
  EXPECT_NEAR(privacy::coinpress_step_sigma(wide, kRows, rho),
              privacy::coinpress_step_sigma(gamma, kRows, kRho), 1e-14);
  const Verdict v = audit_at(rho, 1e-8, 41, "coinpress t = 1, clip at gamma(1e-8)");
  EXPECT_TRUE(v.conformance_flag() && v.rho_flag());
}

// Steps t >= 2 are audited on their transcript (audit_rows_exact_steps_pairs), not as one
// Gaussian release: the release's subject refuses them, saying where they are audited.
TEST(CoinpressExactAudit, TwoStepsAreAuditedOnTheirTranscript) {
  RowsExactRequest r = claim();
  r.steps = 2;
  EXPECT_TRUE(rows_exact_by_steps(r));
  try {
    rows_exact_subject(r);
    FAIL() << "t = 2 audited as one Gaussian release";
  } catch (const Error &e) {
    EXPECT_EQ(e.status(), dpcov::Status::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("audit_rows_exact_steps_pairs"), std::string::npos);
  }
}

}  // namespace
}  // namespace dpcov::audit::gaussian_release
