/**
 * @file dpcov/ledger.h
 * @brief A privacy budget ledger: releases charged against a total cap (epsilon, delta), and a
 *        release that would exceed it refused before any noise is drawn.
 *
 * Typical use: create a ledger with the total budget, and before each release check the release's
 * plan receipt (dpcov_mechanism_plan(), no data, no randomness) with dpcov_ledger_check(); release;
 * then record it with dpcov_ledger_charge(). Charge the plan also when the release fails after it
 * drew noise, whatever its status: save the generator's state (dpcov_rng_state_save()) before the
 * release and compare it after a failure; if it changed, the release drew and is charged (every
 * release draws from the caller's generator itself and never rewinds it, dpcov/rng.h). A refusal
 * is an output, and retrying until one succeeds would otherwise cost nothing. A failure that left
 * the state unchanged is a bad argument found before any draw and costs nothing, except
 * ::DPCOV_E_REFUSED, ::DPCOV_E_NUMERICAL, ::DPCOV_E_NO_CONVERGENCE and
 * ::DPCOV_E_NOT_POSITIVE_DEFINITE, which only follow a draw: the CLI's ledger and Python's
 * BudgetAccountant charge those too (proofs/ledger.md, "Failed releases"). The cap check is a
 * privacy filter: the total guarantee holds even when each release's parameters are chosen after
 * seeing the earlier outputs.
 *
 * Two accountings, fixed when the ledger is created (proofs/ledger.md):
 * - ::DPCOV_ACCOUNTING_BASIC: the epsilons and the deltas add up (Dwork and Roth 2014, Thm 3.16).
 *   Every private mechanism.
 * - ::DPCOV_ACCOUNTING_ZCDP: zero-concentrated DP (Bun and Steinke, TCC 2016). A Gaussian mechanism
 *   costs rho = Delta^2 / (2 sigma^2) (Prop. 1.6); Analyze Gauss with ::DPCOV_NUMERICS_EXACT the
 *   rho its discrete Gaussian was sized for at the receipt's (epsilon, delta), at least the cost of
 *   its integers (its receipt's sensitivity and sigma are rounded to nearest, and their ratio could
 *   charge less; proofs/ledger.md, "zCDP accounting"); an epsilon-DP one rho = epsilon^2 / 2
 *   (Prop. 1.4); the rhos add up (Lemma 2.3) and the total is (rho + 2 sqrt(rho ln(1/delta_cap)),
 *   delta_cap)-DP (Prop. 1.3). Tighter than basic for many releases: k pure releases at epsilon
 *   cost about epsilon sqrt(2 k ln(1/delta_cap)), the advanced-composition rate. (epsilon, delta)
 *   mechanisms without a zCDP bound (the Wishart and projection mechanisms) are refused.
 * - ::DPCOV_ACCOUNTING_ADVANCED: advanced composition (Dwork, Rothblum and Vadhan, FOCS 2010;
 *   Dwork and Roth 2014, Thm 3.20). The first release fixes the per-release budget (epsilon_0,
 *   delta_0) and so the number K of releases that fit: the largest K with K epsilon_0 <= epsilon_cap
 *   and K delta_0 <= delta_cap (basic) or sqrt(2 K ln(1/delta')) epsilon_0 + K epsilon_0
 *   (e^epsilon_0 - 1) <= epsilon_cap with delta' = delta_cap - K delta_0 > 0. Each later release
 *   may spend at most (epsilon_0, delta_0) and counts as that much; the (K+1)-th is refused. Every
 *   private mechanism, including the (epsilon, delta) ones zCDP refuses.
 *
 * Thread-safety: a ledger is not synchronised; use one per thread or lock around it.
 */
#ifndef DPCOV_LEDGER_H
#define DPCOV_LEDGER_H

#include "dpcov/common.h"
#include "dpcov/receipt.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How a ledger composes its charges. Numbers are part of the ABI. */
enum dpcov_accounting {
  /** Sum of epsilons and of deltas. */
  DPCOV_ACCOUNTING_BASIC = 0,
  /** Sum of zCDP rhos, converted to (epsilon, delta_cap). */
  DPCOV_ACCOUNTING_ZCDP = 1,
  /** Advanced composition at the per-release budget fixed by the first charge. */
  DPCOV_ACCOUNTING_ADVANCED = 2
};

