/**
 * @file dpcov/mechanism.h
 * @brief Mechanisms that add noise to the Gram matrix G = A^T A (or to its inverse): plan, release
 *        and the exact log-density of a release.
 *
 * Every mechanism is selected by a ::dpcov_mechanism_id and driven by the same four calls:
 * - dpcov_mechanism_plan(): from (d, n, B, epsilon, delta, params) alone, with no data and no
 *   randomness, fill a ::dpcov_receipt with every constant the release would use, or return the
 *   status the release would return. The release runs the same code, so plan and release never
 *   disagree.
 * - dpcov_mechanism_release() (raw symmetric matrix with n and B) and
 *   dpcov_mechanism_release_gram() (a ::dpcov_gram, which knows n and B): plan, check the
 *   statistic, draw the noise, write the released matrix and the receipt.
 * - dpcov_mechanism_log_density(): the natural log of the density of a released matrix given a
 *   statistic (over the d(d+1)/2 upper-triangle entries, or over positive-definite matrices for the
 *   Wishart mechanisms), -infinity outside the support. What a privacy auditor compares on
 *   neighbouring datasets.
 *
 * Privacy is stated for rows of Euclidean norm <= B and the neighbour relation of
 * dpcov_mechanism_params::neighbour (default: replace-one, n public). The statistic must be the
 * Gram matrix of such rows (dpcov_gram_add_rows() enforces the bound); the library checks what it
 * can (symmetric, finite, diagonal >= 0, trace <= n B^2) but cannot check where G came from.
 *
 * Numerics: a release from a matrix (dpcov_mechanism_release()) is `idealized`
 * (dpcov_receipt::numerics = ::DPCOV_NUMERICS_IDEALIZED): its continuous noise is generated in
 * floating point (Mironov 2012), so its guarantee is that of the real-valued mechanism, as in
 * every floating-point DP library, not of the doubles as computed; a matrix already rounded
 * cannot be released exactly. Analyze Gauss and symmetric Laplace released from rows are exact
 * (floating-point-safe, ::DPCOV_NUMERICS_EXACT) by default: dpcov_gram_create_bounded() with
 * dpcov_row_bounding::mechanism, epsilon and delta set, dpcov_gram_add_raw_rows(), then
 * dpcov_mechanism_release_gram() (the documented path; dpcov_row_bounding::numerics =
 * ::DPCOV_NUMERICS_IDEALIZED opts out); every other mechanism is idealized on every path, and
 * its receipt says so. Noise comes from a ::dpcov_rng: ChaCha20 from OS entropy by
 * default, or PCG64 from a seed, which gives no privacy to anyone who knows the seed (the receipt
 * records `generator` and `seed_fixed`).
 *
 * Thread-safety: plan and log-density are reentrant. A release uses its generator exclusively
 * (one generator per thread).
 */
#ifndef DPCOV_MECHANISM_H
#define DPCOV_MECHANISM_H

