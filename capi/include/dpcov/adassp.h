/**
 * @file dpcov/adassp.h
 * @brief AdaSSP: differentially private linear regression by sufficient-statistics perturbation
 *        with an adaptive ridge (Yu-Xiang Wang, "Revisiting differentially private linear
 *        regression: optimal and adaptive prediction & estimation in unbounded domain", UAI 2018,
 *        Alg. 2).
 *
 * From the exact statistics of rows (x_i, y_i) with ||x_i|| <= B_X and |y_i| <= B_Y, one call
 * releases lambda_min(X'X) + N(0, s_l^2), X'X + E (E symmetric, E_ii ~ N(0, s_g^2),
 * E_ij ~ N(0, s_g^2 / 2)) and X'y + N(0, s_c^2 I), then, as post-processing, the ridge
 * lambda = max(0, eta - max(lambda_min + noise - shift, 0)) and the coefficients
 * theta = (X'X~ + lambda I)^{-1} X'y~. The three noisy statistics are one Gaussian mechanism:
 * by default each gets a third of its squared Gaussian-DP parameter and the whole is calibrated
 * exactly (Balle & Wang 2018, Thm 8), which is never looser than the paper's three (eps/3,
 * delta/3) pieces; the paper's constants are ::DPCOV_ADASSP_PAPER.
 *
 * The fit never fails for want of positive definiteness: with probability >= 1 - rho the ridge
 * makes X'X~ + lambda I positive definite, and otherwise its eigenvalues below `eigenvalue_floor`
 * (the noise scale s_g) are raised to it. Nothing is ever redrawn: one call spends (epsilon,
 * delta) once. An intercept is a regressor column that held 1 in every row (counted in B_X).
 *
 * Continuous noise is sampled in floating point ("idealized numerics", Mironov 2012).
 * Thread-safety: reentrant; the generator is used exclusively.
 * @proof proofs/adassp.md
 */
#ifndef DPCOV_ADASSP_H
#define DPCOV_ADASSP_H

#include "dpcov/common.h"
#include "dpcov/receipt.h"
#include "dpcov/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How AdaSSP's noise scales, shift and ridge bound are computed. */
enum dpcov_adassp_calibration {
  /**
   * Default. One Gaussian mechanism over (lambda_min, X'X, X'y), each with a third of mu^2,
   * mu = 1 / (analytic Gaussian sigma at (epsilon, delta), sensitivity 1): s_k = sqrt(3) Delta_k
   * sigma_AG. Shift: s_l z with P(N(0,1) > z) = rho / 2; eta = s_g sqrt((p + 1) ln(2 p / rho))
   * (Tropp 2012, Thm 4.1).
   */
  DPCOV_ADASSP_JOINT_ANALYTIC = 0,
  /**
   * The paper's: s_k = sqrt(ln(6 / delta)) Delta_k / (epsilon / 3), shift ln(6 / delta) B_X^2 /
   * (epsilon / 3), eta = sqrt(p ln(6 / delta) ln(2 p^2 / rho)) B_X^2 / (epsilon / 3). Accepted only
   * when their exact joint delta is <= delta (otherwise ::DPCOV_E_PRECONDITION).
   */
  DPCOV_ADASSP_PAPER = 1
};

/** Options of dpcov_adassp_fit(); fill with dpcov_adassp_params_default() first. */
typedef struct dpcov_adassp_params {
  /** Set by dpcov_adassp_params_default() to sizeof(dpcov_adassp_params). */
  size_t struct_size;
  /** A ::dpcov_neighbour; default ::DPCOV_NEIGHBOUR_REPLACE_ONE. */
  int32_t neighbour;
  /** A ::dpcov_adassp_calibration; default ::DPCOV_ADASSP_JOINT_ANALYTIC. */
  int32_t calibration;
  /** Failure probability of the ridge, in (0, 1); default 0.05 (the paper's varrho). */
  double rho;
  /**
   * 1: also release y'y + N(0, s_y^2) in the same Gaussian mechanism (each of the four statistics
   * then gets a quarter of mu^2 instead of a third, so the other noise scales grow by
   * sqrt(4/3)), which dpcov_adassp_bootstrap_intervals() needs; ::DPCOV_ADASSP_JOINT_ANALYTIC only.
   * Default 0.
   */
  int32_t release_label_square;
  /**
   * 0 (default): rows are the neighbours. k in [1, 2^20]: privacy units, the neighbours one unit
   * (person) added or removed, or all its rows replaced (`neighbour`), and the Gram matrix given
   * holds at most k rows of every unit, each within the bounds (choose them with
   * dpcov_unit_rows_keep() or an accumulator of units, dpcov_gram_add_unit_rows()). Every
   * sensitivity is then k times the row-level one and the fit is (epsilon, delta)-DP at unit
   * level: noise linear in k, never more than group privacy at dpcov_unit_row_budget().
   * ::DPCOV_ADASSP_JOINT_ANALYTIC only. The intervals' public n does not exist at unit level:
   * dpcov_adassp_bootstrap_intervals() and dpcov_adassp_intervals() refuse such a receipt.
   * Added after the first release: a caller's smaller struct leaves it 0.
   * @proof proofs/adassp_units.md
   */
  int64_t max_rows_per_unit;
  /**
   * 1: no lambda_min step. X'X and X'y (and y'y with `release_label_square`) are the whole
   * Gaussian mechanism, each with a half of mu^2 (a third with y'y) instead of a third (a
   * quarter): noise scales sqrt(2/3) (sqrt(3/4)) of the default's; the ridge is its public bound
   * eta (`noise_norm_bound`), since no released value lowers it. Meant for small n, where the
   * released lambda_min is 0 after its shift anyway (dpcov_adassp_small_n_split() decides it from
   * public values). ::DPCOV_ADASSP_JOINT_ANALYTIC at row level (`max_rows_per_unit` 0) only.
   * Default 0. Added after the first release:
   * a caller's smaller struct leaves it 0.
   * @proof proofs/adassp.md
   */
  int32_t without_lambda_min;
} dpcov_adassp_params;

