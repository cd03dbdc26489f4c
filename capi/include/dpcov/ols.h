/**
 * @file dpcov/ols.h
 * @brief Differentially private ordinary least squares with t-values, confidence intervals and
 *        reject / don't-reject decisions (Sheffet, "Differentially Private Ordinary Least Squares",
 *        ICML 2017).
 *
 * dpcov_ols_jl() runs Alg. 1 (::DPCOV_MECHANISM_OLS_JL: a private test on sigma_min(A), then the
 * projection R A of the whole data A = [X, y]) and regresses on the projection: with r projection
 * rows and p coefficients, the t-values t~_j = (beta~_j - beta_hat_j) / se~_j are exactly Student
 * T_{r-p} about the non-private OLS estimate beta_hat_j, so the intervals
 * beta~_j +- t_{(1+level)/2}(r - p) se~_j cover beta_hat_j with probability exactly `level`
 * (given that the test passed). For the model's true beta they also include the sampling noise of
 * beta_hat only when that noise is small against the projection's (r much smaller than n).
 *
 * dpcov_ols_analyze_gauss() runs Analyze Gauss (::DPCOV_MECHANISM_ANALYZE_GAUSS) and the plug-in
 * OLS inference on the release with n - p degrees of freedom. NO COVERAGE GUARANTEE: the paper's
 * corrected intervals (App. D) are unreadable in its source and not reproduced.
 *
 * dpcov_ols_analyze_gauss_intervals() computes guaranteed intervals from an Analyze Gauss release
 * instead (dpcov's own theorem, proofs/ols_analyze_gauss.md): they cover the data's OLS estimate
 * with probability >= 1 - (1 - level)/2 and the generative model's coefficients with probability
 * >= level, at the price of width; when the noise is too large for any guarantee it says so.
 *
 * dpcov_ols_bootstrap_intervals() computes noise-aware intervals and p-values from a release of any
 * mechanism whose noise law is known (Analyze Gauss, symmetric Laplace, additive Wishart) by
 * parametric bootstrap (Ferrando, Wang, Sheldon, AISTATS 2022): narrower than the guaranteed ones
 * and available at smaller n, with coverage measured rather than proven.
 *
 * Thread-safety: reentrant; the generator is used exclusively.
 */
#ifndef DPCOV_OLS_H
#define DPCOV_OLS_H

#include "dpcov/common.h"
#include "dpcov/estimators.h"
#include "dpcov/mechanism.h"
#include "dpcov/receipt.h"
#include "dpcov/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Private OLS inference by projection (ICML 2017 Alg. 1; guarantee, preconditions and refusal as
 * for ::DPCOV_MECHANISM_OLS_JL). Regresses column @p label on @p features (and the intercept column
 * of @p reg_params) of the projected data. Everything is checked, r > p included, before any
 * privacy is spent.
 *
 * @param layout        ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param d             order of @p g, >= 2.
 * @param g             G = A^T A of the n rows [x_i, y_i] of norm <= @p bound (d x d, symmetric).
 * @param ldg           leading dimension of @p g.
 * @param n             number of rows.
 * @param bound         B.
 * @param epsilon       total epsilon; epsilon / 2 <= 1.
 * @param delta         total delta; delta / 2 < 1/e.
 * @param params        mechanism options with projection_rows = r (required), r > p.
 * @param label         column of y.
 * @param features      the feature columns (as for dpcov_regression_fit()).
 * @param num_features  their number.
 * @param reg_params    intercept column and level (ridge must be 0), or NULL for the defaults.
 * @param rng           the generator; the noise it draws is consumed even when the test then
 *                      refuses (a retry draws fresh noise and is a new release, with its own
 *                      privacy cost); unchanged only when the arguments are rejected.
 * @param[out] coefficients  p doubles: beta~. Required.
 * @param[out] std_errors    p doubles, or NULL.
 * @param[out] t_values      p doubles (beta~_j / se~_j, the test of beta_j = 0), or NULL.
 * @param[out] p_values      p doubles from T_{r-p}, or NULL.
 * @param[out] ci_lower      p doubles, or NULL.
 * @param[out] ci_upper      p doubles, or NULL.
 * @param[out] reject        p int32: 1 if beta_j = 0 is rejected at 1 - level, else 0; or NULL.
 * @param[out] summary       dof = r - p etc., or NULL.
 * @param[out] receipt       the release's receipt (test value and split included); required.
 * @return ::DPCOV_OK; ::DPCOV_E_REFUSED (the test failed: nothing is written); ::DPCOV_E_PRECONDITION
 *         (r <= p, epsilon / 2 > 1, delta / 2 >= 1/e); ::DPCOV_E_INVALID_ARGUMENT (ridge != 0,
 *         bad columns or level); the statuses of dpcov_mechanism_release() and
 *         dpcov_regression_fit().
 */
