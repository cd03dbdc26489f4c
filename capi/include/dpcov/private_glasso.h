/**
 * @file dpcov/private_glasso.h
 * @brief Private sparse inverse covariance estimation (Wang, Huai, Xu, "Differentially Private
 *        Sparse Inverse Covariance Estimation", GlobalSIP 2018): a mechanism of dpcov/mechanism.h
 *        followed by the graphical lasso, or Wishart noise on the graphical-lasso solution.
 *
 * The estimator is the graphical lasso of dpcov/estimators.h,
 *   Theta_rho(S) = argmin over positive definite Theta of
 *                  -log det Theta + tr(S Theta) + rho sum_ij |Theta_ij|,
 * on the covariance scale S = G / n (rows of norm <= B, n public: replace-one). Two families:
 *
 * - Covariance perturbation (Alg. 2): ::DPCOV_MECHANISM_LAPLACE_SYM (the paper's symmetric
 *   Laplace, epsilon-DP), ::DPCOV_MECHANISM_ANALYZE_GAUSS (the paper's symmetric Gaussian,
 *   (epsilon, delta)-DP), ::DPCOV_MECHANISM_WISHART_ADDITIVE (the paper's (epsilon, delta)
 *   Wishart W_d(m, I / n), m = d + 14 ln(4/delta) / epsilon^2) and ::DPCOV_MECHANISM_WISHART_JIANG
 *   (the paper's epsilon-Wishart W_d(d + 1, 3 / (2 n epsilon) I): NOT DP, audit target only)
 *   release Y = G + N; then S~ = Y / n is projected onto the positive semidefinite cone (negative
 *   eigenvalues set to 0) and the graphical lasso is solved on it. The steps after the release are
 *   post-processing: the guarantee is the mechanism's, recorded in the receipt. The paper's own
 *   constants are the mechanisms' published calibrations (::DPCOV_CALIBRATION_LAPLACE_PUBLISHED:
 *   Lap(2d/(n eps)) on S; ::DPCOV_CALIBRATION_CLASSICAL_GAUSSIAN: the paper's
 *   sqrt(2 ln(1.25/delta)) / (n eps) on S is the add/remove sensitivity, which covers replace-one
 *   only with sqrt(2) times that, the default analytic calibration's Delta). Every variant divides
 *   by n, which only replace-one neighbours make public: add/remove is refused.
 * - Output perturbation (Alg. 1): ::DPCOV_MECHANISM_GLASSO_OUTPUT_WISHART releases
 *   Theta_rho(G / n) + W_d(d + 1, d^{5/2} B^2 / (n eps rho^2) I): NOT DP, audit target only.
 *
 * Thread-safety: reentrant; a release uses its generator exclusively (one generator per thread).
 * Continuous noise in floating point ("idealized numerics"), PCG not cryptographic: as for
 * dpcov/mechanism.h.
 * @proof proofs/glasso_output.md
 */
#ifndef DPCOV_PRIVATE_GLASSO_H
#define DPCOV_PRIVATE_GLASSO_H

#include "dpcov/common.h"
#include "dpcov/estimators.h"
#include "dpcov/mechanism.h"
#include "dpcov/receipt.h"
#include "dpcov/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Dry run of dpcov_private_glasso_release(): the receipt the release would produce (the
 * mechanism's constants), or the status it would return, with no data and no randomness.
 *
 * @param mechanism  ::DPCOV_MECHANISM_LAPLACE_SYM, ::DPCOV_MECHANISM_ANALYZE_GAUSS,
 *                   ::DPCOV_MECHANISM_WISHART_ADDITIVE, ::DPCOV_MECHANISM_WISHART_JIANG or
 *                   ::DPCOV_MECHANISM_GLASSO_OUTPUT_WISHART (the last two need
 *                   dpcov_mechanism_params::audit_only_not_private = 1).
 * @param dim        d, 1 <= d <= 46340.
 * @param n          number of rows, >= 1 (public; the covariance is G / n).
 * @param bound      B, finite and >= 2^-960 (the range of row bounds).
 * @param epsilon    finite and > 0 (and < 1 for the additive Wishart).
 * @param delta      in (0, 1) for the (epsilon, delta) mechanisms; 0 allowed for the pure ones.
 * @param params     mechanism options, or NULL for the defaults (output perturbation: replace-one
 *                   only, the default).
 * @param rho        the graphical-lasso penalty, finite and > 0, public (chosen without the data).
 * @param[out] receipt  the constants; the caller sets receipt->struct_size. Untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INVALID_ARGUMENT (a mechanism outside the
 *         list, rho <= 0, add/remove neighbours (n is private there, and every variant
 *         divides by it), and every reason of
 *         dpcov_mechanism_plan()), ::DPCOV_E_NON_FINITE, ::DPCOV_E_DIMENSION (d, or n < 1),
 *         ::DPCOV_E_TOO_LARGE, ::DPCOV_E_PRECONDITION, ::DPCOV_E_NOT_PRIVATE (the two audit
 *         targets without the unlock), ::DPCOV_E_NUMERICAL.
 */
