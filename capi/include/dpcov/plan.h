/**
 * @file dpcov/plan.h
 * @brief A release planned once: an opaque plan made from public values, read for its receipt and
 *        grid, then released from an accumulator with its constants as they are.
 *
 * dpcov_mechanism_release_gram() plans its release itself. A caller that needs the plan before
 * the rows are read (to check a privacy ledger, print the constants or size an exact accumulator)
 * would otherwise plan twice or more, each run of the calibration (the analytic Gaussian sigma,
 * the exact numerics' grid search) computing again what the first computed. A ::dpcov_plan holds
 * the plan the library computed, and nothing a caller can edit: dpcov_plan_create() plans once
 * (dpcov_plan_create_at_bound() moves it to a bound chosen later), dpcov_plan_get_receipt() and dpcov_plan_get_exact_grid() read it,
 * dpcov_gram_create_planned() makes the accumulator of its grid, and dpcov_plan_release_gram()
 * releases with its constants (dpcov_plan_release_matrix() from a matrix the caller holds). The plan's n may be 0 when the rows are not counted yet: no
 * calibration reads n, so the release records the accumulator's n and keeps the constants (the
 * few mechanisms whose derived values read n, IEV and KT under replace-one and the graphical-lasso
 * output perturbation, have those computed at the accumulator's n). docs/design.md says why an
 * opaque handle rather than a caller-passed receipt.
 *
 * Thread-safety: a plan is immutable after creation; any number of threads may read and release
 * from one plan at once (each release with its own generator and accumulator).
 */
#ifndef DPCOV_PLAN_H
#define DPCOV_PLAN_H

#include "dpcov/common.h"
#include "dpcov/exact.h"
#include "dpcov/gram.h"
#include "dpcov/mechanism.h"
#include "dpcov/receipt.h"
#include "dpcov/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An opaque plan of one release (mechanism, numerics, d, n, B, epsilon, delta, options). */
typedef struct dpcov_plan dpcov_plan;

/**
 * Plan a release of a Gram-input mechanism once: the plan of dpcov_mechanism_plan() (numerics
 * ::DPCOV_NUMERICS_IDEALIZED) or of dpcov_exact_plan() (::DPCOV_NUMERICS_EXACT), kept in a handle.
 *
 * @param[out] out   the new plan; untouched on failure. Free it with dpcov_plan_destroy().
 * @param mechanism  a Gram-input ::dpcov_mechanism_id (exact numerics: analyze_gauss or
 *                   laplace_sym only).
 * @param numerics   ::DPCOV_NUMERICS_IDEALIZED or ::DPCOV_NUMERICS_EXACT.
 * @param dim        d, 1 <= d <= 46340.
 * @param n          rows, >= 0; 0 when not known yet (the release records the accumulator's).
 * @param bound      B, as for dpcov_mechanism_plan(): the norm bound of the accumulated rows.
 * @param epsilon    finite and > 0.
 * @param delta      as for dpcov_mechanism_plan().
 * @param params     options, or NULL for the defaults (as for dpcov_mechanism_plan()).
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER (out), ::DPCOV_E_INVALID_ARGUMENT (numerics not one
 *         of the two, exact numerics for another mechanism), ::DPCOV_E_NOMEM, and every status of
 *         dpcov_mechanism_plan() (idealized) or dpcov_exact_plan() (exact).
 */
DPCOV_API dpcov_status dpcov_plan_create(dpcov_plan **out, int32_t mechanism, int32_t numerics,
                                         int64_t dim, int64_t n, double bound, double epsilon,
                                         double delta, const dpcov_mechanism_params *params);

/**
 * The same release at another bound B: a plan made before B was chosen (e.g. by
 * dpcov_private_bound_choose()) keeps everything but B. With exact numerics the grid's bits, norm
 * bound and integer noise do not depend on B, which only scales the unit: they are kept, not
 * searched again. With idealized numerics the constants are planned again at @p bound.
 * @param[out] out  the new plan; untouched on failure. Free it with dpcov_plan_destroy().
 * @param plan      the plan to take everything else from (not changed).
 * @param bound     B, as for dpcov_plan_create().
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_NOMEM, and the statuses of
 *         dpcov_plan_create() for a bad @p bound (::DPCOV_E_INVALID_ARGUMENT,
 *         ::DPCOV_E_NON_FINITE, ::DPCOV_E_NUMERICAL).
 */
DPCOV_API dpcov_status dpcov_plan_create_at_bound(dpcov_plan **out, const dpcov_plan *plan,
                                                  double bound);

/** Free a plan and set @p *plan to NULL. NULL and a pointer to NULL are accepted (no-op). */
DPCOV_API void dpcov_plan_destroy(dpcov_plan **plan);