/** Opaque ledger. Create with dpcov_ledger_create(), free with dpcov_ledger_destroy(). */
typedef struct dpcov_ledger dpcov_ledger;

/** What a ledger has spent. The caller sets `struct_size` before dpcov_ledger_get_spent(). */
typedef struct dpcov_ledger_spent {
  /** Set by the caller to sizeof(dpcov_ledger_spent); the library writes no byte beyond it. */
  size_t struct_size;
  int32_t accounting; /**< The ::dpcov_accounting of the ledger. */
  int64_t charges;    /**< Releases recorded. */
  double epsilon;     /**< Epsilon spent in total (zCDP: of rho at delta_cap; advanced: the smaller of
                           the two bounds at the number of charges); 0 before any charge. */
  double delta;       /**< Delta spent in total (zCDP: delta_cap once anything is charged). */
  double rho;         /**< zCDP: rho spent in total; 0 under basic accounting. */
  double epsilon_cap; /**< The cap's epsilon. */
  double delta_cap;   /**< The cap's delta. */
} dpcov_ledger_spent;

/**
 * A new, empty ledger with the total budget (@p epsilon_cap, @p delta_cap).
 *
 * @param[out] out        receives the ledger; untouched on failure.
 * @param accounting      a ::dpcov_accounting.
 * @param epsilon_cap     finite and > 0.
 * @param delta_cap       in [0, 1); in (0, 1) for ::DPCOV_ACCOUNTING_ZCDP.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INVALID_ARGUMENT (accounting or a cap out
 *         of range), ::DPCOV_E_NON_FINITE, ::DPCOV_E_NOMEM.
 * @proof proofs/ledger.md
 */
DPCOV_API dpcov_status dpcov_ledger_create(dpcov_ledger **out, int32_t accounting,
                                           double epsilon_cap, double delta_cap);

/** Frees @p *ledger and sets it to NULL; NULL and a NULL handle are accepted. */
DPCOV_API void dpcov_ledger_destroy(dpcov_ledger **ledger);

/**
 * Whether the release described by @p receipt (a plan's or a release's) fits in what is left.
 * Changes nothing.
 *
 * @param ledger   the ledger.
 * @param receipt  the release's receipt (struct_size set; epsilon finite > 0, delta in [0, 1)).
 * @return ::DPCOV_OK if it fits, ::DPCOV_E_PRECONDITION if it would exceed the cap (the message
 *         says by what), ::DPCOV_E_NOT_PRIVATE (a mechanism that is not DP has no cost to charge),
 *         ::DPCOV_E_INVALID_ARGUMENT (a receipt out of range, or zCDP accounting and a mechanism
 *         without a zCDP bound), ::DPCOV_E_NON_FINITE, ::DPCOV_E_NULL_POINTER.
 */
DPCOV_API dpcov_status dpcov_ledger_check(const dpcov_ledger *ledger, const dpcov_receipt *receipt);

/**
 * Records the release described by @p receipt, after the checks of dpcov_ledger_check(). On any
 * failure the ledger is unchanged.
 *
 * @param ledger   the ledger.
 * @param receipt  as for dpcov_ledger_check().
 * @return the statuses of dpcov_ledger_check().
 */
DPCOV_API dpcov_status dpcov_ledger_charge(dpcov_ledger *ledger, const dpcov_receipt *receipt);

/**
 * Whether a release stated in zero-concentrated DP fits in what is left: one that is @p rho-zCDP
 * and (@p epsilon, @p delta)-DP, as the receipts of AdaSSP (`rho`, `epsilon`, `delta`;
 * dpcov_adassp_plan() gives them before the fit), CoinPress and Dong-Liang-Yi (`rho`, `epsilon`,
 * `delta`) state it. Basic and advanced accounting charge (epsilon, delta); zCDP accounting
 * charges rho alone (rho covers the whole release, delta included). Changes nothing.
 *
 * @param ledger   the ledger.
 * @param rho      the release's zCDP parameter, finite > 0.
 * @param epsilon  its (epsilon, delta)-DP epsilon, finite >= 0 (0 where dpcov_zcdp_epsilon() of a
 *                 tiny rho is 0: the release is (0, delta)-DP; advanced accounting cannot take
 *                 a first release of epsilon 0 and refuses it with ::DPCOV_E_INVALID_ARGUMENT).
 * @param delta    its delta, in [0, 1).
 * @return ::DPCOV_OK if it fits, ::DPCOV_E_PRECONDITION if it would exceed the cap (the message
 *         says by what), ::DPCOV_E_INVALID_ARGUMENT (an argument out of range),
 *         ::DPCOV_E_NON_FINITE, ::DPCOV_E_NULL_POINTER.
 * @proof proofs/ledger.md
 */
