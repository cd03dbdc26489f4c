/**
 * @file dpcov/estimators.h
 * @brief What people compute from a released second-moment matrix: least squares and ridge
 *        regression with t-values and confidence intervals, principal components, the graphical
 *        lasso, and the accuracy metrics used to compare a private estimate with the exact one.
 *
 * Everything here is post-processing: it reads a matrix that has already been released (or an
 * exact one) and costs no privacy. A released matrix is noisy and can be indefinite; each function
 * states what it requires and fails with a message naming the remedy (a ridge penalty, a larger
 * graphical-lasso penalty, or a projection onto the positive semidefinite cone) instead of
 * returning NaNs.
 *
 * Symmetric inputs must be exactly symmetric (a(i, j) == a(j, i) bit for bit), as every dpcov
 * release is; ::DPCOV_E_INVALID_ARGUMENT otherwise. NaN or infinity anywhere in an input gives
 * ::DPCOV_E_NON_FINITE. All matrices of one call share its @p layout. Per-coefficient outputs are
 * caller-provided arrays, which NumPy, Go slices and Fortran arrays pass without copies. Outputs
 * are written only when the call succeeds.
 *
 * Thread-safety: every function is reentrant and keeps no state; calls may run concurrently.
 * Design notes: docs/estimators.md.
 */
#ifndef DPCOV_ESTIMATORS_H
#define DPCOV_ESTIMATORS_H

#include "dpcov/common.h"
#include "dpcov/receipt.h"
#include "dpcov/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* Regression                                                                                  */
/* ------------------------------------------------------------------------------------------ */

/** Optional settings of dpcov_regression_fit(); fill with dpcov_regression_params_default(). */
typedef struct dpcov_regression_params {
  /** sizeof(dpcov_regression_params), set by dpcov_regression_params_default(). */
  size_t struct_size;
  /**
   * Column of the second-moment matrix that holds the same constant c in every data row, or -1
   * (default) for no intercept. Append a column of ones to the data before accumulating G to get
   * a plain intercept (c = 1); the reported coefficient is then the intercept (for another c it is
   * the intercept divided by c). It becomes coefficient 0, is never ridge-penalised, and must
   * differ from the label and from every feature column.
   */
  int64_t intercept_column;
  /** Ridge penalty lambda >= 0 added to the diagonal of the features' block (default 0: OLS). */
  double ridge;
  /** Confidence level of the intervals, in (0, 1) (default 0.95). */
  double level;
} dpcov_regression_params;

/** Scalar results of dpcov_regression_fit(). */
typedef struct dpcov_regression_summary {
  /** Set by the caller to sizeof(dpcov_regression_summary) before the call. */
  size_t struct_size;
  /** Number of coefficients p (features, plus 1 with an intercept). */
  int64_t num_coefficients;
  /** Residual degrees of freedom n - p, used for the residual variance and the t distribution. */
  int64_t dof;
  /** Residual sum of squares y'y - 2 b'X'y + b'X'X b, clamped at 0. */
  double rss;
  /** rss / dof. */
  double residual_variance;
  /** The Student t(dof) quantile that multiplies the standard errors in the intervals. */
  double t_critical;
  /**
   * 1 if the computed residual sum of squares was negative and was clamped to 0 (possible only
   * for a noisy, indefinite release): every standard error is then 0 and every nonzero t-value
   * infinite. 0 otherwise.
   */
  int32_t rss_clamped;
} dpcov_regression_summary;

/**
 * Fill @p params with the defaults: no intercept, ridge 0, level 0.95, struct_size set.
 * Writes min(@p size, sizeof(dpcov_regression_params)) bytes and sets struct_size to that count, so a
 * program compiled against an older, smaller struct is never overrun; call it through
 * dpcov_regression_params_default(), which passes the size the program was compiled with.
 * @param[out] params  the struct to fill; required; untouched on error.
 * @param size  sizeof *params as the caller compiled it; at least the struct's first
 *   shipped size.
 * @return ::DPCOV_OK; ::DPCOV_E_NULL_POINTER; ::DPCOV_E_INVALID_ARGUMENT for a size below
 *   the first shipped size.
 */