/**
 * The plan's receipt: every constant the release will use (generator none: nothing drawn).
 * @param plan        a plan.
 * @param[out] receipt  the caller sets receipt->struct_size; untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INVALID_ARGUMENT (struct_size too small).
 */
DPCOV_API dpcov_status dpcov_plan_get_receipt(const dpcov_plan *plan, dpcov_receipt *receipt);

/**
 * The grid and integer noise of a plan with exact numerics (as dpcov_exact_plan() writes them).
 * @param plan      a plan.
 * @param[out] grid the caller sets grid->struct_size; untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INVALID_ARGUMENT (struct_size too small),
 *         ::DPCOV_E_INCOMPATIBLE (the plan has idealized numerics: no grid).
 */
DPCOV_API dpcov_status dpcov_plan_get_exact_grid(const dpcov_plan *plan, dpcov_exact_grid *grid);

/**
 * dpcov_gram_create_bounded() for the release @p plan plans: the bounding of @p spec (bound,
 * policy, constant, column bounds, label) with the plan's numerics, mechanism, epsilon, delta and
 * neighbour relation in place of @p spec's, and, with exact numerics, the plan's grid (not
 * searched again).
 * @param[out] out  the new accumulator; untouched on failure. Free it with dpcov_gram_destroy().
 * @param cols      raw columns, as for dpcov_gram_create_bounded().
 * @param spec      the bounding, read up to its struct_size, not retained.
 * @param plan      the release's plan; the bounded rows' columns and norm bound must be its d
 *                  and B.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INCOMPATIBLE (the bounded rows' d or norm
 *         bound is not the plan's), ::DPCOV_E_NOMEM, and the statuses of
 *         dpcov_gram_create_bounded().
 */
DPCOV_API dpcov_status dpcov_gram_create_planned(dpcov_gram **out, int64_t cols,
                                                 const dpcov_row_bounding *spec,
                                                 const dpcov_plan *plan);

/**
 * Release @p gram with @p plan: dpcov_mechanism_release_gram() without planning again. The
 * constants (and the grid) are the plan's as the library computed them; the receipt records the
 * accumulator's n.
 * @param plan    the plan; its d and B must be the accumulator's, and its numerics too (an
 *                accumulator from dpcov_gram_create_planned() of this plan has them).
 * @param gram    the accumulator, given at least one chunk unless made bounded.
 * @param rng     the generator; every check runs before the first draw, so a rejected call leaves
 *                it unchanged; a draw once made is consumed.
 * @param layout  ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR, of @p out.
 * @param[out] out  d x d, written in full and exactly symmetric; untouched on failure.
 * @param ldo     leading dimension of @p out.
 * @param[out] receipt  the caller sets receipt->struct_size; untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INCOMPATIBLE (d, B or numerics of the
 *         accumulator not the plan's, an exact accumulator of another grid, or an accumulator of
 *         privacy units for a mechanism released at unit level by group privacy, whose per-row
 *         budget a plan does not hold: use dpcov_mechanism_release_gram()), and the statuses
 *         of dpcov_mechanism_release_gram().
 */
DPCOV_API dpcov_status dpcov_plan_release_gram(const dpcov_plan *plan, const dpcov_gram *gram,
                                               dpcov_rng *rng, int32_t layout, double *out,
                                               int64_t ldo, dpcov_receipt *receipt);

/**
 * Release the symmetric d x d statistic @p gram of the plan's n rows of norm <= its B with
 * @p plan: dpcov_mechanism_release() without planning again, so that a caller that reads the
 * plan first (to check it against a budget) draws with the constants it read.
 * @param plan    the plan, made with ::DPCOV_NUMERICS_IDEALIZED and n >= 1 (a matrix already
 *                rounded cannot be released exactly, and its n is not counted here).
 * @param layout  ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR, of @p gram and @p out.
 * @param dim     d, the plan's.
 * @param gram    d x d, checked as by dpcov_mechanism_release(); not retained.
 * @param ldg     leading dimension of @p gram.
 * @param rng     the generator; every check runs before the first draw, so a rejected call leaves
 *                it unchanged; a draw once made is consumed.
 * @param[out] out  d x d, written in full and exactly symmetric (it may be @p gram); untouched on
 *                failure.
 * @param ldo     leading dimension of @p out.
 * @param[out] receipt  the caller sets receipt->struct_size; untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INCOMPATIBLE (@p dim not the plan's d, a
 *         plan with exact numerics, or one made with n = 0), and the statuses of
 *         dpcov_mechanism_release().
 */
DPCOV_API dpcov_status dpcov_plan_release_matrix(const dpcov_plan *plan, int32_t layout,
                                                 int64_t dim, const double *gram, int64_t ldg,
                                                 dpcov_rng *rng, double *out, int64_t ldo,
                                                 dpcov_receipt *receipt);

#ifdef __cplusplus
}
#endif

#endif /* DPCOV_PLAN_H */
