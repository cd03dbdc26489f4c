/**
 * @file dpcov/forecast.h
 * @brief What a regression on a release will show, from public values only, before any privacy
 *        is spent: the n at which the privacy noise adds as much variance to a coefficient as the
 *        sampling noise, and the expected standard error and interval width at the user's n.
 *
 * The figures hold for a reference design (docs/forecast.md derives them): the p regressors and
 * the label independent and symmetric, the regressors with equal second moments, the true
 * coefficients 0, and rows whose mean squared norm is `fill` times the squared bound. They are
 * for a standardised coefficient (in units of sd(label) / sd(regressor)) of the noise-aware
 * estimator (the OLS fit of the released statistics), to first order in the noise. Nothing in a
 * forecast depends on data: it costs no privacy.
 *
 * Thread-safety: reentrant.
 */
#ifndef DPCOV_FORECAST_H
#define DPCOV_FORECAST_H

#include "dpcov/adassp.h"
#include "dpcov/common.h"
#include "dpcov/receipt.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A forecast of a regression; the caller sets `struct_size` to `sizeof(dpcov_regression_forecast)`. */
typedef struct dpcov_regression_forecast {
  size_t struct_size;             /**< Set by the caller to sizeof(dpcov_regression_forecast). */
  double rows;                    /**< n the forecast is for. */
  double level;                   /**< Confidence level of the interval width. */
  double fill;                    /**< The reference design's mean squared row norm over the squared bound. */
  double crossover_rows;          /**< n at which the privacy and the sampling variance of a coefficient are equal. */
  double sampling_standard_error; /**< Sampling part of a standardised coefficient's standard error at n: 1 / sqrt(n). */
  double privacy_standard_error;  /**< Privacy part at n: sqrt(crossover_rows) / n. */
  double standard_error;          /**< sqrt of the sum of the two variances. */
  double interval_width;          /**< 2 z standard_error, z the normal quantile of (1 + level) / 2. */
  /**
   * n from which the noise-aware intervals are expected: the design's smallest eigenvalue n
   * E x_j^2 at least twice the noise's spectral norm on X'X (about 2 sqrt(p) times the sd of an
   * entry above the diagonal). Measured on rows on their bounds (fill 1), with an intercept or
   * without: nearly every fit prints an interval from this n, about half from 0.6-0.7 of it.
   */
  double rows_for_intervals;
  /** 1 when n >= rows_for_intervals and the expected half-width is below 1 (an interval that
   *  excludes no standardised value that matters is not worth its budget), else 0. */
  int32_t intervals_expected;
  /**
   * Appended after the struct's first version: this and the fields below are written only when
   * struct_size covers them. The noise-aware posterior of an AdaSSP fit with y'y (dpcov_adassp_intervals() where the
   * bootstrap refuses), for a coefficient of the reference design without an intercept column;
   * NaN from dpcov_regression_forecast_release() (a release has no posterior). Its sampling
   * share at n: the variance of the posterior mean over releases from one truth over the
   * posterior variance, as dpcov_adassp_intervals() estimates it from its chains.
   */
  double posterior_sampling_share;
  /** The share a posterior interval needs to be printed at `level` (0.579 at 0.95). */
  double posterior_min_sampling_share;
  /** The posterior interval's half-width over the coefficient's relevant half-range R_j: at 1
   *  or above it covers [-R_j, R_j] and is not printed either. NaN for a release. */
  double posterior_half_width_over_range;
  /** n from which the posterior is expected to print a coefficient's interval: the share and
   *  half-width above (first order) pass both rules and n >= rows_for_intervals (the release
   *  identifies X'X; below it the prior holds the interval). NaN for a release. */
  double rows_for_posterior_intervals;
  /** 1 when n >= rows_for_posterior_intervals, else 0 (0 for a release). */
  int32_t posterior_intervals_expected;
  /**
   * Appended after posterior_intervals_expected: written only when struct_size covers it. 1 when
   * the figures are for a slope of a design with an intercept column
   * (dpcov_regression_forecast_adassp_intercept()), else 0.
   */
  int32_t intercept;
} dpcov_regression_forecast;

