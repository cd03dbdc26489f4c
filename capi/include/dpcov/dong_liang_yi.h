/**
 * @file dpcov/dong_liang_yi.h
 * @brief The zCDP covariance mechanisms of Dong, Liang & Yi, "Differentially Private Covariance
 *        Revisited" (NeurIPS 2022): Gauss, Separate and Adaptive.
 *
 * All three release S~ close to S = X^T X / n for n rows of norm <= r (rows above r are scaled
 * onto the sphere of radius r, as part of the mechanism):
 * - ::DPCOV_DLY_GAUSS: S + symmetric Gaussian noise, sigma = r^2 / (n sqrt(rho));
 * - ::DPCOV_DLY_SEPARATE (Alg. 1): the eigenvalues of S, each plus N(0, 2 r^4 / (n^2 rho)), with
 *   the eigenvectors of a Gauss release, each half at rho / 2. Better than Gauss when the trace of
 *   S is small against d / (n sqrt(rho)) (most rows far inside the ball);
 * - ::DPCOV_DLY_ADAPTIVE (Alg. 3 with dpcov's radius and branch rules): a first look at a private
 *   histogram of row norms (Gaussian noise, rho / 512) that keeps r~ = r when most rows are near
 *   the bound (then the release gets 511 rho / 512); otherwise a private trace (rho / 128), a
 *   second look (15 rho / 512) and the clipping radius r~ <= r minimising the expected squared
 *   error (clipping bias from the noisy histogram, noise from the error bounds scaled by how loose
 *   each is); then Gauss or Separate, whichever has the smaller expected error, on the rows
 *   clipped to r~ (123 rho / 128);
 * - ::DPCOV_DLY_ADAPTIVE_PAPER: Alg. 3 as the paper and the authors' code run it: rho / 8 for the
 *   trace (shifted up to a high-probability bound), rho / 8 for the radius, 3 rho / 4 for the
 *   release, and the branch with the smaller bound at r~ / 2. Where clipping cannot help it costs
 *   1 / sqrt(3 / 4) = 1.155 times the better branch's error; the default 1 / sqrt(511 / 512) =
 *   1.001 where its first look keeps r, 1 / sqrt(123 / 128) = 1.020 where it does not
 *   (bench/results/dly_grid.txt).
 * The released eigenvalues are clamped to [0, r~^2] (post-processing). The receipt reports the
 * branch and r~ that Adaptive chose: they are outputs of its private steps, covered by the budget.
 *
 * Privacy: rho-zCDP under replace-one neighbours with n public, for every input; the receipt also
 * states it as (epsilon, delta)-DP (dpcov_zcdp_epsilon(), dpcov/coinpress.h). Continuous noise in
 * floating point ("idealized numerics", dpcov/mechanism.h); PCG is not a cryptographic generator.
 *
 * @proof proofs/dong_liang_yi.md
 *
 * Thread-safety: reentrant; a release uses its generator exclusively.
 */
#ifndef DPCOV_DONG_LIANG_YI_H
#define DPCOV_DONG_LIANG_YI_H

#include "dpcov/common.h"
#include "dpcov/receipt.h"
#include "dpcov/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The Dong-Liang-Yi mechanisms. Values are pinned. */
enum dpcov_dly_variant {
  /** The Gaussian mechanism on S in zCDP. */
  DPCOV_DLY_GAUSS = 0,
  /** Separate: eigenvalues and eigenvectors released separately (Alg. 1). */
  DPCOV_DLY_SEPARATE = 1,
  /** Adaptive: private trace and clipping radius, then the better branch (Alg. 3). Default. */
  DPCOV_DLY_ADAPTIVE = 2,
  /** Adaptive with the paper's budget split and branch rule (Alg. 3 as published). */
  DPCOV_DLY_ADAPTIVE_PAPER = 3
};

