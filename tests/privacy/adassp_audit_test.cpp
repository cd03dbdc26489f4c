// Exact-density audit of AdaSSP (core/audit/adassp_units.hpp, what dpcov_audit_units() runs for
// adassp): the release (lambda_min + noise, X'X + E, X'y + noise, and y'y + noise when intervals
// are asked for) has a Gaussian density, so on a neighbouring pair the privacy loss of each draw is
// exact. The audit draws with the mechanism's own sampler and evaluates the loss with its own
// density (delta(eps) by its empirical-Bernstein lower bound), tests the draws' standardised noise
// against Uniform(0, 1) through Phi (what ties the sampler to the density), and flags a pair
// whose exact delta under the claimed noise, Phi(m/2 - eps/m) - e^eps Phi(-m/2 - eps/m)
// (Balle-Wang 2018, Thm 8; m the Mahalanobis length of the pair's change), is above the claim.
// Error rate: each audit flags a release that matches its claim with probability <= alpha = 1e-6
// (fixed seeds); 25 audits in the default run must pass (<= 2.5e-5 for the file), 24 more in the
// long grid (<= 2.4e-5). Power: a sampler that draws the X'y or y'y noise at half its claimed scale
// (the mutation below) moves the conformance values' distribution by up to 0.16 on a third or an
// eleventh of the values, far above the DKW threshold at these draws. At unit level (the end of
// the file) the audit runs on a pair that differs by one unit of k rows, and the planted bug (the
// row-level calibration on k-row units) is flagged: its exact delta on the pair is far above the
// claim.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "core/audit/adassp_units.hpp"
#include "core/mechanisms/adassp.hpp"

