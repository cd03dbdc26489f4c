/**
 * @file dpcov/exact.h
 * @brief Floating-point-safe ("exact numerics") Analyze Gauss and symmetric Laplace, released from
 *        the rows themselves.
 *
 * The mechanisms of dpcov/mechanism.h add continuous noise in floating point, so their guarantee
 * is that of the idealized real-valued mechanism (Mironov 2012; dpcov_receipt::numerics =
 * ::DPCOV_NUMERICS_IDEALIZED). The two entry points here give ::DPCOV_MECHANISM_ANALYZE_GAUSS and
 * ::DPCOV_MECHANISM_LAPLACE_SYM a mode whose guarantee holds for the values as computed
 * (::DPCOV_NUMERICS_EXACT):
 * 1. every row x (norm <= B after the bound policy) becomes the integer vector
 *    z = round(x 2^k / B) on a grid of unit B 2^-k, with ||z||^2 <= r2 = (2^k + ceil(sqrt(d)/2)
 *    + 1)^2 checked in integers (the rounding's effect on the sensitivity is in the constants);
 * 2. the Gram matrix of the z is computed exactly (integers);
 * 3. integer noise is added to each upper-triangle entry: the discrete Gaussian N_Z(0, s2), whose
 *    variance is that of the analytic Gaussian (Balle-Wang 2018 Thm 8) plus 4, by comparison
 *    with the continuous mechanism (proofs/discrete_gaussian_smoothing.md; rho-zCDP with rho =
 *    Delta^2 / (2 s2), CKS 2020 Thm 14, for a zCDP ledger) or the discrete Laplace
 *    P(x) proportional to exp(-|x| / t) (pure epsilon-DP), from exact integer samplers drawing
 *    the generator's words (Canonne, Kamath, Steinke, NeurIPS 2020, Alg. 1-3);
 * 4. the release is (B 2^-k)^2 times the noisy integers, mirrored: a post-processing.
 *
 * The grid k (at most 12 bits) depends on d, epsilon, delta and the neighbour relation only,
 * never on n. The rows are needed (a Gram matrix in floating point has already lost the exact
 * integers), so there is no Gram-input form; the rows may come all at once
 * (dpcov_exact_release_rows()) or as a stream of chunks through an exact accumulator
 * (dpcov_exact_gram_create(), dpcov_exact_gram_add_rows(), dpcov_exact_gram_merge(),
 * dpcov_exact_gram_release()), which holds the exact integer Gram matrix in O(d^2) memory
 * whatever the number of rows; both give the same integers for the same rows, bit for bit. The
 * guarantee also assumes the generator is unpredictable: ChaCha20 from OS entropy
 * (dpcov_rng_create_from_entropy()); a seed voids it.
 *
 * Thread-safety: plan is reentrant; a release uses its generator exclusively; an accumulator is
 * used by one thread at a time (distinct accumulators are independent).
 * @proof proofs/exact_additive.md
 */
#ifndef DPCOV_EXACT_H
#define DPCOV_EXACT_H

#include "dpcov/common.h"
#include "dpcov/gram.h"
#include "dpcov/mechanism.h"
#include "dpcov/receipt.h"
#include "dpcov/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The integer noise law of an exact release. */
enum dpcov_integer_noise {
  /** The discrete Gaussian: P(x) proportional to exp(-x^2 / (2 s2)), s2 = noise_parameter. */
  DPCOV_INTEGER_NOISE_DISCRETE_GAUSSIAN = 1,
  /** The discrete Laplace: P(x) proportional to exp(-|x| / t), t = noise_parameter. */
  DPCOV_INTEGER_NOISE_DISCRETE_LAPLACE = 2
};

/**
 * The grid and the integer noise of an exact release, all public constants. The receipt's
 * sigma (Gauss) is sqrt(s2) unit^2 and scale (Laplace) t unit^2, in data units.
 */