DPCOV_API dpcov_status dpcov_ols_jl(int32_t layout, int64_t d, const double *g, int64_t ldg,
                                    int64_t n, double bound, double epsilon, double delta,
                                    const dpcov_mechanism_params *params, int64_t label,
                                    const int64_t *features, int64_t num_features,
                                    const dpcov_regression_params *reg_params, dpcov_rng *rng,
                                    double *coefficients, double *std_errors, double *t_values,
                                    double *p_values, double *ci_lower, double *ci_upper,
                                    int32_t *reject, dpcov_regression_summary *summary,
                                    dpcov_receipt *receipt);

/**
 * Plug-in OLS inference on an Analyze Gauss release (ICML 2017 Alg. 2 setting), n - p degrees of
 * freedom. The release is (epsilon, delta)-DP as ::DPCOV_MECHANISM_ANALYZE_GAUSS; the intervals
 * and decisions have NO coverage guarantee. Parameters and outputs as for dpcov_ols_jl(), with
 * @p params the Analyze Gauss options (projection_rows must be 0).
 * @param layout        as for dpcov_ols_jl().
 * @param d             as for dpcov_ols_jl().
 * @param g             as for dpcov_ols_jl().
 * @param ldg           as for dpcov_ols_jl().
 * @param n             as for dpcov_ols_jl(); n > p.
 * @param bound         as for dpcov_ols_jl().
 * @param epsilon       > 0.
 * @param delta         in (0, 1).
 * @param params        Analyze Gauss options, or NULL.
 * @param label         as for dpcov_ols_jl().
 * @param features      as for dpcov_ols_jl().
 * @param num_features  as for dpcov_ols_jl().
 * @param reg_params    as for dpcov_ols_jl().
 * @param rng           as for dpcov_ols_jl().
 * @param[out] coefficients  as for dpcov_ols_jl().
 * @param[out] std_errors    as for dpcov_ols_jl().
 * @param[out] t_values      as for dpcov_ols_jl().
 * @param[out] p_values      as for dpcov_ols_jl() (Student t(n - p)).
 * @param[out] ci_lower      as for dpcov_ols_jl().
 * @param[out] ci_upper      as for dpcov_ols_jl().
 * @param[out] reject        as for dpcov_ols_jl().
 * @param[out] summary       as for dpcov_ols_jl().
 * @param[out] receipt       as for dpcov_ols_jl().
 * @return the statuses of dpcov_mechanism_release() and dpcov_regression_fit()
 *         (::DPCOV_E_NOT_POSITIVE_DEFINITE when the noisy X'X is indefinite: the noise was drawn
 *         and the generator advanced, nothing is written; to keep a release that may be indefinite,
 *         release with dpcov_mechanism_release() and fit or bootstrap it afterwards);
 *         ::DPCOV_E_INCOMPATIBLE under add/remove neighbours, before any draw (the inference reads
 *         n, which they keep private: take intervals from a release with a released count,
 *         dpcov_ols_intervals()).
 */
DPCOV_API dpcov_status dpcov_ols_analyze_gauss(
    int32_t layout, int64_t d, const double *g, int64_t ldg, int64_t n, double bound,
    double epsilon, double delta, const dpcov_mechanism_params *params, int64_t label,
    const int64_t *features, int64_t num_features, const dpcov_regression_params *reg_params,
    dpcov_rng *rng, double *coefficients, double *std_errors, double *t_values, double *p_values,
    double *ci_lower, double *ci_upper, int32_t *reject, dpcov_regression_summary *summary,
    dpcov_receipt *receipt);

