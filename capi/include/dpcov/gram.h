/**
 * @file dpcov/gram.h
 * @brief Gram accumulator: the sufficient statistic G = A^T A of a stream of bounded rows.
 *
 * Rows arrive in chunks of any size; memory stays O(d^2 + one block of rows) whatever the number of
 * rows. Each row is checked (NaN/Inf refused) and bounded in Euclidean norm by B under a chosen
 * ::dpcov_bound_policy, and the number of clipped or dropped rows is counted. The library cuts the
 * rows into blocks of its own, counted from the first row, so the same rows in the same order give
 * the same bits whatever the chunks (docs/threading.md, Determinism); the rows of an unfinished
 * block are closed into the sum when the state is exported or merged, never saved. Partial
 * accumulators (threads, files, machines) combine with dpcov_gram_merge(); the sum is compensated
 * (Neumaier), so the result does not depend, beyond a few units in the last place, on how the
 * rows were split or in what order the parts were merged.
 *
 * Thread-safety: one accumulator must not be used by two threads at once; distinct accumulators are
 * independent.
 */
#ifndef DPCOV_GRAM_H
#define DPCOV_GRAM_H

#include "dpcov/common.h"
#include "dpcov/rng.h"

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
   * accumulator that received rows under this policy, whether or not any row was dropped
   * (::DPCOV_E_PRECONDITION; refusing only when one was would tell the datasets apart), as does
   * dpcov_gram_create_bounded() asked for it under replace-one; use clipping, or add/remove
   * neighbours.
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
  /**
   * The norm bound B every included row satisfies; 0 before the first row (for an accumulator
   * made by dpcov_gram_create_bounded(), the bounded rows' norm bound from the start).
   */
  double bound;
  /** Values clamped into their public column bounds by dpcov_gram_add_raw_rows() (curator only). */
  int64_t clamped;
  /**
   * The ::dpcov_numerics of a release from the accumulator: ::DPCOV_NUMERICS_EXACT for one made
   * by dpcov_gram_create_bounded() with exact numerics (it holds an exact integer Gram matrix),
   * else ::DPCOV_NUMERICS_IDEALIZED.
   */
  int32_t numerics;
  /**
   * For an accumulator of privacy units (dpcov_row_bounding::max_rows_per_unit > 0): the units
   * closed so far (curator-only under add/remove, where the number of units is private); else 0.
   */
  int64_t units;
  /**
   * For an accumulator of privacy units: rows left out by the limit of k rows per unit (curator
   * diagnostics, never to be published); else 0.
   */
  int64_t truncated;
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
 *         ::DPCOV_E_INVALID_ARGUMENT (bound, policy, an accumulator with exact numerics, which
 *         takes its rows through dpcov_gram_add_raw_rows()), ::DPCOV_E_INCOMPATIBLE (bound differs from
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
 * Both must have the same dimension and, if both hold rows, the same bound; two made by
 * dpcov_gram_create_bounded() (or imported from such a state), the same ::dpcov_row_bounding.
 * @param dst  the accumulator that receives the sum.
 * @param src  the accumulator added to it; must not be @p dst.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INVALID_ARGUMENT (dst == src),
 *         ::DPCOV_E_INCOMPATIBLE (another dimension or bound; one with exact numerics and one
 *         without, or exact ones of different grids; different row bounding specs), ::DPCOV_E_TOO_LARGE (row count overflow),
 *         ::DPCOV_E_NUMERICAL (an entry of the sum would overflow, as for dpcov_gram_add_rows();
 *         @p dst unchanged).
 */
DPCOV_API dpcov_status dpcov_gram_merge(dpcov_gram *dst, const dpcov_gram *src);

/**
 * Write G = A^T A (d x d, in full, exactly symmetric) to @p out. With exact numerics, the Gram
 * matrix of the rows as rounded to the grid: unit^2 times the exact integers (dpcov/exact.h).
 * Not private: the curator's statistic.
 * @param gram    the accumulator.
 * @param layout  ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param out     at least ld * d doubles.
 * @param ld      leading dimension, >= d.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_LAYOUT, ::DPCOV_E_NUMERICAL (exact numerics
 *         only: an entry in data units overflows a double, near B = 1e300; @p out untouched).
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

/**
 * Write the accumulator's whole state to @p buf as bytes that dpcov_gram_import_state() reads in
 * another process or on another machine: a versioned format (magic "DPCOVGRM", format version 1,
 * the library's major version), every number little-endian whatever the host, ending with the
 * BLAKE2b-256 checksum of the bytes before it (layout: capi/gram_state.cpp). It holds the kind
 * (exact or floating-point), the dimension, the counters (rows, clipped, dropped, clamped, and
 * whether a drop policy was used), for an accumulator made by dpcov_gram_create_bounded() its
 * whole ::dpcov_row_bounding (bound, policy, neighbour, constant, column bounds, label bound,
 * numerics, mechanism, epsilon, delta) and, with exact numerics, its grid; then the matrix: the
 * exact integers of the upper triangle, or the floating-point running sum and its compensation.
 * The size is O(d^2) bytes whatever the number of rows.
 *
 * The state is the curator's, not a release: it holds the exact Gram matrix and data-dependent
 * counters. Move it only inside the trust boundary of the rows (docs/distributed.md).
 * @param gram     the accumulator; its matrix and counters unchanged (the rows of an unfinished
 *                 block are closed into its sum, so that it and the imported state continue alike).
 * @param buf      a buffer of at least @p cap bytes, or NULL to query the size in @p written.
 * @param cap      bytes available at @p buf (ignored when @p buf is NULL).
 * @param written  receives the state's size in bytes (on success only).
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER (gram, written), ::DPCOV_E_BUFFER_TOO_SMALL
 *         (cap below the size; @p buf and @p written untouched), ::DPCOV_E_PRECONDITION (an
 *         accumulator of privacy units with an open unit: call dpcov_gram_finish_units()
 *         first; the state carries the finished units' id ranges and counts, never raw rows),
 *         ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_gram_export_state(const dpcov_gram *gram, void *buf, size_t cap,
                                               size_t *written);

/**
 * Create an accumulator from a state written by dpcov_gram_export_state(), in this process or
 * another: it continues as the exported one would (rows added with dpcov_gram_add_raw_rows()
 * are bounded by the same spec), and states of the partitions of a data set, imported and merged
 * with dpcov_gram_merge(), hold what one accumulator of all the rows holds. With exact numerics
 * that is bit for bit (integer addition), so a release from the merged states is byte-identical
 * to the single-process release with the same generator, however the rows were partitioned and
 * ordered. A bounded state's spec is planned again here: its grid must be the one this library
 * plans for it.
 *
 * What the library checks: the magic, the format and major versions, the length, the checksum
 * (a corrupted byte), the spec (as dpcov_gram_create_bounded()), the grid, and what a Gram matrix
 * of that many bounded rows satisfies (diagonal >= 0, trace <= rows times the bound on each row's
 * square norm, off-diagonal entries within the mean of their diagonal entries; for the
 * floating-point kind as dpcov_gram_create_from_state()). It cannot check where the state came
 * from: privacy rests on every row behind it having been bounded.
 * @param[out] out  receives the new handle; untouched on failure.
 * @param buf       the state's bytes; not retained.
 * @param len       the state's size in bytes: exactly what dpcov_gram_export_state() wrote.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER (out, buf), ::DPCOV_E_INVALID_ARGUMENT (wrong
 *         magic, truncated, trailing bytes, corrupted (checksum), unknown kind or flags, counters
 *         out of range, and everything dpcov_gram_create_bounded() refuses in the spec),
 *         ::DPCOV_E_INCOMPATIBLE (another format version or library major version; a grid or kind
 *         other than the spec's), ::DPCOV_E_DIMENSION, ::DPCOV_E_NON_FINITE,
 *         ::DPCOV_E_NORM_BOUND (entries no bounded rows can sum to), ::DPCOV_E_PRECONDITION,
 *         ::DPCOV_E_NUMERICAL, ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_gram_import_state(dpcov_gram **out, const void *buf, size_t len);

/**
 * How dpcov_gram_add_raw_rows() bounds each raw row before it is accumulated: the whole of the
 * library's row bounding (proofs/row_bound.md, proofs/column_bounds.md), so that no surface bounds
 * rows itself. A raw row is [x] or, with a label, [x, y] (y last). The accumulated rows are
 * [c, x', y'] with x' = x bounded in norm by @c bound under @c policy, the constant column c only
 * when @c constant > 0 and the label y' only when @c label_bound > 0; or, with column bounds,
 * [1, z] with z_j = clamp((x_j - centre_j) / half_width_j, -1, 1). Fill with
 * dpcov_row_bounding_default() and set the fields wanted.
 */
typedef struct dpcov_row_bounding {
  /** Set by dpcov_row_bounding_default() to sizeof(dpcov_row_bounding). */
  size_t struct_size;
  /** B on the Euclidean norm of x, finite and >= 2^-960 (ignored with column bounds). Default 1. */
  double bound;
  /** A ::dpcov_bound_policy for x and the label (default ::DPCOV_BOUND_CLIP). */
  int32_t policy;
  /**
   * The ::dpcov_neighbour relation the rows will be released under (default replace-one):
   * ::DPCOV_BOUND_DROP is refused under replace-one, where it would make n depend on the data.
   */
  int32_t neighbour;
  /**
   * 0 (default: none), or c finite > 0 put in front of every row: rows [c, x'] with x' kept a few
   * ulps within B ((2 d + 24) eps relatively, not counted as clipping unless ||x|| > B), of norm
   * bound sqrt(2) B rounded up for c = B (`dpcov release --add-constant`, centring), else
   * hypot(c, B) with room for rounding (the regression's intercept, c = 1).
   */
  double constant;
  /**
   * NULL (default), or the public lower bounds of the d columns (then @c upper too): rows
   * [1, z] of norm bound dpcov_column_bounds_norm_bound(d); only with constant 0, no label and
   * ::DPCOV_BOUND_CLIP. Read when the accumulator is created, not retained.
   */
  const double *lower;
  /** NULL (default), or the public upper bounds of the d columns, each > its lower bound. */
  const double *upper;
  /**
   * 0 (default: no label), or B_y finite > 0: the last raw column is a label y bounded
   * |y| <= B_y under @c policy (clipped to +-B_y, the row rejected, or dropped).
   */
  double label_bound;
  /**
   * A ::dpcov_numerics (default ::DPCOV_NUMERICS_EXACT). With @c mechanism naming
   * ::DPCOV_MECHANISM_ANALYZE_GAUSS or ::DPCOV_MECHANISM_LAPLACE_SYM, EXACT makes the accumulator
   * hold the exact integer Gram matrix of the bounded rows rounded to the grid of that release
   * (dpcov/exact.h, proofs/exact_additive.md), so that dpcov_mechanism_release_gram() releases
   * it with floating-point-safe numerics; IDEALIZED keeps the floating-point Gram matrix (a
   * release from it adds floating-point noise and its receipt says
   * ::DPCOV_NUMERICS_IDEALIZED). Without such a mechanism the accumulator is the floating-point
   * one whatever this field says (no other mechanism has exact numerics yet).
   */
  int32_t numerics;
  /**
   * 0 (default: no release named), or the ::dpcov_mechanism_id the rows will be released with:
   * with exact numerics the grid is chosen now, from d, B, @c epsilon, @c delta and
   * @c neighbour (never from the rows), and dpcov_mechanism_release_gram() refuses a release
   * whose plan chose another grid (::DPCOV_E_INCOMPATIBLE).
   */
  int32_t mechanism;
  /** The release's epsilon, finite > 0 (read only with an exact @c mechanism; default 1). */
  double epsilon;
  /**
   * The release's delta: in (0, 1) for Analyze Gauss, 0 or in (0, 1) for symmetric Laplace
   * (read only with an exact @c mechanism; default 1e-6).
   */
  double delta;
  /**
   * 0 (default: every row is its own privacy unit), or k in [1, 2^20]: the rows belong to privacy
   * units (e.g. people) given by dpcov_gram_add_unit_rows(), and of each unit at most k rows are
   * kept, a uniformly random k-subset drawn with the release's generator; the neighbour relation
   * is then on units (a unit added or removed, or all its rows replaced). The accumulator's bound
   * (dpcov_gram_info::bound) is the unit bound B_u >= sqrt(k) B_row (B_row the bounded rows' norm
   * bound), every unit's contribution being positive semidefinite with trace <= B_u^2, and a
   * release from it is the row-level release at B_u (proofs/unit_gram_sensitivity.md), whose
   * receipt's n is the number of units (public under replace-one, withheld under add/remove).
   * Policy ::DPCOV_BOUND_CLIP or ::DPCOV_BOUND_DROP (add/remove only); ::DPCOV_BOUND_REJECT is
   * refused, since a unit's rows are bounded only once the unit closes, chunks later.
   */
  int64_t max_rows_per_unit;
  /**
   * 0 (default), or 1: the bounded rows are the same whatever the units of x and y. x, bounded
   * by @c bound under @c policy, is then mapped to x sqrt(d) / B (norm <= sqrt(d), d the columns
   * of x) and y, bounded by @c label_bound, to y / B_y (|y| <= 1): rows [1, x', y'] of norm
   * bound sqrt(2 + d) (with room for rounding), each column on the scale of the intercept's
   * constant. A regression on them is the regression on the raw rows mapped back by public
   * factors (dpcov_row_bounding_coefficient_factors()); without it the fit depends on the units,
   * a bound far from sqrt(d) leaving the slopes (B << sqrt(d)) or the intercept (B >> sqrt(d))
   * in the noise (proofs/balanced_rows.md). @c constant 0 or 1 only; not with column bounds,
   * which balance the columns already.
   */
  int32_t balanced;
} dpcov_row_bounding;

/**
 * Fill @p spec with the defaults: struct_size, bound 1, ::DPCOV_BOUND_CLIP, replace-one, no
 * constant, no column bounds, no label, ::DPCOV_NUMERICS_EXACT, no mechanism (set it, with
 * epsilon and delta, for an exact release), epsilon 1, delta 1e-6.
 * Writes min(@p size, sizeof(dpcov_row_bounding)) bytes and sets struct_size to that count, so a
 * program compiled against an older, smaller struct is never overrun; call it through
 * dpcov_row_bounding_default(), which passes the size the program was compiled with.
 * @param[out] spec  the struct to fill; required; untouched on error.
 * @param size  sizeof *spec as the caller compiled it; at least the struct's first
 *   shipped size.
 * @return ::DPCOV_OK; ::DPCOV_E_NULL_POINTER; ::DPCOV_E_INVALID_ARGUMENT for a size below
 *   the first shipped size.
 */
DPCOV_API dpcov_status dpcov_row_bounding_init(dpcov_row_bounding *spec, size_t size);

/**
 * dpcov_row_bounding_init() with sizeof the struct this program was compiled with.
 * @param[out] spec  the struct to fill; required.
 * @return as dpcov_row_bounding_init().
 */
static inline dpcov_status dpcov_row_bounding_default(dpcov_row_bounding *spec) {
  return dpcov_row_bounding_init(spec, sizeof *spec);
}

/**
 * The public factors that map a regression on rows bounded by @p spec back to the raw rows'
 * units: coefficient j of the bounded rows' regressors ([c,] x', the label left out) times
 * factors[j] is the coefficient on the raw columns ([intercept,] x), and so are its standard
 * error and interval ends (the factors are > 0; p-values are unchanged). With
 * dpcov_row_bounding::balanced: c B_y for the constant's column (the intercept) and sqrt(d) B_y / B
 * for each column of x (B_y read as 1 without a label); otherwise c and 1. Pure: no rows read.
 * @param spec     the bounding, read up to its struct_size; checked as by
 *                 dpcov_gram_create_bounded().
 * @param cols     raw columns, label included.
 * @param factors  receives @p count values; untouched on error.
 * @param count    the regressors: cols + 1 (a constant, no label), cols (a constant and a
 *                 label, or neither) or cols - 1 (a label, no constant).
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER (spec, factors), ::DPCOV_E_DIMENSION (@p count not
 *         the regressors' number), and what dpcov_gram_create_bounded() refuses in the spec.
 */
DPCOV_API dpcov_status dpcov_row_bounding_coefficient_factors(const dpcov_row_bounding *spec,
                                                              int64_t cols, double *factors,
                                                              int64_t count);

/**
 * Which row of a chunk dpcov_gram_add_raw_rows() refused, and why, as data (the message is for
 * people, not to be parsed).
 */
typedef struct dpcov_row_refusal {
  /** Set by the caller to sizeof(dpcov_row_refusal); fields beyond it are not written. */
  size_t struct_size;
  /** The refused row, 0-based in the chunk; -1 when the failure names no row. */
  int64_t row;
  /** 1 when the label was over dpcov_row_bounding::label_bound, else 0. */
  int32_t label;
  /** The measure over the bound is norm_rest * 2^norm_exponent (0 when none). */
  int32_t norm_exponent;
  /**
   * With norm_exponent, the norm of x (or |y|) that was over its bound under
   * ::DPCOV_BOUND_REJECT: finite even when the norm is above the largest double. 0 when none.
   */
  double norm_rest;
} dpcov_row_refusal;

/**
 * Bound raw rows as @p spec says without accumulating them, for a caller that needs the bounded
 * rows themselves (e.g. a streaming reader that puts a constant column in front): the same
 * function dpcov_gram_add_raw_rows() applies. The rows kept (all but the dropped ones) are written
 * in order to @p out.
 * @param spec     the bounding (see ::dpcov_row_bounding), read up to its struct_size.
 * @param layout   ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR, of @p a.
 * @param rows     number of rows, >= 0.
 * @param cols     raw columns, label included.
 * @param a        the raw rows; not retained.
 * @param lda      leading dimension of @p a.
 * @param out      row-major, at least rows * ldout doubles (NULL when rows is 0).
 * @param ldout    leading dimension of @p out, >= the bounded rows' columns (cols, plus 1 with a
 *                 constant or column bounds).
 * @param info     receives (up to its struct_size) dim (the bounded columns), rows (rows kept),
 *                 clipped, dropped, clamped, and bound (the bounded rows' public norm bound).
 * @param refusal  NULL, or as for dpcov_gram_add_raw_rows().
 * @return as dpcov_gram_create_bounded() and dpcov_gram_add_raw_rows(); on failure @p out and
 *         @p info are untouched.
 */
DPCOV_API dpcov_status dpcov_row_bounding_apply(const dpcov_row_bounding *spec, int32_t layout,
                                                int64_t rows, int64_t cols, const double *a,
                                                int64_t lda, double *out, int64_t ldout,
                                                dpcov_gram_info *info, dpcov_row_refusal *refusal);

/**
 * Create an empty accumulator for raw rows of @p cols columns bounded as @p spec says; its
 * dimension (dpcov_gram_info::dim) is that of the bounded rows (cols, plus 1 with a constant or
 * column bounds) and its bound (dpcov_gram_info::bound) their public norm bound. Add rows with
 * dpcov_gram_add_raw_rows() (dpcov_gram_add_rows() with that bound also works, without the
 * bounding, except with exact numerics). @p spec is read up to its struct_size; its pointers are
 * not retained.
 *
 * With dpcov_row_bounding::mechanism naming Analyze Gauss or symmetric Laplace and the default
 * ::DPCOV_NUMERICS_EXACT, the accumulator is exact: each bounded row is rounded to the grid of
 * that release's plan (dpcov_exact_plan() for the bounded rows' d and norm bound, epsilon, delta
 * and neighbour) and summed in exact integers, in O(d^2) memory whatever the number of rows, and
 * dpcov_mechanism_release_gram() releases it with exact numerics. This is the default way to
 * release those mechanisms from rows.
 * @param[out] out  receives the new handle; untouched on failure.
 * @param cols      raw columns, label included: 1 <= cols (2 with a label), and the bounded rows'
 *                  dimension <= 46340.
 * @param spec      the bounding (see ::dpcov_row_bounding).
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_NON_FINITE,
 *         ::DPCOV_E_INVALID_ARGUMENT (struct_size, bound, policy, neighbour, constant,
 *         label_bound, column bounds, a combination column bounds exclude, a norm bound that
 *         overflows, numerics, an unknown mechanism, max_rows_per_unit outside [0, 2^20] or with
 *         ::DPCOV_BOUND_REJECT; with exact numerics, epsilon or delta out of range and everything
 *         dpcov_exact_plan() refuses), ::DPCOV_E_PRECONDITION
 *         (::DPCOV_BOUND_DROP under replace-one; with exact numerics, no grid fits epsilon and
 *         delta), ::DPCOV_E_NUMERICAL (exact numerics: the grid's unit underflows),
 *         ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_gram_create_bounded(dpcov_gram **out, int64_t cols,
                                                 const dpcov_row_bounding *spec);

/**
 * Bound the raw rows of @p a as the accumulator's ::dpcov_row_bounding says and add them: the
 * counters (dpcov_gram_get_info()) gain the rows kept, clipped (a row whose x or label was over
 * its bound and was scaled or clamped to it counts once), dropped, and the clamped values. The
 * whole chunk is bounded before anything is added: on failure the accumulator is unchanged.
 * @param gram     an accumulator made by dpcov_gram_create_bounded().
 * @param layout   ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param rows     number of rows, >= 0 (0 is a no-op, and @p a may then be NULL).
 * @param cols     raw columns; must equal the accumulator's.
 * @param a        the raw rows; not retained.
 * @param lda      leading dimension (>= cols for row-major, >= max(1, rows) for column-major).
 * @param refusal  NULL, or receives (up to its struct_size, which must then be set) the refused
 *                 row of a ::DPCOV_E_NON_FINITE or ::DPCOV_E_NORM_BOUND failure; row -1 on
 *                 success and on every other failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_INVALID_ARGUMENT (an accumulator not made by dpcov_gram_create_bounded(),
 *         one of privacy units, refusal->struct_size), ::DPCOV_E_NON_FINITE, ::DPCOV_E_NORM_BOUND (under
 *         ::DPCOV_BOUND_REJECT), ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NUMERICAL (as
 *         dpcov_gram_add_rows()), ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_gram_add_raw_rows(dpcov_gram *gram, int32_t layout, int64_t rows,
                                               int64_t cols, const double *a, int64_t lda,
                                               dpcov_row_refusal *refusal);

/**
 * Add raw rows with the ids of their privacy units to an accumulator made with
 * dpcov_row_bounding::max_rows_per_unit = k > 0. Each unit's rows must be contiguous and the
 * units must arrive in increasing order of id across calls (sort the rows by the unit column), so
 * that a unit is recognised in O(k d) memory: of each unit at most k rows are kept, chosen
 * uniformly at random by reservoir sampling with @p rng, and each kept row is bounded as the spec
 * says. A unit closes when a larger id arrives or at dpcov_gram_finish_units(); its kept rows are
 * then added (proofs/unit_gram_sensitivity.md for the sensitivity at unit level). Which rows a
 * unit keeps depends on the generator's state when the unit arrives, so the order of the units is
 * part of the result: the library's order, which the command line and Python follow, is the units
 * in order of their first row in the input (numbered 0, 1, 2, ... in that order), each unit's rows
 * in input order; a caller that groups the rows that way keeps the same rows for the same seed.
 * The whole chunk is checked before any draw: on failure the accumulator is
 * unchanged, and so is @p rng but after ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NUMERICAL and
 * ::DPCOV_E_NOMEM (draws once made are consumed).
 * @param gram     an accumulator made by dpcov_gram_create_bounded() with max_rows_per_unit > 0.
 * @param rng      the release's generator (dpcov/rng.h); not retained. Thread-safety as its own.
 * @param layout   ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param rows     number of rows, >= 0 (0 is a no-op, and @p a and @p units may then be NULL).
 * @param cols     raw columns; must equal the accumulator's.
 * @param a        the raw rows; not retained.
 * @param lda      leading dimension (>= cols for row-major, >= max(1, rows) for column-major).
 * @param units    @p rows unit ids, non-decreasing, the first >= the open unit's id (> the last
 *                 closed unit's id when none is open); not retained.
 * @param refusal  NULL, or as for dpcov_gram_add_raw_rows(): the refused row (0-based in the
 *                 chunk) of a ::DPCOV_E_NON_FINITE failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_INVALID_ARGUMENT (an accumulator without units, a unit id below the previous
 *         one or repeating a closed unit, naming the row; refusal->struct_size),
 *         ::DPCOV_E_NON_FINITE, ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NUMERICAL, ::DPCOV_E_NOMEM.
 * @proof proofs/unit_gram_sensitivity.md
 */
DPCOV_API dpcov_status dpcov_gram_add_unit_rows(dpcov_gram *gram, dpcov_rng *rng, int32_t layout,
                                                int64_t rows, int64_t cols, const double *a,
                                                int64_t lda, const int64_t *units,
                                                dpcov_row_refusal *refusal);

/**
 * Close the open unit of an accumulator of privacy units, adding its kept rows: call it after the
 * last rows, before dpcov_mechanism_release_gram() or dpcov_gram_merge(), which refuse an
 * accumulator with an open unit. Rows added later must have ids above every unit seen. Partitions
 * of the rows merge when they hold disjoint ranges of unit ids (dpcov_gram_merge() refuses
 * overlapping ranges with ::DPCOV_E_INCOMPATIBLE: a unit split between partitions would count up
 * to 2k rows). A no-op when no unit is open.
 * @param gram     an accumulator made with max_rows_per_unit > 0.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INVALID_ARGUMENT (an accumulator without
 *         units), ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NUMERICAL, ::DPCOV_E_NOMEM (the unit then stays
 *         open).
 */
DPCOV_API dpcov_status dpcov_gram_finish_units(dpcov_gram *gram);

/**
 * The rows the zCDP row mechanisms (Dong-Liang-Yi, CoinPress, CoinPress mean: dpcov/row_passes.h)
 * take from privacy units: exactly k rows per unit, so that their n = k U is public with the
 * number of units U and a unit's rows all replaced are k rows replaced (the mechanism then runs at
 * the row-level rho of dpcov_unit_row_rho()). Of each unit, the rows kept by the accumulators'
 * sampler (a uniformly random k-subset of its rows by reservoir sampling with @p rng, or all of
 * them), then zero rows up to k. The rows are those of whole units, as for
 * dpcov_gram_add_unit_rows() (each unit's rows contiguous, the units in increasing order of id,
 * grouped in the library's order: see dpcov_gram_add_unit_rows());
 * a call holds every row of its units, for a unit continued in another call would keep up to k
 * rows per call. Memory is the call's rows and its output: with more rows than memory, call it
 * once per group of whole units, the groups' ids increasing. Draw the rows once and give every
 * pass of the mechanism the same ones (proofs/unit_group_privacy.md, "Row mechanisms").
 * @param rng      the release's generator (dpcov/rng.h); not retained. Thread-safety as its own.
 *                 Draws are consumed: one bounded uniform integer per row beyond the k-th of its
 *                 unit, none when no unit has more than k rows.
 * @param max_rows_per_unit  k, in [1, 2^20].
 * @param layout   ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR, of @p a and of @p out.
 * @param rows     number of rows, >= 0 (0: nothing drawn or written, and @p a, @p units and
 *                 @p out may then be NULL).
 * @param cols     columns, >= 1.
 * @param a        the raw rows, finite; not retained.
 * @param lda      leading dimension (>= cols for row-major, >= max(1, rows) for column-major).
 * @param units    @p rows unit ids, non-decreasing (each unit's rows contiguous); not retained.
 * @param out      receives k U rows of @p cols columns, unit after unit in increasing order of
 *                 id, each unit's kept rows then its zero rows; must not overlap @p a.
 * @param out_rows k times the number of units in @p units (count the runs of equal ids).
 * @param ldout    leading dimension of @p out (>= cols row-major, >= max(1, out_rows)
 *                 column-major).
 * @param[out] truncated receives one count, the rows left out by the k limit: curator
 *                 diagnostics, never published (the zero rows added are out_rows - rows +
 *                 *truncated).
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION (cols, rows or out_rows
 *         negative, out_rows not k U), ::DPCOV_E_LAYOUT, ::DPCOV_E_INVALID_ARGUMENT (k outside
 *         [1, 2^20], a unit id below the previous row's, naming the row), ::DPCOV_E_NON_FINITE
 *         (naming the row and column), ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NOMEM. Everything is
 *         checked before the first draw, and @p out and @p truncated are written after the last:
 *         on failure they are untouched and nothing is drawn.
 * @proof proofs/unit_group_privacy.md
 */
DPCOV_API dpcov_status dpcov_unit_rows_keep(dpcov_rng *rng, int64_t max_rows_per_unit,
                                            int32_t layout, int64_t rows, int64_t cols,
                                            const double *a, int64_t lda, const int64_t *units,
                                            double *out, int64_t out_rows, int64_t ldout,
                                            int64_t *truncated);

#ifdef __cplusplus
}
#endif

#endif /* DPCOV_GRAM_H */
