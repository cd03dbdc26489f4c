/**
 * @file dpcov/coinpress.h
 * @brief CoinPress private covariance estimation (Biswas, Dong, Kamath & Ullman, "CoinPress:
 *        Practical Private Mean and Covariance Estimation", NeurIPS 2020, Alg. 2 and 3) and mean
 *        estimation (MVM, one step, iterated by MVMRec), and the conversion of a zCDP
 *        guarantee to (epsilon, delta)-DP.
 *
 * CoinPress estimates the covariance Sigma of zero-mean Gaussian-like rows x_1..x_n given only a
 * loose public range I <= Sigma <= K I. Each of its t steps whitens the rows with the current
 * private estimate, clips them to a norm gamma that holds most Gaussian rows, and releases their
 * second moment with Gaussian noise; the error therefore depends on K only through the first steps,
 * where a one-shot Gaussian mechanism at the loose bound pays for K in full.
 *
 * Privacy: rho-zCDP (Bun & Steinke 2016) for the total budget rho, under replace-one neighbours
 * with n public, for every input: the clipping, not an assumption on the data, bounds the
 * sensitivity. The receipt also states it as (epsilon, delta)-DP by the tight conversion of
 * Canonne, Kamath & Steinke (NeurIPS 2020, Prop. 12). Utility needs the data to be centred (mean
 * zero) and the prior to hold. Continuous noise in floating point ("idealized numerics",
 * dpcov/mechanism.h); PCG is not a cryptographic generator (dpcov/rng.h).
 *
 * @proof proofs/coinpress.md
 *
 * Thread-safety: reentrant; a release uses its generator exclusively.
 */
#ifndef DPCOV_COINPRESS_H
#define DPCOV_COINPRESS_H

#include "dpcov/common.h"
#include "dpcov/receipt.h"
#include "dpcov/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest number of CoinPress steps t. */
#define DPCOV_COINPRESS_MAX_STEPS 16

/**
 * Settings of a CoinPress release. Fill with dpcov_coinpress_params_default(), then change fields.
 */
typedef struct dpcov_coinpress_params {
  /** sizeof(dpcov_coinpress_params), set by dpcov_coinpress_params_default(). */
  size_t struct_size;
  /** Total zCDP budget rho, finite and > 0, with an epsilon at most ::DPCOV_MAX_EPSILON (about
   *  rho <= 2^40, docs/epsilon-cap.md). Default 0.5. */
  double rho;
  /** K >= 1, finite: the public prior I <= Sigma <= K I. Required (default 0: invalid). */
  double k_bound;
  /** Number of steps t, 1 <= t <= ::DPCOV_COINPRESS_MAX_STEPS. Default 3. */
  int64_t steps;
  /** Probability beta in (0, 1) that a Gaussian row falls outside the clipping radius. Default 0.1. */
  double beta;
  /** delta in (0, 1) at which the receipt states the guarantee as (epsilon, delta). Default 1e-6. */
  double delta;
} dpcov_coinpress_params;