/**
 * Guaranteed OLS confidence intervals from an Analyze Gauss release (post-processing: no privacy
 * cost, no randomness). With M~ = G + E the release (E symmetric, iid N(0, @p sigma^2) upper
 * triangle), S the coefficient columns and the label, p coefficients and nu = (1 - level)/2:
 * eta = sigma sqrt(2 F^{-1}_{chi2_{(p+1)(p+2)/2}}(1 - nu)) bounds ||E_S||_2 with probability
 * >= 1 - nu, and with kappa = eta / lambda_min(M~_XX) < 1, beta~ = M~_XX^{-1} m~_Xy,
 * b = (||beta~|| + kappa) / (1 - kappa):
 * - data interval: beta~_j +- ||M~_XX^{-1} e_j|| eta sqrt(1 + b^2) covers the OLS estimate on the
 *   data, beta_hat_j, with probability >= 1 - nu (over the noise, for every data set);
 * - model interval: the data interval widened by t_{1-nu/2}(n - p) sqrt(RSS+ / (n - p)
 *   [(M~_XX - eta I)^{-1}]_jj), RSS+ = Schur complement of M~_S + eta I, covers beta_j of the model
 *   y = X beta + e (e ~ N(0, s^2 I) independent of X) with probability >= level.
 * @proof proofs/ols_analyze_gauss.md
 *
 * @param layout        ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param d             order of @p released, >= 2.
 * @param released      the Analyze Gauss release (d x d, symmetric, finite).
 * @param ld            leading dimension of @p released.
 * @param sigma         the release's noise scale (its receipt's sigma), finite > 0.
 * @param n             number of rows behind the release; n > p.
 * @param label         column of y.
 * @param features      the feature columns (as for dpcov_regression_fit()).
 * @param num_features  their number.
 * @param reg_params    intercept column and level (ridge must be 0), or NULL for the defaults.
 * @param[out] coefficients   p doubles: beta~. Required.
 * @param[out] ci_lower       p doubles: model interval, or NULL.
 * @param[out] ci_upper       p doubles, or NULL.
 * @param[out] data_ci_lower  p doubles: data interval (covers beta_hat), or NULL.
 * @param[out] data_ci_upper  p doubles, or NULL.
 * @param[out] reject         p int32: 1 if beta_j = 0 is rejected (0 outside the model interval),
 *                            else 0; or NULL.
 * @param[out] noise_norm_bound  eta, or NULL.
 * @param[out] kappa          eta / lambda_min(M~_XX), or NULL.
 * @return ::DPCOV_OK; ::DPCOV_E_PRECONDITION when kappa >= 1 (no interval is guaranteed: more
 *         rows, a larger epsilon or fewer columns); ::DPCOV_E_INVALID_ARGUMENT (ridge != 0, bad
 *         columns, level, sigma, n <= p, a matrix that is not symmetric); ::DPCOV_E_NON_FINITE,
 *         ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT, ::DPCOV_E_NULL_POINTER for bad matrices and
 *         pointers. Outputs are untouched on error.
 */
DPCOV_API dpcov_status dpcov_ols_analyze_gauss_intervals(
    int32_t layout, int64_t d, const double *released, int64_t ld, double sigma, int64_t n,
    int64_t label, const int64_t *features, int64_t num_features,
    const dpcov_regression_params *reg_params, double *coefficients, double *ci_lower,
    double *ci_upper, double *data_ci_lower, double *data_ci_upper, int32_t *reject,
    double *noise_norm_bound, double *kappa);

/**
 * Whether @p num_bootstrap worlds form percentile intervals at @p level, as every bootstrap
 * interval of this library requires (dpcov_ols_bootstrap_intervals(),
 * dpcov_ols_robust_intervals(), dpcov_adassp_bootstrap_intervals(), dpcov_adassp_intervals(),
 * ...): each end an order statistic, num_bootstrap >= 2 / (1 - level) - 1 and at most
 * ::DPCOV_MAX_SIMULATION_DRAWS. Reads no data: a fit that will compute intervals calls it before
 * its release, so that a number of draws the intervals refuse spends no budget.
 *
 * @param level          confidence level, in (0, 1).
 * @param num_bootstrap  the number of bootstrap worlds.
 * @return ::DPCOV_OK; ::DPCOV_E_INVALID_ARGUMENT (level or num_bootstrap), with the reason in
 *         dpcov_last_error_message().
 */
DPCOV_API dpcov_status dpcov_bootstrap_draws_check(double level, int64_t num_bootstrap);

