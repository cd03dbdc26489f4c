/**
 * @file dpcov/row_passes.h
 * @brief Dong-Liang-Yi and CoinPress as passes over the rows: releases in bounded memory from rows
 *        streamed, re-read or spread over processes and machines.
 *
 * dpcov_dly_release() and dpcov_coinpress_release() take every row in memory. A session releases
 * the same thing from rows it never holds. The session asks for a pass; every process that holds
 * rows creates a partial of that pass (dpcov_row_partial_create() from the session, or
 * dpcov_row_partial_import() of the bytes of an empty partial sent to it), adds its rows in chunks
 * of any size (dpcov_row_partial_add_rows()), and the partials are merged by addition
 * (dpcov_row_partial_merge(), locally or after dpcov_row_partial_export() and import); the
 * merged partial of all n rows finishes the pass (dpcov_row_session_finish_pass()), which draws
 * the pass's noise and decides the next one, until dpcov_row_session_done() reports 1 and the
 * result is read (dpcov_dly_session_result(), dpcov_coinpress_session_result(),
 * dpcov_coinpress_mean_session_result()).
 *
 * The passes: Gauss and Separate make one; Adaptive and AdaptivePaper one, and a second over the
 * rows clipped to the radius r~ their private steps chose when r~ < r; CoinPress one per step
 * (t), each over the rows (centred on a CoinPress mean's release, for
 * dpcov_coinpress_centred_session_create()) whitened by the transform the earlier steps released
 * and clipped to gamma; CoinPress mean one per step, each over the rows projected onto the ball around the
 * centre the earlier steps released (its partial holds a d-vector). A pass is a public function
 * of each row: it depends only on public settings and on what earlier passes released (r~; the
 * whitening transform or the centre, post-processings of the steps' noisy releases, covered by
 * the budget), which the partial's bytes carry so that any process can apply it. No generator
 * leaves the session, and no row leaves the process that adds it: a partial holds only sums over
 * its rows (O(d^2) bytes, O(d) for the mean) and a histogram of its rows' norms (Adaptive).
 *
 * Equality: with the generator of an in-memory release, in the same state, a session releases
 * the same receipt (every constant and every private choice) and the same matrix up to the
 * rounding of the sums: each partial's sums are compensated (Neumaier) across chunks and merges,
 * so the merged sums of any partition of the rows differ from those of one chunk of all rows by a
 * few units in the last place of their largest entry, and the noise is the same draws. One
 * partial holding all rows, added in one call, gives the in-memory release byte for byte (that is
 * how dpcov_dly_release() and dpcov_coinpress_release() run).
 *
 * Privacy: as dpcov_dly_release() and dpcov_coinpress_release() (rho-zCDP under replace-one with n
 * public): the pass form releases the same function of the rows (proofs/dong_liang_yi.md and
 * proofs/coinpress.md, "Passes over the rows"). Partials are the curator's, not releases: they
 * hold exact sums of the rows. Move them only inside the trust boundary of the rows. The session
 * checks what a merged partial of n bounded rows satisfies; it cannot check where it came from.
 *
 * @proof proofs/dong_liang_yi.md
 * @proof proofs/coinpress.md
 *
 * Thread-safety: a session or a partial must not be used by two threads at once; distinct ones
 * are independent (partials of one pass are filled in parallel and merged afterwards).
 */
#ifndef DPCOV_ROW_PASSES_H
#define DPCOV_ROW_PASSES_H

#include "dpcov/coinpress.h"
#include "dpcov/common.h"
#include "dpcov/dong_liang_yi.h"
#include "dpcov/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque release session. Create with dpcov_dly_session_create(),
 *  dpcov_coinpress_session_create(), dpcov_coinpress_mean_session_create() or
 *  dpcov_coinpress_centred_session_create(), free with
 *  dpcov_row_session_destroy(). */
typedef struct dpcov_row_session dpcov_row_session;

/** Opaque partial sums of one pass over some rows. Create with dpcov_row_partial_create() or
 *  dpcov_row_partial_import(), free with dpcov_row_partial_destroy(). */
typedef struct dpcov_row_partial dpcov_row_partial;