#include "dpcov/common.h"
#include "dpcov/gram.h"
#include "dpcov/receipt.h"
#include "dpcov/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Mechanism identifiers. Their numbers are part of the ABI and never change. */
enum dpcov_mechanism_id {
  /**
   * Analyze Gauss (Dwork, Talwar, Thakurta, Zhang, STOC 2014, Alg. 1): releases G + E, E symmetric
   * with iid N(0, sigma^2) entries on and above the diagonal.
   *
   * Guarantee: (epsilon, delta)-DP for the chosen neighbour relation. sigma is calibrated to the
   * upper-triangle L2 sensitivity Delta = sqrt(2) B^2 (replace-one) or B^2 (add/remove) by the
   * analytic Gaussian mechanism (Balle & Wang, ICML 2018, Thm 8; default, any epsilon > 0) or,
   * with ::DPCOV_CALIBRATION_CLASSICAL_GAUSSIAN, by sigma = Delta sqrt(2 ln(1.25/delta)) / epsilon
   * (Dwork & Roth Thm A.1; precondition epsilon < 1, else ::DPCOV_E_PRECONDITION).
   * Preconditions: epsilon > 0, 0 < delta < 1. The release may be indefinite.
   * @proof proofs/analyze_gauss.md
   */
  DPCOV_MECHANISM_ANALYZE_GAUSS = 1,
  /**
   * Symmetric Laplace input perturbation (Jiang, Xie, Zhang, AAAI 2016, Alg. 1; Wang, Huai, Xu
   * 2018; Amin et al. 2019 baseline): releases G + L, L symmetric with iid Laplace(b) entries on
   * and above the diagonal.
   *
   * Guarantee: epsilon-DP (delta spent: 0; pass delta = 0 or any value in (0, 1)). Default scale
   * b = (d+1) B^2 / epsilon (replace-one) or (d+1) B^2 / (2 epsilon) (add/remove): the L1
   * sensitivity of the upper triangle, where the noise is drawn. ::DPCOV_CALIBRATION_LAPLACE_PUBLISHED
   * uses the published b = 2 d B^2 / epsilon (valid, larger). Preconditions: epsilon > 0.
   * @proof proofs/laplace_sym.md
   */
  DPCOV_MECHANISM_LAPLACE_SYM = 2,
  /**
   * Additive Wishart noise (Sheffet, "Old Techniques in Differentially Private Linear Regression",
   * ALT 2019, Alg. 3 / Thm 4.1 = Thm B.3; Wang, Huai, Xu 2018 on G / n): releases G + W,
   * W ~ W_d(k, B^2 I), k = ceil(d + 14 ln(4/delta) / epsilon^2). Positive definite.
   *
   * Guarantee: (epsilon, delta)-DP under replace-one and add/remove (same constants).
   * Preconditions (the theorem's): 0 < epsilon < 1 and 0 < delta < 1/e, else ::DPCOV_E_PRECONDITION.
   * Post-processing: dpcov_postprocess_wishart_mean_subtract(), dpcov_postprocess_wishart_shift().
   * @proof proofs/wishart_additive.md
   */
  DPCOV_MECHANISM_WISHART_ADDITIVE = 3,
  /**
   * Gaussian noise on the inverse (Sheffet, ALT 2019, Thm B.5): releases G^{-1} + E, E symmetric
   * Gaussian as in Analyze Gauss, calibrated (analytic by default) to the L2 sensitivity of G^{-1}
   * under a public bound lambda_min(G) >= theta^2 = dpcov_mechanism_params::lambda_min_bound
   * (required): Delta = B^2 / theta^4 (times sqrt 2 for replace-one) when every dataset of the
   * domain satisfies the bound (::DPCOV_LAMBDA_MIN_DOMAIN), B^2 / (theta^2 (theta^2 - B^2)) (times
   * sqrt 2) when only the input is known to (::DPCOV_LAMBDA_MIN_INPUT; needs theta^2 > B^2).
   *
   * Guarantee: (epsilon, delta)-DP over the neighbouring pairs the scope covers: in the domain
   * scope, every pair of datasets with lambda_min >= theta^2; in the input scope, every pair one
   * of whose datasets has lambda_min >= theta^2 (the other then has lambda_min >= theta^2 - B^2).
   * The bound must be public (chosen without looking at the data).
   *
   * Data-dependent refusal: the release (and the log-density) refuses with
   * ::DPCOV_E_PRECONDITION where lambda_min(G) is below the scope's floor, theta^2 (domain) or
   * theta^2 - B^2 (input), as computed less a rounding allowance, so no dataset of a covered pair
   * is ever refused and on covered pairs the refusal is a constant. A refusal is still an output
   * about the data: it says the input lies outside every covered pair, where there is no
   * guarantee. The bound is therefore a precondition the caller asserts (of every dataset in the
   * domain scope, of the input in the input scope); where it is false, the refusal or the release
   * may disclose the input's lambda_min relative to the floor. The message quotes only the public
   * theta^2 and B, never a value computed from G.
   * Preconditions: epsilon > 0, 0 < delta < 1, theta^2 > 0 (epsilon < 1 for the classical sigma).
   * @proof proofs/inverse_gauss.md
   */
  DPCOV_MECHANISM_INVERSE_GAUSS = 4,
  /**
   * The Wishart mechanism of Jiang, Xie, Zhang (AAAI 2016, Alg. 2; also Wang, Huai, Xu 2018,
   * epsilon version), exactly as published: releases G + W, W ~ W_d(d + 1, (3 B^2 / (2 epsilon)) I).
   *
   * NOT DIFFERENTIALLY PRIVATE: the noise has no mass outside the positive-definite cone, so for a
   * row v of norm B replaced by 0 the event {Y - G not PSD} has probability 0 under one dataset and
   * 1 - exp(-epsilon/3) under the other, whatever d and n (0.2835 at epsilon = 1). Provided only as
   * a known-broken target for privacy auditors: plan and release return ::DPCOV_E_NOT_PRIVATE unless
   * dpcov_mechanism_params::audit_only_not_private is 1, and the receipt has not_dp = 1.
   * @proof proofs/wishart_jiang.md
   */
  DPCOV_MECHANISM_WISHART_JIANG = 5,
  /**
   * Iterative eigenvector sampling, IEV (Amin, Dick, Kulesza, Munoz Medina, Vassilvitskii,
   * "Differentially Private Covariance Estimation", NeurIPS 2019, Alg. 1): releases
   * sum_i lambda_hat_i theta_i theta_i^T over the top k = dpcov_mechanism_params::rank eigenpairs
   * (default all d), where lambda_hat_i = lambda_i(G) + Lap(b) and theta_i is drawn from the
   * Bingham density proportional to exp(kappa_i theta^T G theta) on the unit sphere of the
   * orthogonal complement of theta_1..theta_{i-1} (Kent-Ganeiber-Mardia rejection sampler).
   * The spectrum is then clipped to [0, n B^2] (replace-one; [0, +infinity) under add/remove, where
   * n is private). Positive semidefinite, rank <= k.
   *
   * Guarantee: epsilon-DP (Thm 1, basic composition; delta spent: 0). eps0 = epsilon / 2 goes to the
   * eigenvalues, b = 2 B^2 / eps0 (replace-one) or B^2 / eps0 (add/remove), the L1 sensitivity of
   * the eigenvalue vector; epsilon / 2 is split over the k eigenvector steps adaptively (Cor. 1;
   * default; dpcov_mechanism_params::beta) or uniformly (eps_i = epsilon / (2k),
   * ::DPCOV_BUDGET_SPLIT_UNIFORM, the paper's experiments). Each step's exponent is the
   * sensitivity-calibrated kappa_i = eps_i / (2 B^2) (eps_i / B^2 under add/remove) of
   * ::DPCOV_CALIBRATION_BINGHAM_SENSITIVITY (default) or eps_i / (4 B^2) as published
   * (::DPCOV_CALIBRATION_BINGHAM_PUBLISHED; it spends only eps_i / 2, a valid slack). The paper's
   * configuration is ::DPCOV_BUDGET_SPLIT_UNIFORM with ::DPCOV_CALIBRATION_BINGHAM_PUBLISHED; the
   * default is the more accurate one (bench/results/side_by_side.md). Preconditions: epsilon > 0.
   * Side channel: the number of Bingham proposals (recorded in the receipt) depends on the data, so
   * the running time does too.
   * The released matrix has no closed-form density: dpcov_mechanism_log_density() returns
   * ::DPCOV_E_INVALID_ARGUMENT for it.
   * @proof proofs/iev.md
   */
  DPCOV_MECHANISM_IEV = 6,
  /**
   * The Kapralov-Talwar baseline as Amin et al. (NeurIPS 2019, Sec. 4) run it: as
   * ::DPCOV_MECHANISM_IEV, except that theta_i is drawn on the whole sphere S^{d-1} from
   * exp(kappa_i theta^T C_i theta) with C_{i+1} = C_i - lambda_hat_i theta_i theta_i^T (rank-one
   * subtraction instead of projection), and the clip acts on the eigenvalues of the sum (the thetas
   * need not be orthogonal). Same constants, options and guarantee (epsilon-DP); not Kapralov and
   * Talwar's own SODA 2013 algorithm. Same side channel; no closed-form density.
   * @proof proofs/kt_rank1.md
   */
  DPCOV_MECHANISM_KT_RANK1 = 7,
  /**
   * Johnson-Lindenstrauss with a ridge regulariser (Sheffet, "Old Techniques in Differentially
   * Private Linear Regression", ALT 2019, Alg. 1 / Thm 3.1 = Thm B.1): releases S^T S / r for the
   * sketch S = R [A; w I] (r x d, R iid N(0, 1)), r = dpcov_mechanism_params::projection_rows
   * (required, >= 1), w^2 = (2 B^2 / epsilon) (sqrt(2 r ln(4/delta)) + 2 ln(4/delta)). An estimate
   * of G + w^2 I, positive semidefinite (definite for r >= d). From the Gram matrix the sketch is
   * drawn as r iid rows N(0, G + w^2 I), the exact law of R [A; w I]; dpcov_sketch_release() forms
   * it from the rows themselves (dpcov/sketch.h).
   *
   * Guarantee: (epsilon, delta)-DP under replace-one and add/remove (same constants).
   * Preconditions: 0 < epsilon <= 1 (the theorem states epsilon < 1; epsilon = 1 is covered by the
   * exact delta, proofs/jl_ridge.md) and 0 < delta < 1/e, else ::DPCOV_E_PRECONDITION.
   * Log-density: of S^T S / r (Wishart W_d(r, G + w^2 I) scaled by 1/r), only for r >= d.
   * @proof proofs/jl_ridge.md
   */
  DPCOV_MECHANISM_JL_RIDGE = 8,
  /**
   * Sheffet ALT 2019, Alg. 2: as ::DPCOV_MECHANISM_JL_RIDGE after a private test on the least
   * singular value. (epsilon/2, delta/2) releases s2 = lambda_min(G) + Lap(b) - b ln(1/delta),
   * b = 4 B^2 / epsilon (receipt: test_value, test_scale, test_shift); the other half releases the
   * sketch with w'^2 = max(0, w^2 - max(s2, 0)), w the threshold at (epsilon/2, delta/2, r)
   * (receipt: threshold_w2, appended_w). Guarantee: (epsilon, delta)-DP. Preconditions:
   * epsilon/2 <= 1, delta/2 < 1/e. Log-density: joint with s2 only (dpcov_mechanism_log_density()
   * returns ::DPCOV_E_INVALID_ARGUMENT; use dpcov_mechanism_log_density_tested()).
   * @proof proofs/jl_ridge.md
   */
  DPCOV_MECHANISM_JL_RIDGE_SIGMA_MIN = 9,
  /**
   * Inverse-Wishart posterior sample (Sheffet ALT 2019, Alg. 4 / Thm 5.1 = Thm B.4): releases
   * Sigma ~ W^{-1}_d(G + w^2 I, m) with m = dpcov_mechanism_params::posterior_dof (required,
   * an integer d <= m <= 2^53, the largest a double holds exactly; a larger m is
   * ::DPCOV_E_INVALID_ARGUMENT) and w^2 the ::DPCOV_MECHANISM_JL_RIDGE threshold with r replaced
   * by m (the prior W^{-1}(w^2 I, .)). Positive definite.
   * Guarantee: (epsilon, delta)-DP under replace-one and add/remove. Preconditions: m >= d,
   * 0 < epsilon <= 1, 0 < delta < 1/e, else ::DPCOV_E_PRECONDITION.
   * @proof proofs/inverse_wishart.md
   */
  DPCOV_MECHANISM_INVERSE_WISHART = 10,
  /**
   * Sheffet ALT 2019, Alg. 5: ::DPCOV_MECHANISM_INVERSE_WISHART with the private sigma_min test of
   * ::DPCOV_MECHANISM_JL_RIDGE_SIGMA_MIN lowering w (same split, same receipt fields).
   * Guarantee: (epsilon, delta)-DP. Preconditions: m >= d, epsilon/2 <= 1, delta/2 < 1/e.
   * Log-density: joint with s2 only (dpcov_mechanism_log_density_tested()).
   * @proof proofs/inverse_wishart.md
   */
  DPCOV_MECHANISM_INVERSE_WISHART_SIGMA_MIN = 11,
  /**
   * Private OLS by projection (Sheffet, "Differentially Private Ordinary Least Squares", ICML
   * 2017, Alg. 1): propose-test-release. With the test of ::DPCOV_MECHANISM_JL_RIDGE_SIGMA_MIN
   * and w^2 the JL threshold at (epsilon/2, delta/2, r): if s2 > w^2 releases S^T S / r for
   * S = R A (no regulariser), else releases nothing and returns ::DPCOV_E_REFUSED ("data not well
   * spread"). The test's draws stay consumed: the generator has advanced, and a retry draws a
   * fresh test and spends the privacy of another release).
   * r = dpcov_mechanism_params::projection_rows. t-values and intervals: dpcov/ols.h.
   * Guarantee: (epsilon, delta)-DP. Preconditions: epsilon/2 <= 1, delta/2 < 1/e.
   * Log-density: joint with s2 only (dpcov_mechanism_log_density_tested()).
   * @proof proofs/ols_ptr.md
   */
  DPCOV_MECHANISM_OLS_JL = 12,
  /**
   * Output perturbation around the graphical lasso (Wang, Huai, Xu, "Differentially Private
   * Sparse Inverse Covariance Estimation", GlobalSIP 2018, Alg. 1), exactly as published: releases
   * Theta_rho + N, N ~ W_d(d + 1, c I), c = d^{5/2} B^2 / (n epsilon rho^2), where Theta_rho is the
   * graphical-lasso solution (diagonal penalised) for S = G / n and the public penalty rho. A
   * precision-matrix estimate, not a Gram matrix.
   *
   * NOT DIFFERENTIALLY PRIVATE: as for ::DPCOV_MECHANISM_WISHART_JIANG, the noise has no mass
   * outside the positive-definite cone, so whenever two neighbours have different solutions the
   * event {released - Theta_rho(D) not PSD} has probability 0 under one and a positive probability
   * under the other. Runs only through dpcov_private_glasso_release() (dpcov/private_glasso.h),
   * which takes rho, with dpcov_mechanism_params::audit_only_not_private = 1; the receipt has
   * not_dp = 1. Replace-one only. dpcov_mechanism_plan() and dpcov_mechanism_release() have no rho
   * and return ::DPCOV_E_INVALID_ARGUMENT (or ::DPCOV_E_NOT_PRIVATE without the unlock).
   * @proof proofs/glasso_output.md
   */
  DPCOV_MECHANISM_GLASSO_OUTPUT_WISHART = 13,
  /*
   * The mechanisms below do not take a Gram matrix: they have entry points of their own, named
   * in each entry, and every function of this header refuses them with ::DPCOV_E_INVALID_ARGUMENT.
   * Their ids name them in the registry (dpcov_mechanism_info()).
   */
  /**
   * AdaSSP private linear regression (Wang, UAI 2018, Alg. 2) from the rows X and labels y:
   * dpcov_adassp_fit() and dpcov_adassp_plan() (dpcov/adassp.h). (epsilon, delta)-DP.
   * @proof proofs/adassp.md
   */
  DPCOV_MECHANISM_ADASSP = 20,
  /**
   * Dong, Liang & Yi's Gauss, Separate and Adaptive covariance mechanisms (NeurIPS 2022) from the
   * rows: dpcov_dly_release() (dpcov/dong_liang_yi.h). rho-zCDP, replace-one.
   * @proof proofs/dong_liang_yi.md
   */
  DPCOV_MECHANISM_DLY = 21,
  /**
   * CoinPress covariance (Biswas, Dong, Kamath & Ullman, NeurIPS 2020, Alg. 2-3) from the rows:
   * dpcov_coinpress_release() (dpcov/coinpress.h). rho-zCDP, replace-one.
   * @proof proofs/coinpress.md
   */
  DPCOV_MECHANISM_COINPRESS = 22,
  /**
   * CoinPress mean (MVM iterated by MVMRec) from the rows: dpcov_coinpress_mean_release()
   * (dpcov/coinpress.h). rho-zCDP, replace-one.
   * @proof proofs/coinpress_mean.md
   */
  DPCOV_MECHANISM_COINPRESS_MEAN = 23,
  /**
   * A norm bound B chosen from the rows' norms over a public grid: dpcov_private_bound_scan()
   * (sparse vector, the default) and dpcov_private_bound_select() (exponential mechanism)
   * (dpcov/private_bound.h). Pure epsilon-DP under both neighbour relations.
   * @proof proofs/private_bound.md
   */
  DPCOV_MECHANISM_PRIVATE_BOUND = 24
};