/**
 * The forecast of a regression of one column on the d - 1 others of a release planned or drawn
 * by dpcov_mechanism_plan() or a release (its `dim`, `bound` and noise scales), at @p n rows.
 * Mechanisms: analyze_gauss (sigma), laplace_sym (scale) and wishart_additive (dof, scale), those
 * whose noise law the noise-aware intervals know.
 *
 * @param receipt        required; struct_size set; `dim` >= 2, `bound` finite > 0.
 * @param n              rows, finite >= 1 (the plan's n, or the n the user expects; under
 *                       add/remove the receipt withholds n, so it is an argument).
 * @param level          in (0, 1).
 * @param fill           in (0, 1]: the design's mean squared row norm over B^2 (1: rows on the bound).
 * @param[out] forecast  required; struct_size set by the caller; untouched on error.
 * @return ::DPCOV_OK; ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION (dim < 2),
 *         ::DPCOV_E_INVALID_ARGUMENT (a mechanism without a known additive noise law, n, level,
 *         fill, struct sizes), ::DPCOV_E_NON_FINITE (bound), ::DPCOV_E_NUMERICAL (an overflow).
 */
DPCOV_API dpcov_status dpcov_regression_forecast_release(const dpcov_receipt *receipt, double n,
                                                         double level, double fill,
                                                         dpcov_regression_forecast *forecast);

/**
 * The forecast of an AdaSSP fit planned by dpcov_adassp_plan() (or fitted: only its
 * data-independent fields are read: `num_regressors`, `bound`, `bound_y`, `sigma_cross`,
 * `sigma_gram_off_diagonal`), at @p n rows. A plan with `release_label_square` = 1 is the one
 * whose noise the intervals see.
 *
 * @param receipt        required; struct_size set; num_regressors >= 1, bounds and sigmas finite > 0.
 * @param n              rows, finite >= 1.
 * @param level          in (0, 1).
 * @param fill           in (0, 1]: E||x||^2 / B_X^2 and E y^2 / B_Y^2 of the design.
 * @param[out] forecast  required; struct_size set by the caller; untouched on error.
 * @return ::DPCOV_OK; ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_INVALID_ARGUMENT (n,
 *   level, fill, bounds, sigmas, sizes), ::DPCOV_E_NON_FINITE, ::DPCOV_E_NUMERICAL (an overflow),
 *   ::DPCOV_E_INCOMPATIBLE (`max_rows_per_unit` > 0: a unit fit has no intervals to forecast).
 */
DPCOV_API dpcov_status dpcov_regression_forecast_adassp(const dpcov_adassp_receipt *receipt,
                                                        double n, double level, double fill,
                                                        dpcov_regression_forecast *forecast);

/**
 * As dpcov_regression_forecast_adassp(), for a fit whose first regressor is an intercept: a
 * constant 1 inside the receipt's `bound` (bound^2 = 1 + B^2 for features of norm <= B), the
 * design `dpcov regress` and Python's PrivateLinearRegression fit by default. The figures are a
 * slope's: the p - 1 features centred with second moment fill B^2 / (p - 1) each, so `fill` is
 * the features' mean squared norm over B^2; the posterior's prior is that of an intercept in
 * column 0 (docs/forecast.md, "With an intercept").
 *
 * @param receipt        required; struct_size set; num_regressors >= 2, bound > 1, bound_y and
 *                       sigmas finite > 0.
 * @param n              rows, finite >= 1.
 * @param level          in (0, 1).
 * @param fill           in (0, 1]: E||x_features||^2 / B^2 and E y^2 / B_Y^2 of the design.
 * @param[out] forecast  required; struct_size set by the caller; untouched on error.
 * @return as dpcov_regression_forecast_adassp(); ::DPCOV_E_INVALID_ARGUMENT also for
 *   num_regressors < 2 or bound <= 1 (no room for a feature besides the intercept).
 */
