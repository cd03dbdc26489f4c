/**
 * @file dpcov/private_bound.h
 * @brief A norm bound B chosen from the data, eps_B-DP, when none is public.
 *
 * The exponential mechanism (McSherry and Talwar, FOCS 2007, Theorem 6) over a public geometric
 * grid of candidates b_k = lo ratio^k (dpcov_private_bound_grid()): candidate k is chosen with
 * probability proportional to exp(eps_B u_k / 2), u_k = -|#{rows with norm > b_k} - m| for a
 * public target number m of clipped rows. Adding, removing or replacing a row changes u_k by at
 * most 1, so the choice is pure eps_B-DP under both neighbour relations, and n is never used
 * (under replace-one, where n is public, m = floor((1 - q) n) asks for the q-quantile of the row
 * norms). The data enter only through the histogram of row norms over the grid, which the caller
 * computes in one pass: cell k (0 <= k < K) counts the rows with b_{k-1} < norm <= b_k (cell 0
 * those with norm <= b_0), cell K those with norm > b_{K-1}. The release that then uses B spends
 * its own epsilon; the total is eps_B plus that (basic composition), which a ledger
 * (dpcov/ledger.h) charges as two pure releases.
 *
 * dpcov_private_bound_scan() chooses from the same grid and histogram by the sparse vector
 * technique instead (AboveThreshold, Dwork and Roth 2014, Algorithm 1, Theorem 3.23): it scans the
 * candidates upward and stops at the first whose noisy count of rows above it is at most the noisy
 * target m, with exact discrete Laplace noise. The exponential mechanism gives every candidate
 * above the data the same utility, so on a wide grid at small n most of its mass lies far above
 * the data; the scan stops just above it with high probability (proofs/private_bound.md, "The
 * scan", with measurements on the diabetes data). The CLI's and Python's `auto` bounds use the
 * scan.
 *
 * With privacy units, dpcov_private_bound_unit_histogram() counts units by their largest row norm
 * instead, and m is a number of units; dpcov_private_bound_norm_cells() gives each row's cell, for
 * a unit whose rows lie in several places.
 *
 * What may be published: lo, hi, ratio, m (or q), eps_B, the rule and the chosen B. The histogram
 * is private.
 *
 * Thread-safety: reentrant; a generator must not be shared between threads.
 */
#ifndef DPCOV_PRIVATE_BOUND_H
#define DPCOV_PRIVATE_BOUND_H

#include "dpcov/common.h"
#include "dpcov/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The public grid of an automatic bound on every surface (`dpcov release --bound auto`, Python's
 * `bound="auto"`, the Dask releases): dpcov_private_bound_grid(DPCOV_AUTO_BOUND_LOW,
 * DPCOV_AUTO_BOUND_HIGH, DPCOV_AUTO_BOUND_RATIO), 156 candidates, wide enough for data in any
 * common unit; and the quantile of the rows' norms it aims at by default
 * (dpcov_private_bound_quantile_target()).
 */
#define DPCOV_AUTO_BOUND_LOW 1.0e-6
/** The automatic grid's last candidate is the first at or above this (DPCOV_AUTO_BOUND_LOW). */
#define DPCOV_AUTO_BOUND_HIGH 1.0e9
/** The ratio of consecutive candidates of the automatic grid (DPCOV_AUTO_BOUND_LOW). */
#define DPCOV_AUTO_BOUND_RATIO 1.25
/** The quantile of the rows' norms an automatic bound aims at by default (DPCOV_AUTO_BOUND_LOW). */
#define DPCOV_AUTO_BOUND_QUANTILE 0.95
/**
 * The quantile an automatic bound for PCA aims at (Python's `PrivatePCA(bound="auto")`; `dpcov
 * release --bound auto --bound-quantile 0.999` for a release that `dpcov pca` reads): far in the
 * tail, so that the few rows it clips barely move the covariance and the subspace error bound
 * holds against the data's own top subspace, not only against the clipped rows'.
 */
#define DPCOV_PCA_AUTO_BOUND_QUANTILE 0.999