typedef struct dpcov_exact_grid {
  /** Set by the caller to sizeof(dpcov_exact_grid); the library writes no byte beyond it. */
  size_t struct_size;
  /** k: coordinates are rounded to multiples of unit = B 2^-k. */
  int32_t bits;
  /** A ::dpcov_integer_noise. */
  int32_t noise_law;
  /** B 2^-k: the grid of the rounded coordinates; the release is unit^2 times integers. */
  double unit;
  /** r2: every rounded row has ||z||^2 <= r2 (integers), the norm the sensitivity uses. */
  int64_t norm2_bound;
  /** The discrete Gaussian's s2 or the discrete Laplace's t, in grid units (an integer). */
  uint64_t noise_parameter;
} dpcov_exact_grid;

/**
 * The value a coordinate @p value of a bounded row holds once an exact release has rounded it to
 * its grid: round(value 2^bits / B) B 2^-bits, rounded to nearest with ties to even as the exact
 * accumulators round every coordinate. A constant column (dpcov_row_bounding::constant) holds
 * this value, not @p value, in every row of an exact release, so the release's (const, const)
 * entry estimates n times its square: centring and the intercept must divide by it. Pure and
 * thread-safe.
 *
 * @param bound      B, the release's norm bound (dpcov_gram_info::bound), finite and >= 2^-960
 *                   (the row bounding's range).
 * @param bits       k, the grid's dpcov_exact_grid::bits, in [1, 30].
 * @param value      the coordinate, finite with |value| <= B (a coordinate of a row within the
 *                   bound; a larger one is clipped before it is rounded).
 * @param[out] out   receives the rounded value; untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER (@p out), ::DPCOV_E_NON_FINITE (@p bound or
 *         @p value), ::DPCOV_E_INVALID_ARGUMENT (@p bound below 2^-960, @p bits out of range,
 *         |value| > B).
 */
DPCOV_API dpcov_status dpcov_exact_grid_value(double bound, int32_t bits, double value,
                                              double *out);

/**
 * Dry run of an exact release: every constant it would use, without data or randomness.
 *
 * @param mechanism  ::DPCOV_MECHANISM_ANALYZE_GAUSS or ::DPCOV_MECHANISM_LAPLACE_SYM.
 * @param dim        d, 1 <= d <= 46340.
 * @param n          number of rows, >= 0 (recorded; no constant depends on it).
 * @param bound      B, finite and >= 2^-500 (as for dpcov_mechanism_plan()).
 * @param epsilon    finite and > 0.
 * @param delta      Gauss: in (0, 1). Laplace: 0 or any value in (0, 1); 0 is recorded as spent.
 * @param params     options, or NULL for the defaults. Only `neighbour` applies; the calibration
 *                   must stay ::DPCOV_CALIBRATION_DEFAULT (the exact mode has its own).
 * @param[out] receipt  the constants (numerics = ::DPCOV_NUMERICS_EXACT); the caller sets
 *                   receipt->struct_size. Untouched on failure.
 * @param[out] grid  the grid and the integer noise law; the caller sets grid->struct_size.
 *                   Untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER (receipt or grid), ::DPCOV_E_INVALID_ARGUMENT
 *         (another mechanism, a calibration or option that does not apply, a struct_size too
 *         small, bound or epsilon <= 0, delta out of range), ::DPCOV_E_NON_FINITE,
 *         ::DPCOV_E_DIMENSION, ::DPCOV_E_TOO_LARGE, ::DPCOV_E_PRECONDITION (epsilon or delta so
 *         small that no grid keeps the noise parameter in the exact samplers' range).
 */
DPCOV_API dpcov_status dpcov_exact_plan(int32_t mechanism, int64_t dim, int64_t n, double bound,
                                        double epsilon, double delta,
                                        const dpcov_mechanism_params *params,
                                        dpcov_receipt *receipt, dpcov_exact_grid *grid);