/**
 * What dpcov_adassp_fit() did: the mechanism, the privacy spent and every constant. The caller
 * sets `struct_size` to `sizeof(dpcov_adassp_receipt)`. The last three fields are functions of
 * the release (post-processing, no further privacy cost).
 */
typedef struct dpcov_adassp_receipt {
  size_t struct_size;    /**< Set by the caller to sizeof(dpcov_adassp_receipt). */
  /* The members of dpcov_receipt_prefix (dpcov/receipt.h), documented there. */
  int32_t mechanism;     /**< A ::dpcov_mechanism_id (::DPCOV_MECHANISM_ADASSP; dpcov_mechanism_name() gives "adassp"). */
  int32_t privacy_model; /**< A ::dpcov_mechanism_privacy. */
  int32_t neighbour;     /**< A ::dpcov_neighbour. */
  int32_t numerics;      /**< ::DPCOV_NUMERICS_IDEALIZED: the Gaussian noise is sampled in floating point; the guarantee is that of the idealized mechanism (Mironov 2012). */
  int32_t generator;     /**< Release only: the ::dpcov_generator of the noise; 0 in a plan. */
  int32_t seed_fixed;    /**< 1 if the generator came from an explicit seed (no privacy), else 0; 0 in a plan. */
  double epsilon;        /**< epsilon of the (epsilon, delta)-DP guarantee. */
  double delta;          /**< delta of that guarantee. */
  double rho;            /**< The fit is rho-zCDP: one Gaussian mechanism, rho = sum_k Delta_k^2 / (2 s_k^2) over the statistics released (Bun & Steinke 2016, Prop. 1.6), rounded up. What a zCDP ledger charges (dpcov_ledger_charge_zcdp()); data-independent (a plan has it). */
  double bound;          /**< B_X: ||x_i|| <= B_X (an intercept's 1 included); the label's bound is `bound_y`. */
  int64_t n;             /**< ::DPCOV_RECEIPT_N_WITHHELD: the fit takes the Gram matrix, not the rows. */
  char theorem[DPCOV_RECEIPT_THEOREM_SIZE]; /**< Paper, theorem and proof file, NUL-terminated. */
  int32_t calibration;           /**< The ::dpcov_adassp_calibration used. */
  int64_t num_regressors;        /**< p. */
  double bound_y;                /**< B_Y: |y_i| <= B_Y. */
  double delta_exact;            /**< Exact delta of the joint release at epsilon, certified from above (MPFR): in (0, delta]. */
  double failure_probability;    /**< Failure probability of the ridge (the paper's varrho; dpcov_adassp_params::rho). */
  double sensitivity_lambda_min; /**< B_X^2. */
  double sensitivity_gram;       /**< Frobenius sensitivity of X'X. */
  double sensitivity_cross;      /**< L2 sensitivity of X'y. */
  double sigma_lambda_min;       /**< s_l. */
  double sigma_gram;             /**< s_g: diagonal of E. */
  double sigma_gram_off_diagonal;/**< s_g / sqrt 2 rounded up: entries above the diagonal. */
  double sigma_cross;            /**< s_c. */
  double lambda_min_shift;       /**< Subtracted from the noisy lambda_min. */
  double noise_norm_bound;       /**< eta. */
  double eigenvalue_floor;       /**< Floor of the PSD-safe solve (s_g). */
  double released_lambda_min;    /**< max(lambda_min + noise - shift, 0). */
  double ridge;                  /**< lambda = max(0, eta - released_lambda_min). */
  int64_t eigenvalues_floored;   /**< Eigenvalues of X'X~ + lambda I raised to the floor (0 w.p. >= 1 - failure_probability). */
  int32_t label_square_released; /**< 1 if y'y was released too (release_label_square). */
  double sensitivity_label_square; /**< B_Y^2 (0 unless label_square_released). */
  double sigma_label_square;     /**< s_y (0 unless label_square_released). */
  double released_label_square;  /**< y'y + N(0, s_y^2) (0 unless label_square_released). */
  int64_t max_rows_per_unit;     /**< k of a fit at the level of privacy units (dpcov_adassp_params::max_rows_per_unit; public), 0 at row level; written only to a struct that holds it. */
  int32_t lambda_min_released;   /**< 1 (the default split) if lambda_min was released; 0 without the lambda_min step (dpcov_adassp_params::without_lambda_min): then `sensitivity_lambda_min`, `sigma_lambda_min`, `lambda_min_shift` and `released_lambda_min` are 0 and `ridge` is `noise_norm_bound`. Written only to a struct that holds it; a smaller struct's fit with the default split had it. */
} dpcov_adassp_receipt;