/**
 * The target number of rows above the bound that aims at the @p quantile of @p n row norms,
 * floor((1 - quantile) n), for dpcov_private_bound_select() and dpcov_private_bound_scan(): the
 * floor of the exact product of the doubles 1 - quantile and n (exactly floor((1 - quantile) n)
 * for quantile >= 1/2 and n <= 2^53). It uses n, public under replace-one only.
 *
 * @param quantile     in (0, 1].
 * @param n            the number of rows (or units), >= 0.
 * @param[out] target  receives the target; untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INVALID_ARGUMENT.
 * @proof proofs/private_bound.md
 */
DPCOV_API dpcov_status dpcov_private_bound_quantile_target(double quantile, int64_t n,
                                                           int64_t *target);

/**
 * The share of epsilon a private bound step spends where the caller names none: `dpcov release
 * --bound auto`, `dpcov regress` without intervals, and the Python and Dask estimators' automatic
 * bounds. The release that uses the bound spends dpcov_bound_step_rest() of the rest.
 */
#define DPCOV_BOUND_STEP_SHARE 0.1

/**
 * The epsilon left to the release after a bound step of @p bound_epsilon out of @p epsilon (basic
 * composition, Dwork and Roth 2014, Theorem 3.16: the two steps' epsilons add): the largest
 * double r with bound_epsilon + r <= epsilon in exact arithmetic, the one value every surface
 * spends, so that the steps never sum above @p epsilon.
 *
 * @param epsilon        the whole budget, finite, > 0, at most ::DPCOV_MAX_EPSILON.
 * @param bound_epsilon  the bound step's epsilon, finite, > 0 and below @p epsilon.
 * @param[out] rest      receives r; untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_NON_FINITE, ::DPCOV_E_INVALID_ARGUMENT.
 * @proof proofs/private_bound.md
 */
DPCOV_API dpcov_status dpcov_bound_step_rest(double epsilon, double bound_epsilon, double *rest);

/**
 * What a bound step of @p bound_epsilon and the release of @p epsilon that uses its bound spend
 * together, charged as one release: their sum rounded up. An advanced-composition ledger
 * (dpcov/ledger.h), whose first charge fixes the per-release budget, is charged a release in
 * steps so, on every surface.
 *
 * @param bound_epsilon  the bound step's epsilon, finite and > 0.
 * @param epsilon        the release's epsilon, finite and > 0.
 * @param[out] total     receives the sum, rounded up; untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_NON_FINITE, ::DPCOV_E_INVALID_ARGUMENT,
 *         ::DPCOV_E_NUMERICAL (a sum that overflows).
 * @proof proofs/private_bound.md
 */
DPCOV_API dpcov_status dpcov_bound_step_total(double bound_epsilon, double epsilon, double *total);

/**
 * The public candidate bounds b_k = lo ratio^k, k = 0, 1, ..., up to the first one >= @p hi (at
 * most 4096 of them).
 *
 * @param lo               the smallest candidate, finite and > 0.
 * @param hi               the candidates stop at the first one >= hi; finite and > @p lo.
 * @param ratio            the ratio of consecutive candidates, finite and > 1.
 * @param[out] grid        receives the candidates in increasing order; NULL (with @p capacity 0)
 *                         to ask only for their number.
 * @param capacity         the number of doubles @p grid holds; >= the number of candidates when
 *                         @p grid is not NULL, 0 when it is.
 * @param[out] candidates  receives the number K of candidates.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INVALID_ARGUMENT (a parameter out of
 *         range, more than 4096 candidates, @p capacity negative, too small, or nonzero with a NULL
 *         @p grid). Outputs untouched on failure.
 * @proof proofs/private_bound.md
 */
DPCOV_API dpcov_status dpcov_private_bound_grid(double lo, double hi, double ratio, double *grid,
                                                int64_t capacity, int64_t *candidates);