DPCOV_API dpcov_status dpcov_private_glasso_plan(int32_t mechanism, int64_t dim, int64_t n,
                                                 double bound, double epsilon, double delta,
                                                 const dpcov_mechanism_params *params, double rho,
                                                 dpcov_receipt *receipt);

/**
 * The private precision estimate of Wang, Huai and Xu for the Gram matrix @p gram of @p n rows of
 * norm <= @p bound: covariance perturbation followed by the graphical lasso, or output
 * perturbation (see the file description).
 *
 * @param mechanism  as for dpcov_private_glasso_plan().
 * @param layout     ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR, for @p gram and @p precision.
 * @param dim        d, 1 <= d <= 46340.
 * @param gram       G (d x d, exactly symmetric, finite, diagonal >= 0, trace <= n B^2); not
 *                   retained.
 * @param ldg        leading dimension of @p gram, >= d.
 * @param n          number of rows behind G, >= 1.
 * @param bound      B, finite and >= 2^-960 (the range of row bounds).
 * @param epsilon    as for dpcov_private_glasso_plan().
 * @param delta      as for dpcov_private_glasso_plan().
 * @param params     mechanism options, or NULL for the defaults.
 * @param rho        the graphical-lasso penalty, finite and > 0, public.
 * @param glasso_params  settings of the solve on the released covariance (covariance perturbation),
 *                   or NULL for the defaults (diagonal penalised, as in the paper). Must be NULL for
 *                   output perturbation, which solves the paper's objective on the exact data to a
 *                   fixed tolerance of 1e-10.
 * @param rng        the generator; its noise is consumed once drawn, even if the call then
 *                   fails (a solve that does not converge spends the budget: to keep the
 *                   release through such a failure, use dpcov_private_glasso_covariance() and
 *                   dpcov_glasso_solve()); unchanged only when the arguments are rejected.
 * @param[out] precision  d x d private precision estimate, written in full and exactly symmetric.
 *                   Untouched on failure.
 * @param ldp        leading dimension of @p precision, >= d.
 * @param[out] receipt  the mechanism's receipt (the guarantee of the whole estimate); the caller
 *                   sets receipt->struct_size.
 * @param[out] info  convergence of the solve on the released covariance, or NULL; the caller sets
 *                   info->struct_size. Must be NULL for output perturbation (the convergence of
 *                   a solve on the exact data is not private).
 * @return the statuses of dpcov_private_glasso_plan(), and ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_NORM_BOUND (trace(G) > n B^2), ::DPCOV_E_INVALID_ARGUMENT (G not symmetric,
 *         negative diagonal, glasso_params or info not NULL for output perturbation, a glasso
 *         setting out of range, a struct_size too small), ::DPCOV_E_NOT_POSITIVE_DEFINITE (the
 *         solve with an unpenalised diagonal on a singular projection), ::DPCOV_E_NO_CONVERGENCE,
 *         ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_private_glasso_release(
    int32_t mechanism, int32_t layout, int64_t dim, const double *gram, int64_t ldg, int64_t n,
    double bound, double epsilon, double delta, const dpcov_mechanism_params *params, double rho,
    const dpcov_glasso_params *glasso_params, dpcov_rng *rng, double *precision, int64_t ldp,
    dpcov_receipt *receipt, dpcov_glasso_info *info);

/**
 * The release of covariance perturbation without its solve: S~, the positive semidefinite
 * projection of (G + N) / n, exactly what dpcov_private_glasso_release() solves. The graphical
 * lasso on S~ (dpcov_glasso_solve() with the penalty rho) is post-processing: a caller who keeps
 * S~ can solve it again, with other settings or after a solve that did not converge, at no
 * privacy cost, where a failed dpcov_private_glasso_release() has spent the budget and returns
 * nothing. The same generator state and arguments give the S~ that dpcov_private_glasso_release()
 * solves, bit for bit.
 *
 * @param mechanism  a covariance perturbation of dpcov_private_glasso_plan() (not
 *                   ::DPCOV_MECHANISM_GLASSO_OUTPUT_WISHART, which releases no covariance).
 * @param layout     ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR, for @p gram and @p covariance.
 * @param dim        as for dpcov_private_glasso_release().
 * @param gram       as for dpcov_private_glasso_release().
 * @param ldg        leading dimension of @p gram, >= d.
 * @param n          as for dpcov_private_glasso_release().
 * @param bound      as for dpcov_private_glasso_release().
 * @param epsilon    as for dpcov_private_glasso_plan().
 * @param delta      as for dpcov_private_glasso_plan().
 * @param params     mechanism options, or NULL for the defaults.
 * @param rng        the generator; its noise is consumed once drawn, even if the call then
 *                   fails; unchanged only when the arguments are rejected.
 * @param[out] covariance  d x d S~, written in full, exactly symmetric and positive semidefinite.
 *                   Untouched on failure.
 * @param ldc        leading dimension of @p covariance, >= d.
 * @param[out] receipt  the mechanism's receipt (its glasso_rho is 0: no penalty is part of the
 *                   release); the caller sets receipt->struct_size.
 * @return the statuses of dpcov_private_glasso_release() but ::DPCOV_E_NO_CONVERGENCE, and
 *         ::DPCOV_E_INVALID_ARGUMENT for output perturbation.
 */