/**
 * Fills @p params with the defaults (struct_size set).
 * Writes min(@p size, sizeof(dpcov_adassp_params)) bytes and sets struct_size to that count, so a
 * program compiled against an older, smaller struct is never overrun; call it through
 * dpcov_adassp_params_default(), which passes the size the program was compiled with.
 * @param[out] params  the struct to fill; required; untouched on error.
 * @param size  sizeof *params as the caller compiled it; at least the struct's first
 *   shipped size.
 * @return ::DPCOV_OK; ::DPCOV_E_NULL_POINTER; ::DPCOV_E_INVALID_ARGUMENT for a size below
 *   the first shipped size.
 */
DPCOV_API dpcov_status dpcov_adassp_params_init(dpcov_adassp_params *params, size_t size);

/**
 * dpcov_adassp_params_init() with sizeof the struct this program was compiled with.
 * @param[out] params  the struct to fill; required.
 * @return as dpcov_adassp_params_init().
 */
static inline dpcov_status dpcov_adassp_params_default(dpcov_adassp_params *params) {
  return dpcov_adassp_params_init(params, sizeof *params);
}

/**
 * Every data-independent constant of an AdaSSP fit (the noise scales, the shift, eta, the exact
 * delta and `rho`), without data or randomness: what a budget ledger checks before the fit
 * (dpcov_ledger_check_zcdp() with the receipt's `rho`, `epsilon` and `delta`). The fields
 * that are functions of the release (`released_lambda_min`, `ridge`, `eigenvalues_floored`,
 * `released_label_square`) and `seed_fixed` are 0. Fails as dpcov_adassp_fit() would for the
 * same arguments.
 *
 * @param num_features  p >= 1, the number of regressors.
 * @param bound_x       B_X, finite and >= 2^-500 (as for dpcov_mechanism_plan(): below it the
 *                      Gram's subnormal rounding reaches the sensitivity).
 * @param bound_y       B_Y, finite and >= 2^-500.
 * @param epsilon       finite > 0.
 * @param delta         in (0, 1).
 * @param params        options, or NULL for the defaults.
 * @param[out] receipt  required; struct_size set by the caller; untouched on error.
 * @return ::DPCOV_OK; ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION (p), ::DPCOV_E_INVALID_ARGUMENT
 *         (bounds, epsilon, delta, rho, options, struct sizes;
 *         max_rows_per_unit outside [0, 2^20] or with ::DPCOV_ADASSP_PAPER), ::DPCOV_E_NON_FINITE,
 *         ::DPCOV_E_PRECONDITION (the paper's constants miss (epsilon, delta)).
 */
DPCOV_API dpcov_status dpcov_adassp_plan(int64_t num_features, double bound_x, double bound_y,
                                         double epsilon, double delta,
                                         const dpcov_adassp_params *params,
                                         dpcov_adassp_receipt *receipt);

/**
 * AdaSSP regression of column @p label on the @p features columns of G = A'A, A the rows
 * [x_i, y_i, ...] (any further columns are ignored). The caller guarantees that the regressor part
 * of every row has norm <= @p bound_x and its label |y| <= @p bound_y (clip or reject rows first).
 * Everything is checked before any noise is drawn.
 *
 * @param layout        ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR (also the layout of @p released_xtx).
 * @param d             order of @p g, >= 2.
 * @param g             the exact Gram matrix (d x d, symmetric, finite).
 * @param ldg           leading dimension of @p g.
 * @param label         column of y, in [0, d).
 * @param features      the p regressor columns, distinct, in [0, d), none equal to @p label;
 *                      a column of ones (the intercept) is one of them.
 * @param num_features  p >= 1.
 * @param bound_x       B_X, finite and >= 2^-500 (as for dpcov_mechanism_plan(): below it the
 *                      Gram's subnormal rounding reaches the sensitivity).
 * @param bound_y       B_Y, finite and >= 2^-500.
 * @param epsilon       finite > 0.
 * @param delta         in (0, 1).
 * @param params        options, or NULL for the defaults.
 * @param rng           the generator; its noise is consumed once drawn, even if the call then
 *                      fails; unchanged only when the arguments are rejected.
 * @param[out] coefficients  p doubles, in the order of @p features; required.
 * @param[out] released_xtx  p x p: X'X~ (exactly symmetric), or NULL.
 * @param ld_xtx        leading dimension of @p released_xtx (>= p; ignored when it is NULL).
 * @param[out] released_xty  p doubles: X'y~, or NULL.
 * @param[out] receipt  required; struct_size set by the caller.
 * @return ::DPCOV_OK; ::DPCOV_E_NULL_POINTER, ::DPCOV_E_LAYOUT, ::DPCOV_E_DIMENSION (bad d, p,
 *         columns or leading dimensions), ::DPCOV_E_INVALID_ARGUMENT (bounds, epsilon, delta, rho,
 *         options, struct sizes, a non-symmetric @p g; max_rows_per_unit outside [0, 2^20] or
 *         with ::DPCOV_ADASSP_PAPER), ::DPCOV_E_NON_FINITE, ::DPCOV_E_PRECONDITION
 *         (the paper's constants miss (epsilon, delta)), ::DPCOV_E_NUMERICAL. Outputs are
 *         untouched on error; the generator too when the arguments are rejected, but not after a
 *         draw (see @p rng).
 */