/** What a CoinPress release spent and every constant it used. */
typedef struct dpcov_coinpress_receipt {
  size_t struct_size;    /**< Set by the caller to sizeof(dpcov_coinpress_receipt). */
  /* The members of dpcov_receipt_prefix (dpcov/receipt.h), documented there. */
  int32_t mechanism;     /**< A ::dpcov_mechanism_id (::DPCOV_MECHANISM_COINPRESS). */
  int32_t privacy_model; /**< A ::dpcov_mechanism_privacy. */
  int32_t neighbour;     /**< A ::dpcov_neighbour. */
  int32_t numerics;      /**< ::DPCOV_NUMERICS_IDEALIZED: Gaussian noise sampled in floating point (Mironov 2012). */
  int32_t generator;     /**< Release only: the ::dpcov_generator of the noise; 0 in a plan. */
  int32_t seed_fixed;    /**< 1 if the generator came from an explicit seed (no privacy), else 0; 0 in a plan. */
  double epsilon;        /**< epsilon of the (epsilon, delta)-DP guarantee. */
  double delta;          /**< delta of that guarantee. */
  double rho;            /**< Total zCDP budget; the step shares sum to at most rho. */
  double bound;          /**< 0: no row norm bound (the prior is on the covariance and the mean). */
  int64_t n;             /**< n, the public number of rows. */
  char theorem[DPCOV_RECEIPT_THEOREM_SIZE]; /**< Paper, theorem and proof file, NUL-terminated. */
  /** d. */
  int64_t dim;
  /** t. */
  int64_t steps;
  /** K of the prior. */
  double k_bound;
  /** beta of the clipping radius. */
  double beta;
  /** gamma = sqrt(d + 2 sqrt(d ln(1/beta)) + 2 ln(1/beta)), the clipping radius of whitened rows. */
  double clip_radius;
  /** eta = sqrt(d/n) + d/(2n), the regulariser of the whitening transform. */
  double eta;
  /** Share rho_i of step i (entries past `steps` are 0). */
  double step_rho[DPCOV_COINPRESS_MAX_STEPS];
  /** Noise standard deviation of step i: gamma^2 / (n sqrt(rho_i)) (entries past `steps` are 0). */
  double step_sigma[DPCOV_COINPRESS_MAX_STEPS];
} dpcov_coinpress_receipt;

/**
 * Fill @p params with the defaults (rho = 0.5, K = 0 (must be set), t = 3, beta = 0.1,
 * delta = 1e-6) and set its struct_size.
 * Writes min(@p size, sizeof(dpcov_coinpress_params)) bytes and sets struct_size to that count, so a
 * program compiled against an older, smaller struct is never overrun; call it through
 * dpcov_coinpress_params_default(), which passes the size the program was compiled with.
 * @param[out] params  the struct to fill; required; untouched on error.
 * @param size  sizeof *params as the caller compiled it; at least the struct's first
 *   shipped size.
 * @return ::DPCOV_OK; ::DPCOV_E_NULL_POINTER; ::DPCOV_E_INVALID_ARGUMENT for a size below
 *   the first shipped size.
 */
DPCOV_API dpcov_status dpcov_coinpress_params_init(dpcov_coinpress_params *params, size_t size);

/**
 * dpcov_coinpress_params_init() with sizeof the struct this program was compiled with.
 * @param[out] params  the struct to fill; required.
 * @return as dpcov_coinpress_params_init().
 */
static inline dpcov_status dpcov_coinpress_params_default(dpcov_coinpress_params *params) {
  return dpcov_coinpress_params_init(params, sizeof *params);
}

/**
 * Every constant a CoinPress release of @p n rows in dimension @p dim would use, without data or
 * randomness.
 *
 * @param n       number of rows, >= 1 (public).
 * @param dim     d, 1 <= d <= 46340.
 * @param params  the settings (K required); params->struct_size >= sizeof(dpcov_coinpress_params).
 * @param[out] receipt  the constants; the caller sets receipt->struct_size. Untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INVALID_ARGUMENT (a setting out of range,
 *         n < 1, a struct_size too small), ::DPCOV_E_NON_FINITE, ::DPCOV_E_DIMENSION,
 *         ::DPCOV_E_NUMERICAL.
 */
DPCOV_API dpcov_status dpcov_coinpress_plan(int64_t n, int64_t dim,
                                            const dpcov_coinpress_params *params,
                                            dpcov_coinpress_receipt *receipt);

