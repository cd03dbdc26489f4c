// Unit-level audits of the zCDP row mechanisms (core/audit/rows_unit_audit.hpp, what
// dpcov_audit_rows_units() and `dpcov audit -m dly_gauss --unit-rows K` run): units of exactly k
// rows, one unit's k rows all replaced (unit replace-one), released as the unit path releases
// them (the library's release of the k U rows at rho / k^2, dpcov_unit_row_rho), audited against
// the unit-level claim rho and its (epsilon, delta). Exact density for dly_gauss, dly_separate's
// eigenvalue step, coinpress (t = 1 and, per step, t = 3) and coinpress_mean; black-box for
// dly_adaptive and dly_adaptive_paper. The broken variant (the same units at rho itself: rows
// bounded, units not) spends k^2 rho on the pair and is flagged.
//
// Error rates: each audit's alpha is 1e-6 (a release that matches its claim is flagged with
// probability at most 1e-6 over its fixed-seed draws); 7 audits of correct releases, so at most
// 7e-6 for the file. The broken variants' findings are deterministic at the fixed seeds. In the
// long suite (DPCOV_STAT_SCALE=10, scripts/test-long) the draws grow tenfold and a grid of k in
// {2, 5, 10} adds 9 audits of correct releases (at most 1.6e-5 then).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/audit/rows_exact_audit.hpp"
#include "core/audit/rows_unit_audit.hpp"
#include "core/error.hpp"
#include "core/privacy/dong_liang_yi.hpp"

