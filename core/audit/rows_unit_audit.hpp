// The unit-level audits of the zCDP row mechanisms (proofs/unit_group_privacy.md, "Row
// mechanisms"): Dong-Liang-Yi (Gauss, Separate, Adaptive, AdaptivePaper), CoinPress and CoinPress
// mean take privacy units under replace-one by keeping exactly k rows per unit (n = k U public)
// and releasing at rho / k^2 (dpcov_unit_row_rho). Each audit here releases as that path does:
// the library's release of the k U rows at rows_unit_release_rho(), on a pair whose first unit has
// its k rows all replaced, against the unit-level claim rho and its (epsilon, delta):
// - by the exact density where the row-level audit has one: dly_gauss, dly_separate's eigenvalue
//   step and coinpress at any t (rows_exact_audit.hpp with RowsExactRequest::max_rows_per_unit =
//   k), coinpress_mean (audit_coinpress_mean_units);
// - black-box otherwise: dly_adaptive, dly_adaptive_paper (audit_rows_units_black_box).
// With `rows_only` the planted broken variant: the same units released at rho itself (rows
// bounded, units not), whose pair spends k^2 rho, which the audit should flag.
// Every unit of a pair holds exactly k rows, so the unit path's choice of kept rows keeps them all
// and pads none: the release sees the rows as given.
#pragma once

#include <cstdint>

#include "../mechanisms/coinpress_mean.hpp"
#include "black_box.hpp"
#include "coinpress_mean_audit.hpp"
#include "rows_black_box.hpp"

namespace dpcov::audit {

// The rho the unit path releases k-row units at: privacy::group_privacy_row_rho of the
// replace-one steps of a unit (privacy::unit_group_steps: k), as dpcov_unit_row_rho computes it;
// `rows_only`: rho itself. Throws Status::InvalidArgument for k outside [1, kMaxRowsPerUnit] and
// for rho as group_privacy_row_rho does.
double rows_unit_release_rho(int64_t max_rows_per_unit, double rho, bool rows_only);

// rows_audit_pair() with its first k rows (one unit) at s e_1 in D and s e_2 in D' (the
// row-level pair moves row 0 so): the Gram matrices differ by k s^2 (e_1 e_1^T - e_2 e_2^T), the
// most k replaced rows of norm <= s change them. Throws Status::InvalidArgument unless k divides
// n (units of exactly k rows).
RowsPair rows_unit_audit_pair(const RowsAuditRequest &request, int64_t max_rows_per_unit,
                              uint64_t seed);

// The claim dpcov_audit_rows_units() audits black-box: d = 3, r = 1, max(5, ceil(20 / k)) units
// of k rows (about the row-level audit's 20 rows, and at least 5 units). Throws
// Status::InvalidArgument for k outside [1, kMaxRowsPerUnit].
RowsAuditRequest rows_units_black_box_claim(RowsMechanism mechanism, int64_t max_rows_per_unit,
                                            double rho, double delta);

// The CoinPress mean claim dpcov_audit_rows_units() audits: d = 3, 20 units of k rows, the prior
// ||mean|| <= 5 and Cov <= I, t steps. Throws as above.
mechanisms::CoinpressMeanRequest coinpress_mean_units_claim(int64_t max_rows_per_unit,
                                                            int64_t steps, double rho,
                                                            double delta);

// The black-box audit of `claim` (its rho the unit-level claim, n = k U rows) on
// rows_unit_audit_pair(claim, k, settings.seed), released at rows_unit_release_rho().
BlackBoxReport audit_rows_units_black_box(const RowsAuditRequest &claim,
                                          int64_t max_rows_per_unit, bool rows_only,
                                          const BlackBoxSettings &settings);

// The exact audit of CoinPress mean for units: `claim` holds the unit-level rho and n = k U; the
// library's release at rows_unit_release_rho() on coinpress_mean_audit_pair(k changed rows),
// against the claimed rho. Throws as audit_coinpress_mean() and rows_unit_release_rho(), and
// Status::InvalidArgument unless k divides n.
CoinpressMeanAuditReport audit_coinpress_mean_units(const mechanisms::CoinpressMeanRequest &claim,
                                                    int64_t max_rows_per_unit, bool rows_only,
                                                    int64_t trials, double alpha, uint64_t seed);

}  // namespace dpcov::audit