/**
 * Release @p mechanism with exact numerics from the n x d rows @p a: the same constants as
 * dpcov_exact_plan() for (d, n, B, epsilon, delta, params).
 *
 * @param mechanism  as for dpcov_exact_plan().
 * @param layout     ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR, for both @p a and @p out.
 * @param rows       n, >= 0.
 * @param cols       d, 1 <= d <= 46340.
 * @param a          the rows, finite (not retained); may be NULL when rows is 0.
 * @param lda        leading dimension of @p a.
 * @param bound      B, finite and >= 2^-500 (as for dpcov_mechanism_plan()).
 * @param policy     ::DPCOV_BOUND_CLIP (rows above B scaled to norm B) or ::DPCOV_BOUND_REJECT
 *                   (::DPCOV_E_NORM_BOUND); ::DPCOV_BOUND_DROP is ::DPCOV_E_INVALID_ARGUMENT.
 * @param epsilon    as for dpcov_exact_plan().
 * @param delta      as for dpcov_exact_plan().
 * @param params     as for dpcov_exact_plan().
 * @param rng        the generator; every argument and row check runs before the first draw, so
 *                   a rejected call leaves it unchanged; a call that fails after drawing (a
 *                   result that is not finite) leaves it advanced: noise once drawn is consumed.
 * @param[out] out   the release, d x d, exactly symmetric, unit^2 times integers. Untouched on
 *                   failure.
 * @param ldo        leading dimension of @p out, >= d.
 * @param[out] receipt  as for dpcov_exact_plan(), with generator and seed_fixed from @p rng.
 * @param[out] grid  as for dpcov_exact_plan().
 * @return the statuses of dpcov_exact_plan(), and ::DPCOV_E_LAYOUT, ::DPCOV_E_NON_FINITE (a row
 *         entry), ::DPCOV_E_NORM_BOUND (a row above B under ::DPCOV_BOUND_REJECT),
 *         ::DPCOV_E_NUMERICAL, ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_exact_release_rows(int32_t mechanism, int32_t layout, int64_t rows,
                                                int64_t cols, const double *a, int64_t lda,
                                                double bound, int32_t policy, double epsilon,
                                                double delta,
                                                const dpcov_mechanism_params *params,
                                                dpcov_rng *rng, double *out, int64_t ldo,
                                                dpcov_receipt *receipt, dpcov_exact_grid *grid);

/**
 * An exact accumulator: the plan of one exact release (mechanism, d, B, epsilon, delta, options)
 * and the exact integer Gram matrix of the rows added so far, rounded to the plan's grid.
 */
typedef struct dpcov_exact_gram dpcov_exact_gram;

/**
 * Create an empty exact accumulator for the release that dpcov_exact_plan() describes for
 * (@p mechanism, @p dim, @p bound, @p epsilon, @p delta, @p params): the plan is made now, so
 * every argument is checked before a row is read, and a release from the accumulator fails only
 * where one from the same rows would.
 *
 * @param[out] out   receives the new handle; untouched on failure. Free with
 *                   dpcov_exact_gram_destroy().
 * @param mechanism  as for dpcov_exact_plan().
 * @param dim        d, 1 <= d <= 46340.
 * @param bound      B, finite and >= 2^-500 (as for dpcov_mechanism_plan()).
 * @param policy     ::DPCOV_BOUND_CLIP (rows above B scaled to norm B) or ::DPCOV_BOUND_REJECT
 *                   (dpcov_exact_gram_add_rows() refuses a chunk holding such a row);
 *                   ::DPCOV_BOUND_DROP is ::DPCOV_E_INVALID_ARGUMENT.
 * @param epsilon    as for dpcov_exact_plan().
 * @param delta      as for dpcov_exact_plan().
 * @param params     as for dpcov_exact_plan() (read, not retained).
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER (out), the statuses of dpcov_exact_plan(),
 *         ::DPCOV_E_INVALID_ARGUMENT (policy), ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_exact_gram_create(dpcov_exact_gram **out, int32_t mechanism,
                                               int64_t dim, double bound, int32_t policy,
                                               double epsilon, double delta,
                                               const dpcov_mechanism_params *params);

/** Free an exact accumulator and set `*acc` to NULL. Accepts NULL and a pointer to NULL. */
DPCOV_API void dpcov_exact_gram_destroy(dpcov_exact_gram **acc);

