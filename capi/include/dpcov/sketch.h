/**
 * @file dpcov/sketch.h
 * @brief Sketch accumulator for Sheffet's Johnson-Lindenstrauss mechanisms: S = R [A; w I] over a
 *        stream of bounded rows, and the JL releases formed from it.
 *
 * R is r x (n + d) with iid N(0, 1) entries, from the sketch's own key: 256 bits drawn from the
 * caller's generator when the sketch is created (the generator advances, so two sketches, and two
 * releases, never share R: a release of a neighbouring data set with the same R would give the
 * added row away). Column i of R (the r weights of data row i) comes from the key's counter-based
 * substream for the row's GLOBAL index i, which the caller passes with every chunk; so the sketch
 * is the same (to rounding) however the rows are split across chunks or threads, whose partial
 * sketches come from dpcov_sketch_create_partial(). The d rows of the block w I use the
 * substreams 2^63 + j, a domain no data row index reaches. Each global index may be used once per sketch
 * (::DPCOV_E_INVALID_ARGUMENT otherwise): two rows sharing weights are not covered by the privacy
 * proofs. Rows are validated and bounded exactly as by dpcov_gram_add_rows(), and the Gram matrix of
 * the same rows is kept alongside (the private sigma_min test needs it). Partial sketches of one
 * sketch (dpcov_sketch_create_partial()) combine with dpcov_sketch_merge() (Neumaier-compensated
 * sums).
 *
 * The accumulated sketch is NOT private by itself; only the releases of dpcov_sketch_release()
 * are. Use a generator from OS entropy (dpcov_rng_create_from_entropy()) for private releases: anyone
 * who knows the seed knows R.
 *
 * Thread-safety: one sketch must not be used by two threads at once; distinct sketches are
 * independent (the generator is used only at creation).
 */
#ifndef DPCOV_SKETCH_H
#define DPCOV_SKETCH_H

#include "dpcov/common.h"
#include "dpcov/gram.h"
#include "dpcov/mechanism.h"
#include "dpcov/receipt.h"
#include "dpcov/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque sketch accumulator. Create with dpcov_sketch_create(), free with dpcov_sketch_destroy(). */
typedef struct dpcov_sketch dpcov_sketch;

/**
 * Create an empty sketch with @p projection_rows = r rows for rows of @p dim columns, whose Gaussian
 * weights derive from a key of 256 bits drawn from @p rng (which advances).
 * @param[out] out             receives the new handle; untouched on failure.
 * @param dim                  d >= 1.
 * @param projection_rows      r >= 1; r d must fit a 32-bit BLAS integer.
 * @param rng                  the generator the sketch's key is drawn from; untouched if @p dim or
 *                             @p projection_rows is refused.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_TOO_LARGE,
 *         ::DPCOV_E_NOMEM, ::DPCOV_E_PRECONDITION (a generator made before fork() in another
 *         process, dpcov/rng.h).
 */
DPCOV_API dpcov_status dpcov_sketch_create(dpcov_sketch **out, int64_t dim,
                                           int64_t projection_rows, dpcov_rng *rng);

/**
 * Create an empty sketch with the shape and the Gaussian weights (the key) of @p like: a partial
 * sketch for rows of the same release accumulated elsewhere (another thread or chunk), added back
 * with dpcov_sketch_merge(). Draws nothing.
 * @param[out] out  receives the new handle; untouched on failure.
 * @param like      the sketch whose weights the new one shares; required.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_sketch_create_partial(dpcov_sketch **out, const dpcov_sketch *like);

/**
 * Free a sketch and set *@p sketch to NULL. Accepts NULL and a pointer to NULL.
 * @param sketch  the handle to free.
 */
DPCOV_API void dpcov_sketch_destroy(dpcov_sketch **sketch);

/**
 * Add a chunk of rows whose global indices are @p first_index, ..., @p first_index + rows - 1.
 * The whole chunk is validated first; on any error the sketch is unchanged.
 * @param sketch       the accumulator.
 * @param layout       ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param rows         number of rows, >= 0.
 * @param cols         must equal the sketch's d.
 * @param a            the rows (not retained); may be NULL when rows is 0.
 * @param lda          leading dimension of @p a.
 * @param first_index  global index of the first row, >= 0.
 * @param bound        B, finite and >= 2^-960 (the range of row bounds); equal for every chunk.
 * @param policy       a ::dpcov_bound_policy.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_NON_FINITE, ::DPCOV_E_NORM_BOUND, ::DPCOV_E_INVALID_ARGUMENT (index < 0,
 *         overflowing or already used; bad policy), ::DPCOV_E_INCOMPATIBLE (bound differs),
 *         ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_sketch_add_rows(dpcov_sketch *sketch, int32_t layout, int64_t rows,
                                             int64_t cols, const double *a, int64_t lda,
                                             int64_t first_index, double bound, int32_t policy);

/**
 * Add everything @p src accumulated into @p dst.
 * @param dst  the accumulator that grows.
 * @param src  the accumulator to add (unchanged); a partial sketch of @p dst or of the sketch
 *             @p dst is a partial of (the same key, d and r).
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INCOMPATIBLE (d, r, bound or key differ),
 *         ::DPCOV_E_INVALID_ARGUMENT (overlapping row indices, or dst == src).
 */
DPCOV_API dpcov_status dpcov_sketch_merge(dpcov_sketch *dst, const dpcov_sketch *src);

/**
 * Counters of the rows accumulated (same meaning as for a Gram accumulator).
 * @param sketch     the accumulator.
 * @param[out] info  filled; the caller sets info->struct_size.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INVALID_ARGUMENT (struct_size too small).
 */