namespace dpcov::audit {
namespace {

using mechanisms::AdasspOptions;
using mechanisms::AdasspReceipt;
using mechanisms::plan_adassp;
using privacy::Neighbour;

// Rows cycling through B e_1, ..., B e_p with labels alternating +-B_Y (B = B_Y = 1); `skip`
// drops row 0 and `replace` turns row 0 (B e_1, B_Y) into (B e_2, -B_Y).
Matrix statistics(int64_t p, int64_t n, bool skip, bool replace) {
  Matrix xtx(p, p);
  std::vector<double> xty(static_cast<size_t>(p), 0.0);
  double yty = 0.0;
  for (int64_t r = 0; r < n; ++r) {
    if (r == 0 && skip) continue;
    int64_t axis = r % p;
    double y = r % 2 == 0 ? 1.0 : -1.0;
    if (r == 0 && replace) {
      axis = 1;
      y = -1.0;
    }
    xtx(axis, axis) += 1.0;
    xty[static_cast<size_t>(axis)] += y;
    yty += y * y;
  }
  return adassp_statistics(xtx, xty, yty);
}

PairStatistics row_pair(int64_t p, int64_t n, Neighbour nb) {
  return {statistics(p, n, false, false),
          statistics(p, n, nb == Neighbour::AddRemove, nb == Neighbour::ReplaceOne), n,
          nb == Neighbour::AddRemove ? n - 1 : n};
}

Settings settings(uint64_t seed, int64_t trials = 4000) {
  Settings s;
  s.trials = trials;
  s.first_checkpoint = 250;
  s.alpha = 1e-6;
  s.seed = seed;
  return s;
}

TEST(AdasspAudit, NeighbouringPairsAreWithinTheClaim) {
  const int64_t p = 3, n = 30;
  for (const bool label_square : {false, true})
    for (const Neighbour nb : {Neighbour::ReplaceOne, Neighbour::AddRemove})
      for (double eps : {0.5, 1.0, 4.0}) {
        AdasspOptions options;
        options.neighbour = nb;
        options.release_label_square = label_square;
        const AdasspReceipt plan = plan_adassp(p, 1.0, 1.0, eps, 1e-6, options);
        const AuditReport r = audit_adassp_pair(plan, plan, row_pair(p, n, nb), settings(31));
        SCOPED_TRACE(testing::Message() << "y'y " << label_square << " eps " << eps
                                        << " neighbour " << int(nb) << " m "
                                        << r.forward.pair_distance);
        EXPECT_FALSE(r.violation()) << "findings " << r.findings;
        EXPECT_LE(r.forward.gaussian_delta_lower, 1e-6);
        if (nb == Neighbour::AddRemove) {
          // Removing (B e_1, B_Y) from a balanced design moves every statistic by its full
          // sensitivity: the pair uses the whole budget, so the exact delta is the claimed one.
          EXPECT_GT(r.forward.gaussian_delta_lower, 0.999e-6);
        }
      }
}

// Without the lambda_min step (proofs/adassp.md): X'X, X'y (and y'y) alone, at their larger
// shares of mu^2; under add/remove the pair again uses the whole budget. And the mutation above
// (X'y's noise at half its scale) on this release.
TEST(AdasspAudit, WithoutLambdaMinPairsAreWithinTheClaim) {
  const int64_t p = 3, n = 30;
  for (const bool label_square : {false, true})
    for (const Neighbour nb : {Neighbour::ReplaceOne, Neighbour::AddRemove}) {
      AdasspOptions options;
      options.neighbour = nb;
      options.release_label_square = label_square;
      options.release_lambda_min = false;
      const AdasspReceipt plan = plan_adassp(p, 1.0, 1.0, 1.0, 1e-6, options);
      const AuditReport r = audit_adassp_pair(plan, plan, row_pair(p, n, nb), settings(34));
      SCOPED_TRACE(testing::Message() << "y'y " << label_square << " neighbour " << int(nb)
                                      << " m " << r.forward.pair_distance);
      EXPECT_FALSE(r.violation()) << "findings " << r.findings;
      EXPECT_LE(r.forward.gaussian_delta_lower, 1e-6);
      if (nb == Neighbour::AddRemove) {
        EXPECT_GT(r.forward.gaussian_delta_lower, 0.999e-6);
      }
    }
  AdasspOptions options;
  options.neighbour = Neighbour::AddRemove;
  options.release_lambda_min = false;
  const AdasspReceipt plan = plan_adassp(p, 1.0, 1.0, 1.0, 1e-6, options);
  AdasspReceipt broken = plan;
  broken.sigma_cross = plan.sigma_cross / 2;
  const AuditReport r =
      audit_adassp_pair(plan, broken, row_pair(p, n, Neighbour::AddRemove), settings(35));
  EXPECT_TRUE(r.findings & kSamplerMismatch) << "findings " << r.findings;
}

TEST(AdasspAudit, UnderscaledSamplerIsFlagged) {
  const int64_t p = 3, n = 30;
  AdasspOptions options;
  options.neighbour = Neighbour::AddRemove;
  const AdasspReceipt plan = plan_adassp(p, 1.0, 1.0, 1.0, 1e-6, options);
  AdasspReceipt broken = plan;
  broken.sigma_cross = plan.sigma_cross / 2;
  const AuditReport r =
      audit_adassp_pair(plan, broken, row_pair(p, n, Neighbour::AddRemove), settings(32));
  EXPECT_TRUE(r.findings & kSamplerMismatch) << "findings " << r.findings;
  // The same for the y'y noise, one value in 11 per draw: more draws.
  options.release_label_square = true;
  const AdasspReceipt with_yty = plan_adassp(p, 1.0, 1.0, 1.0, 1e-6, options);
  broken = with_yty;
  broken.sigma_label_square = with_yty.sigma_label_square / 2;
  const AuditReport ry = audit_adassp_pair(with_yty, broken, row_pair(p, n, Neighbour::AddRemove),
                                           settings(33, 16000));
  EXPECT_TRUE(ry.findings & kSamplerMismatch) << "findings " << ry.findings;
}

// ---- At the level of privacy units (proofs/adassp_units.md): one unit of k rows.

// The unit release on its pair (audit_adassp_units(), adassp_unit_pair()) under both relations,
// and the planted bug: rows bounded, units not (k-row units released with the row-level
// calibration), on the same pair.
void audit_units(int64_t k, double eps, bool label_square, uint64_t seed, int64_t trials) {
  for (const Neighbour nb : {Neighbour::ReplaceOne, Neighbour::AddRemove}) {
    AdasspUnitClaim claim;
    claim.max_rows_per_unit = k;
    claim.epsilon = eps;
    claim.neighbour = nb;
    claim.label_square = label_square;
    const AuditReport r = audit_adassp_units(claim, false, settings(seed, trials));
    SCOPED_TRACE(testing::Message() << "k " << k << " eps " << eps << " y'y " << label_square
                                    << " neighbour " << int(nb) << " m "
                                    << r.forward.pair_distance);
    EXPECT_FALSE(r.violation()) << "findings " << r.findings;
    EXPECT_LE(r.forward.gaussian_delta_lower, 1e-6);
    if (nb == Neighbour::AddRemove) {
      EXPECT_GT(r.forward.gaussian_delta_lower, 0.999e-6);  // the pair uses the whole budget
    }
    if (k == 1) continue;
    const AuditReport broken = audit_adassp_units(claim, true, settings(seed + 1, trials));
    EXPECT_TRUE(broken.violation());
    EXPECT_GT(broken.forward.gaussian_delta_lower, 1e-6);
  }
}

// Default suite: k in {1, 5} at eps = 1, with and without y'y (8 audits of 4000 draws that must
// pass, 4 broken ones flagged).
TEST(AdasspUnitAudit, UnitPairsAreWithinTheClaimAndRowsOnlyBoundingIsFlagged) {
  for (const int64_t k : {1, 5})
    for (const bool label_square : {false, true}) audit_units(k, 1.0, label_square, 40 + k, 4000);
}

// The long suite's grid (DPCOV_ADASSP_UNITS_LONG=1, scripts/test-long): k in {2, 20, 100},
// eps in {0.5, 4}, 20000 draws per direction; skipped otherwise.
TEST(AdasspUnitAudit, GridOfKAndEpsilon) {
  const char *run = std::getenv("DPCOV_ADASSP_UNITS_LONG");
  if (run == nullptr || std::string(run) != "1") GTEST_SKIP() << "long suite only";
  for (const int64_t k : {2, 20, 100})
    for (const double eps : {0.5, 4.0})
      for (const bool label_square : {false, true})
        audit_units(k, eps, label_square, 50 + static_cast<uint64_t>(k), 20000);
}

}  // namespace
}  // namespace dpcov::audit