/**
 * Start a Dong-Liang-Yi release of @p n rows as passes over them. Checks every setting, as
 * dpcov_dly_plan() does, before it takes the generator.
 * @param[out] out  receives the session; untouched on failure.
 * @param n         number of rows, >= 1 (public): every pass must sum exactly n rows.
 * @param dim       d, 1 <= d <= 46340.
 * @param params    the settings (dpcov_dly_params_default()), or NULL for the defaults.
 * @param rng       the generator: on success the session takes it (it draws the noise from it)
 *                  and sets `*rng` to NULL, so that no one draws from it again; untouched on
 *                  failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER (out, rng, *rng), and the statuses of
 *         dpcov_dly_plan(), ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_dly_session_create(dpcov_row_session **out, int64_t n, int64_t dim,
                                                const dpcov_dly_params *params, dpcov_rng **rng);

/**
 * Start a CoinPress covariance release of @p n rows as t passes over them (one per step).
 * Checks every setting, as dpcov_coinpress_plan() does, before it takes the generator.
 * @param[out] out  receives the session; untouched on failure.
 * @param n         number of rows, >= 1 (public): every pass must sum exactly n rows.
 * @param dim       d, 1 <= d <= 46340.
 * @param params    the settings (K required).
 * @param rng       the generator, taken as by dpcov_dly_session_create().
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER (out, params, rng, *rng), and the statuses of
 *         dpcov_coinpress_plan(), ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_coinpress_session_create(dpcov_row_session **out, int64_t n,
                                                      int64_t dim,
                                                      const dpcov_coinpress_params *params,
                                                      dpcov_rng **rng);

/**
 * Start a CoinPress mean release of @p n rows as t passes over them (one per step): pass i sums
 * the rows projected onto the ball of radius R_i around the centre step i - 1 released (the
 * partial holds a d-vector sum), and finishing it draws step i's noise. Checks every setting, as
 * dpcov_coinpress_mean_plan() does, and the centre before it takes the generator. With the
 * generator of dpcov_coinpress_mean_release() in the same state, the session releases the same
 * receipt and the same mean, byte for byte when one partial holds all rows added in one call
 * (that is how dpcov_coinpress_mean_release() runs), up to the rounding of the sums otherwise.
 * @param[out] out  receives the session; untouched on failure.
 * @param n         number of rows, >= 1 (public): every pass must sum exactly n rows.
 * @param dim       d, 1 <= d <= 46340.
 * @param centre    the public starting centre c, d finite values (not retained); NULL for the
 *                  origin.
 * @param params    the settings (r required).
 * @param rng       the generator, taken as by dpcov_dly_session_create().
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER (out, params, rng, *rng), the statuses of
 *         dpcov_coinpress_mean_plan(), ::DPCOV_E_NON_FINITE (a centre value), ::DPCOV_E_TOO_LARGE,
 *         ::DPCOV_E_NOMEM.
 * @proof proofs/coinpress_mean.md
 */
DPCOV_API dpcov_status dpcov_coinpress_mean_session_create(
    dpcov_row_session **out, int64_t n, int64_t dim, const double *centre,
    const dpcov_coinpress_mean_params *params, dpcov_rng **rng);

/**
 * Start the CoinPress covariance of the rows centred on the private mean that @p mean_session
 * released (coinpress --center): t passes as dpcov_coinpress_session_create() makes, each over
 * the same n rows, every row centred on the mean as it is added (x - mean, or x / 2 - mean / 2
 * where that difference overflows: the same direction, far beyond every clip radius), so that no
 * caller holds the centred rows. The new session takes over the mean session's generator where
 * its noise stopped: the two sessions draw what dpcov_coinpress_mean_release() followed by
 * dpcov_coinpress_release() on the rows centred on its mean draw from one generator, and with one
 * partial of all rows added in one call per pass release the same bytes. The mean session stays
 * readable (dpcov_coinpress_mean_session_result()) but hands its generator on once only.
 *
 * Privacy: the mean is a release of its session's budget; centring on it maps replace-one
 * neighbours to replace-one neighbours, so the covariance is params->rho-zCDP on them and the
 * pair is (mean rho + params->rho)-zCDP by adaptive composition (proofs/coinpress_mean.md,
 * "Centring"). CoinPress clips the whitened rows to gamma whatever they are: centring changes
 * no constant. dpcov_coinpress_centring_split() gives the shares the CLI and Python use.
 * @param[out] out          receives the session; untouched on failure.
 * @param mean_session      a done CoinPress mean session (dpcov_coinpress_mean_session_create())
 *                          whose generator was not handed on yet; n and d are its own. Unchanged
 *                          on failure; on success it can no longer hand on its generator.
 * @param params            the covariance's settings (K required; rho its share of the budget),
 *                          checked as dpcov_coinpress_plan() checks them before anything changes.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER (out, mean_session, params),
 *         ::DPCOV_E_INVALID_ARGUMENT (mean_session is not done, failed, another mechanism's, or
 *         handed on its generator already), the statuses of dpcov_coinpress_plan(),
 *         ::DPCOV_E_NOMEM.
 * @proof proofs/coinpress_mean.md
 */