DPCOV_API dpcov_status dpcov_regression_forecast_adassp_intercept(
    const dpcov_adassp_receipt *receipt, double n, double level, double fill,
    dpcov_regression_forecast *forecast);

/**
 * Whether a default AdaSSP fit drops its lambda_min step at @p n public rows
 * (dpcov_adassp_params::without_lambda_min), from public values only: 1 when the forecast of
 * @p plan at n and fill 1 (rows on their bounds, the most favourable design) expects the released
 * X'X~ too noisy for the bootstrap (n below `rows_for_intervals`), so that the small-n posterior
 * answers; there the released lambda_min is 0 after its shift anyway and its share of mu^2 goes to
 * X'X, X'y and y'y, which the posterior reads. The meat of robust intervals is not released there
 * either. Whether y'y is released is a separate decision, taken on the plan this one gives. Under
 * add/remove n is private: a plan under add/remove neighbours is refused (keep the default).
 *
 * @param plan                the default fit's plan (dpcov_adassp_plan(), lambda_min released,
 *                            ::DPCOV_ADASSP_JOINT_ANALYTIC, row level); struct_size set.
 * @param n                   the public number of rows, finite >= 1.
 * @param level               in (0, 1).
 * @param[out] without_lambda_min  required: 1 or 0; untouched on error.
 * @param[out] rows_for_bootstrap  optional (NULL): the forecast's n from which the bootstrap is
 *                            expected, for the reason the surfaces print.
 * @return ::DPCOV_OK; ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_INVALID_ARGUMENT (n,
 *   level, a plan without the lambda_min step or with the paper's constants, its neighbour,
 *   sizes), ::DPCOV_E_NON_FINITE, ::DPCOV_E_NUMERICAL, ::DPCOV_E_INCOMPATIBLE (a unit-level plan
 *   or one under add/remove neighbours: n is not public).
 * @proof proofs/adassp.md
 */
DPCOV_API dpcov_status dpcov_adassp_small_n_split(const dpcov_adassp_receipt *plan, double n,
                                                  double level, int32_t *without_lambda_min,
                                                  double *rows_for_bootstrap);

/** Whether the default fit releases y'y for its intervals: dpcov_adassp_fit_request::intervals. */
enum dpcov_fit_intervals {
  DPCOV_FIT_INTERVALS_NONE = 0,    /**< No intervals: y'y is not released. */
  DPCOV_FIT_INTERVALS_DECIDED = 1, /**< y'y where the forecast at the public n expects an interval. */
  DPCOV_FIT_INTERVALS_ALWAYS = 2   /**< y'y whatever the forecast says. */
};

/**
 * What a default AdaSSP regression is asked for, public values only (dpcov_adassp_default_fit()).
 * The caller sets `struct_size` to `sizeof(dpcov_adassp_fit_request)`.
 */
typedef struct dpcov_adassp_fit_request {
  size_t struct_size;        /**< Set by the caller to sizeof(dpcov_adassp_fit_request). */
  int64_t num_regressors;    /**< p >= 1, an intercept counted. */
  double bound;              /**< B_X: ||x|| <= B_X (an intercept's 1 included). */
  double bound_y;            /**< B_Y: |y| <= B_Y. */
  double epsilon;            /**< The fit's whole budget (and the meat's under robust errors), finite > 0. */
  double delta;              /**< In (0, 1). */
  /**
   * n, finite >= 1, read only where n is public (replace-one at the level of rows); or NaN where
   * it is not known yet (before the rows are read): then, as where n is private, no decision
   * reads n and only the robust split as asked applies.
   */
  double rows;
  double level;              /**< Of the intervals, in (0, 1). */
  int32_t intervals;         /**< An enum ::dpcov_fit_intervals value. */
  int32_t robust;            /**< 1: robust (sandwich) errors asked, 0: homoscedastic. */
  int32_t small_n_posterior; /**< 1: the noise-aware posterior answers where the bootstrap refuses. */
} dpcov_adassp_fit_request;

