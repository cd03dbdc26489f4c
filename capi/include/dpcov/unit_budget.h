/**
 * @file dpcov/unit_budget.h
 * @brief The row-level budget of a release of privacy units by group privacy: what a mechanism
 *        whose proof holds for one row is run at so that it holds for one unit of at most k rows.
 *
 * A unit of at most k kept rows is a chain of row neighbours: k rows added or removed (a unit
 * added or removed, the mechanism private under add/remove), 2 k (a unit's rows all replaced, the
 * mechanism private under add/remove: its a <= k rows removed, then b <= k added) or k rows
 * replaced (a unit's rows all replaced, the mechanism private under replace-one with n public:
 * every unit then holds exactly k rows, those of a unit with fewer padded with zero rows). Group
 * privacy over m such steps (proofs/unit_group_privacy.md) gives the row-level budget: pure
 * epsilon / m; (epsilon, delta) as (epsilon / m, delta / sum_{i<m} e^{i epsilon / m})
 * (Dwork-Roth 2014, Thm 2.2, with delta by induction); rho-zCDP as rho / m^2 (Bun-Steinke 2016,
 * Prop. 27). Every value is rounded to the safe side. No data is read: the budget depends on the
 * public k and relations only.
 *
 * Thread-safety: reentrant.
 *
 * @proof proofs/unit_group_privacy.md
 */
#ifndef DPCOV_UNIT_BUDGET_H
#define DPCOV_UNIT_BUDGET_H

#include <stdint.h>

#include "dpcov/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The (epsilon, delta) a mechanism is run at on rows so that the release is (@p epsilon,
 * @p delta)-DP between datasets that differ in one unit of at most @p max_rows_per_unit rows:
 * m = k, 2 k or k steps as the file comment says, epsilon_r = epsilon / m rounded down and
 * delta_r = delta / S rounded down, S >= sum_{i<m} e^{i epsilon_r} rounded up. delta = 0 (pure
 * differential privacy) gives delta_r = 0. Reentrant.
 *
 * @param unit_neighbour     a ::dpcov_neighbour: how unit-level neighbours differ (one unit added
 *                           or removed, or one unit's rows all replaced).
 * @param row_neighbour      a ::dpcov_neighbour: the relation of the mechanism's own row-level
 *                           guarantee. ::DPCOV_NEIGHBOUR_REPLACE_ONE (n public) needs
 *                           @p unit_neighbour ::DPCOV_NEIGHBOUR_REPLACE_ONE and units padded to
 *                           exactly k rows.
 * @param max_rows_per_unit  k, in [1, 2^20].
 * @param epsilon            the unit-level epsilon, finite and > 0.
 * @param delta              the unit-level delta, in [0, 1).
 * @param[out] row_epsilon   epsilon_r; untouched on failure.
 * @param[out] row_delta     delta_r; untouched on failure.
 * @return ::DPCOV_OK; ::DPCOV_E_NULL_POINTER; ::DPCOV_E_INVALID_ARGUMENT (an enum, k, epsilon or
 *         delta out of range, or a row-level epsilon or delta that underflows to 0);
 *         ::DPCOV_E_NON_FINITE (epsilon or delta NaN or infinite); ::DPCOV_E_INCOMPATIBLE (a
 *         replace-one mechanism with units added or removed: n would change).
 */
DPCOV_API dpcov_status dpcov_unit_row_budget(int32_t unit_neighbour, int32_t row_neighbour,
                                             int64_t max_rows_per_unit, double epsilon,
                                             double delta, double *row_epsilon,
                                             double *row_delta);

/**
 * The rho a zCDP mechanism is run at on rows so that the release is @p rho -zCDP between
 * datasets that differ in one unit of at most @p max_rows_per_unit rows: rho / m^2 rounded down,
 * m the steps of dpcov_unit_row_budget() (Bun-Steinke 2016, Prop. 27: rho_r-zCDP is
 * m^2 rho_r-zCDP for datasets m neighbour steps apart). Reentrant.
 *
 * @param unit_neighbour     a ::dpcov_neighbour, as for dpcov_unit_row_budget().
 * @param row_neighbour      a ::dpcov_neighbour, as for dpcov_unit_row_budget().
 * @param max_rows_per_unit  k, in [1, 2^20].
 * @param rho                the unit-level rho, finite and > 0.
 * @param[out] row_rho       rho_r; untouched on failure.
 * @return ::DPCOV_OK; ::DPCOV_E_NULL_POINTER; ::DPCOV_E_INVALID_ARGUMENT (an enum, k or rho out
 *         of range, or a row-level rho that underflows to 0); ::DPCOV_E_NON_FINITE (rho NaN or
 *         infinite); ::DPCOV_E_INCOMPATIBLE (as for dpcov_unit_row_budget()).
 */
DPCOV_API dpcov_status dpcov_unit_row_rho(int32_t unit_neighbour, int32_t row_neighbour,
                                          int64_t max_rows_per_unit, double rho,
                                          double *row_rho);

#ifdef __cplusplus
}
#endif

#endif /* DPCOV_UNIT_BUDGET_H */