DPCOV_API dpcov_status dpcov_regression_params_init(dpcov_regression_params *params, size_t size);

/**
 * dpcov_regression_params_init() with sizeof the struct this program was compiled with.
 * @param[out] params  the struct to fill; required.
 * @return as dpcov_regression_params_init().
 */
static inline dpcov_status dpcov_regression_params_default(dpcov_regression_params *params) {
  return dpcov_regression_params_init(params, sizeof *params);
}

/**
 * Regress the label column on a set of feature columns from a second-moment matrix
 * G = A^T A (unnormalised: the sum over the n data rows, as dpcov releases it; a covariance
 * normalised by n must be multiplied by n first, or the residual variance is off by that factor).
 *
 * With X the chosen columns (intercept first), y the label, D the identity except 0 for the
 * intercept, and lambda the ridge penalty:
 *  - coefficients b = (X'X + lambda D)^{-1} X'y;
 *  - rss = y'y - 2 b'X'y + b'X'X b, clamped at 0 (see dpcov_regression_summary::rss_clamped);
 *  - residual variance s^2 = rss / (n - p);
 *  - standard errors: square roots of the diagonal of s^2 (X'X + lambda D)^{-1}. For lambda = 0
 *    this is the classical OLS covariance; for lambda > 0 it is the posterior covariance under the
 *    prior b ~ N(0, (s^2 / lambda) I) whose posterior mode is the ridge estimate (the sandwich
 *    covariance is not used: on an indefinite release it can have negative diagonal entries);
 *  - t-values b_i / se_i, two-sided p-values and intervals b_i +- t_{(1+level)/2}(n - p) se_i from
 *    Student's t with n - p degrees of freedom. For lambda > 0 the intervals ignore the ridge bias.
 *
 * When s^2 = 0 (an exact fit, or a clamped rss) the standard errors are 0, the t-values +-infinity
 * (0 for a coefficient that is exactly 0), the p-values 0 (1) and the intervals single points.
 *
 * @param layout        ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param d             order of @p g, >= 2.
 * @param g             the d x d second-moment matrix: exactly symmetric, finite. It may be a
 *                      noisy release; only X'X + lambda D must be positive definite.
 * @param ldg           leading dimension of @p g, >= d.
 * @param n             public number of data rows behind @p g; n > p.
 * @param label         column of the response y, in [0, d).
 * @param features      the p_f feature columns, each in [0, d), distinct, not the label nor the
 *                      intercept column; coefficient order follows this array. NULL only when
 *                      @p num_features is 0.
 * @param num_features  p_f >= 0; p = p_f + (intercept ? 1 : 0) must be >= 1.
 * @param params        optional settings, or NULL for the defaults.
 * @param[out] coefficients  p doubles: b (intercept first). Required.
 * @param[out] std_errors    p doubles, or NULL if not wanted.
 * @param[out] t_values      p doubles, or NULL.
 * @param[out] p_values      p doubles (two-sided), or NULL.
 * @param[out] ci_lower      p doubles, or NULL.
 * @param[out] ci_upper      p doubles, or NULL.
 * @param[out] summary       scalar results, or NULL; the caller sets its struct_size.
 * @return ::DPCOV_OK; ::DPCOV_E_NULL_POINTER (g, coefficients, features with num_features > 0);
 *         ::DPCOV_E_DIMENSION (d < 2, num_features < 0); ::DPCOV_E_LAYOUT; ::DPCOV_E_TOO_LARGE;
 *         ::DPCOV_E_NON_FINITE (g, ridge, level); ::DPCOV_E_INVALID_ARGUMENT (g not symmetric, a
 *         column out of range or repeated, ridge < 0, level outside (0, 1), n <= p, a params or
 *         summary struct_size too small); ::DPCOV_E_NOT_POSITIVE_DEFINITE (X'X + lambda D is not
 *         positive definite: the message gives its smallest eigenvalue and suggests a ridge
 *         penalty above its magnitude or a PSD projection); ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_regression_fit(int32_t layout, int64_t d, const double *g, int64_t ldg,
                                            int64_t n, int64_t label, const int64_t *features,
                                            int64_t num_features,
                                            const dpcov_regression_params *params,
                                            double *coefficients, double *std_errors,
                                            double *t_values, double *p_values, double *ci_lower,
                                            double *ci_upper, dpcov_regression_summary *summary);

/* ------------------------------------------------------------------------------------------ */
/* Principal components                                                                        */
/* ------------------------------------------------------------------------------------------ */