/**
 * Adds the rows of @p a to the histogram of their Euclidean norms over @p grid (cells as in the
 * file description), the norms measured as the Gram accumulator measures them (no over- or
 * underflow): the private histogram that dpcov_private_bound_select() and
 * dpcov_private_bound_scan() take, built chunk by chunk without the caller computing a norm. A
 * non-finite row and a norm above the largest double count in cell K (above every candidate).
 * @param grid        the candidates: finite, > 0, strictly increasing; not retained.
 * @param candidates  K, in [1, 4096].
 * @param layout      ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param rows        number of rows, >= 0 (0 is a no-op, and @p a may then be NULL).
 * @param cols        number of columns, >= 1.
 * @param a           the rows; not retained.
 * @param lda         leading dimension.
 * @param[in,out] histogram  K + 1 counts, each >= 0, to which the rows are added; untouched on
 *                    failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_NON_FINITE (a grid value),
 *         ::DPCOV_E_INVALID_ARGUMENT (candidates, the grid not positive and increasing, a count
 *         negative or one that would pass INT64_MAX), ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_private_bound_histogram(const double *grid, int64_t candidates,
                                                     int32_t layout, int64_t rows, int64_t cols,
                                                     const double *a, int64_t lda,
                                                     int64_t *histogram);

/**
 * Adds the privacy units of the rows of @p a to the histogram of their largest row norms over
 * @p grid: each unit counts once, in the cell of the largest Euclidean norm among its rows in this
 * call (norms as dpcov_private_bound_histogram() measures them; a non-finite row puts its unit in
 * cell K). The private histogram that dpcov_private_bound_select() and dpcov_private_bound_scan()
 * take at the level of privacy units: a unit added, removed or with its rows replaced moves one
 * count by 1, so both stay eps-DP per unit, with the target a number of units whose largest row
 * norm is above the bound (proofs/private_bound.md, "Privacy units"). Every row of a unit must be
 * in the same call: a unit split across calls counts once per call, which the proof does not
 * cover (group the rows by unit first; the ids need not be sorted within the call).
 * @param grid        the candidates: finite, > 0, strictly increasing; not retained.
 * @param candidates  K, in [1, 4096].
 * @param layout      ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param rows        number of rows, >= 0 (0 is a no-op, and @p a and @p units may then be NULL).
 * @param cols        number of columns, >= 1.
 * @param a           the rows; not retained.
 * @param lda         leading dimension.
 * @param units       @p rows unit ids, any int64_t values, row i belonging to unit units[i]; not
 *                    retained.
 * @param[in,out] histogram  K + 1 counts of units, each >= 0, to which the units are added;
 *                    untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_NON_FINITE (a grid value),
 *         ::DPCOV_E_INVALID_ARGUMENT (candidates, the grid not positive and increasing, a count
 *         negative or one that would pass INT64_MAX), ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NOMEM.
 * @proof proofs/private_bound.md
 */
DPCOV_API dpcov_status dpcov_private_bound_unit_histogram(const double *grid, int64_t candidates,
                                                          int32_t layout, int64_t rows,
                                                          int64_t cols, const double *a,
                                                          int64_t lda, const int64_t *units,
                                                          int64_t *histogram);

/**
 * Writes the grid cell of each row of @p a: cells[i] = k for the first candidate with
 * norm(row i) <= grid[k], or K when the norm is above every candidate (cells as in the file
 * description), the norms measured as dpcov_private_bound_histogram() and
 * dpcov_private_bound_unit_histogram() measure them. A row with a NaN or infinite value, and a
 * norm above the largest double, is in cell K, as both histograms count it. For a histogram of
 * privacy units whose rows are spread over several places (the partitions of a distributed data
 * set): each place keeps, per unit present in it, the largest cell of its rows; the largest of
 * those over the places is the unit's cell in dpcov_private_bound_unit_histogram() (the cell is
 * monotone in the norm), and counting each unit once in it gives that histogram exactly, however
 * the rows were split (proofs/private_bound.md, "Surfaces"). The cells are as private as the
 * rows: they may leave only as a histogram through dpcov_private_bound_select() or
 * dpcov_private_bound_scan().
 * @param grid        the candidates: finite, > 0, strictly increasing; not retained.
 * @param candidates  K, in [1, 4096].
 * @param layout      ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param rows        number of rows, >= 0 (0 is a no-op, and @p a and @p cells may then be NULL).
 * @param cols        number of columns, >= 1.
 * @param a           the rows; not retained.
 * @param lda         leading dimension.
 * @param[out] cells  receives @p rows cells, each in [0, K]; may overlap @p a; untouched on
 *                    failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_NON_FINITE (a grid value),
 *         ::DPCOV_E_INVALID_ARGUMENT (candidates, the grid not positive and increasing),
 *         ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT, ::DPCOV_E_TOO_LARGE (@p a or @p cells spanning
 *         more bytes than an address can), ::DPCOV_E_NOMEM.
 * @proof proofs/private_bound.md
 */