DPCOV_API dpcov_status dpcov_coinpress_centred_session_create(dpcov_row_session **out,
                                                              dpcov_row_session *mean_session,
                                                              const dpcov_coinpress_params *params);

/** Free a session (and its generator) and set `*session` to NULL. Accepts NULL and a pointer to
 *  NULL. Noise already drawn stays consumed: a session destroyed midway spent its budget. */
DPCOV_API void dpcov_row_session_destroy(dpcov_row_session **session);

/**
 * Whether the release is complete.
 * @param session   the session.
 * @param[out] done 1 when the result can be read, 0 while a pass is pending; untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INVALID_ARGUMENT (the session failed
 *         after drawing noise: its budget is spent and it can only be destroyed).
 */
DPCOV_API dpcov_status dpcov_row_session_done(const dpcov_row_session *session, int32_t *done);

/**
 * Create an empty partial of the session's pending pass. Its exported bytes carry the pass (public
 * values only), so a process without the session can import them and fill the partial.
 * @param[out] out  receives the partial; untouched on failure.
 * @param session   the session.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INVALID_ARGUMENT (no pass is pending:
 *         the release is complete, or the session failed), ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_row_partial_create(dpcov_row_partial **out,
                                                const dpcov_row_session *session);

/** Free a partial and set `*partial` to NULL. Accepts NULL and a pointer to NULL. */
DPCOV_API void dpcov_row_partial_destroy(dpcov_row_partial **partial);

/**
 * Add the pass's function of each row of @p a (rows x cols) to the partial's sums. Rows above
 * the mechanism's bound are clipped, as part of the mechanism.
 * @param partial  the partial.
 * @param layout   ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param rows     number of rows, >= 0 (0 adds nothing).
 * @param cols     number of columns: the session's d.
 * @param a        the rows, finite; not modified, not retained. May be NULL when rows = 0.
 * @param lda      leading dimension of @p a (>= cols row-major, >= rows column-major).
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_LAYOUT, ::DPCOV_E_DIMENSION (cols is not
 *         d, rows < 0), ::DPCOV_E_NON_FINITE (a NaN or infinite entry: nothing added),
 *         ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NOMEM. On failure the partial is unchanged.
 */
DPCOV_API dpcov_status dpcov_row_partial_add_rows(dpcov_row_partial *partial, int32_t layout,
                                                  int64_t rows, int64_t cols, const double *a,
                                                  int64_t lda);

/**
 * dst += src: the sums and row counts of two partials of the same pass.
 * @param dst  the partial that receives the sum.
 * @param src  the partial added; unchanged. May be @p dst (doubles it).
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INCOMPATIBLE (partials of different
 *         passes: a pass is the function of the rows it sums, named by its mechanism, step,
 *         dimension, radii, transform and centre, so the same pass of another session sums the
 *         same and merges; @p dst unchanged), ::DPCOV_E_INVALID_ARGUMENT (the merged sums would
 *         not be finite; @p dst unchanged), ::DPCOV_E_TOO_LARGE (the row count overflows).
 */
DPCOV_API dpcov_status dpcov_row_partial_merge(dpcov_row_partial *dst, const dpcov_row_partial *src);