DPCOV_API dpcov_status dpcov_adassp_fit(int32_t layout, int64_t d, const double *g, int64_t ldg,
                                        int64_t label, const int64_t *features,
                                        int64_t num_features, double bound_x, double bound_y,
                                        double epsilon, double delta,
                                        const dpcov_adassp_params *params, dpcov_rng *rng,
                                        double *coefficients, double *released_xtx,
                                        int64_t ld_xtx, double *released_xty,
                                        dpcov_adassp_receipt *receipt);

/**
 * Noise-aware confidence intervals and p-values for the coefficients beta of the model
 * y = X beta + e (Gaussian e, fixed design) from an AdaSSP release that includes y'y, by
 * parametric bootstrap from AdaSSP's exact Gaussian noise law (Ferrando, Wang, Sheldon, AISTATS
 * 2022): as dpcov_ols_bootstrap_intervals() with the statistic [X'X~, X'y~; X'y~', y'y~] and the
 * noise scales of @p receipt. Post-processing: no privacy cost.
 *
 * The intervals are for beta and are computed from the unregularised released statistics: the
 * private ridge only shrinks the point estimate (dpcov_adassp_fit()'s coefficients), by an amount
 * that depends on the unknown beta, so they are not centred on it. Conditioned on: the design X
 * (its Gram matrix estimated by the release), Gaussian errors whose variance is estimated from the
 * released y'y, and the public number of rows @p n. Measured coverage: docs/benchmarks.md,
 * tests/statistical/ols_bootstrap_coverage_test.cpp. proofs/adassp.md, "Noise-aware intervals".
 *
 * @param layout        ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param p             number of regressors; must equal receipt->num_regressors.
 * @param released_xtx  X'X~ as dpcov_adassp_fit() wrote it (p x p, symmetric, finite).
 * @param ld_xtx        leading dimension of @p released_xtx.
 * @param released_xty  X'y~ (p doubles, finite).
 * @param n             the public number of rows, > p. Under add/remove neighbours n is
 *                      private: pass a privately released count (e.g. the constant column of a
 *                      release), never the exact one.
 * @param receipt       the fit's receipt, with label_square_released = 1. Required.
 * @param level         confidence level, in (0, 1) (e.g. 0.95).
 * @param num_bootstrap bootstrap worlds, >= 2 / (1 - level) - 1 and at most
 *                      ::DPCOV_MAX_SIMULATION_DRAWS; 999 or more is advised.
 * @param rng           the generator of the bootstrap draws; advanced on success only.
 * @param[out] coefficients  p doubles: the unregularised beta~ = X'X~^{-1} X'y~. Required.
 * @param[out] std_errors    p doubles: standard deviation of the refits, or NULL.
 * @param[out] p_values      p doubles: of beta_j = 0, or NULL.
 * @param[out] ci_lower      p doubles, or NULL.
 * @param[out] ci_upper      p doubles, or NULL.
 * @return ::DPCOV_OK; ::DPCOV_E_PRECONDITION (the noise swamps the data: no interval);
 *         ::DPCOV_E_INVALID_ARGUMENT (y'y not released, receipt struct size, level, n <= p,
 *         num_bootstrap too small, a matrix that is not symmetric); ::DPCOV_E_NON_FINITE,
 *         ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT, ::DPCOV_E_NULL_POINTER;
 *         ::DPCOV_E_INCOMPATIBLE (a fit at the level of privacy units: its kept rows are
 *         private, so there is no public n). Outputs and the generator are untouched on error.
 */
DPCOV_API dpcov_status dpcov_adassp_bootstrap_intervals(
    int32_t layout, int64_t p, const double *released_xtx, int64_t ld_xtx,
    const double *released_xty, int64_t n, const dpcov_adassp_receipt *receipt, double level,
    int64_t num_bootstrap, dpcov_rng *rng, double *coefficients, double *std_errors,
    double *p_values, double *ci_lower, double *ci_upper);

/** dpcov_adassp_intervals() answered with the parametric bootstrap. */
#define DPCOV_INTERVALS_BOOTSTRAP 1
/** dpcov_adassp_intervals() answered with the noise-aware posterior. */
#define DPCOV_INTERVALS_POSTERIOR 2