/**
 * Release a private estimate of the covariance of the zero-mean rows @p rows (Alg. 3 with the
 * authors' budget split: t = 1 spends rho; t >= 2 spends rho / (4 (t - 1)) on each of the first
 * t - 1 steps and 3 rho / 4 on the last).
 *
 * @param layout   ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR, for both @p rows and @p out.
 * @param n        number of rows, >= 1 (public).
 * @param dim      d, 1 <= d <= 46340.
 * @param rows     the n x d data, finite; not modified, not retained.
 * @param ldr      leading dimension of @p rows (>= d row-major, >= n column-major).
 * @param params   the settings (K required).
 * @param rng      the generator; advanced on success and on a failure after the first draw (the
 *                 noise drawn is consumed: a refusal is an output), unchanged on a failure
 *                 before it (every argument is checked first).
 * @param[out] out the estimate, d x d, exactly symmetric, positive semidefinite. Untouched on
 *                 failure.
 * @param ldo      leading dimension of @p out, >= d.
 * @param[out] receipt  as for dpcov_coinpress_plan(), with seed_fixed from @p rng.
 * @return the statuses of dpcov_coinpress_plan(), and ::DPCOV_E_LAYOUT, ::DPCOV_E_NON_FINITE (a
 *         row holds NaN or infinity), ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_coinpress_release(int32_t layout, int64_t n, int64_t dim,
                                               const double *rows, int64_t ldr,
                                               const dpcov_coinpress_params *params,
                                               dpcov_rng *rng, double *out, int64_t ldo,
                                               dpcov_coinpress_receipt *receipt);

/**
 * Settings of a CoinPress mean release (MVM iterated by MVMRec). Fill with
 * dpcov_coinpress_mean_params_default(), then change fields.
 */
typedef struct dpcov_coinpress_mean_params {
  /** sizeof(dpcov_coinpress_mean_params), set by dpcov_coinpress_mean_params_default(). */
  size_t struct_size;
  /** Total zCDP budget rho, finite and > 0, with an epsilon at most ::DPCOV_MAX_EPSILON (about
   *  rho <= 2^40, docs/epsilon-cap.md). Default 0.5. */
  double rho;
  /** r >= 0, finite: the public prior ||mu - c|| <= r around the starting centre c. Required
   *  (default -1: invalid). */
  double radius;
  /** s > 0, finite: the public prior Cov(x) <= s^2 I on the rows' covariance. Default 1. */
  double scale;
  /** Number of steps t, 1 <= t <= ::DPCOV_COINPRESS_MAX_STEPS. Default 3. */
  int64_t steps;
  /** Tail probability beta in (0, 1) of the Gaussian radius gamma. Default 0.01 (the authors'
   *  code). */
  double beta;
  /** delta in (0, 1) at which the receipt states the guarantee as (epsilon, delta). Default 1e-6. */
  double delta;
} dpcov_coinpress_mean_params;

/** What a CoinPress mean release spent and every constant it used: all public (no data). */
typedef struct dpcov_coinpress_mean_receipt {
  size_t struct_size;    /**< Set by the caller to sizeof(dpcov_coinpress_mean_receipt). */
  /* The members of dpcov_receipt_prefix (dpcov/receipt.h), documented there. */
  int32_t mechanism;     /**< A ::dpcov_mechanism_id (::DPCOV_MECHANISM_COINPRESS_MEAN). */
  int32_t privacy_model; /**< A ::dpcov_mechanism_privacy. */
  int32_t neighbour;     /**< A ::dpcov_neighbour. */
  int32_t numerics;      /**< ::DPCOV_NUMERICS_IDEALIZED: Gaussian noise sampled in floating point (Mironov 2012). */
  int32_t generator;     /**< Release only: the ::dpcov_generator of the noise; 0 in a plan. */
  int32_t seed_fixed;    /**< 1 if the generator came from an explicit seed (no privacy), else 0; 0 in a plan. */
  double epsilon;        /**< epsilon of the (epsilon, delta)-DP guarantee. */
  double delta;          /**< delta of that guarantee. */
  double rho;            /**< Total zCDP budget; the step shares sum to at most rho. */
  double bound;          /**< 0: no row norm bound (the prior is on the covariance and the mean). */
  int64_t n;             /**< n, the public number of rows. */
  char theorem[DPCOV_RECEIPT_THEOREM_SIZE]; /**< Paper, theorem and proof file, NUL-terminated. */
  /** d. */
  int64_t dim;
  /** t. */
  int64_t steps;
  /** r of the prior ||mu - c|| <= r. */
  double radius;
  /** s of the prior Cov(x) <= s^2 I. */
  double scale;
  /** beta of gamma. */
  double beta;
  /** gamma = sqrt(d + 2 sqrt(d ln(1/beta)) + 2 ln(1/beta)) (Laurent & Massart 2000, Lemma 1). */
  double tail_radius;
  /** Share rho_i of step i (entries past `steps` are 0). */
  double step_rho[DPCOV_COINPRESS_MAX_STEPS];
  /** Radius R_i of the ball around the previous centre that step i projects the rows onto:
   *  min(sqrt(r_i^2 + 6 r_i s + s^2 gamma^2), r_i + s gamma) for the step's prior radius r_i
   *  (r_1 = r, r_{i+1} = gamma sqrt(s^2 / n + sigma_i^2)); entries past `steps` are 0. */
  double step_clip_radius[DPCOV_COINPRESS_MAX_STEPS];
  /** Noise standard deviation of step i per coordinate: sqrt(2) R_i / (n sqrt(rho_i)) (entries
   *  past `steps` are 0). */
  double step_sigma[DPCOV_COINPRESS_MAX_STEPS];
} dpcov_coinpress_mean_receipt;