/**
 * Optional settings of a mechanism. Fill with dpcov_mechanism_params_default(), then change fields.
 * A field that does not apply to the mechanism must keep its default (::DPCOV_E_INVALID_ARGUMENT
 * otherwise), so that a setting is never silently ignored.
 */
typedef struct dpcov_mechanism_params {
  /** sizeof(dpcov_mechanism_params), set by dpcov_mechanism_params_default(). */
  size_t struct_size;
  /** A ::dpcov_neighbour. Default ::DPCOV_NEIGHBOUR_REPLACE_ONE. */
  int32_t neighbour;
  /** A ::dpcov_calibration that applies to the mechanism. Default ::DPCOV_CALIBRATION_DEFAULT. */
  int32_t calibration;
  /** Inverse Gauss only, required there: theta^2, a public lower bound on lambda_min(G), > 0. Default 0. */
  double lambda_min_bound;
  /** Inverse Gauss only: a ::dpcov_lambda_min_scope. Default ::DPCOV_LAMBDA_MIN_DOMAIN. */
  int32_t lambda_min_scope;
  /**
   * Wishart (Jiang) only: 1 acknowledges that the mechanism is NOT private and runs it as an audit
   * target. Default 0.
   */
  int32_t audit_only_not_private;
  /**
   * IEV and KT only: a ::dpcov_budget_split. Default ::DPCOV_BUDGET_SPLIT_DEFAULT (adaptive for
   * IEV, uniform for KT).
   */
  int32_t budget_split;
  /**
   * IEV and KT with ::DPCOV_BUDGET_SPLIT_ADAPTIVE only: the utility failure probability beta of
   * Cor. 1, in (0, 1); 0 (default) means 0.05. Shapes the split, never the privacy.
   */
  double beta;
  /** IEV and KT only: k, the number of top eigenpairs released, 1 <= k <= d; 0 (default) means d. */
  int64_t rank;
  /** JL ridge (both) and OLS by projection only, required there: r, the projection rows, >= 1. Default 0. */
  int64_t projection_rows;
  /** Inverse Wishart (both) only, required there: the degrees of freedom m, an integer in [d, 2^53]. Default 0. */
  int64_t posterior_dof;
} dpcov_mechanism_params;