/**
 * The regression intervals of an AdaSSP release that includes y'y, with an answer at every n:
 * the parametric bootstrap of dpcov_adassp_bootstrap_intervals() where it answers, else (the
 * released X'X~ is not positive definite enough for it, or a coefficient lies along a direction
 * of it only a few noise sds strong, where that function returns ::DPCOV_E_PRECONDITION)
 * equal-tailed credible intervals of a noise-aware posterior over
 * (X'X, beta, sigma) given the released X'X~, X'y~, y'y~ and AdaSSP's Gaussian noise law
 * (Bernstein and Sheldon, NeurIPS 2019), sampled by 4 Markov chains started apart, of
 * 2 ceil(@p num_draws / 4) sweeps each (the second halves kept), each doubled in length at most
 * twice while a coefficient's chains disagree. Post-processing: no privacy cost. Prior (from public values only):
 * X'X = D^(1/2) C D^(1/2) positive definite with trace <= n B_X^2 and, for an intercept column,
 * that diagonal entry n, its scales D and correlation matrix C uniform; sigma uniform on
 * (0, 3/2 B_Y] (|y| <= B_Y bounds it by B_Y; the margin keeps labels that fill their bound
 * covered); beta_j ~ N(0, (2 R_j)^2).
 *
 * R_j is the half-range of the values that matter: B_Y for the intercept, B_Y / B for a slope
 * (B = sqrt(B_X^2 - 1) with an intercept, else B_X). A coefficient whose interval contains
 * [-R_j, R_j] cannot support a conclusion (it can neither tell the sign nor rule out an effect
 * that large): @p conclusive is 0 for it, whichever method answered. A posterior coefficient
 * whose chains did not converge (rank-normalised split R-hat >= 1.05 or fewer than 100
 * effective draws, Vehtari et al. 2021) cannot support a conclusion either: @p conclusive is
 * -1 for it, and its interval is not the posterior's. Nor does a posterior coefficient whose
 * interval a prior decides: where the variance of its posterior mean over releases from one truth
 * (to first order, from the posterior's sensitivity to the release) is below (z_a / z_b)^2 of
 * its posterior variance (z_a = Phi^-1((1 + level) / 2), z_b = Phi^-1(1 - (1 - level) / 10);
 * 0.579 at level 0.95), the interval covers truths near the prior's centre far more often than
 * @p level and the release alone does not decide it: @p conclusive is
 * -2 for it. Measured coverage: docs/regression_intervals.md. Derivation:
 * proofs/adassp_posterior.md.
 *
 * Thread-safety: reentrant; @p rng must not be used by another thread during the call.
 *
 * @param layout        ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param p             number of regressors; must equal receipt->num_regressors.
 * @param released_xtx  X'X~ as dpcov_adassp_fit() wrote it (p x p, symmetric, finite).
 * @param ld_xtx        leading dimension of @p released_xtx.
 * @param released_xty  X'y~ (p doubles, finite).
 * @param n             the public number of rows, > p. Under add/remove neighbours n is
 *                      private: pass a privately released count (e.g. the constant column of a
 *                      release), never the exact one.
 * @param receipt       the fit's receipt, with label_square_released = 1. Required.
 * @param intercept_column -1, or the column (in [0, p)) of the regressor that is 1 in every row.
 * @param level         confidence level, in (0, 1) (e.g. 0.95).
 * @param num_draws     bootstrap worlds or kept posterior sweeps, >= 2 / (1 - level) - 1 and
 *                      at most ::DPCOV_MAX_SIMULATION_DRAWS; 999 or more is advised.
 * @param rng           the generator of the draws; advanced on success only.
 * @param[out] coefficients p doubles: the bootstrap's unregularised beta~ or the posterior
 *                      medians. Required.
 * @param[out] std_errors p doubles: standard deviation of the refits or of the posterior, or NULL.
 * @param[out] p_values p doubles: of beta_j = 0, consistent with the intervals, or NULL.
 * @param[out] ci_lower p doubles. Required.
 * @param[out] ci_upper p doubles. Required.
 * @param[out] conclusive p int32: 1 when the interval supports a conclusion, 0 when it covers
 *                      every value that matters, -1 when the posterior's chains did not
 *                      converge for it, -2 when a prior decides the posterior's interval. Required.
 * @param[out] method   ::DPCOV_INTERVALS_BOOTSTRAP or ::DPCOV_INTERVALS_POSTERIOR. Required.
 * @return ::DPCOV_OK; ::DPCOV_E_INVALID_ARGUMENT (y'y not released, receipt struct size or
 *         scales, level, n <= p, intercept column, num_draws, a matrix that is not symmetric);
 *         ::DPCOV_E_NON_FINITE, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT, ::DPCOV_E_NULL_POINTER;
 *         ::DPCOV_E_INCOMPATIBLE (a fit at the level of privacy units: no public n).
 *         Outputs and the generator are untouched on error.
 */
DPCOV_API dpcov_status dpcov_adassp_intervals(
    int32_t layout, int64_t p, const double *released_xtx, int64_t ld_xtx,
    const double *released_xty, int64_t n, const dpcov_adassp_receipt *receipt,
    int64_t intercept_column, double level, int64_t num_draws, dpcov_rng *rng,
    double *coefficients, double *std_errors, double *p_values, double *ci_lower,
    double *ci_upper, int32_t *conclusive, int32_t *method);

/** dpcov_adassp_profile_intervals() answered with the profile of the pivot vector. */
#define DPCOV_INTERVALS_PROFILE 3