/**
 * The k largest eigenvalues of a symmetric matrix and their eigenvectors (top-k PCA of a released
 * second-moment or covariance matrix).
 *
 * Each eigenvector's sign is chosen so that its entry of largest magnitude (the first such) is
 * positive. When eigenvalue k equals eigenvalue k + 1 the top-k subspace is not unique and LAPACK's
 * choice is returned.
 *
 * @param layout  ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR (also the layout of @p vectors).
 * @param d       order of @p a, >= 1.
 * @param a       the d x d matrix: exactly symmetric, finite; may be indefinite.
 * @param lda     leading dimension of @p a, >= d.
 * @param k       number of components, 1 <= k <= d.
 * @param[out] values           k doubles: the eigenvalues, descending. Required.
 * @param[out] vectors          d x k matrix whose column i is the eigenvector of values[i], or
 * NULL.
 * @param ldv                   leading dimension of @p vectors (>= k row-major, >= d column-major);
 *                              ignored when @p vectors is NULL.
 * @param[out] explained_ratio  k doubles max(values[i], 0) / sum_j max(lambda_j(a), 0), or NULL:
 *                              the explained-variance ratio of the PSD projection of @p a (its
 *                              negative eigenvalues clipped to 0), each in [0, 1]; for a PSD @p a
 *                              it is scikit-learn's values / trace; 0 when no eigenvalue is
 *                              positive.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NON_FINITE, ::DPCOV_E_INVALID_ARGUMENT (not symmetric, k
 * out of range), ::DPCOV_E_NUMERICAL (LAPACK did not
 * converge), ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_pca_top_k(int32_t layout, int64_t d, const double *a, int64_t lda,
                                       int64_t k, double *values, double *vectors, int64_t ldv,
                                       double *explained_ratio);

/**
 * Principal angles between the top-k eigenvector subspaces U of @p a and V of @p b, and the
 * sin-theta distances of Davis and Kahan: ||sin Theta||_2 = ||U U^T - V V^T||_2 and
 * ||sin Theta||_F = ||U U^T - V V^T||_F / sqrt(2). Cosines are the singular values of U^T V and
 * sines those of V - U U^T V; each angle is atan2(sine, cosine), accurate for small and large
 * angles alike.
 *
 * @param layout  ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param d       order of both matrices, >= 1.
 * @param a       d x d, exactly symmetric, finite (e.g. the private estimate).
 * @param lda     leading dimension of @p a, >= d.
 * @param b       d x d, exactly symmetric, finite (e.g. the exact matrix).
 * @param ldb     leading dimension of @p b, >= d.
 * @param k       subspace dimension, 1 <= k <= d.
 * @param[out] sin_theta_spectral   largest sine, in [0, 1]. Required.
 * @param[out] sin_theta_frobenius  root sum of squared sines, in [0, sqrt(k)]. Required.
 * @param[out] angles               k angles in radians, ascending, in [0, pi/2], or NULL.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NON_FINITE, ::DPCOV_E_INVALID_ARGUMENT (not symmetric, k
 *         out of range), ::DPCOV_E_NUMERICAL, ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_pca_subspace_distance(int32_t layout, int64_t d, const double *a,
                                                   int64_t lda, const double *b, int64_t ldb,
                                                   int64_t k, double *sin_theta_spectral,
                                                   double *sin_theta_frobenius, double *angles);

/**
 * How far the top-k eigenvector subspace of a release can be from that of the matrix behind it,
 * from the release and its receipt alone (post-processing: no privacy cost). With eta the
 * @p level quantile of the noise's spectral norm (from @p num_draws simulated draws of the
 * mechanism's noise law, centred) and gap the release's eigengap lambda_k - lambda_{k+1}:
 * Weyl's inequality bounds the true gap below by gap - 2 eta, and the Davis-Kahan theorem in the
 * form of Yu, Wang and Samworth (Biometrika 2015, Thm 2) gives
 * ||sin Theta||_2 <= 2 eta / (gap - 2 eta), capped at 1, with probability about @p level.
 * When gap <= 2 eta the noise swamps the signal: the bound is 1 and @p swamped is set.
 * A release with exact numerics (receipt->numerics = 1) rounded its rows to a grid first: eta then
 * includes the rounding's worst-case effect, which grows with n (receipt->n), so under add/remove,
 * where n is private, such a release has no uncentred bound (DPCOV_E_PRECONDITION; the centred
 * bound's term does not depend on n).
 *
 * @param layout     ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param d          order of @p released, >= 1; must equal receipt->dim.
 * @param released   the release as the mechanism returned it (d x d, symmetric, finite).
 * @param ld         leading dimension of @p released.
 * @param receipt    its receipt: ::DPCOV_MECHANISM_ANALYZE_GAUSS, ::DPCOV_MECHANISM_LAPLACE_SYM or
 *                   ::DPCOV_MECHANISM_WISHART_ADDITIVE. Required.
 * @param k          subspace dimension, 1 <= k <= d (k = d: bound 0).
 * @param level      probability of the noise-norm quantile, in (0, 1) (e.g. 0.95).
 * @param num_draws  simulated noise draws, in [1, ::DPCOV_MAX_SIMULATION_DRAWS] (e.g. 200).
 * @param rng        the generator of the draws; advanced on success only.
 * @param[out] noise_norm       eta, or NULL.
 * @param[out] eigengap         lambda_k - lambda_{k+1} of the release (DBL_MAX for k = d: no
 *                              lambda_{k+1}), or NULL.
 * @param[out] sin_theta_bound  the bound, in [0, 1]. Required.
 * @param[out] swamped          1 when gap <= 2 eta, else 0; or NULL.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_NON_FINITE, ::DPCOV_E_INVALID_ARGUMENT (not symmetric, k, level or num_draws
 *         out of range, a receipt whose mechanism has no known noise law or whose dim is not d),
 *         ::DPCOV_E_PRECONDITION (exact numerics under add/remove), ::DPCOV_E_NUMERICAL,
 *         ::DPCOV_E_NOMEM. Outputs and the generator are untouched on error.
 * @proof proofs/grid_rounding.md
 */