/**
 * Fill @p params with the defaults (replace-one, default calibration, no lambda_min bound, audit
 * unlock off) and set its struct_size.
 * Writes min(@p size, sizeof(dpcov_mechanism_params)) bytes and sets struct_size to that count, so a
 * program compiled against an older, smaller struct is never overrun; call it through
 * dpcov_mechanism_params_default(), which passes the size the program was compiled with.
 * @param[out] params  the struct to fill; required; untouched on error.
 * @param size  sizeof *params as the caller compiled it; at least the struct's first
 *   shipped size.
 * @return ::DPCOV_OK; ::DPCOV_E_NULL_POINTER; ::DPCOV_E_INVALID_ARGUMENT for a size below
 *   the first shipped size.
 */
DPCOV_API dpcov_status dpcov_mechanism_params_init(dpcov_mechanism_params *params, size_t size);

/**
 * dpcov_mechanism_params_init() with sizeof the struct this program was compiled with.
 * @param[out] params  the struct to fill; required.
 * @return as dpcov_mechanism_params_init().
 */
static inline dpcov_status dpcov_mechanism_params_default(dpcov_mechanism_params *params) {
  return dpcov_mechanism_params_init(params, sizeof *params);
}

/**
 * Static name of a mechanism ("analyze_gauss", "laplace_sym", "wishart_additive",
 * "inverse_gauss", "wishart_jiang", "iev", "kt_rank1", "jl_ridge", "jl_ridge_sigma_min",
 * "inverse_wishart", "inverse_wishart_sigma_min", "ols_jl", "glasso_output_wishart", "adassp",
 * "dly", "coinpress", "coinpress_mean", "private_bound"), or "unknown". The registry's name
 * (dpcov_mechanism_info()). Never NULL. Thread-safe.
 */