/**
 * The regression intervals of an AdaSSP release from the profile of its pivot vector, on every
 * release, with no rule on which releases answer: at the true beta,
 * r(beta) = X'y~ - X'X~ beta = X'e + e_xy - E beta is exactly Gaussian with covariance
 * Sigma(beta) = S + v_xy I + E[E beta beta' E] (S the sampling covariance of X'e, v_xy the
 * variance of AdaSSP's noise on an entry of X'y), and coefficient j's interval is the set of c
 * where min over beta with beta_j = c of r' Sigma(beta)^-1 r is at most the @p level quantile of
 * chi-square with one degree of freedom (Fieller's interval in many dimensions). Exact where
 * Sigma does not depend on beta; otherwise its coverage is measured:
 * docs/regression_intervals.md, "The profile of the pivot vector". It widens continuously as the
 * direction carrying beta_j weakens and needs no positive definite X'X~; where the release does
 * not bound beta_j on a side its set reaches the end of the search there (past [-R_j, R_j],
 * R_j as for dpcov_adassp_intervals()), the end written is the search's, and @p conclusive is
 * 0 for it; 0 also where the interval contains [-R_j, R_j]. Post-processing: no privacy cost,
 * no draws.
 *
 * S is s^2 X'X~ with s^2 = max(0, y'y~ - X'y~' beta~) / (n - p) (homoscedastic errors; y'y
 * released, n public), or, given @p released_meat (dpcov_adassp_sandwich_plan()), the meat's
 * positive part (robust errors; y'y and @p n not read).
 *
 * Thread-safety: reentrant.
 *
 * @param layout        ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR.
 * @param p             number of regressors; must equal receipt->num_regressors.
 * @param released_xtx  X'X~ as dpcov_adassp_fit() wrote it (p x p, symmetric, finite, not
 *                      singular).
 * @param ld_xtx        leading dimension of @p released_xtx.
 * @param released_xty  X'y~ (p doubles, finite).
 * @param n             the public number of rows, > p; read only without @p released_meat.
 *                      Under add/remove neighbours, a privately released count, as above.
 * @param receipt       the fit's receipt (label_square_released = 1 without @p released_meat).
 *                      Required.
 * @param released_meat the released meat M~ (p x p, symmetric, finite), or NULL.
 * @param ld_meat       leading dimension of @p released_meat.
 * @param intercept_column -1, or the column (in [0, p)) of the regressor that is 1 in every row.
 * @param level         confidence level, in (0, 1) (e.g. 0.95).
 * @param[out] coefficients p doubles: beta~ = X'X~^{-1} X'y~. Required.
 * @param[out] p_values p doubles: of beta_j = 0 (the chi-square tail of the profile at 0), or NULL.
 * @param[out] ci_lower p doubles. Required.
 * @param[out] ci_upper p doubles. Required.
 * @param[out] conclusive p int32: 1 when the interval supports a conclusion, 0 when it contains
 *                      [-R_j, R_j] or the release leaves its set open on a side. Required.
 * @return ::DPCOV_OK; ::DPCOV_E_PRECONDITION (X'X~ singular: no estimate to centre on);
 *         ::DPCOV_E_INVALID_ARGUMENT (y'y not released without a meat, receipt struct size,
 *         level, n <= p without a meat, intercept column, a matrix that is not symmetric);
 *         ::DPCOV_E_NON_FINITE, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT, ::DPCOV_E_NULL_POINTER;
 *         ::DPCOV_E_INCOMPATIBLE (a fit at the level of privacy units). Outputs are untouched
 *         on error.
 */
DPCOV_API dpcov_status dpcov_adassp_profile_intervals(
    int32_t layout, int64_t p, const double *released_xtx, int64_t ld_xtx,
    const double *released_xty, int64_t n, const dpcov_adassp_receipt *receipt,
    const double *released_meat, int64_t ld_meat, int64_t intercept_column, double level,
    double *coefficients, double *p_values, double *ci_lower, double *ci_upper,
    int32_t *conclusive);

/**
 * The constants of AdaSSP's robust (sandwich) intervals, dpcov_adassp_sandwich_plan(): the split
 * of (epsilon, delta) between the AdaSSP fit and the released meat M = sum_i r_i^2 x_i x_i', and
 * the bounds of the meat's rows. The caller sets `struct_size` to
 * `sizeof(dpcov_sandwich_budget)`. All public: functions of the arguments only.
 */
typedef struct dpcov_sandwich_budget {
  size_t struct_size;     /**< Set by the caller to sizeof(dpcov_sandwich_budget). */
  double fit_epsilon;     /**< epsilon of the AdaSSP fit: epsilon - meat_epsilon, rounded down. */
  double fit_delta;       /**< delta of the AdaSSP fit: delta - meat_delta, rounded down. */
  double meat_epsilon;    /**< epsilon of the meat's Analyze Gauss release: meat_share epsilon, rounded down. */
  double meat_delta;      /**< delta of the meat's release: meat_share delta, rounded down. */
  double meat_share;      /**< The meat's share of epsilon and of delta (0.2). */
  double residual_bound;  /**< R = 2 B_Y, rounded up: residuals are clipped to [-R, R]. */
  double meat_row_bound;  /**< B_X R, rounded up: the norm bound of the meat's rows r_i x_i. */
} dpcov_sandwich_budget;