/** Settings of a Dong-Liang-Yi release. Fill with dpcov_dly_params_default(). */
typedef struct dpcov_dly_params {
  /** sizeof(dpcov_dly_params), set by dpcov_dly_params_default(). */
  size_t struct_size;
  /** A ::dpcov_dly_variant. Default ::DPCOV_DLY_ADAPTIVE. */
  int32_t variant;
  /** Total zCDP budget rho, finite and > 0, with an epsilon at most ::DPCOV_MAX_EPSILON (about
   *  rho <= 2^40, docs/epsilon-cap.md). Default 0.1. */
  double rho;
  /** r, the public bound on row norms, in [2^-960, sqrt(DBL_MAX / 2) = 9.48e153] (the range of
   *  row bounds; r^2 bounds the second moment). rho must also keep the release's noise sigma
   *  below DBL_MAX / 128. Default 1. */
  double radius;
  /** Failure probability in (0, 1) of Adaptive's error bounds. Default 0.1. */
  double beta;
  /** delta in (0, 1) at which the receipt states the guarantee as (epsilon, delta). Default 1e-6. */
  double delta;
} dpcov_dly_params;

/** What a Dong-Liang-Yi release spent and every constant it used. */
typedef struct dpcov_dly_receipt {
  size_t struct_size;    /**< Set by the caller to sizeof(dpcov_dly_receipt). */
  /* The members of dpcov_receipt_prefix (dpcov/receipt.h), documented there. */
  int32_t mechanism;     /**< A ::dpcov_mechanism_id (::DPCOV_MECHANISM_DLY). */
  int32_t privacy_model; /**< A ::dpcov_mechanism_privacy. */
  int32_t neighbour;     /**< A ::dpcov_neighbour. */
  int32_t numerics;      /**< ::DPCOV_NUMERICS_IDEALIZED: Gaussian noise sampled in floating point (Mironov 2012). */
  int32_t generator;     /**< Release only: the ::dpcov_generator of the noise; 0 in a plan. */
  int32_t seed_fixed;    /**< 1 if the generator came from an explicit seed (no privacy), else 0; 0 in a plan. */
  double epsilon;        /**< epsilon of the (epsilon, delta)-DP guarantee. */
  double delta;          /**< delta of that guarantee. */
  double rho;            /**< Total zCDP budget. */
  double bound;          /**< r, the public bound on row norms. */
  int64_t n;             /**< n, the public number of rows. */
  char theorem[DPCOV_RECEIPT_THEOREM_SIZE]; /**< Paper, theorem and proof file, NUL-terminated. */
  /** The ::dpcov_dly_variant requested. */
  int32_t variant;
  /** d. */
  int64_t dim;
  /** beta. */
  double beta;
  /** Budget of the final Gauss or Separate release (rho; 3 rho / 4 for AdaptivePaper; for
   *  Adaptive 123 rho / 128 in a plan and in a release whose first look did not settle the
   *  radius, 511 rho / 512 in one whose first look did; rounded down). */
  double rho_covariance;
  /** Adaptive variants: sigma of the private trace, r^2 / (n sqrt(2 rho_trace)) with rho_trace =
   *  rho / 128 (rho / 8 for AdaptivePaper); 0 in an Adaptive release whose first look settled
   *  the radius (no trace was released); else 0. */
  double trace_sigma;
  /** AdaptivePaper: epsilon of the sparse vector step, sqrt(rho) / 2 (rho / 8); else 0. */
  double svt_epsilon;
  /** Adaptive variants: number of candidate radii r 2^-q (bins of the histogram of row norms);
   *  else 0. */
  int64_t svt_queries;
  /** The ::dpcov_dly_variant of the final release (Gauss or Separate). Gauss and Separate: their
   *  own, in the plan too; adaptive variants: release only, -1 in a plan. */
  int32_t branch;
  /** The clipping radius r~ of the final release: r for Gauss and Separate (in the plan too);
   *  adaptive variants: release only, 0 in a plan. */
  double clip_radius;
  /** Sigma of the Gaussian matrix noise of the final release: Gauss sigma(rho), Separate
   *  sigma(rho / 2), in the plan too; adaptive variants: release only, 0 in a plan (Adaptive's
   *  Gauss branch averages two halves at sigma(rho_c / 2): their sigma times sqrt(1/2), rounded
   *  up). */
  double sigma_matrix;
  /** Sigma of Separate's eigenvalue noise (in the plan too for ::DPCOV_DLY_SEPARATE; release
   *  only for the adaptive variants, 0 in a plan), else 0. */
  double sigma_eigenvalues;
  /** Adaptive: sigma of the Gaussian noise on each bin of the second look at the histogram of row
   *  norms, 1 / sqrt(15 rho / 512) (0 in a release whose first look settled the radius: no
   *  second look); else 0. */
  double histogram_sigma;
  /** Adaptive: sigma of the Gaussian noise on each bin of the first look at the histogram of row
   *  norms, 1 / sqrt(rho / 512); else 0. */
  double first_look_sigma;
  /** Adaptive release: 1 if the first look settled the radius at r (then no trace and no second
   *  look were released), 0 if not; -1 in a plan and for the other variants. */
  int32_t first_look_settled;
} dpcov_dly_receipt;

