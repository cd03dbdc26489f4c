/**
 * @file dpcov/gram.h
 * @brief Gram accumulator: the sufficient statistic G = A^T A of a stream of bounded rows.
 *
 * Rows arrive in chunks of any size; memory stays O(d^2) whatever the number of rows. Each row is
 * checked (NaN/Inf refused) and bounded in Euclidean norm by B under a chosen ::dpcov_bound_policy,
 * and the number of clipped or dropped rows is counted. Partial accumulators (threads, files,
 * machines) combine with dpcov_gram_merge(); the sum is compensated (Neumaier), so the result does
 * not depend, beyond a few units in the last place, on how the rows were split or in what order the
 * parts were merged.
 *
 * Thread-safety: one accumulator must not be used by two threads at once; distinct accumulators are
 * independent.
 */
#ifndef DPCOV_GRAM_H
#define DPCOV_GRAM_H

#include "dpcov/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque Gram accumulator. Create with dpcov_gram_create(), free with dpcov_gram_destroy(). */
typedef struct dpcov_gram dpcov_gram;

/**
 * What to do with a row whose Euclidean norm exceeds the bound B. A row is kept whole only if its
 * floating-point sum of squares proves its exact norm <= B: a row on the sphere up to rounding (norm
 * within about (d + 16) 2^-53 of B relatively, e.g. a row normalised to B) is scaled by a factor
 * just below 1 and counted in dpcov_gram_info::clipped under every policy.
 */
enum dpcov_bound_policy {
  /** Scale the row down to norm B (default). Counted in dpcov_gram_info::clipped. */
  DPCOV_BOUND_CLIP = 0,
  /** Refuse the whole chunk with ::DPCOV_E_NORM_BOUND; the message names the first such row. */
  DPCOV_BOUND_REJECT = 1,
  /**
   * Leave the row out and count it in dpcov_gram_info::dropped. The number of rows then depends on
   * the data: a release under the replace-one neighbour relation (fixed, public n) refuses an
   * accumulator with dropped rows (::DPCOV_E_PRECONDITION); use clipping, or add/remove neighbours.
   */
  DPCOV_BOUND_DROP = 2
};

/** Counters of an accumulator, filled by dpcov_gram_get_info(). */
typedef struct dpcov_gram_info {
  /** Set by the caller to sizeof(dpcov_gram_info) before the call; lets fields be appended later. */
  size_t struct_size;
  int64_t dim;     /**< Number of columns d. */
  int64_t rows;    /**< Rows included in G (clipped rows included, dropped rows not). */
  int64_t clipped; /**< Rows scaled down to norm B. */
  int64_t dropped; /**< Rows left out under ::DPCOV_BOUND_DROP. */
  double bound;    /**< The norm bound B every included row satisfies; 0 before the first row. */
} dpcov_gram_info;

/**
 * Create an empty accumulator for rows of @p dim columns.
 * @param[out] out  receives the new handle; untouched on failure.
 * @param dim       number of columns d, 1 <= d <= 46340 (so that d*d fits a 32-bit BLAS integer).
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_gram_create(dpcov_gram **out, int64_t dim);

/** Free an accumulator and set `*gram` to NULL. Accepts NULL and a pointer to NULL. */
DPCOV_API void dpcov_gram_destroy(dpcov_gram **gram);

