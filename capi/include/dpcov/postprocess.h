/**
 * @file dpcov/postprocess.h
 * @brief Post-processing of released matrices: PSD projection, eigenvalue clipping, the
 *        identity shifts of Sheffet's experiments, and a constant column's nominal value.
 *
 * Each function reads a released symmetric matrix and public constants only, so it costs no
 * privacy (post-processing invariance of differential privacy). Each works in place on the d x d
 * matrix @p a (layout ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR, leading dimension @p lda >= d),
 * which must be finite and exactly symmetric; the result is written in full and is exactly
 * symmetric. On failure @p a and every output are untouched.
 *
 * Thread-safety: reentrant.
 */
#ifndef DPCOV_POSTPROCESS_H
#define DPCOV_POSTPROCESS_H

#include "dpcov/common.h"
#include "dpcov/receipt.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Replace @p a by the nearest positive semidefinite matrix in Frobenius norm: negative eigenvalues
 * set to 0.
 * @param layout  ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param dim     d, 1 <= d <= 46340.
 * @param a       the d x d matrix, finite and exactly symmetric; overwritten with the result.
 * @param lda     leading dimension of @p a, >= d.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_LAYOUT, ::DPCOV_E_DIMENSION,
 *         ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NON_FINITE, ::DPCOV_E_INVALID_ARGUMENT (not symmetric),
 *         ::DPCOV_E_NUMERICAL, ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_postprocess_psd_project(int32_t layout, int64_t dim, double *a,
                                                     int64_t lda);

/**
 * Clamp the eigenvalues of @p a to [@p lower, @p upper] (eigenvectors kept). With lower = 0 and
 * upper = n B^2 this is the clipping of Amin, Dick, Kulesza, Munoz Medina, Vassilvitskii
 * (NeurIPS 2019): the spectrum of a Gram matrix of n rows of norm <= B lies there.
 * @param layout  ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param dim     d, 1 <= d <= 46340.
 * @param a       the d x d matrix, finite and exactly symmetric; overwritten with the result.
 * @param lda     leading dimension of @p a, >= d.
 * @param lower  <= upper; may be -infinity.
 * @param upper  may be +infinity.
 * @return the statuses of dpcov_postprocess_psd_project(); ::DPCOV_E_INVALID_ARGUMENT also for
 *         lower > upper or NaN bounds.
 */
DPCOV_API dpcov_status dpcov_postprocess_eigenvalues_clip(int32_t layout, int64_t dim, double *a,
                                                          int64_t lda, double lower,
                                                          double upper);

/**
 * Sheffet's "scaled" Analyze Gauss (ALT 2019, Sec. 6): if @p a is not positive definite, add
 * c I with c = sigma (2 sqrt(d) + 2 sqrt(ln(1/nu))), the bound that the Analyze Gauss noise has
 * lambda_min >= -c with probability >= 1 - nu (the paper's own value of c is not recoverable;
 * proofs/analyze_gauss.md).
 * @param layout  ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param dim     d, 1 <= d <= 46340.
 * @param a       the d x d matrix, finite and exactly symmetric; overwritten with the result.
 * @param lda     leading dimension of @p a, >= d.
 * @param sigma  the receipt's sigma, finite and > 0.
 * @param nu     failure probability, in (0, 1).
 * @param[out] shift_added  receives c, or 0 if @p a was positive definite and is unchanged.
 * @return the statuses of dpcov_postprocess_psd_project(); ::DPCOV_E_INVALID_ARGUMENT also for
 *         sigma or nu out of range.
 * @proof proofs/analyze_gauss.md
 */
DPCOV_API dpcov_status dpcov_postprocess_analyze_gauss_shift(int32_t layout, int64_t dim,
                                                             double *a, int64_t lda, double sigma,
                                                             double nu, double *shift_added);

/**
 * Subtract the mean of the additive Wishart noise: @p a - dof * scale * I, unbiased for G (may be
 * indefinite). Sheffet ALT 2019, Sec. 4.
 * @param layout  ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param dim     d, 1 <= d <= 46340.
 * @param a       the d x d matrix, finite and exactly symmetric; overwritten with the result.
 * @param lda     leading dimension of @p a, >= d.
 * @param dof    the receipt's dof, finite and > 0.
 * @param scale  the receipt's scale (B^2), finite and > 0.
 * @return the statuses of dpcov_postprocess_psd_project(); ::DPCOV_E_INVALID_ARGUMENT also for
 *         dof or scale out of range.
 * @proof proofs/wishart_additive.md
 */
DPCOV_API dpcov_status dpcov_postprocess_wishart_mean_subtract(int32_t layout, int64_t dim,
                                                               double *a, int64_t lda, double dof,
                                                               double scale);