DPCOV_API dpcov_status dpcov_ledger_check_zcdp(const dpcov_ledger *ledger, double rho,
                                               double epsilon, double delta);

/**
 * Records the release stated in zCDP that dpcov_ledger_check_zcdp() describes, after its checks.
 * On any failure the ledger is unchanged.
 *
 * @param ledger   the ledger.
 * @param rho      as for dpcov_ledger_check_zcdp().
 * @param epsilon  as for dpcov_ledger_check_zcdp().
 * @param delta    as for dpcov_ledger_check_zcdp().
 * @return the statuses of dpcov_ledger_check_zcdp().
 */
DPCOV_API dpcov_status dpcov_ledger_charge_zcdp(dpcov_ledger *ledger, double rho, double epsilon,
                                                double delta);

/**
 * Whether the release described by @p receipt, a receipt of any family that
 * dpcov_receipt_prefix_of() reads (::dpcov_receipt, ::dpcov_adassp_receipt, ::dpcov_dly_receipt,
 * ::dpcov_coinpress_receipt, ::dpcov_coinpress_mean_receipt), fits in what is left. Its common
 * prefix decides the charge: a Gram mechanism's receipt is charged as by dpcov_ledger_check(); a
 * release stated in zCDP (AdaSSP, CoinPress, Dong-Liang-Yi) as by dpcov_ledger_check_zcdp() with
 * the receipt's rho, epsilon and delta; a pure epsilon-DP one (::DPCOV_MECHANISM_PRIVATE_BOUND)
 * epsilon, delta 0 and rho = epsilon^2 / 2 rounded up (its rho is not read). For every family but
 * the Gram mechanisms the prefix is all that is read: a ::dpcov_receipt_prefix with struct_size
 * sizeof(dpcov_receipt_prefix) serves (what a ledger kept in a file replays). Changes nothing.
 *
 * @param ledger   the ledger.
 * @param receipt  a receipt the library wrote, or a prefix filled from one (struct_size set).
 * @return ::DPCOV_OK if it fits, ::DPCOV_E_PRECONDITION if it would exceed the cap (the message
 *         says by what), ::DPCOV_E_INVALID_ARGUMENT (a mechanism the registry does not hold, a
 *         privacy model other than the registry's for it, a receipt out of range, or zCDP
 *         accounting and a mechanism without a zCDP bound), ::DPCOV_E_NOT_PRIVATE,
 *         ::DPCOV_E_NON_FINITE, ::DPCOV_E_NULL_POINTER.
 * @proof proofs/ledger.md
 */
DPCOV_API dpcov_status dpcov_ledger_check_receipt(const dpcov_ledger *ledger,
                                                  const void *receipt);

/**
 * Records the release described by @p receipt, of any family, after the checks of
 * dpcov_ledger_check_receipt(). On any failure the ledger is unchanged.
 *
 * @param ledger   the ledger.
 * @param receipt  as for dpcov_ledger_check_receipt().
 * @return the statuses of dpcov_ledger_check_receipt().
 */
DPCOV_API dpcov_status dpcov_ledger_charge_receipt(dpcov_ledger *ledger, const void *receipt);

/**
 * What @p ledger has spent.
 *
 * @param ledger   the ledger.
 * @param[out] spent  the caller sets spent->struct_size; untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INVALID_ARGUMENT (struct_size too small).
 */
DPCOV_API dpcov_status dpcov_ledger_get_spent(const dpcov_ledger *ledger,
                                              dpcov_ledger_spent *spent);

#ifdef __cplusplus
}
#endif

#endif /* DPCOV_LEDGER_H */