DPCOV_API dpcov_status dpcov_pca_subspace_error_bound(int32_t layout, int64_t d,
                                                      const double *released, int64_t ld,
                                                      const dpcov_receipt *receipt, int64_t k,
                                                      double level, int64_t num_draws,
                                                      dpcov_rng *rng, double *noise_norm,
                                                      double *eigengap, double *sin_theta_bound,
                                                      int32_t *swamped);

/**
 * dpcov_pca_subspace_error_bound() for the CENTRED covariance computed from a released
 * (dim x dim) second moment M of rows [c, x] with dpcov_centre_second_moment() (the default of
 * `dpcov pca` and of Python's PrivatePCA): how far the top-k eigenvector subspace of centre(M')
 * can be from that of the data's centred covariance, where M' = M - mu I is the release minus
 * its noise's mean mu (0 but for ::DPCOV_MECHANISM_WISHART_ADDITIVE; the matrix whose components
 * `dpcov pca` and PrivatePCA print), from the release and its receipt alone (post-processing: no
 * privacy cost). eta is the @p level quantile, over @p num_draws simulated draws E_c of the
 * mechanism's noise law (centred), of min_t ||D - t I||_2 = (lambda_max(D) - lambda_min(D)) / 2
 * with D = centre(M') - centre(M' - E_c) (a multiple of the identity moves no eigenvector and no gap, so
 * Weyl and Davis-Kahan apply to the shifted pair): a parametric-bootstrap PLUG-IN
 * (M - E stands for the unknown data), so @p level is approximate; its coverage is measured in
 * tests/statistical/pca_centred_bound_test.cpp. With gap the eigengap lambda_k - lambda_{k+1} of
 * centre(M'): ||sin Theta||_2 <= min(1, 2 eta / (gap - 2 eta)) (Weyl, then Davis-Kahan in the
 * form of Yu, Wang and Samworth, Biometrika 2015, Thm 2). When gap <= 2 eta the noise swamps the
 * signal: the bound is 1 and @p swamped is set. With exact numerics (receipt->numerics = 1) eta
 * includes the worst-case effect of the rows' rounding to the grid on the centred covariance,
 * which does not depend on n (proofs/grid_rounding.md). A matrix mapped to other units after the release
 * (per-column scaling) changes the subspace: pass the release as drawn.
 *
 * @param layout           ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param dim              order of @p released, d + 1 >= 2; must equal receipt->dim.
 * @param released         the second moment as the mechanism returned it (symmetric, finite).
 * @param ld               leading dimension of @p released, >= dim.
 * @param receipt          its receipt: ::DPCOV_MECHANISM_ANALYZE_GAUSS,
 *                         ::DPCOV_MECHANISM_LAPLACE_SYM or ::DPCOV_MECHANISM_WISHART_ADDITIVE.
 *                         Required.
 * @param constant_column  0-based index of the constant column, in [0, dim).
 * @param constant         the constant c every row held there, finite, != 0 and at most 2^511
 *                         in magnitude (above it S_cc = n c^2 overflows for every n).
 * @param n                the public number of rows, >= 1; 0 to estimate it from the release
 *                         (as dpcov_centre_second_moment()).
 * @param k                subspace dimension, 1 <= k <= d = dim - 1 (k = d: bound 0).
 * @param level            probability of the noise-norm quantile, in (0, 1) (e.g. 0.95).
 * @param num_draws        simulated noise draws, in [1, ::DPCOV_MAX_SIMULATION_DRAWS] (e.g. 200).
 * @param rng              the generator of the draws; advanced on success only.
 * @param[out] noise_norm       eta, or NULL.
 * @param[out] eigengap         lambda_k - lambda_{k+1} of the centred release (DBL_MAX for
 *                              k = d: no lambda_{k+1}), or NULL.
 * @param[out] sin_theta_bound  the bound, in [0, 1]. Required.
 * @param[out] swamped          1 when gap <= 2 eta, else 0; or NULL.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_NON_FINITE, ::DPCOV_E_INVALID_ARGUMENT (not symmetric; constant_column,
 *         constant, n, k, level or num_draws out of range; a receipt whose mechanism has no known
 *         noise law or whose dim is not dim), ::DPCOV_E_PRECONDITION (n = 0 and the count of the
 *         release, or of more than a 1 - level share of the draws, is below 1: the noise swamps
 *         the number of rows), ::DPCOV_E_NUMERICAL, ::DPCOV_E_NOMEM. Outputs and the generator
 *         are untouched on error.
 * @proof proofs/centring.md
 * @proof proofs/grid_rounding.md
 */