/**
 * Add the rows of the @p rows x @p cols matrix @p a: each row bounded to norm B by the
 * accumulator's policy (as dpcov_gram_add_rows() bounds it), rounded to the grid and added to
 * the exact integer Gram matrix. Any number of calls, any chunking: the sum is the same integers.
 *
 * The whole chunk is processed before anything is added: on NaN or infinity, or (under
 * ::DPCOV_BOUND_REJECT) a row over the bound, the call fails and the accumulator is exactly as
 * it was.
 *
 * @param acc     the accumulator.
 * @param layout  ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param rows    number of rows, >= 0 (0 is a no-op, and @p a may then be NULL).
 * @param cols    number of columns; must equal the accumulator's d.
 * @param a       the rows (not retained).
 * @param lda     leading dimension of @p a.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_LAYOUT, ::DPCOV_E_DIMENSION,
 *         ::DPCOV_E_NON_FINITE (an entry; the message names its chunk row and column),
 *         ::DPCOV_E_NORM_BOUND (a row above B under ::DPCOV_BOUND_REJECT; the message names its
 *         0-based chunk row), ::DPCOV_E_TOO_LARGE (the row count overflows), ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_exact_gram_add_rows(dpcov_exact_gram *acc, int32_t layout,
                                                 int64_t rows, int64_t cols, const double *a,
                                                 int64_t lda);

/**
 * Add everything @p src accumulated to @p dst (e.g. the accumulators of several threads or
 * machines): the result is the accumulator of all their rows, the same integers as one
 * accumulator given them all. @p src is unchanged; @p dst's plan is the one released.
 *
 * @param dst  the accumulator added to; unchanged on failure.
 * @param src  an accumulator of the same grid: the same d and B, and a plan that chose the same
 *             grid (dpcov_exact_grid::bits and dpcov_exact_grid::norm2_bound).
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INVALID_ARGUMENT (@p src is @p dst),
 *         ::DPCOV_E_INCOMPATIBLE (another grid), ::DPCOV_E_TOO_LARGE (the row count overflows).
 */
DPCOV_API dpcov_status dpcov_exact_gram_merge(dpcov_exact_gram *dst, const dpcov_exact_gram *src);

/**
 * The accumulator's counters, for the curator (under the add/remove relation the row count is
 * private: it must not be published). dropped is always 0.
 *
 * @param acc        the accumulator.
 * @param[out] info  dim, rows, clipped and bound; the caller sets info->struct_size.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INVALID_ARGUMENT (a struct_size too
 *         small).
 */
DPCOV_API dpcov_status dpcov_exact_gram_get_info(const dpcov_exact_gram *acc,
                                                 dpcov_gram_info *info);

/**
 * Release the accumulator's mechanism with exact numerics from the rows added so far (n = their
 * count, which may be 0): the release dpcov_exact_release_rows() makes from the same rows, with
 * the same draws from the same generator state. The accumulator is unchanged; each release
 * spends the plan's budget again.
 *
 * @param acc        the accumulator.
 * @param rng        the generator; every argument check runs before the first draw, so a
 *                   rejected call leaves it unchanged; a call that fails after drawing (a result
 *                   that is not finite) leaves it advanced: noise once drawn is consumed.
 * @param[out] out   the release, d x d, exactly symmetric (so either layout), unit^2 times
 *                   integers. Untouched on failure.
 * @param ldo        leading dimension of @p out, >= d.
 * @param[out] receipt  the constants (numerics = ::DPCOV_NUMERICS_EXACT), n, generator and
 *                   seed_fixed; the caller sets receipt->struct_size. Untouched on failure.
 * @param[out] grid  the grid and the integer noise law; the caller sets grid->struct_size.
 *                   Untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INVALID_ARGUMENT (a struct_size too
 *         small), ::DPCOV_E_LAYOUT (ldo < d), ::DPCOV_E_NUMERICAL (a receipt constant or an entry
 *         of the release overflows), ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_exact_gram_release(const dpcov_exact_gram *acc, dpcov_rng *rng,
                                                double *out, int64_t ldo, dpcov_receipt *receipt,
                                                dpcov_exact_grid *grid);

#ifdef __cplusplus
}
#endif

#endif /* DPCOV_EXACT_H */
