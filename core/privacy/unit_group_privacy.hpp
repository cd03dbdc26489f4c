// Privacy units by group privacy (proofs/unit_group_privacy.md): a mechanism that is (eps_r,
// delta_r)-DP when one row is added or removed, whatever the other rows, is (m eps_r, delta_r
// sum_{i<m} e^{i eps_r})-DP between datasets m such steps apart (Dwork-Roth 2014 Thm 2.2, by
// induction on m). Two datasets that differ in one unit of at most k kept rows are k steps apart
// (the unit added or removed) or 2k (its rows all replaced: a <= k removed, b <= k added), so a
// release at the per-row budget below is (eps, delta)-DP at unit level. It covers mechanisms whose
// row-level proof holds for a row change of any rank-one kind but not for a unit's rank-k change
// (Wishart, Johnson-Lindenstrauss, eigenvector sampling).
#pragma once

#include <cstdint>

#include "neighbour.hpp"

namespace dpcov::privacy {

// Row-level add/remove steps between two datasets that differ in one unit of at most k rows:
// k (add/remove) or 2 k (replace). Throws Status::InvalidArgument for k outside [1,
// kMaxRowsPerUnit] (unit_bound.hpp).
int64_t unit_group_steps(Neighbour unit_relation, int64_t max_rows_per_unit);

// Row steps, each a neighbour under `row_relation` (the mechanism's own), between two datasets
// that differ in one unit of at most k rows. Row add/remove: as above. Row replace-one (n public):
// every unit holds exactly k rows (a unit with fewer is padded with zero rows, themselves bounded),
// so a unit's rows all replaced is k row replacements, and a unit added or removed changes n and
// is refused (Status::Incompatible). Throws as above for k.
int64_t unit_group_steps(Neighbour unit_relation, Neighbour row_relation,
                         int64_t max_rows_per_unit);

struct RowBudget {
  double epsilon = 0.0;
  double delta = 0.0;
};

// The per-row budget whose `steps`-fold group privacy is within (epsilon, delta):
// epsilon_r = epsilon / m rounded down, so m epsilon_r <= epsilon, and delta_r = delta / S rounded
// down, with S >= sum_{i<m} e^{i epsilon_r} = expm1(m epsilon_r) / expm1(epsilon_r) rounded up
// (or m e^{(m-1) epsilon_r} where that quotient underflows), so delta_r S <= delta. m = 1 returns
// (epsilon, delta) unchanged; delta = 0 (a pure claim) gives delta_r = 0. Throws
// Status::InvalidArgument (steps outside [1, 2 kMaxRowsPerUnit], epsilon not positive and finite,
// delta outside [0, 1), or a per-row epsilon or delta that underflows to 0).
RowBudget group_privacy_row_budget(int64_t steps, double epsilon, double delta);

// The per-row zCDP budget whose `steps`-fold group privacy is within rho: rho / m^2 rounded down,
// so m^2 rho_r <= rho exactly. Bun and Steinke 2016, Prop. 27 (Prop. 1.9 of the introduction):
// rho_r-zCDP between neighbours gives m^2 rho_r-zCDP between datasets m neighbour steps apart
// (their proof uses only the chain of neighbours, so it holds for add/remove chains as for
// replace-one ones). Throws Status::InvalidArgument (steps outside [1, 2 kMaxRowsPerUnit], rho
// not positive and finite, or a per-row rho that underflows to 0).
double group_privacy_row_rho(int64_t steps, double rho);

}  // namespace dpcov::privacy