DPCOV_API dpcov_status dpcov_pca_centred_subspace_error_bound(
    int32_t layout, int64_t dim, const double *released, int64_t ld, const dpcov_receipt *receipt,
    int64_t constant_column, double constant, int64_t n, int64_t k, double level,
    int64_t num_draws, dpcov_rng *rng, double *noise_norm, double *eigengap,
    double *sin_theta_bound, int32_t *swamped);

/* ------------------------------------------------------------------------------------------ */
/* Graphical lasso                                                                             */
/* ------------------------------------------------------------------------------------------ */

/** Optional settings of dpcov_glasso_solve(); fill with dpcov_glasso_params_default(). */
typedef struct dpcov_glasso_params {
  /** sizeof(dpcov_glasso_params), set by dpcov_glasso_params_default(). */
  size_t struct_size;
  /**
   * 1 (default): penalise every entry, rho sum_ij |Theta_ij|, the objective of Wang, Huai and Xu
   * (eq. 1) and of R's glasso. 0: off-diagonal entries only, as scikit-learn's graphical_lasso.
   */
  int32_t penalize_diagonal;
  /** Stopping tolerance on the scaled KKT residual (dpcov_glasso_info::kkt_residual), finite and
   *  > 0 (default 1e-6). */
  double tol;
  /** Cap on the sweeps over the columns, and on the passes of each inner lasso, >= 1 (default
   *  1000). */
  int64_t max_iter;
} dpcov_glasso_params;