/**
 * Fill @p params with the defaults (Adaptive, rho = 0.1, r = 1, beta = 0.1, delta = 1e-6) and set
 * its struct_size.
 * Writes min(@p size, sizeof(dpcov_dly_params)) bytes and sets struct_size to that count, so a
 * program compiled against an older, smaller struct is never overrun; call it through
 * dpcov_dly_params_default(), which passes the size the program was compiled with.
 * @param[out] params  the struct to fill; required; untouched on error.
 * @param size  sizeof *params as the caller compiled it; at least the struct's first
 *   shipped size.
 * @return ::DPCOV_OK; ::DPCOV_E_NULL_POINTER; ::DPCOV_E_INVALID_ARGUMENT for a size below
 *   the first shipped size.
 */
DPCOV_API dpcov_status dpcov_dly_params_init(dpcov_dly_params *params, size_t size);

/**
 * dpcov_dly_params_init() with sizeof the struct this program was compiled with.
 * @param[out] params  the struct to fill; required.
 * @return as dpcov_dly_params_init().
 */
static inline dpcov_status dpcov_dly_params_default(dpcov_dly_params *params) {
  return dpcov_dly_params_init(params, sizeof *params);
}

/**
 * Every data-independent constant of a release of @p n rows in dimension @p dim, without data or
 * randomness.
 *
 * @param n       number of rows, >= 1 (public).
 * @param dim     d, 1 <= d <= 46340.
 * @param params  the settings, or NULL for the defaults; params->struct_size >=
 *                sizeof(dpcov_dly_params).
 * @param[out] receipt  the constants; the caller sets receipt->struct_size. Untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_INVALID_ARGUMENT (unknown variant, a
 *         setting out of range, n < 1, a share of rho that rounds down to 0, a struct_size too
 *         small), ::DPCOV_E_NON_FINITE, ::DPCOV_E_DIMENSION, ::DPCOV_E_NUMERICAL (a noise scale
 *         or the receipt's epsilon would not be finite: a tiny rho against a large r, or rho
 *         near DBL_MAX).
 */
DPCOV_API dpcov_status dpcov_dly_plan(int64_t n, int64_t dim, const dpcov_dly_params *params,
                                      dpcov_dly_receipt *receipt);

/**
 * Release a private estimate of X^T X / n.
 *
 * @param layout   ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR, for both @p rows and @p out.
 * @param n        number of rows, >= 1 (public).
 * @param dim      d, 1 <= d <= 46340.
 * @param rows     the n x d data X, finite; not modified, not retained.
 * @param ldr      leading dimension of @p rows (>= d row-major, >= n column-major).
 * @param params   the settings, or NULL for the defaults.
 * @param rng      the generator; advanced on success and on a failure after the first draw (the
 *                 noise drawn is consumed: a refusal is an output), unchanged on a failure
 *                 before it (every argument is checked first).
 * @param[out] out the release, d x d, exactly symmetric, eigenvalues in [0, r~^2]. Untouched on
 *                 failure.
 * @param ldo      leading dimension of @p out, >= d.
 * @param[out] receipt  as for dpcov_dly_plan(), with the release-only fields filled.
 * @return the statuses of dpcov_dly_plan(), and ::DPCOV_E_LAYOUT, ::DPCOV_E_NON_FINITE,
 *         ::DPCOV_E_NUMERICAL, ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_dly_release(int32_t layout, int64_t n, int64_t dim,
                                         const double *rows, int64_t ldr,
                                         const dpcov_dly_params *params, dpcov_rng *rng,
                                         double *out, int64_t ldo, dpcov_dly_receipt *receipt);

#ifdef __cplusplus
}
#endif

#endif /* DPCOV_DONG_LIANG_YI_H */