DPCOV_API dpcov_status dpcov_sketch_get_info(const dpcov_sketch *sketch, dpcov_gram_info *info);

/**
 * The raw sketch S = R [A; w I] (r x d) for a chosen w. NOT private by itself (w = 0 gives R A).
 * @param sketch   the accumulator.
 * @param w        finite, >= 0.
 * @param layout   layout of @p out.
 * @param[out] out r x d; untouched on failure.
 * @param ldo      leading dimension of @p out.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INVALID_ARGUMENT, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_NUMERICAL (an entry overflows: w too large).
 */
DPCOV_API dpcov_status dpcov_sketch_get(const dpcov_sketch *sketch, double w, int32_t layout,
                                        double *out, int64_t ldo);

/**
 * Release ::DPCOV_MECHANISM_JL_RIDGE, ::DPCOV_MECHANISM_JL_RIDGE_SIGMA_MIN or
 * ::DPCOV_MECHANISM_OLS_JL from the accumulated rows: S = R_A A + w R_I with the sketch's own
 * weights (w as the mechanism sets it; w = 0 for OLS) and S^T S / r. d, n and B come from the
 * sketch; params->projection_rows must equal its r. Same guarantee and preconditions as the
 * mechanism (dpcov/mechanism.h).
 * @param mechanism     one of the three ids above.
 * @param sketch        holds at least one chunk; not modified.
 * @param epsilon       the whole budget's epsilon.
 * @param delta         the whole budget's delta.
 * @param params        options with projection_rows = r (required).
 * @param rng           draws the private test's Laplace noise (sigma_min variant and OLS); the
 *                      noise is consumed even when the test then refuses; unchanged only when the
 *                      arguments are rejected.
 * @param layout        layout of both outputs.
 * @param[out] sketch_out  the released S (r x d), or NULL if not wanted.
 * @param lds           leading dimension of @p sketch_out.
 * @param[out] out      S^T S / r (d x d, exactly symmetric).
 * @param ldo           leading dimension of @p out.
 * @param[out] receipt  the receipt; the caller sets receipt->struct_size.
 * @return the statuses of dpcov_mechanism_release(), ::DPCOV_E_INCOMPATIBLE (r differs),
 *         ::DPCOV_E_REFUSED (OLS test failed: nothing written), ::DPCOV_E_PRECONDITION (rows
 *         dropped by ::DPCOV_BOUND_DROP under replace-one neighbours: n would depend on the data).
 */
DPCOV_API dpcov_status dpcov_sketch_release(int32_t mechanism, const dpcov_sketch *sketch,
                                            double epsilon, double delta,
                                            const dpcov_mechanism_params *params, dpcov_rng *rng,
                                            int32_t layout, double *sketch_out, int64_t lds,
                                            double *out, int64_t ldo, dpcov_receipt *receipt);

/**
 * The Gram matrix G = A^T A of the rows accumulated in @p sketch (the one kept alongside the
 * sketch), d x d, in full and exactly symmetric. With dpcov_sketch_get() (w = 0) and
 * dpcov_sketch_get_info() it exports the sketch's state (docs/distributed.md).
 * @param sketch   the accumulator.
 * @param layout   ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param[out] out d x d; untouched on failure.
 * @param ld       leading dimension of @p out, >= d.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_LAYOUT.
 */
DPCOV_API dpcov_status dpcov_sketch_get_gram(const dpcov_sketch *sketch, int32_t layout,
                                             double *out, int64_t ld);

/**
 * Create a sketch holding a state summed elsewhere, e.g. over machines with MPI_Reduce
 * (docs/distributed.md): the data sketch R_A A (dpcov_sketch_get() with w = 0) summed over partial
 * sketches whose rows had distinct global indices, and the Gram accumulator of the same rows
 * (dpcov_gram_create_from_state() from the summed dpcov_sketch_get_gram() and counters). The
 * weights of the w I block derive from a key drawn from @p rng (which advances), as at
 * dpcov_sketch_create(); dpcov_sketch_release() then releases from it as from a sketch of the same
 * rows.
 *
 * The global row indices behind the sum are unknown, so every index counts as used: rows cannot
 * be added to the new sketch (::DPCOV_E_INVALID_ARGUMENT) and it merges only with sketches holding
 * no rows. The library cannot check that @p data_sketch was formed from bounded rows with
 * distinct indices by sketches made for this release (dpcov_sketch_create(), each advancing its
 * generator); privacy rests on it.
 *
 * @param[out] out        receives the new handle; untouched on failure.
 * @param rng             the generator the w I block's key is drawn from; untouched on a refused
 *                        argument.
 * @param projection_rows r >= 1; r d must fit a 32-bit BLAS integer.
 * @param gram            the Gram state of the same rows (d from it); must hold at least one chunk;
 *                        copied.
 * @param layout          layout of @p data_sketch.
 * @param data_sketch     R_A A, r x d, finite; copied, not retained.
 * @param lds             leading dimension of @p data_sketch.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NON_FINITE, ::DPCOV_E_INVALID_ARGUMENT (@p gram holds no
 *         chunk), ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_sketch_create_from_state(dpcov_sketch **out, dpcov_rng *rng,
                                                      int64_t projection_rows,
                                                      const dpcov_gram *gram, int32_t layout,
                                                      const double *data_sketch, int64_t lds);

#ifdef __cplusplus
}
#endif

#endif /* DPCOV_SKETCH_H */