DPCOV_API dpcov_status dpcov_private_bound_norm_cells(const double *grid, int64_t candidates,
                                                      int32_t layout, int64_t rows, int64_t cols,
                                                      const double *a, int64_t lda,
                                                      int64_t *cells);

/**
 * The number of candidates below a public bound that tightening adds
 * (dpcov_private_bound_tighten(): `dpcov regress --bound-epsilon` and Python's
 * `PrivateLinearRegression(bound_epsilon=)`): the grid is bound / DPCOV_TIGHTEN_RATIO^k, k =
 * DPCOV_TIGHTEN_STEPS, ..., 1, then the bound itself.
 */
#define DPCOV_TIGHTEN_STEPS 12
/** The ratio of consecutive candidates below a public bound (DPCOV_TIGHTEN_STEPS). */
#define DPCOV_TIGHTEN_RATIO 1.25

/**
 * The public candidates a tightened bound is chosen among: bound / DPCOV_TIGHTEN_RATIO^k for
 * k = DPCOV_TIGHTEN_STEPS, ..., 1, then @p bound itself, in increasing order (K =
 * DPCOV_TIGHTEN_STEPS + 1). A function of the public bound only; the top candidate is the bound,
 * so a choice among them never loosens it.
 *
 * @param bound            the public bound, finite and large enough that every candidate is a
 *                         norm bound the library takes (>= 2^-960): about 1.5e-288 or more.
 * @param[out] grid        receives the K candidates; NULL (with @p capacity 0) to ask only for K.
 * @param capacity         the number of doubles @p grid holds; >= K when @p grid is not NULL, 0
 *                         when it is.
 * @param[out] candidates  receives K.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_NON_FINITE (the bound),
 *         ::DPCOV_E_INVALID_ARGUMENT (the bound, @p capacity negative, too small, or nonzero with a
 *         NULL @p grid). Outputs untouched on failure.
 * @proof proofs/private_bound.md
 */
DPCOV_API dpcov_status dpcov_private_bound_below_grid(double bound, double *grid, int64_t capacity,
                                                      int64_t *candidates);

/**
 * A bound at most @p bound, chosen eps-DP from the data near the @p quantile of the row norms:
 * dpcov_private_bound_select() over dpcov_private_bound_below_grid(@p bound) with the target
 * dpcov_private_bound_quantile_target(@p quantile, @p n), the rows above @p bound counted on it
 * (the fit clips them to it, so their count moves the top candidate's utility no more than a
 * row on the bound does). Under replace-one only, where n is public (proofs/private_bound.md,
 * "Tightening a public bound").
 *
 * @param bound       the public bound, as dpcov_private_bound_below_grid() takes it.
 * @param histogram   DPCOV_TIGHTEN_STEPS + 2 counts, the rows' norms over that grid
 *                    (dpcov_private_bound_histogram()), each >= 0, summing to @p n (private);
 *                    not retained.
 * @param n           the number of rows, public, >= 0.
 * @param quantile    in (0, 1].
 * @param epsilon     the choice's budget, finite and > 0.
 * @param rng         the generator to draw from (a fixed number of words whatever the data).
 * @param[out] chosen receives the chosen candidate; untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_NON_FINITE (the bound, @p epsilon),
 *         ::DPCOV_E_INVALID_ARGUMENT (the bound, a count negative, counts not summing to @p n,
 *         @p quantile or @p epsilon out of range). Nothing is drawn on failure.
 * @proof proofs/private_bound.md
 */