DPCOV_API const char *dpcov_mechanism_name(int32_t mechanism);

/**
 * The family of a mechanism, which kind of entry point releases it
 * (dpcov_mechanism_entry::family).
 */
enum dpcov_mechanism_family {
  /** Takes a Gram matrix; released by dpcov_mechanism_release() and the functions of this header. */
  DPCOV_MECHANISM_FAMILY_GRAM = 1,
  /** Takes the rows and is stated in rho-zCDP (Dong-Liang-Yi, CoinPress). */
  DPCOV_MECHANISM_FAMILY_ROWS_ZCDP = 2,
  /** Private linear regression from the rows and labels (AdaSSP). */
  DPCOV_MECHANISM_FAMILY_REGRESSION = 3,
  /** A private choice of the norm bound B (dpcov/private_bound.h). */
  DPCOV_MECHANISM_FAMILY_BOUND = 4
};

/**
 * The privacy model a mechanism's guarantee is stated in (dpcov_mechanism_entry::privacy_model).
 */
enum dpcov_mechanism_privacy {
  /** epsilon-DP (delta spent: 0). */
  DPCOV_MECHANISM_PRIVACY_PURE = 1,
  /** (epsilon, delta)-DP. */
  DPCOV_MECHANISM_PRIVACY_APPROXIMATE = 2,
  /** rho-zCDP, stated as (epsilon, delta)-DP by dpcov_zcdp_epsilon(). */
  DPCOV_MECHANISM_PRIVACY_ZCDP = 3,
  /** Not differentially private: a known-broken audit target, refused unless unlocked. */
  DPCOV_MECHANISM_PRIVACY_NOT_PRIVATE = 4
};

/** What a mechanism reads (dpcov_mechanism_entry::input). */
enum dpcov_mechanism_input {
  DPCOV_MECHANISM_INPUT_GRAM = 1, /**< The Gram matrix G = A^T A of bounded rows. */
  DPCOV_MECHANISM_INPUT_ROWS = 2  /**< The rows themselves. */
};

/** What a mechanism releases (dpcov_mechanism_entry::output). */
enum dpcov_mechanism_output {
  DPCOV_MECHANISM_OUTPUT_MATRIX = 1,     /**< A d x d matrix. */
  DPCOV_MECHANISM_OUTPUT_REGRESSION = 2, /**< Regression coefficients (with their statistics). */
  DPCOV_MECHANISM_OUTPUT_VECTOR = 3,     /**< A vector of length d. */
  DPCOV_MECHANISM_OUTPUT_SCALAR = 4      /**< One number. */
};

/** dpcov_mechanism_entry::neighbours bit: the guarantee holds for replace-one neighbours. */
#define DPCOV_MECHANISM_NEIGHBOURS_REPLACE_ONE 1
/** dpcov_mechanism_entry::neighbours bit: the guarantee holds for add/remove neighbours. */
#define DPCOV_MECHANISM_NEIGHBOURS_ADD_REMOVE 2
/** dpcov_mechanism_entry::numerics bit: releases with ::DPCOV_NUMERICS_IDEALIZED. */
#define DPCOV_MECHANISM_NUMERICS_IDEALIZED 1
/** dpcov_mechanism_entry::numerics bit: releases with ::DPCOV_NUMERICS_EXACT (dpcov/exact.h). */
#define DPCOV_MECHANISM_NUMERICS_EXACT 2

/**
 * dpcov_mechanism_entry::options bits: the mechanism-specific options a mechanism reads. Every
 * other one must stay at its default, else its plan and release return ::DPCOV_E_INVALID_ARGUMENT
 * naming the mechanisms that take it: a request never carries a setting that is silently ignored.
 */
enum dpcov_mechanism_option {
  /** dpcov_mechanism_params::lambda_min_bound and lambda_min_scope. */
  DPCOV_MECHANISM_OPTION_LAMBDA_MIN = 1,
  /** dpcov_mechanism_params::budget_split, beta and rank (the spectral releases). */
  DPCOV_MECHANISM_OPTION_SPECTRAL = 2,
  /** dpcov_mechanism_params::projection_rows. */
  DPCOV_MECHANISM_OPTION_PROJECTION_ROWS = 4,
  /** dpcov_mechanism_params::posterior_dof. */
  DPCOV_MECHANISM_OPTION_POSTERIOR_DOF = 8,
  /** dpcov_mechanism_params::audit_only_not_private (a mechanism that is not private). */
  DPCOV_MECHANISM_OPTION_AUDIT_UNLOCK = 16,
  /** The graphical-lasso penalty rho of dpcov_private_glasso_release() (dpcov/private_glasso.h). */
  DPCOV_MECHANISM_OPTION_GLASSO_RHO = 32,
  /**
   * dpcov_mechanism_params::calibration other than ::DPCOV_CALIBRATION_DEFAULT and
   * ::DPCOV_CALIBRATION_THEOREM (the one calibration of a mechanism without a choice): a
   * mechanism with a choice of calibrations, which its plan names.
   */
  DPCOV_MECHANISM_OPTION_CALIBRATION = 64
};

