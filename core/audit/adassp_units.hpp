// AdaSSP's exact-density audit (core/mechanisms/adassp.hpp), at row level and at the level of
// privacy units (proofs/adassp_units.md). The release (lambda_min(X'X) + noise, X'X + E, X'y +
// noise, and y'y + noise when released) is Gaussian around the statistics, so on a pair (D, D')
// the privacy loss L(o) = ln p_D(o) - ln p_D'(o) of each draw is exact: the generic exact audit
// (loss_audit.hpp) runs on it, with the draws' probability integral transforms as its conformance
// test. The unit pair differs by one unit of k rows, and the planted broken variant (rows bounded,
// units not: the row-level calibration on k-row units) is what the audit should flag. What
// dpcov_audit_units() runs for `adassp`.
#pragma once

#include <cstdint>
#include <vector>

#include "../matrix.hpp"
#include "../mechanisms/adassp.hpp"
#include "../privacy/neighbour.hpp"
#include "loss_audit.hpp"

namespace dpcov::audit {

// The statistics AdaSSP reads from rows (x, y) as one (p + 1) x (p + 1) matrix, the Gram matrix
// of the rows [x, y]: X'X in the leading p x p block, X'y in column p (and row p), y'y in the
// corner. A PairStatistics of AdaSSP holds two of these (its n fields are not read).
Matrix adassp_statistics(const Matrix &xtx, const std::vector<double> &xty, double yty);

// The Mahalanobis length m of the change of the released statistics between the pair under
// `plan`'s noise: the release whitened by its noise moves by m, so the pair's exact delta at eps
// is Phi(m/2 - eps/m) - e^eps Phi(-m/2 - eps/m) (Balle-Wang 2018, Thm 8).
double adassp_pair_distance(const PairStatistics &pair, const mechanisms::AdasspReceipt &plan);

// The exact audit of AdaSSP on `pair`: draws made with `sampling`'s noise (the implementation),
// the density and the claim (epsilon, delta) of `claimed`. Besides loss_audit.hpp's tests (alpha
// split as it states), the conformance values are each release's noise standardised by the
// claimed scales through Phi (Uniform(0, 1) exactly when the sampler draws the claimed law), and
// one deterministic check: the claimed release's exact delta on the pair (at
// adassp_pair_distance()) above the claimed delta is kGaussianProfileExceeded, reported in both
// directions as pair_distance = m and gaussian_delta_lower. Throws Status::TooLarge when
// trials x (p + 1)^3 is above kMaxAdasspAuditWork, what the audit throws otherwise.
AuditReport audit_adassp_pair(const mechanisms::AdasspReceipt &claimed,
                              const mechanisms::AdasspReceipt &sampling,
                              const PairStatistics &pair, const Settings &settings);

// The largest trials x (p + 1)^3 an AdaSSP audit draws (each draw an eigen-decomposition of
// p x p): 2^40, minutes; and the largest p, whose matrices it holds.
inline constexpr double kMaxAdasspAuditWork = 0x1p40;
inline constexpr int64_t kMaxAdasspAuditDim = 1024;

// A unit-level claim: p regressors, units of at most k rows, every row ||x|| <= bound and
// |y| <= bound, the unit-level (epsilon, delta) under `neighbour` between units.
struct AdasspUnitClaim {
  int64_t dim = 3;
  int64_t max_rows_per_unit = 1;
  double bound = 1.0;
  double epsilon = 1.0;
  double delta = 1e-6;
  privacy::Neighbour neighbour = privacy::Neighbour::ReplaceOne;
  bool label_square = false;  // the release of four statistics (y'y too) instead of three
};

// The unit pair (B = claim.bound for x and y): axis 0 holds 10 rows (B e_1, B) and every other
// axis 10 + k rows (B e_j, B); D adds the unit, k rows (B e_1, B); D' adds nothing (add/remove)
// or k rows (B e_2, -B) (replace). lambda_min, X'X, X'y and y'y each move by k times their row
// sensitivity (the whole unit budget under add/remove). Throws Status::Dimension for p outside
// [2, kMaxAdasspAuditDim], Status::InvalidArgument for k outside [1, 2^20].
PairStatistics adassp_unit_pair(const AdasspUnitClaim &claim);

// The plan the unit audit draws at: the unit calibration (AdasspOptions::max_rows_per_unit = k),
// or with `broken` the row-level one (max_rows_per_unit = 0) on the same k-row units. Throws what
// plan_adassp throws.
mechanisms::AdasspReceipt adassp_unit_plan(const AdasspUnitClaim &claim, bool broken);

// audit_adassp_pair() on adassp_unit_pair() at adassp_unit_plan(claim, broken), against the
// unit-level claim.
AuditReport audit_adassp_units(const AdasspUnitClaim &claim, bool broken,
                               const Settings &settings);

// What dpcov_audit_units() runs: audit_adassp_units() of both releases AdaSSP makes at unit level
// (three statistics, and four with y'y; claim.label_square is ignored), each at settings.alpha / 2
// from its own seed. The report: the findings of both, samples of both, and the statistics of the
// flagged one (else of the one with the larger lower bound on delta).
AuditReport audit_adassp_unit_releases(const AdasspUnitClaim &claim, bool broken,
                                       const Settings &settings);

}  // namespace dpcov::audit