/** Which starting point the solver used (dpcov_glasso_info::start). */
enum dpcov_glasso_start {
  /** The caller's warm start Theta0: W0 = Theta0^{-1}, moved into the feasible box. */
  DPCOV_GLASSO_START_WARM = 0,
  /** W0 = S + rho_diag I, the start of Friedman, Hastie and Tibshirani. */
  DPCOV_GLASSO_START_COVARIANCE = 1,
  /** W0 = S soft-thresholded by rho off the diagonal, S_ii + rho_diag on it. */
  DPCOV_GLASSO_START_SOFT_THRESHOLD = 2
};

/** Convergence information of dpcov_glasso_solve(). */
typedef struct dpcov_glasso_info {
  /** Set by the caller to sizeof(dpcov_glasso_info) before the call. */
  size_t struct_size;
  /** Sweeps over the columns performed. */
  int64_t iterations;
  /**
   * max_ij |dist(W_ij - S_ij, rho_ij * subdifferential of |Theta_ij|)| / sqrt(W_ii W_jj) with
   * W = Theta^{-1}: the returned Theta is the exact solution for an input S + E with
   * |E_ij| <= kkt_residual * sqrt(W_ii W_jj). At most tol.
   */
  double kkt_residual;
  /** tr(S Theta) + rho sum_ij w_ij |Theta_ij| - d, the primal-dual gap of (Theta, Theta^{-1}). */
  double duality_gap;
  /** A ::dpcov_glasso_start value. */
  int32_t start;
} dpcov_glasso_info;

/**
 * Fill @p params with the defaults: penalize_diagonal 1, tol 1e-6, max_iter 1000, struct_size set.
 * Writes min(@p size, sizeof(dpcov_glasso_params)) bytes and sets struct_size to that count, so a
 * program compiled against an older, smaller struct is never overrun; call it through
 * dpcov_glasso_params_default(), which passes the size the program was compiled with.
 * @param[out] params  the struct to fill; required; untouched on error.
 * @param size  sizeof *params as the caller compiled it; at least the struct's first
 *   shipped size.
 * @return ::DPCOV_OK; ::DPCOV_E_NULL_POINTER; ::DPCOV_E_INVALID_ARGUMENT for a size below
 *   the first shipped size.
 */
DPCOV_API dpcov_status dpcov_glasso_params_init(dpcov_glasso_params *params, size_t size);

/**
 * dpcov_glasso_params_init() with sizeof the struct this program was compiled with.
 * @param[out] params  the struct to fill; required.
 * @return as dpcov_glasso_params_init().
 */
static inline dpcov_status dpcov_glasso_params_default(dpcov_glasso_params *params) {
  return dpcov_glasso_params_init(params, sizeof *params);
}