/**
 * dpcov_mechanism_entry::inference bits: the inference a mechanism's release supports beyond the
 * noise-aware post-processing of dpcov/postprocess.h, so that a caller reads it from the registry
 * rather than from the mechanism's name.
 */
enum dpcov_mechanism_inference {
  /**
   * The release is S^T S / r for a Gaussian projection S of r rows (dpcov_receipt::
   * projection_rows) with no regulariser: least squares on S^T S = r times the release gives
   * exact Student-t inference with r - p residual degrees of freedom about the data's own least
   * squares estimate (Sheffet 2017, Alg. 1), not noise-aware intervals about the model.
   */
  DPCOV_MECHANISM_INFERENCE_PROJECTION_T = 1,
  /**
   * The release is G plus symmetric Gaussian noise of dpcov_receipt::sigma:
   * dpcov_ols_analyze_gauss_intervals() gives its regression intervals that hold with the
   * stated probability over the noise.
   */
  DPCOV_MECHANISM_INFERENCE_GUARANTEED_GAUSS = 2,
  /**
   * The release is G plus independent noise of a law its receipt states (dpcov_receipt::sigma,
   * scale or dof), added to G itself by a private mechanism: the regression of its rows [1, x, y]
   * has noise-aware intervals, dpcov_ols_bootstrap_intervals() and the robust (sandwich)
   * dpcov_ols_robust_intervals(), which redraw that noise. The command line's and Python's
   * regressions by a Gram mechanism offer intervals for exactly these mechanisms.
   */
  DPCOV_MECHANISM_INFERENCE_ROBUST_GRAM = 4
};

/**
 * One entry of the library's mechanism registry: what a mechanism is, with no plan or data.
 * Set struct_size, then call dpcov_mechanism_info() or dpcov_mechanism_info_by_id(). The strings
 * are static, owned by the library, valid for the life of the process; never NULL.
 */
typedef struct dpcov_mechanism_entry {
  /** sizeof(dpcov_mechanism_entry), set by the caller; the library writes no byte beyond it. */
  size_t struct_size;
  int32_t id;            /**< The ::dpcov_mechanism_id. */
  int32_t family;        /**< A ::dpcov_mechanism_family. */
  int32_t privacy_model; /**< A ::dpcov_mechanism_privacy. */
  /** The neighbour relations the guarantee is stated for: DPCOV_MECHANISM_NEIGHBOURS_* bits. */
  int32_t neighbours;
  /** The numerics the mechanism can release with: DPCOV_MECHANISM_NUMERICS_* bits. */
  int32_t numerics;
  int32_t input;       /**< A ::dpcov_mechanism_input. */
  int32_t output;      /**< A ::dpcov_mechanism_output. */
  const char *name;    /**< As dpcov_mechanism_name(). */
  /**
   * Paper, theorem and proof file of the default calibration: the dpcov_receipt::theorem of a
   * release with default parameters (shorter than ::DPCOV_RECEIPT_THEOREM_SIZE).
   */
  const char *theorem;
  /**
   * The dpcov_receipt::theorem of a release with ::DPCOV_NUMERICS_EXACT (dpcov/exact.h), "" for a
   * mechanism without floating-point-safe numerics.
   */
  const char *exact_theorem;
  const char *proof;  /**< The derivation, relative to the source tree (e.g. "proofs/analyze_gauss.md"). */
  const char *header; /**< The public header of its entry points (e.g. "capi/include/dpcov/mechanism.h"). */
  /**
   * The derivation of its guarantee at the level of privacy units (dpcov_row_bounding::
   * max_rows_per_unit), relative to the source tree; "" for a mechanism released at row level
   * only, which dpcov_mechanism_release_gram() refuses on an accumulator of units.
   */
  const char *unit_proof;
  /**
   * The mechanism-specific options it reads: ::dpcov_mechanism_option bits; 0 for one that reads
   * none, and for every mechanism outside ::DPCOV_MECHANISM_FAMILY_GRAM (whose options are its
   * own entry points' parameters). This field and those after it were appended after the
   * struct's first version: written only when struct_size covers them.
   */
  int32_t options;
  /**
   * The adversarial pair dpcov_audit_run() audits it on in the standard audit, the one its
   * calibration is tightest for: a ::dpcov_audit_dataset and a ::dpcov_audit_neighbour (the
   * dpcov_audit_params::dataset and neighbour_kind to pass). -1 for both where dpcov_audit_run()
   * does not audit it: a Gram mechanism without a closed-form output density (audited black-box),
   * or a mechanism outside the Gram family (audited by its own entry points).
   */
  int32_t audit_dataset;
  int32_t audit_neighbour_kind; /**< See audit_dataset. */
  /** One line: what it releases ("G + Gaussian, may be indefinite"). */
  const char *summary;
  /** One line: its preconditions, in words ("eps > 0, 0 < delta < 1"). */
  const char *preconditions;
  /** The inference its release supports: ::dpcov_mechanism_inference bits, 0 for none. */
  int32_t inference;
  /**
   * Why it is refused with privacy units, one sentence that the library's refusals quote (e.g.
   * the ::DPCOV_E_INCOMPATIBLE message of dpcov_mechanism_release_gram() on an accumulator of
   * units); "" when unit_proof names a proof: every entry has exactly one of the two. Appended
   * after inference: written only when struct_size covers it.
   */
  const char *unit_refusal;
} dpcov_mechanism_entry;

/**
 * The number of entries of the mechanism registry: dpcov_mechanism_info() takes an index in
 * [0, count). Constant for a given library; thread-safe.
 */
DPCOV_API int32_t dpcov_mechanism_count(void);

/**
 * Entry @p index of the mechanism registry, in increasing id order. Thread-safe.
 *
 * @param index     in [0, dpcov_mechanism_count()), else ::DPCOV_E_INVALID_ARGUMENT.
 * @param[out] out  receives the entry, written up to out->struct_size; untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER (@p out), ::DPCOV_E_INVALID_ARGUMENT (@p index out of
 *         range, or out->struct_size below the first version of the struct).
 */