/**
 * Write the partial (its pass and its sums) as bytes that dpcov_row_partial_import() reads in
 * another process or on another machine: magic "DPCOVRPS", format version 1, the library's major
 * version, every number little-endian whatever the host, ending with the BLAKE2b-256 checksum of
 * the bytes before it (layout: capi/row_partial_state.cpp). O(d^2) bytes whatever the number of
 * rows. An empty partial's bytes are how a driver hands a pass to its workers.
 * @param partial  the partial; unchanged.
 * @param buf      a buffer of at least @p cap bytes, or NULL to query the size in @p written.
 * @param cap      bytes available at @p buf (ignored when @p buf is NULL).
 * @param written  receives the size in bytes (on success only).
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER (partial, written), ::DPCOV_E_BUFFER_TOO_SMALL (cap
 *         below the size; @p buf and @p written untouched), ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_row_partial_export(const dpcov_row_partial *partial, void *buf,
                                                size_t cap, size_t *written);

/**
 * Create a partial from bytes written by dpcov_row_partial_export(). Checks the magic, the format
 * and major versions, the length, the checksum, the pass (as the session would build it: radii
 * in the range of row bounds, a finite transform of d^2 entries), and what sums of that many
 * bounded rows satisfy (finite, diagonal >= 0 and at most rows times the square of the pass's
 * bound, histogram counts >= 0 adding up to at most rows).
 * @param[out] out  receives the partial; untouched on failure.
 * @param buf       the bytes; not retained.
 * @param len       exactly what dpcov_row_partial_export() wrote.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INVALID_ARGUMENT (wrong magic,
 *         truncated, trailing bytes, corrupted, a malformed pass, sums no bounded rows give),
 *         ::DPCOV_E_INCOMPATIBLE (another format or library major version), ::DPCOV_E_DIMENSION,
 *         ::DPCOV_E_NON_FINITE, ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_row_partial_import(dpcov_row_partial **out, const void *buf,
                                                size_t len);

/**
 * Finish the pending pass with the merged partial of all n rows: draw the pass's noise from the
 * session's generator and decide the next pass (or complete the release). The partial is
 * consumed: destroyed and `*partial` set to NULL, on success and on a failure after the first
 * draw (the session then can only be destroyed: its noise is spent). A failure before any draw
 * (wrong pass, wrong number of rows) leaves the session and the partial as they were.
 * @param session  the session.
 * @param partial  the merged partial of the pending pass, holding exactly n rows.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER (session, partial, *partial),
 *         ::DPCOV_E_INVALID_ARGUMENT (no pass is pending), ::DPCOV_E_INCOMPATIBLE (a partial of
 *         another pass, as for dpcov_row_partial_merge()), ::DPCOV_E_DIMENSION (not n rows),
 *         ::DPCOV_E_NUMERICAL (an eigendecomposition failed, after drawing), ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_row_session_finish_pass(dpcov_row_session *session,
                                                     dpcov_row_partial **partial);

/**
 * The result of a complete Dong-Liang-Yi session: what dpcov_dly_release() writes.
 * @param session       a session of dpcov_dly_session_create(), done.
 * @param layout        ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param[out] out      the d x d release, exactly symmetric; untouched on failure.
 * @param ldo           leading dimension of @p out, >= d.
 * @param[out] receipt  the receipt; the caller sets receipt->struct_size. Untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_LAYOUT, ::DPCOV_E_INVALID_ARGUMENT (not
 *         done, a CoinPress session, struct_size too small), ::DPCOV_E_NUMERICAL (a result that is
 *         not finite).
 */
DPCOV_API dpcov_status dpcov_dly_session_result(const dpcov_row_session *session, int32_t layout,
                                                double *out, int64_t ldo,
                                                dpcov_dly_receipt *receipt);

/**
 * The result of a complete CoinPress session: what dpcov_coinpress_release() writes.
 * @param session       a session of dpcov_coinpress_session_create() or
 *                      dpcov_coinpress_centred_session_create(), done.
 * @param layout        ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param[out] out      the d x d estimate, exactly symmetric, positive semidefinite; untouched
 *                      on failure.
 * @param ldo           leading dimension of @p out, >= d.
 * @param[out] receipt  the receipt; the caller sets receipt->struct_size. Untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_LAYOUT, ::DPCOV_E_INVALID_ARGUMENT (not
 *         done, a Dong-Liang-Yi session, struct_size too small), ::DPCOV_E_NUMERICAL (a result
 *         that is not finite).
 */
DPCOV_API dpcov_status dpcov_coinpress_session_result(const dpcov_row_session *session,
                                                      int32_t layout, double *out, int64_t ldo,
                                                      dpcov_coinpress_receipt *receipt);

/**
 * The result of a complete CoinPress mean session: what dpcov_coinpress_mean_release() writes.
 * @param session       a session of dpcov_coinpress_mean_session_create(), done.
 * @param[out] mean     the estimate, d values; untouched on failure.
 * @param[out] receipt  the receipt; the caller sets receipt->struct_size. Untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INVALID_ARGUMENT (not done, another
 *         mechanism's session, struct_size too small), ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NUMERICAL
 *         (a mean that is not finite).
 */
DPCOV_API dpcov_status dpcov_coinpress_mean_session_result(const dpcov_row_session *session,
                                                           double *mean,
                                                           dpcov_coinpress_mean_receipt *receipt);

#ifdef __cplusplus
}
#endif

#endif /* DPCOV_ROW_PASSES_H */