/**
 * Noise-aware OLS confidence intervals and p-values from a release, by parametric bootstrap
 * (Ferrando, Wang, Sheldon, "Parametric bootstrap for differentially private confidence
 * intervals", AISTATS 2022, OLS with fixed design). Post-processing: no privacy cost.
 *
 * With G^ = released - E[noise] over the coefficient columns and the label, beta~ = G^_XX^{-1}
 * g^_Xy and s^2 = max(0, g^_yy - g^_Xy' beta~) / (n - p), each of @p num_bootstrap worlds redraws
 * the model's sampling noise X'e ~ N(0, s^2 G^_XX) and the mechanism's noise (its law from
 * @p receipt), refits, and the intervals are the percentile intervals of the refits. A
 * coefficient along a direction of G^_XX less than 4.5 noise sds of u'Eu strong (at least 0.05 of
 * its squared loading) is read by the profile of the pivot X'y~ - G^ beta instead
 * (dpcov_adassp_profile_intervals() for AdaSSP's release; proofs/bootstrap_worlds.md, "The
 * profile beside the worlds"): its interval is the hull of the two, or the profile's alone along
 * a direction below 3 sds, and where the profile's set is open on a side the release does not
 * bound it (below). The same holds in every bootstrap interval of this library. The p-value of
 * beta_j = 0 is the smallest level at which the interval excludes 0. A world whose noisy X'X is
 * not positive definite counts at both ends; when so many do that an end would be infinite, or
 * when G^_XX itself is not positive definite, the privacy noise swamps the data and nothing is
 * returned (::DPCOV_E_PRECONDITION), rather than an interval that would undercover. Nothing is
 * returned either (::DPCOV_E_PRECONDITION, naming the coefficients) where the release does not
 * bound a coefficient: its profile's set is open on a side, or, off the directions the profile
 * reads, it lies along a direction of the worlds' X'X (G^_XX de-noised to second order) less
 * than 3 standard deviations of u'Eu strong (the direction carrying at least a tenth of its
 * squared loading), which the release may have made and no bootstrap world can see
 * (proofs/bootstrap_worlds.md, "Directions the release may have made"). The same holds for every
 * bootstrap interval of this library (AdaSSP, sandwich, robust); dpcov_ols_intervals() gives the
 * other coefficients their intervals instead.
 * Measured coverage of the model's coefficients (y = X beta + e, Gaussian): docs/benchmarks.md,
 * build/bench/ols_coverage, tests/statistical/ols_bootstrap_coverage_test.cpp.
 *
 * @param layout        ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param d             order of @p released, >= 2; must equal receipt->dim.
 * @param released      the release (d x d, symmetric, finite), exactly as the mechanism returned
 *                      it (no projection or clipping).
 * @param ld            leading dimension of @p released.
 * @param receipt       the release's receipt: mechanism ::DPCOV_MECHANISM_ANALYZE_GAUSS (sigma),
 *                      ::DPCOV_MECHANISM_LAPLACE_SYM (scale) or ::DPCOV_MECHANISM_WISHART_ADDITIVE
 *                      (dof, scale); n is receipt->n. Under add/remove neighbours the
 *                      receipt a release returns holds the exact n, which is private: set n to a
 *                      privately released count first (the constant column's entry of the
 *                      release, as `dpcov regress` does). Required.
 * @param label         column of y.
 * @param features      the feature columns (as for dpcov_regression_fit()).
 * @param num_features  their number.
 * @param reg_params    intercept column and level (ridge must be 0), or NULL for the defaults.
 * @param num_bootstrap number of bootstrap worlds, >= 2 / (1 - level) - 1 (each end an order
 *                      statistic) and at most ::DPCOV_MAX_SIMULATION_DRAWS; 999 or more is
 *                      advised.
 * @param rng           the generator of the bootstrap draws; advanced on success only.
 * @param[out] coefficients  p doubles: beta~. Required.
 * @param[out] std_errors    p doubles: standard deviation of the refits, or NULL.
 * @param[out] p_values      p doubles: of beta_j = 0, or NULL.
 * @param[out] ci_lower      p doubles, or NULL.
 * @param[out] ci_upper      p doubles, or NULL.
 * @param[out] noise_norm    the level-quantile of ||E_XX||_2 over the draws, or NULL.
 * @param[out] kappa         noise_norm / lambda_min(G^_XX) (>= 1: the noise is as large as the
 *                           data's X'X), or NULL.
 * @return ::DPCOV_OK; ::DPCOV_E_PRECONDITION (the noise swamps the data: no interval);
 *         ::DPCOV_E_INVALID_ARGUMENT (a mechanism without a supported noise law, receipt->dim !=
 *         d, receipt->struct_size too small, ridge != 0, bad columns or level, n <= p,
 *         num_bootstrap too small, a matrix that is not symmetric); ::DPCOV_E_NON_FINITE,
 *         ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT, ::DPCOV_E_NULL_POINTER for bad matrices and
 *         pointers; ::DPCOV_E_NUMERICAL (an output overflows). Outputs and the generator are
 *         untouched on error.
 */