namespace dpcov::audit {
namespace {

constexpr int64_t kUnit = 3;
constexpr double kRho = 0.5, kDelta = 1e-6, kAlpha = 1e-6;

int64_t scale() {
  const char *s = std::getenv("DPCOV_STAT_SCALE");
  return s == nullptr ? 1 : std::max(1L, std::atol(s));
}

RowsExactRequest exact(RowsMechanism m, int64_t steps, int64_t k, bool rows_only) {
  RowsExactRequest r;
  r.mechanism = m;
  r.steps = steps;
  r.rho = kRho;
  r.delta = kDelta;
  r.max_rows_per_unit = k;
  r.rows_only = rows_only;
  return r;
}

// The flagged findings of an exact audit, for the messages.
std::string why(const RowsExactPairs &p) {
  return "findings " + std::to_string(p.worst.report.findings) + ", rho_lower " +
         std::to_string(p.worst.pair.rho_lower) + " (claim " +
         std::to_string(p.worst.claimed_rho) + ")";
}

TEST(RowsUnitsAudit, ThePairReplacesOneUnitOfKRowsAndTheReleaseRunsAtRhoOverKSquared) {
  for (const RowsMechanism m : {RowsMechanism::DlyGauss, RowsMechanism::DlySeparate}) {
    const RowsExactRequest r = exact(m, 1, kUnit, false);
    const gaussian_release::Subject s = rows_exact_subject(r);
    const int64_t n = s.rows[0].rows();
    EXPECT_EQ(n % kUnit, 0);
    int64_t differing = 0;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < 3; ++j)
        if (s.rows[0](i, j) != s.rows[1](i, j)) {
          ++differing;
          EXPECT_LT(i, kUnit) << "only the first unit's rows differ";
          break;
        }
    EXPECT_EQ(differing, kUnit);
    // The claim is the unit's; the noise the release's at rho / k^2, k times the row-level one.
    const double share = m == RowsMechanism::DlySeparate ? 0.5 : 1.0;
    EXPECT_EQ(s.rho, share * kRho);
    EXPECT_EQ(rows_exact_dly_request(r).rho, kRho / (kUnit * kUnit));
    EXPECT_NEAR(s.sigma, kUnit * privacy::dly_gauss_sigma(share * kRho, 1.0, n),
                1e-12 * s.sigma);
    // k aligned rows: k times the row-level sensitivity, so the pair spends exactly rho.
    EXPECT_NEAR(s.shift().first, kUnit * std::sqrt(2.0) / static_cast<double>(n), 1e-14);
    EXPECT_NEAR(s.shift().first * s.shift().first / (2.0 * s.sigma * s.sigma), s.rho,
                1e-9 * s.rho);
  }
}

// The release at rho / k^2 within the unit claim, and tight: the lower confidence bound on the rho
// it spends on the pair is above 0.2 of the claim (at alpha / 2 = 5e-7 it is expected near 0.3 of
// it with 400 draws; dly_separate's eigenvalue step, at rho / 2, needs 1000 draws for it; a pair
// that moved the release less would drive it to 0). The rows-only variant flagged.
void expect_unit_claim_kept(RowsMechanism m, int64_t trials, uint64_t seed) {
  SCOPED_TRACE(rows_mechanism_name(m));
  const RowsExactPairs ok =
      audit_rows_exact_pairs(exact(m, 1, kUnit, false), 1, trials * scale(), kAlpha, seed);
  EXPECT_FALSE(ok.worst.flagged()) << why(ok);
  EXPECT_GT(ok.worst.pair.rho_lower, 0.2 * ok.worst.claimed_rho) << why(ok);
  const RowsExactPairs broken =
      audit_rows_exact_pairs(exact(m, 1, kUnit, true), 1, trials * scale(), kAlpha, seed + 1);
  EXPECT_TRUE(broken.worst.flagged() && broken.worst.rho_flag()) << why(broken);
}

TEST(RowsUnitsAudit, DongLiangYiGaussKeepsTheUnitClaimAndRowsOnlyIsFlagged) {
  expect_unit_claim_kept(RowsMechanism::DlyGauss, 600, 31);
}

TEST(RowsUnitsAudit, DongLiangYiSeparateKeepsTheUnitClaimAndRowsOnlyIsFlagged) {
  expect_unit_claim_kept(RowsMechanism::DlySeparate, 1000, 37);
}

TEST(RowsUnitsAudit, CoinpressKeepsTheUnitClaimAndRowsOnlyIsFlagged) {
  expect_unit_claim_kept(RowsMechanism::Coinpress, 400, 41);
}

TEST(RowsUnitsAudit, CoinpressStepsKeepTheUnitClaimAndRowsOnlyIsFlagged) {
  const RowsExactStepsPairs ok = audit_rows_exact_steps_pairs(
      exact(RowsMechanism::Coinpress, 3, kUnit, false), 1, 300 * scale(), kAlpha, 47);
  EXPECT_FALSE(ok.worst.violation());
  EXPECT_EQ(ok.worst.claim.rho, kRho);
  const RowsExactStepsPairs broken = audit_rows_exact_steps_pairs(
      exact(RowsMechanism::Coinpress, 3, kUnit, true), 1, 300 * scale(), kAlpha, 53);
  EXPECT_TRUE(broken.worst.forward.pair_flag && broken.worst.backward.pair_flag);
}

mechanisms::CoinpressMeanRequest mean_claim(int64_t k) {
  return coinpress_mean_units_claim(k, 3, kRho, kDelta);
}

TEST(RowsUnitsAudit, CoinpressMeanKeepsTheUnitClaimAndRowsOnlyIsFlagged) {
  const CoinpressMeanAuditReport ok =
      audit_coinpress_mean_units(mean_claim(kUnit), kUnit, false, 2000 * scale(), kAlpha, 59);
  EXPECT_FALSE(ok.violation());
  EXPECT_EQ(ok.claim.rho, kRho);
  EXPECT_GT(ok.forward.rho_lower, 0.4 * kRho);
  const CoinpressMeanAuditReport broken =
      audit_coinpress_mean_units(mean_claim(kUnit), kUnit, true, 2000 * scale(), kAlpha, 61);
  EXPECT_TRUE(broken.forward.pair_flag && broken.backward.pair_flag);
}

// Black-box (no tractable density): the rows-only variant spends k^2 rho, 10^4 rho at k = 100,
// the miscalibration the row-level black-box audit flags (rows_black_box_audit_test.cpp).
TEST(RowsUnitsAudit, DongLiangYiAdaptiveKeepsTheUnitClaimAndRowsOnlyIsFlaggedBlackBox) {
  constexpr int64_t k = 100;
  for (const RowsMechanism m : {RowsMechanism::DlyAdaptive, RowsMechanism::DlyAdaptivePaper}) {
    SCOPED_TRACE(rows_mechanism_name(m));
    const RowsAuditRequest claim = rows_units_black_box_claim(m, k, 0.02, kDelta);
    EXPECT_EQ(claim.n, 5 * k);
    BlackBoxSettings s;
    s.statistic = Statistic::TopEigenvectorAlignment;
    s.trials = 600 * scale();
    s.pilot = 100;
    s.alpha = kAlpha;
    s.seed = 67;
    EXPECT_FALSE(audit_rows_units_black_box(claim, k, false, s).violation);
    EXPECT_TRUE(audit_rows_units_black_box(claim, k, true, s).violation);
  }
}

TEST(RowsUnitsAudit, LongGridKeepsEveryUnitClaimAndFlagsEveryRowsOnlyVariant) {
  if (scale() == 1) GTEST_SKIP() << "the long suite's grid (DPCOV_STAT_SCALE > 1)";
  for (const int64_t k : {2, 5, 10})
    for (const RowsMechanism m :
         {RowsMechanism::DlyGauss, RowsMechanism::DlySeparate, RowsMechanism::Coinpress}) {
      SCOPED_TRACE(testing::Message() << rows_mechanism_name(m) << " k " << k);
      const RowsExactPairs ok =
          audit_rows_exact_pairs(exact(m, 1, k, false), 3, 2000 * scale(), kAlpha, 71);
      EXPECT_FALSE(ok.worst.flagged()) << why(ok);
      const RowsExactPairs broken =
          audit_rows_exact_pairs(exact(m, 1, k, true), 3, 2000 * scale(), kAlpha, 73);
      EXPECT_TRUE(broken.worst.rho_flag()) << why(broken);
      // The table of the long run: each release's lower confidence bound on the rho it spends on
      // its worst pair, over the unit-level claim (the broken variant spends k^2 times it).
      std::printf("%s k %lld n %lld: correct rho_lower/claim %.3f; broken rho_lower/claim %.2f\n",
                  rows_mechanism_name(m), static_cast<long long>(k),
                  static_cast<long long>(ok.worst.rows),
                  ok.worst.pair.rho_lower / ok.worst.claimed_rho,
                  broken.worst.pair.rho_lower / broken.worst.claimed_rho);
    }
}

TEST(RowsUnitsAudit, RefusesUnitsThatDoNotDivideTheRowsAndKOutOfRange) {
  const RowsAuditRequest claim{RowsMechanism::DlyAdaptive, 3, 10, 0.02, kDelta, 1.0};
  EXPECT_THROW(rows_unit_audit_pair(claim, 3, 1), Error);
  EXPECT_THROW(rows_unit_release_rho(0, kRho, false), Error);
  EXPECT_THROW(audit_rows_exact_pairs(exact(RowsMechanism::DlyGauss, 1, 0, false), 1, 10,
                                      kAlpha, 1),
               Error);
  EXPECT_THROW(audit_coinpress_mean_units(mean_claim(3), 7, false, 10, kAlpha, 1), Error);
  EXPECT_EQ(rows_unit_release_rho(4, kRho, true), kRho);
  EXPECT_EQ(rows_unit_release_rho(4, kRho, false), kRho / 16);
}

}  // namespace
}  // namespace dpcov::audit