/**
 * Fill @p params with the defaults (rho = 0.5, r = -1 (must be set), s = 1, t = 3,
 * beta = 0.01, delta = 1e-6) and set its struct_size.
 * Writes min(@p size, sizeof(dpcov_coinpress_mean_params)) bytes and sets struct_size to that count, so a
 * program compiled against an older, smaller struct is never overrun; call it through
 * dpcov_coinpress_mean_params_default(), which passes the size the program was compiled with.
 * @param[out] params  the struct to fill; required; untouched on error.
 * @param size  sizeof *params as the caller compiled it; at least the struct's first
 *   shipped size.
 * @return ::DPCOV_OK; ::DPCOV_E_NULL_POINTER; ::DPCOV_E_INVALID_ARGUMENT for a size below
 *   the first shipped size.
 */
DPCOV_API dpcov_status dpcov_coinpress_mean_params_init(dpcov_coinpress_mean_params *params, size_t size);

/**
 * dpcov_coinpress_mean_params_init() with sizeof the struct this program was compiled with.
 * @param[out] params  the struct to fill; required.
 * @return as dpcov_coinpress_mean_params_init().
 */
static inline dpcov_status dpcov_coinpress_mean_params_default(dpcov_coinpress_mean_params *params) {
  return dpcov_coinpress_mean_params_init(params, sizeof *params);
}

/**
 * Every constant a CoinPress mean release of @p n rows in dimension @p dim would use, without
 * data or randomness.
 *
 * @param n       number of rows, >= 1 (public).
 * @param dim     d, 1 <= d <= 46340.
 * @param params  the settings (r required); params->struct_size >= the first shipped size.
 * @param[out] receipt  the constants; the caller sets receipt->struct_size. Untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INVALID_ARGUMENT (a setting out of range,
 *         a scale so small that a step's clip radius is below 2^-960, the smallest row bound,
 *         n < 1, a struct_size too small), ::DPCOV_E_NON_FINITE, ::DPCOV_E_DIMENSION,
 *         ::DPCOV_E_NUMERICAL (a radius or sigma overflows).
 * @proof proofs/coinpress_mean.md
 */
DPCOV_API dpcov_status dpcov_coinpress_mean_plan(int64_t n, int64_t dim,
                                                 const dpcov_coinpress_mean_params *params,
                                                 dpcov_coinpress_mean_receipt *receipt);