DPCOV_API dpcov_status dpcov_private_bound_tighten(double bound, const int64_t *histogram,
                                                   int64_t n, double quantile, double epsilon,
                                                   dpcov_rng *rng, double *chosen);

/**
 * Chooses a bound among the @p candidates values of @p grid, eps-DP, from the histogram of the
 * row norms over the grid (cells as in the file description). Draws from @p rng (a fixed number
 * of words whatever the data) and runs in time independent of the choice.
 *
 * @param grid            the public candidates: finite, > 0, strictly increasing (normally from
 *                        dpcov_private_bound_grid()); not retained.
 * @param candidates      the number K of candidates, 1 to 4096.
 * @param histogram       K + 1 counts, each >= 0, the sum at most 2^53 (private: the rows enter
 *                        only through it); not retained.
 * @param target_clipped  the public target number m of rows above the chosen bound, >= 0.
 * @param epsilon         the budget eps_B of this choice, finite and > 0.
 * @param rng             the generator to draw from.
 * @param[out] index      receives the chosen candidate's index k; may be NULL.
 * @param[out] bound      receives the chosen bound grid[k].
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_NON_FINITE (a grid value, @p epsilon),
 *         ::DPCOV_E_INVALID_ARGUMENT (a count out of range, the grid not positive and increasing,
 *         @p target_clipped or @p epsilon out of range). Outputs untouched on failure.
 * @proof proofs/private_bound.md
 */
DPCOV_API dpcov_status dpcov_private_bound_select(const double *grid, int64_t candidates,
                                                  const int64_t *histogram, int64_t target_clipped,
                                                  double epsilon, dpcov_rng *rng, int64_t *index,
                                                  double *bound);

/**
 * Chooses a bound among the @p candidates values of @p grid, eps-DP under both neighbour
 * relations, by the sparse vector technique: with tau and nu_0, ..., nu_{K-2} independent discrete
 * Laplace noise of scale 2 / eps (rounded up to a multiple of 2^-24), the first k < K - 1 with
 * A_k + nu_k <= m + tau, A_k the number of rows with norm > grid[k], or the top candidate K - 1 if
 * none. The counts move all in one direction when a row is added, removed or replaced, so the
 * query noise needs only the scale of the threshold's (proofs/private_bound.md). Draws the same
 * number of noises and runs the same comparisons whatever the data.
 *
 * @param grid            the public candidates: finite, > 0, strictly increasing (normally from
 *                        dpcov_private_bound_grid()); not retained.
 * @param candidates      the number K of candidates, 1 to 4096.
 * @param histogram       K + 1 counts, each >= 0, the sum at most 2^53 (private: the rows enter
 *                        only through it); not retained.
 * @param target_clipped  the public target number m of rows above the chosen bound, >= 0.
 * @param epsilon         the budget eps_B of this choice, finite and >= 2^-26.
 * @param rng             the generator to draw from.
 * @param[out] index      receives the chosen candidate's index k; may be NULL.
 * @param[out] bound      receives the chosen bound grid[k].
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_NON_FINITE (a grid value, @p epsilon),
 *         ::DPCOV_E_INVALID_ARGUMENT (a count out of range, the grid not positive and increasing,
 *         @p target_clipped or @p epsilon out of range). Outputs untouched on failure.
 * @proof proofs/private_bound.md
 */
DPCOV_API dpcov_status dpcov_private_bound_scan(const double *grid, int64_t candidates,
                                                const int64_t *histogram, int64_t target_clipped,
                                                double epsilon, dpcov_rng *rng, int64_t *index,
                                                double *bound);

#ifdef __cplusplus
}
#endif

#endif /* DPCOV_PRIVATE_BOUND_H */