/**
 * Add the rows of the @p rows x @p cols matrix @p a to the accumulator: G += sum_i b(a_i) b(a_i)^T,
 * where b bounds each row's Euclidean norm by @p bound according to @p policy.
 *
 * The whole chunk is validated before anything is added: if it contains NaN or infinity, or (under
 * ::DPCOV_BOUND_REJECT) a row over the bound, the call fails and the accumulator is exactly as it was.
 *
 * @param gram    the accumulator.
 * @param layout  ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param rows    number of rows, >= 0 (0 is a no-op, and @p a may then be NULL).
 * @param cols    number of columns; must equal the accumulator's dimension.
 * @param a       the data; not retained.
 * @param lda     leading dimension (>= cols for row-major, >= max(1, rows) for column-major).
 * @param bound   norm bound B, finite and >= 2^-960 (the range of row bounds); must be the same for every chunk of an accumulator.
 * @param policy  a ::dpcov_bound_policy value.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_INVALID_ARGUMENT (bound, policy), ::DPCOV_E_INCOMPATIBLE (bound differs from
 *         earlier chunks), ::DPCOV_E_NON_FINITE, ::DPCOV_E_NORM_BOUND, ::DPCOV_E_TOO_LARGE,
 *         ::DPCOV_E_NUMERICAL (an entry of G would overflow: rows of norm <= B sum to entries of
 *         at most n B^2, so only where n B^2 exceeds the largest double, about 1.8e8 rows at
 *         B = 1e150, where every release from G refuses anyway, its plan needing n B^2 2^20
 *         finite; the accumulator is unchanged), ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_gram_add_rows(dpcov_gram *gram, int32_t layout, int64_t rows,
                                           int64_t cols, const double *a, int64_t lda,
                                           double bound, int32_t policy);

/**
 * Add everything @p src has accumulated to @p dst (G, row and clip counters). @p src is unchanged.
 * Both must have the same dimension and, if both hold rows, the same bound.
 * @param dst  the accumulator that receives the sum.
 * @param src  the accumulator added to it; must not be @p dst.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INVALID_ARGUMENT (dst == src),
 *         ::DPCOV_E_INCOMPATIBLE, ::DPCOV_E_TOO_LARGE (row count overflow),
 *         ::DPCOV_E_NUMERICAL (an entry of the sum would overflow, as for dpcov_gram_add_rows();
 *         @p dst unchanged).
 */
DPCOV_API dpcov_status dpcov_gram_merge(dpcov_gram *dst, const dpcov_gram *src);

/**
 * Write G = A^T A (d x d, in full, exactly symmetric) to @p out.
 * @param gram    the accumulator.
 * @param layout  ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param out     at least ld * d doubles.
 * @param ld      leading dimension, >= d.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_LAYOUT.
 */
DPCOV_API dpcov_status dpcov_gram_get_matrix(const dpcov_gram *gram, int32_t layout, double *out,
                                             int64_t ld);

/**
 * Fill @p info with the accumulator's counters. The caller sets `info->struct_size`; fields beyond
 * it are not written.
 * @param gram  the accumulator.
 * @param info  receives the counters.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INVALID_ARGUMENT (struct_size too small).
 */
DPCOV_API dpcov_status dpcov_gram_get_info(const dpcov_gram *gram, dpcov_gram_info *info);

/**
 * Create an accumulator holding a state summed elsewhere, e.g. the Gram matrices and counters of
 * several machines added up with MPI_Reduce (docs/distributed.md). Export a state with
 * dpcov_gram_get_matrix() and dpcov_gram_get_info(); the sums of G, rows, clipped and dropped over
 * accumulators with one bound B are the state of their merge (to the rounding of the sum of G).
 *
 * The library checks what a Gram matrix of `info->rows` rows of norm <= B satisfies but cannot
 * check where G came from: privacy rests on every row behind it having been bounded (as
 * dpcov_gram_add_rows() does).
 *
 * @param[out] out  receives the new handle; untouched on failure.
 * @param info      the state's counters: struct_size set by the caller; dim d (1 <= d <= 46340),
 *                  rows >= 0, 0 <= clipped <= rows, dropped >= 0, bound B finite and > 0.
 * @param layout    ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param g         G, d x d: finite, exactly symmetric, diagonal >= 0, trace <= rows B^2 (relative
 *                  slack 1e-9 for rounding); copied, not retained.
 * @param ldg       leading dimension of @p g, >= d.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NON_FINITE (g or bound), ::DPCOV_E_INVALID_ARGUMENT
 *         (struct_size too small, G not symmetric or with a negative diagonal entry, bound <= 0,
 *         counters out of range), ::DPCOV_E_NORM_BOUND (trace(G) > rows B^2), ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_gram_create_from_state(dpcov_gram **out, const dpcov_gram_info *info,
                                                    int32_t layout, const double *g, int64_t ldg);

#ifdef __cplusplus
}
#endif

#endif /* DPCOV_GRAM_H */