DPCOV_API dpcov_status dpcov_ols_bootstrap_intervals(
    int32_t layout, int64_t d, const double *released, int64_t ld, const dpcov_receipt *receipt,
    int64_t label, const int64_t *features, int64_t num_features,
    const dpcov_regression_params *reg_params, int64_t num_bootstrap, dpcov_rng *rng,
    double *coefficients, double *std_errors, double *p_values, double *ci_lower,
    double *ci_upper, double *noise_norm, double *kappa);

/**
 * Noise-aware confidence intervals and p-values for the OLS coefficients of a Gram mechanism's
 * release that hold whatever the errors' variance (heteroscedastic errors) and, for the
 * least-squares projection, whether or not the mean is linear: the parametric bootstrap of
 * dpcov_ols_bootstrap_intervals() whose sampling noise of X'y is N(0, M^) instead of
 * N(0, s^2 X'X), M^ the released meat M~ = sum_i r_i^2 x_i x_i' + noise, given to each
 * coefficient as its margin and raised to 0 where negative (the sandwich variance;
 * dpcov_adassp_sandwich_intervals()). Post-processing of the two releases: no
 * privacy cost, and no y'y needed. The meat is released by the caller: the budget split of
 * dpcov_adassp_sandwich_plan(), the fit's release at (fit_epsilon, fit_delta), the rows of
 * dpcov_adassp_sandwich_rows() at this function's @p coefficients (a function of the fit's release
 * only), released by Analyze Gauss at (meat_epsilon, meat_delta); the two compose adaptively to
 * the request (proofs/sandwich.md, "Gram mechanisms"). The meat's own noise is not redrawn:
 * dpcov_ols_robust_intervals() redraws it and covers better (docs/regression_intervals.md).
 *
 * @param layout        ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR (of both matrices).
 * @param d             order of @p released, >= 2; must equal receipt->dim.
 * @param released      the fit's release (d x d, symmetric, finite), as the mechanism returned it.
 * @param ld            leading dimension of @p released.
 * @param receipt       the fit's receipt, of a mechanism dpcov_ols_bootstrap_intervals() accepts;
 *                      receipt->n must exceed the number of coefficients (under add/remove, a
 *                      privately released count: see dpcov_ols_bootstrap_intervals()). Required.
 * @param label         column of y.
 * @param features      the feature columns (as for dpcov_regression_fit()).
 * @param num_features  their number.
 * @param reg_params    intercept column and level (ridge must be 0), or NULL for the defaults.
 * @param released_meat M~ (p x p, symmetric, finite; p = num_features plus 1 with an intercept),
 *                      its rows and columns in the coefficients' order (intercept first).
 * @param ld_meat       leading dimension of @p released_meat.
 * @param num_bootstrap bootstrap worlds, as for dpcov_ols_bootstrap_intervals().
 * @param rng           the generator of the bootstrap draws; advanced on success only.
 * @param[out] coefficients  p doubles: beta~. Required.
 * @param[out] std_errors    p doubles, or NULL.
 * @param[out] p_values      p doubles: of beta_j = 0, or NULL.
 * @param[out] ci_lower      p doubles, or NULL.
 * @param[out] ci_upper      p doubles, or NULL.
 * @return ::DPCOV_OK; ::DPCOV_E_PRECONDITION (the noise swamps the data: no interval);
 *         ::DPCOV_E_INVALID_ARGUMENT (as dpcov_ols_bootstrap_intervals(), and a meat that is not
 *         symmetric); ::DPCOV_E_NON_FINITE, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_NULL_POINTER; ::DPCOV_E_NUMERICAL (an output overflows). Outputs and the
 *         generator are untouched on error.
 * Thread-safety: reentrant; the generator is used exclusively.
 * @proof proofs/sandwich.md
 */