/**
 * The estimate of the Gram matrix G that a Gram release holds: @p a less the mean its mechanism
 * adds, read from the release's @p receipt. Every analysis of a release (a covariance, PCA, a
 * regression's fit) should read this rather than the release: an additive Wishart release of
 * 50000 rows (d = 3, epsilon 0.9) has a diagonal about 38% high. By mechanism:
 * - analyze_gauss, laplace_sym: @p a unchanged (the noise has mean 0);
 * - wishart_additive: @p a - dof * scale * I (Sheffet ALT 2019, Sec. 4);
 * - jl_ridge, jl_ridge_sigma_min: @p a - w^2 I, w = receipt->appended_w (Alg. 1 / 2: the release
 *   S^T S / r has mean G + w^2 I);
 * - inverse_wishart, inverse_wishart_sigma_min: (m - d - 1) @p a - w^2 I, m = receipt->dof
 *   (Alg. 4 / 5: W^{-1}_d(G + w^2 I, m) has mean (G + w^2 I) / (m - d - 1));
 * - any other Gram mechanism (IEV and KT clip a spectrum, inverse Gauss releases an inverse): @p a
 *   unchanged and *@p unbiased = 0.
 * The result may be indefinite. Costs no privacy (a function of the release and its receipt).
 * @param layout    ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param dim       d, 1 <= d <= 46340.
 * @param a         the d x d release, finite and exactly symmetric; overwritten with the result.
 * @param lda       leading dimension of @p a, >= d.
 * @param receipt   the release's receipt (struct_size set; dim = d; a Gram mechanism's id).
 * @param[out] unbiased  receives 1 where the result is unbiased for G, else 0.
 * @return the statuses of dpcov_postprocess_psd_project(); ::DPCOV_E_INVALID_ARGUMENT also for a
 *         receipt whose dim is not d, whose mechanism is not a Gram mechanism, or whose constants
 *         are out of range; ::DPCOV_E_PRECONDITION for an inverse-Wishart release with m <= d + 1
 *         (its mean does not exist).
 * @proof proofs/gram_estimate.md
 */
DPCOV_API dpcov_status dpcov_postprocess_gram_estimate(int32_t layout, int64_t dim, double *a,
                                                       int64_t lda, const dpcov_receipt *receipt,
                                                       int32_t *unbiased);

/**
 * Sheffet's rule (ALT 2019, Sec. 4.1) for the additive Wishart release: subtract dof * scale * I if
 * that leaves @p a positive definite; otherwise subtract the Davidson-Szarek bound
 * scale * (sqrt(dof) - sqrt(d) - sqrt(2 ln(2/nu)))_+^2 (Lemma A.3: the noise's lambda_min is at
 * least that with probability >= 1 - nu) if that does; otherwise leave @p a unchanged.
 * @param layout  ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param dim     d, 1 <= d <= 46340.
 * @param a       the d x d matrix, finite and exactly symmetric; overwritten with the result.
 * @param lda     leading dimension of @p a, >= d.
 * @param dof    the receipt's dof, > d - 1.
 * @param scale  the receipt's scale (B^2), finite and > 0.
 * @param nu     failure probability, in (0, 1).
 * @param[out] shift_subtracted  receives the multiple of I subtracted (0 if none).
 * @return the statuses of dpcov_postprocess_wishart_mean_subtract(); ::DPCOV_E_INVALID_ARGUMENT
 *         also for nu out of range or dof <= d - 1.
 * @proof proofs/wishart_additive.md
 */
DPCOV_API dpcov_status dpcov_postprocess_wishart_shift(int32_t layout, int64_t dim, double *a,
                                                       int64_t lda, double dof, double scale,
                                                       double nu, double *shift_subtracted);

/**
 * The release of rows whose constant column @p column held @p held, rescaled as if it had held
 * @p value: row and column @p column multiplied by r = value / held (entry (column, column) by r
 * twice, row first). An exact release rounds a constant column to its grid
 * (dpcov_exact_grid_value() gives @p held), so its row and column estimate sums of the rounded
 * constant; the regression's intercept and the released count (entry (column, column) over
 * value^2) read the nominal one. Python's PrivateLinearRegression and `dpcov regress --epsilon`
 * with a Gram mechanism call this before the fit.
 * @param layout  ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param dim     d, 1 <= d <= 46340.
 * @param a       the d x d matrix, finite and exactly symmetric; overwritten with the result.
 * @param lda     leading dimension of @p a, >= d.
 * @param column  the constant column, in [0, d).
 * @param held    the value the rows held, finite and > 0.
 * @param value   the nominal value, finite and > 0; value / held must be finite and > 0. Equal
 *                to @p held: @p a is unchanged.
 * @return the statuses of dpcov_postprocess_psd_project(); ::DPCOV_E_INVALID_ARGUMENT also for
 *         @p column, @p held or @p value out of range; ::DPCOV_E_NUMERICAL for a rescaled entry
 *         that overflows.
 */
DPCOV_API dpcov_status dpcov_postprocess_constant_rescale(int32_t layout, int64_t dim, double *a,
                                                          int64_t lda, int64_t column,
                                                          double held, double value);

#ifdef __cplusplus
}
#endif

#endif /* DPCOV_POSTPROCESS_H */