DPCOV_API dpcov_status dpcov_mechanism_info(int32_t index, dpcov_mechanism_entry *out);

/**
 * The registry entry of the mechanism with id @p mechanism. Thread-safe.
 *
 * @param mechanism a ::dpcov_mechanism_id, else ::DPCOV_E_INVALID_ARGUMENT.
 * @param[out] out  as for dpcov_mechanism_info().
 * @return the statuses of dpcov_mechanism_info().
 */
DPCOV_API dpcov_status dpcov_mechanism_info_by_id(int32_t mechanism,
                                                  dpcov_mechanism_entry *out);

/**
 * Dry run: every constant @p mechanism would use for a d x d statistic of @p n rows of norm
 * <= @p bound at (@p epsilon, @p delta), without data or randomness.
 *
 * @param mechanism  a ::dpcov_mechanism_id.
 * @param dim        d, 1 <= d <= 46340.
 * @param n          number of rows, >= 0 (recorded; no constant here depends on it).
 * @param bound      B, finite and >= 2^-500 (mechanisms on the Gram: below it the computed
 *                   Gram's subnormal rounding reaches the sensitivity B^2).
 * @param epsilon    finite and > 0 (and < 1 where the theorem requires it).
 * @param delta      in (0, 1) (and < 1/e for the additive Wishart); the pure-epsilon mechanisms
 *                   also accept 0 and record 0 as spent.
 * @param params     options, or NULL for the defaults; params->struct_size must be at least
 *                   sizeof(dpcov_mechanism_params) of this version.
 * @param[out] receipt  the constants; the caller sets receipt->struct_size. seed_fixed is 0.
 *                   Untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER (receipt), ::DPCOV_E_INVALID_ARGUMENT (unknown
 *         mechanism or enum value, bound or epsilon <= 0, delta out of range, an option that does
 *         not apply, struct_size too small), ::DPCOV_E_NON_FINITE, ::DPCOV_E_DIMENSION,
 *         ::DPCOV_E_TOO_LARGE, ::DPCOV_E_PRECONDITION (a theorem's precondition; the message names
 *         it), ::DPCOV_E_NOT_PRIVATE (Jiang without the audit unlock), ::DPCOV_E_NUMERICAL.
 */
DPCOV_API dpcov_status dpcov_mechanism_plan(int32_t mechanism, int64_t dim, int64_t n,
                                            double bound, double epsilon, double delta,
                                            const dpcov_mechanism_params *params,
                                            dpcov_receipt *receipt);

/**
 * Release @p mechanism applied to the symmetric d x d statistic @p gram of @p n rows of norm
 * <= @p bound. Equivalent to dpcov_mechanism_plan() with the same arguments followed by sampling:
 * the receipt equals the plan's except the fields only a release knows (receipt.h): seed_fixed,
 * generator, and those documented "release only". The receipt's numerics is always
 * ::DPCOV_NUMERICS_IDEALIZED: @p gram is already rounded, so no exact release can be made from
 * it. Releasing from the rows through dpcov_mechanism_release_gram() is the default way, exact
 * for Analyze Gauss and symmetric Laplace.
 *
 * @param mechanism  a ::dpcov_mechanism_id.
 * @param layout    ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR, for both @p gram and @p out.
 * @param dim       d, 1 <= d <= 46340.
 * @param gram      G (d x d, exactly symmetric, finite, diagonal >= 0, trace <= n B^2); not retained.
 * @param ldg       leading dimension of @p gram, >= d.
 * @param n         number of rows behind G, >= 0.
 * @param bound     B, finite and >= 2^-500 (as for dpcov_mechanism_plan()): every row behind G
 *                  has norm <= B.
 * @param epsilon   as for dpcov_mechanism_plan().
 * @param delta     as for dpcov_mechanism_plan().
 * @param params    options, or NULL for the defaults.
 * @param rng       the generator; noise once drawn is consumed: advanced on success and by a
 *                  failure after the first draw (an OLS-JL refusal, a result that is not finite);
 *                  unchanged when the arguments are rejected, which is checked before any draw.
 * @param[out] out  the release, d x d, written in full and exactly symmetric; may be the same
 *                  array as @p gram. Untouched on failure.
 * @param ldo       leading dimension of @p out, >= d.
 * @param[out] receipt  as for dpcov_mechanism_plan(); seed_fixed from @p rng.
 * @return the statuses of dpcov_mechanism_plan(), and ::DPCOV_E_LAYOUT, ::DPCOV_E_NORM_BOUND
 *         (trace(G) > n B^2), ::DPCOV_E_INVALID_ARGUMENT (G not symmetric, negative diagonal),
 *         ::DPCOV_E_PRECONDITION (inverse Gauss: lambda_min(G) < theta^2),
 *         ::DPCOV_E_NOT_POSITIVE_DEFINITE, ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_mechanism_release(int32_t mechanism, int32_t layout, int64_t dim,
                                               const double *gram, int64_t ldg, int64_t n,
                                               double bound, double epsilon, double delta,
                                               const dpcov_mechanism_params *params,
                                               dpcov_rng *rng, double *out, int64_t ldo,
                                               dpcov_receipt *receipt);

/**
 * As dpcov_mechanism_release() with the statistic of an accumulator: d, n (rows included) and B
 * (the accumulator's bound) come from @p gram, which must hold at least one chunk unless it was
 * made by dpcov_gram_create_bounded() (before that its bound is unknown:
 * ::DPCOV_E_INVALID_ARGUMENT). @p gram is not modified. Under replace-one neighbours an
 * accumulator with rows dropped by ::DPCOV_BOUND_DROP is refused: n would depend on the data.
 *
 * An accumulator with exact numerics (dpcov_gram_info::numerics = ::DPCOV_NUMERICS_EXACT: made by
 * dpcov_gram_create_bounded() naming Analyze Gauss or symmetric Laplace) is released exactly as
 * dpcov_exact_gram_release() releases the same rows (dpcov/exact.h): the receipt says
 * ::DPCOV_NUMERICS_EXACT, its constants are the exact plan's, and the matrix is unit^2 times
 * integers. @p mechanism must then be ::DPCOV_MECHANISM_ANALYZE_GAUSS or
 * ::DPCOV_MECHANISM_LAPLACE_SYM, and (@p epsilon, @p delta, params->neighbour) must give the
 * grid the accumulator was made for (the values named in its ::dpcov_row_bounding do), with
 * params->calibration left at its default.
 *
 * An accumulator of privacy units (dpcov_row_bounding::max_rows_per_unit > 0) is released only by
 * the mechanisms whose registry entry names a unit proof (dpcov_mechanism_entry::unit_proof):
 * ::DPCOV_MECHANISM_ANALYZE_GAUSS and ::DPCOV_MECHANISM_LAPLACE_SYM with either numerics,
 * ::DPCOV_MECHANISM_INVERSE_GAUSS with idealized numerics, at its unit bound B_u
 * (proofs/unit_gram_sensitivity.md); ::DPCOV_MECHANISM_WISHART_ADDITIVE,
 * ::DPCOV_MECHANISM_JL_RIDGE and ::DPCOV_MECHANISM_INVERSE_WISHART by group privacy over the
 * unit's rows, at the rows' bound B under add/remove with the per-row budget epsilon / m and
 * delta / sum_{i<m} e^{i epsilon / m}, m = k (add/remove) or 2 k (replace)
 * (proofs/unit_group_privacy.md; their receipt's bound is B, its epsilon and delta those given).
 * The neighbour relation is on units, the receipt's n is the number of units and its
 * max_rows_per_unit is k.
 * @return the statuses of dpcov_mechanism_release(), and ::DPCOV_E_PRECONDITION (rows dropped under
 *         replace-one; an open privacy unit, see dpcov_gram_finish_units()),
 *         ::DPCOV_E_INCOMPATIBLE (exact numerics: another mechanism, or a plan whose grid is not
 *         the accumulator's; privacy units: another mechanism), ::DPCOV_E_INVALID_ARGUMENT (a
 *         per-row epsilon or delta that underflows to 0).
 */