DPCOV_API dpcov_status dpcov_ols_sandwich_intervals(
    int32_t layout, int64_t d, const double *released, int64_t ld, const dpcov_receipt *receipt,
    int64_t label, const int64_t *features, int64_t num_features,
    const dpcov_regression_params *reg_params, const double *released_meat, int64_t ld_meat,
    int64_t num_bootstrap, dpcov_rng *rng, double *coefficients, double *std_errors,
    double *p_values, double *ci_lower, double *ci_upper);

/**
 * The robust intervals of dpcov_ols_sandwich_intervals() with the meat's own noise redrawn in
 * every bootstrap world (use this one): from the meat's receipt, each world takes
 * M^ + E_w as its meat (M^ = M~ minus the noise mean, E_w a fresh draw of the meat's noise law
 * minus its mean) and draws its sampling noise of X'y from N(0, that meat), one coefficient at a
 * time. The intervals then carry the uncertainty of the meat's release, whose noise is
 * large against the slopes' entries where n is small against the noise (measured,
 * docs/regression_intervals.md). Post-processing of the two releases: no privacy cost.
 *
 * @param layout        ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR (of both matrices).
 * @param d             order of @p released, >= 2; must equal receipt->dim.
 * @param released      the fit's release (d x d, symmetric, finite), as the mechanism returned it.
 * @param ld            leading dimension of @p released.
 * @param receipt       the fit's receipt, of a mechanism dpcov_ols_bootstrap_intervals() accepts;
 *                      receipt->n must exceed the number of coefficients (under add/remove, a
 *                      privately released count: see dpcov_ols_bootstrap_intervals()). Required.
 * @param label         column of y.
 * @param features      the feature columns (as for dpcov_regression_fit()).
 * @param num_features  their number.
 * @param reg_params    intercept column and level (ridge must be 0), or NULL for the defaults.
 * @param released_meat M~ (p x p, symmetric, finite; p = num_features plus 1 with an intercept),
 *                      its rows and columns in the coefficients' order (intercept first).
 * @param ld_meat       leading dimension of @p released_meat.
 * @param meat_receipt  the meat's receipt (struct_size set): meat_receipt->dim must equal p and
 *                      its mechanism have a noise law the bootstrap reads (analyze_gauss,
 *                      laplace_sym, wishart_additive). Required.
 * @param num_bootstrap bootstrap worlds, as for dpcov_ols_bootstrap_intervals().
 * @param rng           the generator of the bootstrap draws; advanced on success only.
 * @param[out] coefficients  p doubles: beta~. Required.
 * @param[out] std_errors    p doubles, or NULL.
 * @param[out] p_values      p doubles: of beta_j = 0, or NULL.
 * @param[out] ci_lower      p doubles, or NULL.
 * @param[out] ci_upper      p doubles, or NULL.
 * @return ::DPCOV_OK; ::DPCOV_E_PRECONDITION (the noise swamps the data: no interval);
 *         ::DPCOV_E_INVALID_ARGUMENT (as dpcov_ols_sandwich_intervals(), and a meat receipt of
 *         another order, too small a struct_size or a mechanism without a supported noise law);
 *         ::DPCOV_E_NON_FINITE, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT, ::DPCOV_E_NULL_POINTER;
 *         ::DPCOV_E_NUMERICAL (an output overflows). Outputs and the generator are untouched on
 *         error.
 * Thread-safety: reentrant; the generator is used exclusively.
 * @proof proofs/sandwich.md
 */
DPCOV_API dpcov_status dpcov_ols_robust_intervals(
    int32_t layout, int64_t d, const double *released, int64_t ld, const dpcov_receipt *receipt,
    int64_t label, const int64_t *features, int64_t num_features,
    const dpcov_regression_params *reg_params, const double *released_meat, int64_t ld_meat,
    const dpcov_receipt *meat_receipt, int64_t num_bootstrap, dpcov_rng *rng,
    double *coefficients, double *std_errors, double *p_values, double *ci_lower,
    double *ci_upper);

/** dpcov_ols_intervals(): the coefficient supports a conclusion; its interval is given. */
#define DPCOV_COEFFICIENT_BOUNDED 1
/** dpcov_ols_intervals(): the release does not bound the coefficient (it lies along a direction
 *  too weak against the privacy noise); it has no interval (its ends, standard error and p-value
 *  are NaN). */
#define DPCOV_COEFFICIENT_UNBOUNDED (-3)