/**
 * The public constants of robust (sandwich) intervals for an AdaSSP fit at (@p epsilon,
 * @p delta) in all: the fit spends (fit_epsilon, fit_delta), then the meat's rows
 * (dpcov_adassp_sandwich_rows() at the fit's coefficients) are released by Analyze Gauss
 * (dpcov_gram_create_bounded() with bound meat_row_bound, dpcov_mechanism_release_gram()) at
 * (meat_epsilon, meat_delta). The meat's release reads the fit only through its coefficients, so
 * the two compose adaptively to at most (@p epsilon, @p delta) (Dwork, Roth 2014, Thm 3.16): the
 * sums never exceed the request. No data, no randomness.
 *
 * @param bound_x       B_X, finite > 0: ||x_i|| <= B_X (an intercept's 1 included).
 * @param bound_y       B_Y, finite > 0: |y_i| <= B_Y.
 * @param epsilon       the whole budget, finite > 0.
 * @param delta         in (0, 1).
 * @param[out] budget   required; struct_size set by the caller; untouched on error.
 * @return ::DPCOV_OK; ::DPCOV_E_NULL_POINTER; ::DPCOV_E_INVALID_ARGUMENT (bounds, epsilon, delta,
 *         struct size, a share of epsilon or delta that rounds to 0); ::DPCOV_E_NON_FINITE;
 *         ::DPCOV_E_NUMERICAL (B_X R overflows).
 * Thread-safety: reentrant.
 * @proof proofs/sandwich.md
 */
DPCOV_API dpcov_status dpcov_adassp_sandwich_plan(double bound_x, double bound_y, double epsilon,
                                                  double delta, dpcov_sandwich_budget *budget);

/**
 * The meat's rows u_i = r_i x_i, r_i = clip(y_i - x_i' beta0, -R, R), of bounded rows
 * [x_i, y_i]: what Analyze Gauss releases for the robust intervals at the norm bound B_X R
 * (dpcov_sandwich_budget::meat_row_bound). A u_i above B_X R (a row above @p bound_x, or
 * rounding) is scaled to it, so that the bound holds for every row whatever the input. The rows
 * are the data: they leave only through a mechanism. @p beta0 must be a function of an earlier
 * release only (the fit's coefficients), never of the rows (proofs/sandwich.md).
 *
 * @param layout    ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR (of both @p xy and @p u).
 * @param rows      number of rows, >= 0 (0 writes nothing; @p xy and @p u may then be NULL).
 * @param p         regressors, >= 1; @p xy has p + 1 columns, the label last (the layout of
 *                  dpcov_row_bounding_apply()'s bounded rows [1, x, y]).
 * @param xy        the bounded rows, finite; not retained.
 * @param ldxy      leading dimension of @p xy.
 * @param beta0     p finite coefficients: the AdaSSP fit's.
 * @param bound_x   B_X, finite > 0.
 * @param residual_bound  R, finite > 0 (dpcov_sandwich_budget::residual_bound), with B_X R finite.
 * @param[out] u    rows x p; must not overlap @p xy.
 * @param ldu       leading dimension of @p u.
 * @return ::DPCOV_OK; ::DPCOV_E_NULL_POINTER, ::DPCOV_E_LAYOUT, ::DPCOV_E_DIMENSION,
 *         ::DPCOV_E_NON_FINITE (rows, beta0, bounds), ::DPCOV_E_INVALID_ARGUMENT (bounds <= 0 or
 *         B_X R not finite), ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NOMEM. @p u is untouched on error.
 * Thread-safety: reentrant.
 * @proof proofs/sandwich.md
 */
DPCOV_API dpcov_status dpcov_adassp_sandwich_rows(int32_t layout, int64_t rows, int64_t p,
                                                  const double *xy, int64_t ldxy,
                                                  const double *beta0, double bound_x,
                                                  double residual_bound, double *u, int64_t ldu);

/**
 * Noise-aware confidence intervals and p-values for the coefficients beta of y = X beta + e that
 * hold whatever the errors' variance (heteroscedastic errors) and, for the least-squares
 * projection, whether or not the mean is linear: a parametric bootstrap from AdaSSP's noise law
 * whose sampling noise of X'y is N(0, M), M the released meat, given to each coefficient as its
 * margin N(0, w_j' M w_j), w_j = (X'X~ + E*)^-1 e_j in each world, raised to 0 where negative (the
 * sandwich variance (X'X)^-1 M (X'X)^-1). Post-processing of the fit and the
 * meat: no privacy cost, and no y'y or n needed. The noise of the meat is not redrawn:
 * dpcov_adassp_robust_intervals() redraws it and covers better. proofs/sandwich.md.
 *
 * @param layout        ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR (of both matrices).
 * @param p             number of regressors; must equal receipt->num_regressors.
 * @param released_xtx  X'X~ as dpcov_adassp_fit() wrote it (p x p, symmetric, finite).
 * @param ld_xtx        leading dimension of @p released_xtx.
 * @param released_xty  X'y~ (p doubles, finite).
 * @param receipt       the fit's receipt (struct_size set). Required.
 * @param released_meat M~ (p x p, symmetric, finite): Analyze Gauss's release of the rows of
 *                      dpcov_adassp_sandwich_rows().
 * @param ld_meat       leading dimension of @p released_meat.
 * @param level         confidence level, in (0, 1).
 * @param num_bootstrap bootstrap worlds, >= 2 / (1 - level) - 1 and at most
 *                      ::DPCOV_MAX_SIMULATION_DRAWS; 999 or more is advised.
 * @param rng           the generator of the bootstrap draws; advanced on success only.
 * @param[out] coefficients  p doubles: beta~ = X'X~^{-1} X'y~. Required.
 * @param[out] std_errors    p doubles, or NULL.
 * @param[out] p_values      p doubles: of beta_j = 0, or NULL.
 * @param[out] ci_lower      p doubles, or NULL.
 * @param[out] ci_upper      p doubles, or NULL.
 * @return ::DPCOV_OK; ::DPCOV_E_PRECONDITION (X'X~ is not positive definite: the noise swamps
 *         the data, no interval); ::DPCOV_E_INVALID_ARGUMENT (receipt struct size, level,
 *         num_bootstrap, a matrix that is not symmetric); ::DPCOV_E_NON_FINITE,
 *         ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_NUMERICAL;
 *         ::DPCOV_E_INCOMPATIBLE (a fit at the level of privacy units: its meat of rows would
 *         miss the correlation within a unit). Outputs and the generator are untouched on error.
 * Thread-safety: reentrant; the generator is used exclusively.
 * @proof proofs/sandwich.md
 */
