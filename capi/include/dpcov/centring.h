/**
 * @file dpcov/centring.h
 * @brief The mean and the centred covariance from a released second moment of rows [c, x] that
 *        hold a constant c in one column: post-processing of one release, no privacy cost.
 *
 * A release of the second moment S = sum_i [c, x_i] [c, x_i]^T carries the count (S_00 = n c^2),
 * the column sums (S_0j = c sum_i x_ij) and the cross products in one private release; the mean
 * and the covariance follow by post-processing (proofs/centring.md says why this beats a separate
 * mean release and what the centred result's error is made of). The constant column comes from
 * the public per-column bounds (dpcov/column_bounds.h) or from the caller's own data.
 *
 * Thread-safety: reentrant.
 */
#ifndef DPCOV_CENTRING_H
#define DPCOV_CENTRING_H

#include "dpcov/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * From the (d + 1) x (d + 1) second moment @p m of rows that hold @p constant in column
 * @p constant_column: the count n_hat (@p n if it is public, else S_cc / c^2 from the release),
 * the mean mu_j = S_cj / (c n_hat) and the covariance S_ij / n_hat - mu_i mu_j over the other d
 * columns, in their order. The covariance is written in full, exactly symmetric; it is not
 * projected onto the PSD cone (dpcov_postprocess_psd_project() does that).
 *
 * @param layout           ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR (of @p m and @p cov).
 * @param dim              order of @p m, d + 1 >= 2.
 * @param m                the released second moment: finite, exactly symmetric; not retained.
 * @param ldm              leading dimension of @p m, >= dim.
 * @param constant_column  0-based index of the constant column, in [0, dim).
 * @param constant         the constant c every row held there, finite, != 0 and at most 2^511
 *                         in magnitude (above it S_cc = n c^2 overflows for every n).
 * @param n                the number of rows when it is public (replace-one neighbours), >= 1; 0
 *                         to estimate it from the release as S_cc / c^2 (add/remove, where n is
 *                         private).
 * @param[out] mean        d doubles.
 * @param[out] cov         d x d.
 * @param ldcov            leading dimension of @p cov, >= d.
 * @param[out] count       receives n_hat; may be NULL.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_NON_FINITE, ::DPCOV_E_INVALID_ARGUMENT (constant column or constant or n out of
 *         range, @p m not symmetric), ::DPCOV_E_PRECONDITION (the released count S_cc / c^2 is
 *         below 1: the noise swamps n and there is no mean to report), ::DPCOV_E_NUMERICAL,
 *         ::DPCOV_E_TOO_LARGE. Outputs untouched on failure.
 * @proof proofs/centring.md
 */
DPCOV_API dpcov_status dpcov_centre_second_moment(int32_t layout, int64_t dim, const double *m,
                                                  int64_t ldm, int64_t constant_column,
                                                  double constant, int64_t n, double *mean,
                                                  double *cov, int64_t ldcov, double *count);

#ifdef __cplusplus
}
#endif

#endif /* DPCOV_CENTRING_H */