/**
 * Release a private estimate of the mean of the rows @p rows (MVMRec with the authors' budget
 * split, as dpcov_coinpress_release()): t steps, each projecting every row onto a ball around the
 * previous released centre and releasing the projected rows' mean with Gaussian noise. rho-zCDP
 * under replace-one neighbours with n public, for every input (the projection bounds the
 * sensitivity); utility needs Gaussian-like rows with the priors of @p params holding. The mean
 * a centred covariance needs: centre the rows on it, then dpcov_coinpress_release() (the two
 * rhos add up).
 *
 * @param layout   ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR, of @p rows.
 * @param n        number of rows, >= 1 (public).
 * @param dim      d, 1 <= d <= 46340.
 * @param rows     the n x d data, finite; not modified, not retained.
 * @param ldr      leading dimension of @p rows (>= d row-major, >= n column-major).
 * @param centre   the public starting centre c, d finite values; NULL for the origin.
 * @param params   the settings (r required).
 * @param rng      the generator; advanced on success, unchanged on a failure before the first draw.
 * @param[out] mean  the estimate, d values. Untouched on failure.
 * @param[out] receipt  as for dpcov_coinpress_mean_plan(), with seed_fixed from @p rng.
 * @return the statuses of dpcov_coinpress_mean_plan(), and ::DPCOV_E_LAYOUT, ::DPCOV_E_NON_FINITE
 *         (a row or the centre holds NaN or infinity), ::DPCOV_E_TOO_LARGE (an array's extent in
 *         bytes overflows), ::DPCOV_E_NUMERICAL (the estimate, or a step's centre, overflows; the
 *         noise drawn is consumed), ::DPCOV_E_NOMEM.
 * @proof proofs/coinpress_mean.md
 */
DPCOV_API dpcov_status dpcov_coinpress_mean_release(int32_t layout, int64_t n, int64_t dim,
                                                    const double *rows, int64_t ldr,
                                                    const double *centre,
                                                    const dpcov_coinpress_mean_params *params,
                                                    dpcov_rng *rng, double *mean,
                                                    dpcov_coinpress_mean_receipt *receipt);

/**
 * The split of a zCDP budget @p rho between a CoinPress mean (dpcov_coinpress_mean_release()) and
 * the CoinPress covariance (dpcov_coinpress_release()) of the rows centred on it: rho / 8 and
 * 7 rho / 8, each rounded down, so that the two releases together are rho-zCDP. Reentrant.
 *
 * @param rho                 finite and > 0.
 * @param[out] rho_mean       the mean's share; untouched on failure.
 * @param[out] rho_covariance the covariance's share; untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INVALID_ARGUMENT, ::DPCOV_E_NON_FINITE,
 *         ::DPCOV_E_NUMERICAL (a subnormal rho whose share rounds down to 0).
 * @proof proofs/coinpress_mean.md
 */
DPCOV_API dpcov_status dpcov_coinpress_centring_split(double rho, double *rho_mean,
                                                      double *rho_covariance);

/**
 * The epsilon at which rho-zCDP implies (epsilon, delta)-DP: Canonne, Kamath & Steinke (NeurIPS
 * 2020), Prop. 12, inf over alpha > 1 of
 * alpha rho + (ln(1/delta) + (alpha - 1) ln(1 - 1/alpha) - ln alpha) / (alpha - 1), evaluated with
 * upward rounding at the minimising alpha (never below the bound, within 1e-9 relative of the
 * infimum). Never above Bun & Steinke's rho + 2 sqrt(rho ln(1/delta)). Never below 0: where the
 * bound is negative (a small rho at a large delta) the guarantee is (0, delta)-DP and 0 is
 * returned. Reentrant.
 *
 * @param rho    finite and > 0.
 * @param delta  in (0, 1).
 * @param[out] epsilon  the value; untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INVALID_ARGUMENT, ::DPCOV_E_NON_FINITE,
 *         ::DPCOV_E_NUMERICAL (epsilon overflows: rho near the largest double).
 */
DPCOV_API dpcov_status dpcov_zcdp_epsilon(double rho, double delta, double *epsilon);

/**
 * The largest zCDP budget rho (within 1e-12 relative) whose dpcov_zcdp_epsilon() at @p delta is
 * at most @p epsilon: how to run a zCDP mechanism at a given (epsilon, delta). Reentrant.
 *
 * @param epsilon  finite and > 0.
 * @param delta    in (0, 1).
 * @param[out] rho the value; untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INVALID_ARGUMENT, ::DPCOV_E_NON_FINITE,
 *         ::DPCOV_E_NUMERICAL.
 */
DPCOV_API dpcov_status dpcov_zcdp_rho(double epsilon, double delta, double *rho);

#ifdef __cplusplus
}
#endif

#endif /* DPCOV_COINPRESS_H */