/**
 * The decisions of a default AdaSSP regression (dpcov_adassp_default_fit()); the caller sets
 * `struct_size` to `sizeof(dpcov_adassp_fit_decision)`.
 */
typedef struct dpcov_adassp_fit_decision {
  size_t struct_size;          /**< Set by the caller to sizeof(dpcov_adassp_fit_decision). */
  double fit_epsilon;          /**< The AdaSSP fit's share of epsilon. */
  double fit_delta;            /**< Its share of delta. */
  int32_t robust;              /**< 1: the meat of robust intervals gets the rest of the budget. */
  double meat_epsilon;         /**< The meat's epsilon (dpcov_adassp_sandwich_plan()); 0 unless robust. */
  double meat_delta;           /**< The meat's delta; 0 unless robust. */
  int32_t small_n_split;       /**< 1: the fit drops its lambda_min step (dpcov_adassp_small_n_split()). */
  /** The forecast's n from which the bootstrap is expected, where the split was decided; else 0. */
  double rows_for_bootstrap;
  /** 1: the forecast (the plan at the whole budget with y'y, fill 1) took the decision on y'y,
   *  release or not (`label_square_refused` says which); 0: y'y as asked, undecided. */
  int32_t label_square_decided;
  int32_t label_square_refused; /**< 1: y'y not released, the forecast expecting no interval. */
  int32_t robust_skipped;       /**< 1: robust errors asked and not attempted (no interval expected). */
} dpcov_adassp_fit_decision;

/**
 * The decisions of the default AdaSSP regression from public values only, the rules every surface
 * applies (`dpcov regress`, `dpcov plan -m adassp --regress`, Python's PrivateLinearRegression;
 * docs/forecast.md): (1) the small-n split where the plan at the public n expects the posterior
 * to answer; (2) y'y released for the intervals only where the forecast at n (fill 1, the most
 * favourable design) expects the bootstrap's interval, or the posterior's when it answers; (3)
 * robust errors hold a share of the budget back for the meat only where the plan's forecast, at
 * the whole budget and at the fit's share, expects the bootstrap's intervals. Where n is private
 * (add/remove, or privacy units) or not known yet (`rows` NaN, before the rows are read) only the
 * robust split as asked applies. Plan the fit with
 * dpcov_adassp_plan() at (fit_epsilon, fit_delta) and @p decided.
 *
 * @param request       required; struct_size set.
 * @param params        optional (NULL: the defaults): neighbour, calibration, rho,
 *                      max_rows_per_unit as asked; its release_label_square and
 *                      without_lambda_min are ignored (decided here).
 * @param[out] decided  required: @p params with release_label_square and without_lambda_min
 *                      decided; struct_size set by the caller; untouched on error.
 * @param[out] decision required; struct_size set by the caller; untouched on error.
 * @param[out] forecast optional (NULL): the forecast that decided y'y, written where
 *                      `label_square_decided` is 1; struct_size set by the caller.
 * @return ::DPCOV_OK; ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_INVALID_ARGUMENT
 *   (the request's values as dpcov_adassp_plan() checks them, rows, level, flags, sizes, a meat
 *   share that rounds to 0), ::DPCOV_E_NON_FINITE, ::DPCOV_E_NUMERICAL.
 * @proof proofs/adassp.md
 */
DPCOV_API dpcov_status dpcov_adassp_default_fit(const dpcov_adassp_fit_request *request,
                                                const dpcov_adassp_params *params,
                                                dpcov_adassp_params *decided,
                                                dpcov_adassp_fit_decision *decision,
                                                dpcov_regression_forecast *forecast);

#ifdef __cplusplus
}
#endif

#endif /* DPCOV_FORECAST_H */