/**
 * The bootstrap intervals of a Gram mechanism's release with an outcome per coefficient: those of
 * dpcov_ols_bootstrap_intervals() (no meat: homoscedastic errors) or of
 * dpcov_ols_robust_intervals() (@p released_meat and @p meat_receipt: any error variance), except
 * that where the release does not bound some coefficients (the profile of the pivot leaves their
 * set open along a weak direction, or, off the directions the profile reads, they lie along a
 * direction of the worlds' X'X less than 3 standard deviations of u'Eu strong: as
 * dpcov_ols_bootstrap_intervals() says, proofs/bootstrap_worlds.md, "Directions the release may
 * have made" and "The profile beside the worlds"), only those go without an interval (@p conclusive ::DPCOV_COEFFICIENT_UNBOUNDED, their interval
 * ends, standard errors and p-values NaN) and every other coefficient gets its interval
 * (::DPCOV_COEFFICIENT_BOUNDED), where those functions refuse the whole fit. Where no
 * coefficient is unbounded the outputs and the generator's state are theirs, bit for bit.
 * Post-processing of the releases: no privacy cost.
 *
 * @param layout        ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR (of both matrices).
 * @param d             order of @p released, >= 2; must equal receipt->dim.
 * @param released      the fit's release (d x d, symmetric, finite), as the mechanism returned it.
 * @param ld            leading dimension of @p released.
 * @param receipt       the fit's receipt, of a mechanism dpcov_ols_bootstrap_intervals() accepts;
 *                      receipt->n must exceed the number of coefficients (under add/remove, a
 *                      privately released count: see dpcov_ols_bootstrap_intervals()). Required.
 * @param label         column of y.
 * @param features      the feature columns (as for dpcov_regression_fit()).
 * @param num_features  their number.
 * @param reg_params    intercept column and level (ridge must be 0), or NULL for the defaults.
 * @param released_meat the released meat M~ (p x p, symmetric, finite, intercept first), or NULL
 *                      for homoscedastic errors.
 * @param ld_meat       leading dimension of @p released_meat (ignored without it).
 * @param meat_receipt  the meat's receipt with @p released_meat, else NULL.
 * @param num_bootstrap bootstrap worlds, as for dpcov_ols_bootstrap_intervals().
 * @param rng           the generator of the bootstrap draws; advanced on success only.
 * @param[out] coefficients  p doubles: beta~ (finite for every coefficient). Required.
 * @param[out] std_errors    p doubles, or NULL.
 * @param[out] p_values      p doubles: of beta_j = 0, or NULL.
 * @param[out] ci_lower      p doubles, or NULL.
 * @param[out] ci_upper      p doubles, or NULL.
 * @param[out] conclusive    p int32: ::DPCOV_COEFFICIENT_BOUNDED or ::DPCOV_COEFFICIENT_UNBOUNDED.
 *                           Required.
 * @param[out] noise_norm    the level-quantile of ||E_XX||_2 over the draws, or NULL.
 * @param[out] kappa         noise_norm / lambda_min(G^_XX), or NULL.
 * @return ::DPCOV_OK (with an outcome per coefficient); ::DPCOV_E_PRECONDITION (the noise swamps
 *         the data: no interval for any coefficient); ::DPCOV_E_INVALID_ARGUMENT (as
 *         dpcov_ols_robust_intervals(), and a meat without its receipt or a receipt without its
 *         meat); ::DPCOV_E_NON_FINITE, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_NULL_POINTER; ::DPCOV_E_NUMERICAL (an output overflows). Outputs and the
 *         generator are untouched on error.
 * Thread-safety: reentrant; the generator is used exclusively.
 * @proof proofs/bootstrap_worlds.md
 */
DPCOV_API dpcov_status dpcov_ols_intervals(
    int32_t layout, int64_t d, const double *released, int64_t ld, const dpcov_receipt *receipt,
    int64_t label, const int64_t *features, int64_t num_features,
    const dpcov_regression_params *reg_params, const double *released_meat, int64_t ld_meat,
    const dpcov_receipt *meat_receipt, int64_t num_bootstrap, dpcov_rng *rng,
    double *coefficients, double *std_errors, double *p_values, double *ci_lower,
    double *ci_upper, int32_t *conclusive, double *noise_norm, double *kappa);

#ifdef __cplusplus
}
#endif

#endif /* DPCOV_OLS_H */