DPCOV_API dpcov_status dpcov_private_glasso_covariance(
    int32_t mechanism, int32_t layout, int64_t dim, const double *gram, int64_t ldg, int64_t n,
    double bound, double epsilon, double delta, const dpcov_mechanism_params *params,
    dpcov_rng *rng, double *covariance, int64_t ldc, dpcov_receipt *receipt);

/**
 * Natural log of the density of an output-perturbation release (::DPCOV_MECHANISM_GLASSO_OUTPUT_WISHART)
 * given the statistic: the Wishart W_d(d + 1, c I) density of released - Theta_rho(G / n), and
 * -infinity when that difference is not positive definite (the support miss that makes the
 * mechanism non-private). What a privacy auditor compares on neighbouring datasets. The
 * covariance-perturbation estimates have no density of their own (the projection and the solve
 * are many-to-one); audit their releases with dpcov_mechanism_log_density().
 *
 * @param mechanism  ::DPCOV_MECHANISM_GLASSO_OUTPUT_WISHART (::DPCOV_E_INVALID_ARGUMENT otherwise).
 * @param layout     ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR, for both matrices.
 * @param dim        d.
 * @param released   d x d, exactly symmetric, finite; not retained.
 * @param ldr        leading dimension of @p released, >= d.
 * @param gram       the statistic G, as for dpcov_private_glasso_release().
 * @param ldg        leading dimension of @p gram, >= d.
 * @param n          number of rows, >= 1.
 * @param bound      B.
 * @param epsilon    as for the release.
 * @param delta      as for the release (0 or in (0, 1); none is spent).
 * @param params     as for the release (audit_only_not_private = 1).
 * @param rho        as for the release.
 * @param[out] log_density  receives the value (may be -infinity); untouched on failure.
 * @return the statuses of dpcov_private_glasso_release() (no generator involved).
 */
DPCOV_API dpcov_status dpcov_private_glasso_log_density(
    int32_t mechanism, int32_t layout, int64_t dim, const double *released, int64_t ldr,
    const double *gram, int64_t ldg, int64_t n, double bound, double epsilon, double delta,
    const dpcov_mechanism_params *params, double rho, double *log_density);

#ifdef __cplusplus
}
#endif

#endif /* DPCOV_PRIVATE_GLASSO_H */