DPCOV_API dpcov_status dpcov_mechanism_release_gram(int32_t mechanism, const dpcov_gram *gram,
                                                    double epsilon, double delta,
                                                    const dpcov_mechanism_params *params,
                                                    dpcov_rng *rng, int32_t layout, double *out,
                                                    int64_t ldo, dpcov_receipt *receipt);

/**
 * Natural log of the density of @p released under @p mechanism given the statistic @p gram, with
 * the constants dpcov_mechanism_plan() gives for the same arguments. Gaussian and Laplace: density
 * of the d(d+1)/2 upper-triangle entries. Wishart: density on positive-definite matrices of
 * released - G, -infinity if that is not positive definite (the support miss that makes the Jiang
 * mechanism non-private). Inverse Gauss: of released - G^{-1}.
 *
 * @param mechanism  a ::dpcov_mechanism_id.
 * @param layout    ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR, for both matrices.
 * @param dim       d, 1 <= d <= 46340.
 * @param released  d x d, exactly symmetric, finite; not retained.
 * @param ldr       leading dimension of @p released, >= d.
 * @param gram      the statistic G, as for dpcov_mechanism_release().
 * @param ldg       leading dimension of @p gram, >= d.
 * @param n         number of rows behind G, >= 0.
 * @param bound     B, finite and >= 2^-500 (as for dpcov_mechanism_plan()).
 * @param epsilon   as for dpcov_mechanism_plan().
 * @param delta     as for dpcov_mechanism_plan().
 * @param params    options, or NULL for the defaults (the same as for the release).
 * @param[out] log_density  receives the value (may be -infinity); untouched on failure.
 * @return the statuses of dpcov_mechanism_release() (no generator involved).
 */
DPCOV_API dpcov_status dpcov_mechanism_log_density(int32_t mechanism, int32_t layout,
                                                   int64_t dim, const double *released,
                                                   int64_t ldr, const double *gram, int64_t ldg,
                                                   int64_t n, double bound, double epsilon,
                                                   double delta,
                                                   const dpcov_mechanism_params *params,
                                                   double *log_density);

/**
 * Natural log of the joint density of a propose-test-release output (::DPCOV_MECHANISM_JL_RIDGE_SIGMA_MIN,
 * ::DPCOV_MECHANISM_INVERSE_WISHART_SIGMA_MIN, ::DPCOV_MECHANISM_OLS_JL): the released test value
 * s2 (Laplace around lambda_min(G) - test_shift) times the density of the released matrix given
 * s2 (the appended w follows from s2). For ::DPCOV_MECHANISM_OLS_JL, -infinity when
 * s2 <= threshold_w2 (nothing is released then). The JL variants need r >= d.
 *
 * @param mechanism   one of the three ids above (::DPCOV_E_INVALID_ARGUMENT for others).
 * @param layout      ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR, for both matrices.
 * @param dim         d.
 * @param released    the released d x d matrix, exactly symmetric, finite.
 * @param ldr         leading dimension of @p released, >= d.
 * @param test_value  the released s2 (dpcov_receipt::test_value), finite.
 * @param gram        the statistic G.
 * @param ldg         leading dimension of @p gram, >= d.
 * @param n           number of rows.
 * @param bound       B.
 * @param epsilon     the whole budget's epsilon.
 * @param delta       the whole budget's delta.
 * @param params      options (projection_rows or posterior_dof as for the release), or NULL.
 * @param[out] log_density  receives the value; untouched on failure.
 * @return the statuses of dpcov_mechanism_log_density().
 */
DPCOV_API dpcov_status dpcov_mechanism_log_density_tested(
    int32_t mechanism, int32_t layout, int64_t dim, const double *released, int64_t ldr,
    double test_value, const double *gram, int64_t ldg, int64_t n, double bound, double epsilon,
    double delta, const dpcov_mechanism_params *params, double *log_density);

#ifdef __cplusplus
}
#endif

#endif /* DPCOV_MECHANISM_H */