/**
 * The graphical lasso (sparse inverse covariance), the estimator of Wang, Huai and Xu
 * (GlobalSIP 2018, eq. 1):
 *   Theta = argmin over positive definite Theta of
 *           -log det Theta + tr(S Theta) + rho sum_ij w_ij |Theta_ij|,
 * with w_ij = 1 off the diagonal and w_ii = penalize_diagonal. Solved by block coordinate descent
 * (Friedman, Hastie and Tibshirani 2008) with a coordinate-descent lasso per column; stops when the
 * scaled KKT residual is at most tol.
 *
 * Input requirement: S may be indefinite (a noisy release), but block coordinate descent needs a
 * positive definite, dual-feasible start (|W0 - S| <= rho entrywise, W0_ii = S_ii + rho w_ii). It
 * tries, in order, the warm start, S + rho_diag I, and S soft-thresholded off the diagonal; if none
 * is positive definite the call fails with ::DPCOV_E_NOT_POSITIVE_DEFINITE and a message advising
 * a larger rho, a penalised diagonal, or a projection of S onto the PSD cone (post-processing).
 * With the diagonal penalised, any rho above -lambda_min(S) is enough.
 *
 * S is the covariance scale of the objective (seed 001 uses S = G / n); rho is on the same scale.
 *
 * The parameters rho and @p warm_start are arguments rather than fields of @p params: rho has no
 * default, and a pointer inside a struct could not be passed from Go (cgo forbids Go pointers in
 * memory passed to C).
 *
 * @param layout      ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param d           order of @p s, >= 1.
 * @param s           the d x d matrix S: exactly symmetric, finite.
 * @param lds         leading dimension of @p s, >= d.
 * @param rho         penalty, finite and >= 0 (0 gives S^{-1} when S is positive definite).
 * @param params      optional settings, or NULL for the defaults.
 * @param warm_start  a d x d exactly symmetric positive definite Theta0 to start from (e.g. the
 *                    solution for a nearby rho), or NULL for a cold start.
 * @param ldw         leading dimension of @p warm_start; ignored when it is NULL.
 * @param[out] precision   d x d Theta, exactly symmetric, exact zeros off the support. Required.
 * @param ldp              leading dimension of @p precision, >= d.
 * @param[out] covariance  d x d W = Theta^{-1}, exactly symmetric, or NULL.
 * @param ldc              leading dimension of @p covariance; ignored when it is NULL.
 * @param[out] info        convergence information, or NULL; the caller sets its struct_size.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NON_FINITE (s, warm_start, rho, tol),
 *         ::DPCOV_E_INVALID_ARGUMENT (not symmetric, rho < 0, tol <= 0, max_iter < 1,
 *         penalize_diagonal not 0 or 1, a struct_size too small), ::DPCOV_E_NOT_POSITIVE_DEFINITE
 *         (no feasible start, as above; or warm_start not positive definite),
 *         ::DPCOV_E_NO_CONVERGENCE (max_iter sweeps without reaching tol; the message gives the
 *         residual reached), ::DPCOV_E_NUMERICAL, ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_glasso_solve(int32_t layout, int64_t d, const double *s, int64_t lds,
                                          double rho, const dpcov_glasso_params *params,
                                          const double *warm_start, int64_t ldw, double *precision,
                                          int64_t ldp, double *covariance, int64_t ldc,
                                          dpcov_glasso_info *info);

/* ------------------------------------------------------------------------------------------ */
/* Metrics                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/**
 * Frobenius error ||A - B||_F, or the normalised error ||A - B||_F / ||B||_F when @p relative is 1.
 * B is the reference (the exact matrix).
 * @param layout    ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param rows      rows of both matrices, >= 1.
 * @param cols      columns of both matrices, >= 1.
 * @param a         the estimate, finite.
 * @param lda       leading dimension of @p a.
 * @param b         the reference, finite; nonzero when @p relative is 1.
 * @param ldb       leading dimension of @p b.
 * @param relative  1 for the normalised error, 0 for the absolute one.
 * @param[out] out  receives the error.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NON_FINITE, ::DPCOV_E_INVALID_ARGUMENT (relative not 0
 *         or 1, zero reference), ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_metric_frobenius_error(int32_t layout, int64_t rows, int64_t cols,
                                                    const double *a, int64_t lda, const double *b,
                                                    int64_t ldb, int32_t relative, double *out);

/**
 * Spectral error ||A - B||_2 (largest singular value), or ||A - B||_2 / ||B||_2 when @p relative
 * is 1. Arguments and statuses as dpcov_metric_frobenius_error(), plus ::DPCOV_E_NUMERICAL.
 * @param layout    ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param rows      rows of both matrices, >= 1.
 * @param cols      columns of both matrices, >= 1.
 * @param a         the estimate, finite.
 * @param lda       leading dimension of @p a.
 * @param b         the reference, finite; nonzero when @p relative is 1.
 * @param ldb       leading dimension of @p b.
 * @param relative  1 for the normalised error, 0 for the absolute one.
 * @param[out] out  receives the error.
 * @return see dpcov_metric_frobenius_error().
 */