DPCOV_API dpcov_status dpcov_adassp_sandwich_intervals(
    int32_t layout, int64_t p, const double *released_xtx, int64_t ld_xtx,
    const double *released_xty, const dpcov_adassp_receipt *receipt,
    const double *released_meat, int64_t ld_meat, double level, int64_t num_bootstrap,
    dpcov_rng *rng, double *coefficients, double *std_errors, double *p_values, double *ci_lower,
    double *ci_upper);

/**
 * The robust intervals of dpcov_adassp_sandwich_intervals() with the meat's own noise redrawn in
 * every bootstrap world (use this one): from the meat's receipt, each world takes M^ + E_w as its
 * meat (M^ = M~ minus the noise mean, E_w a fresh draw of the meat's noise law minus its mean)
 * and draws its sampling noise of X'y from N(0, that meat), one coefficient at a time as there,
 * so that the intervals carry the uncertainty of the meat's release. Post-processing of the fit
 * and the meat: no privacy cost, and no y'y or n needed. proofs/sandwich.md.
 *
 * @param layout        ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR (of both matrices).
 * @param p             number of regressors; must equal receipt->num_regressors.
 * @param released_xtx  X'X~ as dpcov_adassp_fit() wrote it (p x p, symmetric, finite).
 * @param ld_xtx        leading dimension of @p released_xtx.
 * @param released_xty  X'y~ (p doubles, finite).
 * @param receipt       the fit's receipt (struct_size set). Required.
 * @param released_meat M~ (p x p, symmetric, finite): the release of the rows of
 *                      dpcov_adassp_sandwich_rows().
 * @param ld_meat       leading dimension of @p released_meat.
 * @param meat_receipt  the meat's receipt (struct_size set): meat_receipt->dim must equal p and
 *                      its mechanism have a noise law the bootstrap reads (analyze_gauss,
 *                      laplace_sym, wishart_additive). Required.
 * @param level         confidence level, in (0, 1).
 * @param num_bootstrap bootstrap worlds, >= 2 / (1 - level) - 1 and at most
 *                      ::DPCOV_MAX_SIMULATION_DRAWS; 999 or more is advised.
 * @param rng           the generator of the bootstrap draws; advanced on success only.
 * @param[out] coefficients  p doubles: beta~ = X'X~^{-1} X'y~. Required.
 * @param[out] std_errors    p doubles, or NULL.
 * @param[out] p_values      p doubles: of beta_j = 0, or NULL.
 * @param[out] ci_lower      p doubles, or NULL.
 * @param[out] ci_upper      p doubles, or NULL.
 * @return ::DPCOV_OK; ::DPCOV_E_PRECONDITION (X'X~ is not positive definite: the noise swamps
 *         the data, no interval); ::DPCOV_E_INVALID_ARGUMENT (receipt struct sizes, a meat
 *         receipt of another order or without a supported noise law, level, num_bootstrap, a
 *         matrix that is not symmetric); ::DPCOV_E_NON_FINITE, ::DPCOV_E_DIMENSION,
 *         ::DPCOV_E_LAYOUT, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_NUMERICAL;
 *         ::DPCOV_E_INCOMPATIBLE (a fit at the level of privacy units: its meat of rows would
 *         miss the correlation within a unit). Outputs and the generator are untouched on error.
 * Thread-safety: reentrant; the generator is used exclusively.
 * @proof proofs/sandwich.md
 */
DPCOV_API dpcov_status dpcov_adassp_robust_intervals(
    int32_t layout, int64_t p, const double *released_xtx, int64_t ld_xtx,
    const double *released_xty, const dpcov_adassp_receipt *receipt,
    const double *released_meat, int64_t ld_meat, const dpcov_receipt *meat_receipt, double level,
    int64_t num_bootstrap, dpcov_rng *rng, double *coefficients, double *std_errors,
    double *p_values, double *ci_lower, double *ci_upper);

#ifdef __cplusplus
}
#endif

#endif /* DPCOV_ADASSP_H */