DPCOV_API dpcov_status dpcov_metric_spectral_error(int32_t layout, int64_t rows, int64_t cols,
                                                   const double *a, int64_t lda, const double *b,
                                                   int64_t ldb, int32_t relative, double *out);

/**
 * Error of a coefficient vector: ||a - b||_2, or ||a - b||_2 / ||b||_2 when @p relative is 1
 * (e.g. private regression coefficients against the exact ones).
 * @param n         length of both vectors, >= 1.
 * @param a         the estimate, finite.
 * @param b         the reference, finite; nonzero when @p relative is 1.
 * @param relative  1 for the normalised error, 0 for the absolute one.
 * @param[out] out  receives the error.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_NON_FINITE,
 *         ::DPCOV_E_INVALID_ARGUMENT (relative not 0 or 1, zero reference), ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_metric_vector_error(int64_t n, const double *a, const double *b,
                                                 int32_t relative, double *out);

/** Result of dpcov_metric_support_recovery(). */
typedef struct dpcov_support_recovery {
  /** Set by the caller to sizeof(dpcov_support_recovery) before the call. */
  size_t struct_size;
  /** Edges in both the estimate and the truth. */
  int64_t true_positives;
  /** Edges in the estimate only. */
  int64_t false_positives;
  /** Edges in the truth only. */
  int64_t false_negatives;
  /** Pairs that are an edge in neither. */
  int64_t true_negatives;
  /** TP / (TP + FP); 1 when the estimate has no edge. */
  double precision;
  /** TP / (TP + FN); 1 when the truth has no edge. */
  double recall;
} dpcov_support_recovery;

/**
 * Support recovery of an estimated precision matrix (e.g. a graphical-lasso solution): an edge is
 * an off-diagonal pair i < j with |Theta_ij| > @p threshold, counted in both matrices with the same
 * threshold. Only the upper triangle is read, so the matrices need not be symmetric.
 * @param layout     ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param d          order of both matrices, >= 1.
 * @param estimate   d x d, finite.
 * @param lde        leading dimension of @p estimate, >= d.
 * @param truth      d x d, finite.
 * @param ldt        leading dimension of @p truth, >= d.
 * @param threshold  finite, >= 0 (0 counts every nonzero entry).
 * @param[out] out   the counts and rates; the caller sets its struct_size.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NON_FINITE, ::DPCOV_E_INVALID_ARGUMENT (threshold < 0,
 *         struct_size too small).
 */
DPCOV_API dpcov_status dpcov_metric_support_recovery(int32_t layout, int64_t d,
                                                     const double *estimate, int64_t lde,
                                                     const double *truth, int64_t ldt,
                                                     double threshold, dpcov_support_recovery *out);

#ifdef __cplusplus
}
#endif

#endif /* DPCOV_ESTIMATORS_H */
