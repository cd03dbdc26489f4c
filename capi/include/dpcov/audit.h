/**
 * @file dpcov/audit.h
 * @brief Privacy auditor: the exact privacy-loss distribution of a mechanism on a neighbouring
 *        pair of datasets, estimated from the mechanism's own draws, plus a sampler-conformance
 *        test on the same draws.
 *
 * For a pair (D, D') the auditor draws releases o ~ M(D) with the real release code and evaluates
 * the privacy loss L(o) = log p_D(o) - log p_D'(o) with the mechanism's own log-density
 * (dpcov_mechanism_log_density(); L = +infinity when o is outside the support under D'), in both
 * directions. It estimates delta(eps) = E[(1 - e^(eps - L))_+] and P(L > eps) with confidence
 * bounds, and declares a violation only when a bound rules the claim out:
 * - (eps, delta) claims: the empirical-Bernstein lower bound (Maurer & Pontil, COLT 2009, Thm 4)
 *   on delta(eps) exceeds the claimed delta; for Gaussian noise also the one-dimensional
 *   Gaussian-pair bound (the privacy loss of a Gaussian pair depends only on the noise variance
 *   along the pair's direction; a chi-square upper bound on that variance gives a lower bound on
 *   the pair's exact delta, Balle & Wang, ICML 2018, Thm 8) exceeds it;
 * - pure eps claims: any observed L = +infinity or L > eps + 1e-9 (1 + |log p_D| + |log p_D'|);
 * - sampler conformance: the Kolmogorov-Smirnov distance of the standardised noise to the claimed
 *   noise distribution exceeds the Dvoretzky-Kiefer-Wolfowitz threshold (Gaussian, Laplace: each
 *   upper-triangle entry; Wishart: tr(released - G) / scale ~ chi2(dof d); the projection and
 *   inverse-Wishart mechanisms: the probability integral transforms of ::DPCOV_AUDIT_NOISE_CLAIMED_LAW
 *   against Uniform(0, 1)), or a draw falls outside its own claimed support.
 * - A refusal (::DPCOV_MECHANISM_OLS_JL releases nothing when its private test fails) is an outcome
 *   too: its loss is ln P_D(refusal) - ln P_D'(refusal), from the test's Laplace law.
 * The total probability that a mechanism whose implementation matches its claim is flagged is at
 * most dpcov_audit_params::alpha (Bonferroni over both directions, all checkpoints and the three
 * randomised tests). P(L > eps) is reported with Clopper-Pearson bounds but is not a criterion.
 *
 * An audit can only find violations. "No violation found" says that this pair, at this number of
 * draws, showed nothing the confidence bounds could rule out; it does not establish that the
 * mechanism is private.
 *
 * The draws come from a generator seeded with dpcov_audit_params::seed: audits are reproducible
 * and their releases are not private (nothing is released to anyone but the caller).
 *
 * Thread-safety: reentrant; concurrent audits share no state.
 */
#ifndef DPCOV_AUDIT_H
#define DPCOV_AUDIT_H

#include "dpcov/coinpress.h"
#include "dpcov/common.h"
#include "dpcov/mechanism.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The most draws an audit takes per direction (per dataset for dpcov_audit_rows_black_box()):
 * 10^7. An audit's time is its trials times a release's and what it keeps grows with them (at
 * this maximum at most 2 x 10^7 releases per pair and about 250 MB); a larger trials is refused
 * with ::DPCOV_E_INVALID_ARGUMENT before anything is drawn.
 */
#define DPCOV_AUDIT_MAX_TRIALS 10000000

/** Kinds of generated datasets (rows of Euclidean norm <= B). */
enum dpcov_audit_dataset {
  /** Rows uniform in the ball of radius B. Default. */
  DPCOV_AUDIT_DATA_RANDOM_ROWS = 0,
  /** Rows uniform on the sphere of radius B (the bound is tight). */
  DPCOV_AUDIT_DATA_SPHERE_ROWS = 1,
  /** max(1, n/4) distinct random rows, each repeated. */
  DPCOV_AUDIT_DATA_REPEATED_ROWS = 2,
  /** Rows in a random subspace of dimension max(1, d/2): G singular when d >= 2. */
  DPCOV_AUDIT_DATA_RANK_DEFICIENT = 3,
  /** Rank-deficient rows plus a 1e-6 B perturbation: G invertible, condition number about 1e12. */
  DPCOV_AUDIT_DATA_NEARLY_SINGULAR = 4,
  /** min(n, 2) random rows. */
  DPCOV_AUDIT_DATA_TINY_N = 5
};

/**
 * How the neighbour D' of a generated D is chosen. Under replace-one, row 0 changes (adversarial
 * kinds also rewrite row 0 of D); under add/remove, a row is appended to D.
 */
enum dpcov_audit_neighbour {
  /** Replace row 0 by (or append) a row uniform in the ball. Default. */
  DPCOV_AUDIT_NEIGHBOUR_RANDOM = 0,
  /** Maximal L2 change of the upper triangle of G: B e_1 -> B e_2 (Gaussian mechanisms). */
  DPCOV_AUDIT_NEIGHBOUR_MAX_L2_CHANGE = 1,
  /** Maximal L1 change of the upper triangle of G, by local search (Laplace mechanism). */
  DPCOV_AUDIT_NEIGHBOUR_MAX_L1_CHANGE = 2,
  /** Row 0 of D zero, row 0 of D' B u with u the least eigenvector of the other rows' Gram. */
  DPCOV_AUDIT_NEIGHBOUR_LEAST_EIGENVECTOR = 3
};

/** Bits of dpcov_audit_result::findings. */
enum dpcov_audit_finding {
  /** Pure eps claim: a privacy loss L = +infinity or L > eps (beyond rounding) was observed. */
  DPCOV_AUDIT_FINDING_LOSS_ABOVE_EPSILON = 1,
  /** The lower confidence bound on delta(eps) exceeds the claimed delta; for the per-step
   *  transcript audits (dpcov_audit_coinpress_mean(), dpcov_audit_rows_exact() for CoinPress at
   *  t >= 2) also the two-sample lower bound on the release's delta(eps) at eps in
   *  {0, mu, 2 mu, 3 mu}, mu = sqrt(2 rho), above the claimed Gaussian pair's delta there. */
  DPCOV_AUDIT_FINDING_DELTA_EXCEEDED = 2,
  /** Gaussian noise: the Gaussian-pair lower bound on the pair's delta exceeds the claimed delta. */
  DPCOV_AUDIT_FINDING_GAUSSIAN_PROFILE_EXCEEDED = 4,
  /** The draws do not follow the claimed noise distribution (or left their own support). */
  DPCOV_AUDIT_FINDING_SAMPLER_MISMATCH = 8,
  /** dpcov_audit_coinpress_mean(), dpcov_audit_rows_exact(): the lower confidence bound on the
   *  rho the release spends on the pair exceeds the claimed rho. */
  DPCOV_AUDIT_FINDING_RHO_EXCEEDED = 16
};

/** The overall verdict of an audit. */
enum dpcov_audit_verdict {
  /** No bound ruled the claim out (this is not evidence of privacy). */
  DPCOV_AUDIT_NO_VIOLATION_FOUND = 0,
  /** At least one finding: see dpcov_audit_result::findings. */
  DPCOV_AUDIT_VIOLATION = 1
};

/** The claimed noise family the conformance test compared the draws with. */
enum dpcov_audit_noise {
  /** No conformance test is available for the mechanism (the density audit still runs). */
  DPCOV_AUDIT_NOISE_NONE = 0,
  DPCOV_AUDIT_NOISE_GAUSSIAN = 1, /**< iid N(0, sigma^2) upper-triangle entries. */
  DPCOV_AUDIT_NOISE_LAPLACE = 2,  /**< iid Laplace(b) upper-triangle entries. */
  DPCOV_AUDIT_NOISE_WISHART = 3,  /**< W_d(dof, scale I). */
  /**
   * The mechanism's own law (Johnson-Lindenstrauss, inverse-Wishart and OLS mechanisms):
   * probability integral transforms of each release, iid Uniform(0, 1) under the claimed law
   * (Bartlett factors of the Wishart or inverse-Wishart part given the test value, and the
   * Laplace test value).
   */
  DPCOV_AUDIT_NOISE_CLAIMED_LAW = 4
};

/** Settings of an audit. Fill with dpcov_audit_params_default(), then change fields. */
typedef struct dpcov_audit_params {
  /** sizeof(dpcov_audit_params), set by dpcov_audit_params_default(). */
  size_t struct_size;
  /** Maximum draws per direction, in [2, ::DPCOV_AUDIT_MAX_TRIALS]. Default 2000. */
  int64_t trials;
  /** Draws per direction at the first look, in [2, trials]; then doubling up to trials. Default 100. */
  int64_t first_checkpoint;
  /** Probability of flagging a mechanism that matches its claim, in (0, 1). Default 1e-6. */
  double alpha;
  /** Seed of the audit's generator; data generation and the draws use distinct streams of it. Default 0. */
  uint64_t seed;
  /** dpcov_audit_run() only: a ::dpcov_audit_dataset. Default ::DPCOV_AUDIT_DATA_RANDOM_ROWS. */
  int32_t dataset;
  /** dpcov_audit_run() only: a ::dpcov_audit_neighbour. Default ::DPCOV_AUDIT_NEIGHBOUR_RANDOM. */
  int32_t neighbour_kind;
} dpcov_audit_params;

/**
 * What an audit found. The caller sets struct_size to sizeof(dpcov_audit_result). Statistics are
 * those of the direction with the larger lower bound on delta(eps) ("worst direction") unless
 * stated otherwise.
 */
typedef struct dpcov_audit_result {
  /** Set by the caller to sizeof(dpcov_audit_result); the library writes no byte beyond it. */
  size_t struct_size;
  int32_t verdict;          /**< A ::dpcov_audit_verdict. */
  int32_t findings;         /**< Bitwise OR of ::dpcov_audit_finding values; 0 if none. */
  int32_t noise;            /**< The ::dpcov_audit_noise family of the conformance test. */
  int32_t worst_direction;  /**< 0: draws from D against D'; 1: draws from D' against D. */
  int64_t samples;          /**< Draws over both directions when the verdict was reached. */
  int64_t infinite_losses;  /**< Draws with L = +infinity, both directions. */
  int64_t exceedances;      /**< Draws with L > eps in the worst direction (infinite included). */
  double epsilon;           /**< The audited claim: epsilon. */
  double delta;             /**< The audited claim: delta (0 for a pure epsilon claim). */
  double max_loss;          /**< Largest L over both directions (may be +infinity). */
  double exceed_estimate;   /**< P(L > eps): sample fraction. */
  double exceed_lower;      /**< P(L > eps): Clopper-Pearson lower bound. */
  double exceed_upper;      /**< P(L > eps): Clopper-Pearson upper bound. */
  double delta_estimate;    /**< delta(eps) = E[(1 - e^(eps - L))_+]: sample mean. */
  double delta_lower;       /**< delta(eps): empirical-Bernstein lower bound. */
  double delta_upper;       /**< delta(eps): empirical-Bernstein upper bound. */
  double pair_distance;     /**< Gaussian noise: L2 norm of the change of the noise base (upper triangle); else 0. */
  double gaussian_sigma_upper; /**< Gaussian noise: upper bound on the noise sd along the pair; else 0. */
  double gaussian_delta_lower; /**< Gaussian noise: lower bound on the pair's exact delta; else 0. */
  double conformance_distance;  /**< KS distance of the standardised noise (larger ratio to its threshold of the two directions); 0 if none. */
  double conformance_threshold; /**< The DKW threshold it is compared with; 0 if none. */
  double alpha_per_test;    /**< The level of each confidence bound after the Bonferroni split. */
  /** The audit's power at the draws it took (the smaller of the two directions'): for an
   *  (epsilon, delta) claim, the smallest delta(eps) the empirical-Bernstein rule flags when the
   *  sample mean equals it (at the largest variance a [0, 1] sample with that mean has); for a
   *  pure epsilon claim, the smallest probability of outputs with L > eps that the draws show at
   *  least once with probability 1/2. 1 when the draws could flag nothing. Appended after the
   *  struct's first version: written only when struct_size covers it. */
  double detectable_delta;
} dpcov_audit_result;

/**
 * Fill @p params with the defaults (2000 trials, first look at 100, alpha 1e-6, seed 0, random
 * rows, random neighbour) and set its struct_size.
 * Writes min(@p size, sizeof(dpcov_audit_params)) bytes and sets struct_size to that count, so a
 * program compiled against an older, smaller struct is never overrun; call it through
 * dpcov_audit_params_default(), which passes the size the program was compiled with.
 * @param[out] params  the struct to fill; required; untouched on error.
 * @param size  sizeof *params as the caller compiled it; at least the struct's first
 *   shipped size.
 * @return ::DPCOV_OK; ::DPCOV_E_NULL_POINTER; ::DPCOV_E_INVALID_ARGUMENT for a size below
 *   the first shipped size.
 */
DPCOV_API dpcov_status dpcov_audit_params_init(dpcov_audit_params *params, size_t size);

/**
 * dpcov_audit_params_init() with sizeof the struct this program was compiled with.
 * @param[out] params  the struct to fill; required.
 * @return as dpcov_audit_params_init().
 */
static inline dpcov_status dpcov_audit_params_default(dpcov_audit_params *params) {
  return dpcov_audit_params_init(params, sizeof *params);
}

/**
 * Audit @p mechanism at its claimed (epsilon, delta) on a generated pair: D has @p n rows of the
 * kind dpcov_audit_params::dataset in dimension @p dim with norms <= @p bound, and D' is its
 * neighbour of kind dpcov_audit_params::neighbour_kind under mechanism_params->neighbour.
 * For ::DPCOV_MECHANISM_INVERSE_GAUSS with lambda_min_bound = 0, the public bound is set to
 * min(lambda_min(G), lambda_min(G')) of the pair (the domain the pair spans).
 * For ::DPCOV_MECHANISM_WISHART_JIANG pass audit_only_not_private = 1.
 *
 * @param mechanism         a ::dpcov_mechanism_id.
 * @param dim               d, 1 <= d <= 46340.
 * @param n                 rows of D, >= 1 (::DPCOV_AUDIT_DATA_TINY_N uses min(n, 2)).
 * @param bound             B, finite and >= 2^-500 (as for dpcov_mechanism_plan()).
 * @param epsilon           as for dpcov_mechanism_plan().
 * @param delta             as for dpcov_mechanism_plan().
 * @param mechanism_params  mechanism options, or NULL for the defaults.
 * @param params            audit settings, or NULL for the defaults; struct_size must be at least
 *                          sizeof(dpcov_audit_params) of this version.
 * @param[out] result       the findings; the caller sets result->struct_size. Untouched on failure.
 * @return ::DPCOV_OK (whatever the verdict), ::DPCOV_E_NULL_POINTER (result),
 *         ::DPCOV_E_INVALID_ARGUMENT (unknown mechanism, dataset or neighbour kind, trials
 *         outside [2, ::DPCOV_AUDIT_MAX_TRIALS],
 *         first_checkpoint outside [2, trials], alpha outside (0, 1), struct_size too small),
 *         the statuses of dpcov_mechanism_plan() for the mechanism arguments,
 *         ::DPCOV_E_PRECONDITION (a mechanism precondition fails on the generated pair, e.g.
 *         inverse Gauss on singular data), ::DPCOV_E_NUMERICAL, ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_audit_run(int32_t mechanism, int64_t dim, int64_t n, double bound,
                                       double epsilon, double delta,
                                       const dpcov_mechanism_params *mechanism_params,
                                       const dpcov_audit_params *params,
                                       dpcov_audit_result *result);

/**
 * The number of rows n at which the standard audit runs @p mechanism for this request, for a
 * caller with no n of its own to audit at: where the mechanism's behaviour changes with n (a
 * private test that refuses below a threshold), the auditor's own choice of n, at which the
 * audit sees both of its outcomes; @p fallback for a mechanism whose law does not depend on
 * where n sits. Computed from public parameters only (no data, no randomness). Thread-safe.
 *
 * @param mechanism         a ::dpcov_mechanism_id of the Gram family.
 * @param dim               d, 1 <= d <= 46340.
 * @param bound             B, as for dpcov_mechanism_plan().
 * @param epsilon           as for dpcov_mechanism_plan().
 * @param delta             as for dpcov_mechanism_plan().
 * @param mechanism_params  mechanism options, or NULL for the defaults.
 * @param fallback          the rows to use where the auditor has no n of its own, >= 1.
 * @param[out] rows         receives n (>= 1); untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER (@p rows), ::DPCOV_E_INVALID_ARGUMENT (an unknown
 *         or non-Gram mechanism, @p fallback < 1), the statuses of dpcov_mechanism_plan() for the
 *         mechanism arguments, ::DPCOV_E_TOO_LARGE (the auditor's n does not fit in int64_t).
 */
DPCOV_API dpcov_status dpcov_audit_standard_rows(int32_t mechanism, int64_t dim, double bound,
                                                 double epsilon, double delta,
                                                 const dpcov_mechanism_params *mechanism_params,
                                                 int64_t fallback, int64_t *rows);

/**
 * As dpcov_audit_run() on a pair given by the caller: @p rows (@p n x @p dim) and @p rows_prime
 * (@p n_prime x @p dim), both in @p layout, neighbours under mechanism_params->neighbour
 * (replace-one: n_prime = n and at most one row differs; add/remove: one is the other with exactly
 * one row removed), every row of Euclidean norm <= @p bound. dpcov_audit_params::dataset and
 * neighbour_kind are ignored. The arrays are not retained.
 *
 * @param mechanism         a ::dpcov_mechanism_id.
 * @param layout            ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR, for both arrays.
 * @param dim               d, 1 <= d <= 46340.
 * @param rows              D, finite.
 * @param n                 rows of D, >= 1.
 * @param ldr               leading dimension of @p rows.
 * @param rows_prime        D', finite.
 * @param n_prime           rows of D', >= 1.
 * @param ldp               leading dimension of @p rows_prime.
 * @param bound             B, finite and >= 2^-500 (as for dpcov_mechanism_plan()).
 * @param epsilon           as for dpcov_mechanism_plan().
 * @param delta             as for dpcov_mechanism_plan().
 * @param mechanism_params  mechanism options, or NULL for the defaults.
 * @param params            audit settings, or NULL for the defaults.
 * @param[out] result       the findings; untouched on failure.
 * @return the statuses of dpcov_audit_run(), and ::DPCOV_E_LAYOUT, ::DPCOV_E_NON_FINITE,
 *         ::DPCOV_E_NORM_BOUND (a row over B), ::DPCOV_E_INCOMPATIBLE (not neighbours).
 */
DPCOV_API dpcov_status dpcov_audit_run_pair(int32_t mechanism, int32_t layout, int64_t dim,
                                            const double *rows, int64_t n, int64_t ldr,
                                            const double *rows_prime, int64_t n_prime,
                                            int64_t ldp, double bound, double epsilon,
                                            double delta,
                                            const dpcov_mechanism_params *mechanism_params,
                                            const dpcov_audit_params *params,
                                            dpcov_audit_result *result);

/**
 * Audit @p mechanism at the level of privacy units (docs/privacy-units.md) by its exact density
 * (black-box for ::DPCOV_MECHANISM_IEV and ::DPCOV_MECHANISM_KT_RANK1, which have none: the top
 * eigenvalue and the top eigenvector's alignment with the unit's axis, alpha split over the two;
 * the result then holds the verdict, findings, samples, epsilon, delta, delta_lower,
 * alpha_per_test and detectable_delta, the other statistics 0): the release dpcov_mechanism_release_gram() makes from an accumulator of units of at most
 * @p max_rows_per_unit = k rows each (at the unit bound B_u, proofs/unit_gram_sensitivity.md, or
 * at the per-row budget of group privacy, proofs/unit_group_privacy.md), against the unit-level
 * claim (@p epsilon, @p delta; 0 for a pure mechanism), on a pair that differs by one unit of k
 * rows B e_1: added or removed, or replaced by k rows B e_2 (mechanism_params->neighbour, the
 * units' relation). The other units: six of 1 to 3 rows in the span of e_2, ..., e_d, and for
 * ::DPCOV_MECHANISM_INVERSE_GAUSS two of k rows along each axis (its lambda_min bound, when
 * mechanism_params->lambda_min_bound is 0, is the pair's). With @p broken = 1 the planted broken
 * variant instead: the same mechanism at the rows' bound @p bound and the budget itself, as if
 * every row were its own unit (rows bounded, units not), which a large enough k makes the audit
 * flag. Idealized numerics. Reentrant; the audit's draws come from dpcov_audit_params::seed.
 *
 * ::DPCOV_MECHANISM_ADASSP (proofs/adassp_units.md) has a pair of its own: d regressors, every
 * row ||x|| <= @p bound and |y| <= @p bound; axis 1 holds 10 rows (B e_1, B) and every other
 * axis 10 + k rows (B e_j, B); the unit is k rows (B e_1, B), removed, or replaced by k rows
 * (B e_2, -B), so that lambda_min(X'X), X'X, X'y and y'y each move by k times their row
 * sensitivity. Its release is Gaussian: the exact audit above, with the draws' noise standardised
 * by the claimed scales as the conformance values (::DPCOV_AUDIT_NOISE_CLAIMED_LAW) and, with no
 * randomness, the exact delta of the claimed release on the pair (Balle & Wang 2018, Thm 8) in
 * gaussian_delta_lower and pair_distance (the change's Mahalanobis length),
 * ::DPCOV_AUDIT_FINDING_GAUSSIAN_PROFILE_EXCEEDED above the claim. Both releases AdaSSP makes
 * (three statistics, and four with y'y, dpcov_adassp_params::release_label_square) are audited,
 * each at alpha / 2 (seeds seed and seed + 1); the result has the findings of both and the
 * statistics of the flagged one (else of the one with the larger delta_lower). The broken
 * variant: the row-level calibration (dpcov_adassp_params::max_rows_per_unit = 0) on the k-row
 * units. Of @p mechanism_params only the neighbour relation applies; d is at most 1024 and
 * trials x (d + 1)^3 at most 2^40.
 *
 * @param mechanism          a ::dpcov_mechanism_id whose registry entry names a unit proof
 *                           (dpcov_mechanism_entry::unit_proof), ::DPCOV_MECHANISM_ADASSP
 *                           included.
 * @param dim                d, 2 <= d <= 46340 (::DPCOV_MECHANISM_ADASSP: d <= 1024).
 * @param max_rows_per_unit  k, 1 <= k <= 2^20.
 * @param bound              B, every row's norm bound, finite and >= 2^-500.
 * @param epsilon            the unit-level claim, as for dpcov_mechanism_plan().
 * @param delta              the unit-level claim, as for dpcov_mechanism_plan().
 * @param broken             0: the release of units; 1: the broken variant.
 * @param mechanism_params   mechanism options, or NULL for the defaults.
 * @param params             audit settings, or NULL for the defaults (dataset and neighbour_kind
 *                           are ignored).
 * @param[out] result        the findings; the caller sets result->struct_size. Untouched on
 *                           failure.
 * @return ::DPCOV_OK (whatever the verdict), ::DPCOV_E_NULL_POINTER (result),
 *         ::DPCOV_E_INVALID_ARGUMENT (unknown mechanism, k outside [1, 2^20], broken not 0 or 1,
 *         the settings as for dpcov_audit_run(), fewer than 10 trials for a black-box audit, a
 *         per-row budget that underflows),
 *         ::DPCOV_E_INCOMPATIBLE (a mechanism without a unit proof), ::DPCOV_E_DIMENSION (d < 2
 *         or too large), ::DPCOV_E_TOO_LARGE (the pair's 12 + 2 k (d + 1) rows times d^2 above
 *         2^34: the cap on an audit's time and memory; for ::DPCOV_MECHANISM_ADASSP
 *         trials x (d + 1)^3 above 2^40), ::DPCOV_E_INVALID_ARGUMENT
 *         (::DPCOV_MECHANISM_ADASSP: an option other than the neighbour relation, (10 + 2k) B^2
 *         not finite), the statuses
 *         of dpcov_mechanism_plan() for the mechanism arguments, ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_audit_units(int32_t mechanism, int64_t dim, int64_t max_rows_per_unit,
                                         double bound, double epsilon, double delta,
                                         int32_t broken,
                                         const dpcov_mechanism_params *mechanism_params,
                                         const dpcov_audit_params *params,
                                         dpcov_audit_result *result);

/**
 * The zCDP mechanisms on the rows that dpcov_audit_rows_black_box() and dpcov_audit_rows_exact()
 * audit (the CLI ids in the comments). Values are pinned; the Dong-Liang-Yi ones equal ::dpcov_dly_variant.
 */
enum dpcov_audit_rows_mechanism {
  DPCOV_AUDIT_ROWS_DLY_GAUSS = 0,          /**< dly_gauss (dpcov/dong_liang_yi.h). */
  DPCOV_AUDIT_ROWS_DLY_SEPARATE = 1,       /**< dly_separate. */
  DPCOV_AUDIT_ROWS_DLY_ADAPTIVE = 2,       /**< dly_adaptive. */
  DPCOV_AUDIT_ROWS_DLY_ADAPTIVE_PAPER = 3, /**< dly_adaptive_paper. */
  DPCOV_AUDIT_ROWS_COINPRESS = 4,          /**< coinpress (dpcov/coinpress.h). */
  /** coinpress_mean (dpcov/coinpress.h): dpcov_audit_rows_units() only (the row-level audit is
   *  dpcov_audit_coinpress_mean()). */
  DPCOV_AUDIT_ROWS_COINPRESS_MEAN = 5
};

/** The scalar statistic of each release that a black-box audit tests. Values are pinned. */
enum dpcov_black_box_statistic {
  /** The largest eigenvalue of the release. */
  DPCOV_BLACK_BOX_TOP_EIGENVALUE = 0,
  /** |<u_1, e>|: u_1 the release's top eigenvector, e the direction in which the pair's Gram
   *  matrices differ most. */
  DPCOV_BLACK_BOX_TOP_EIGENVECTOR_ALIGNMENT = 1,
  /** min(lambda_min(release - G), lambda_min(release - G')). */
  DPCOV_BLACK_BOX_LEAST_EIGENVALUE_ABOVE_PAIR = 2
};

/** What a black-box audit found. The caller sets struct_size to sizeof(dpcov_black_box_result). */
typedef struct dpcov_black_box_result {
  /** Set by the caller to sizeof(dpcov_black_box_result); the library writes no byte beyond it. */
  size_t struct_size;
  int32_t verdict;         /**< A ::dpcov_audit_verdict. */
  double epsilon;          /**< The audited claim: the epsilon that rho-zCDP implies at delta. */
  double delta;            /**< The audited claim: delta. */
  int64_t samples;         /**< Releases drawn over both datasets, the pilot included. */
  /** The largest lower confidence bound, over the tested events S and both directions, on
   *  P_D(S) - e^epsilon P_D'(S): a violation when it exceeds delta. */
  double delta_lower;
  double alpha_per_bound;  /**< The level of each one-sided bound after the Bonferroni split. */
  /** The audit's power at its draws: the smallest P_D(S) it flags on an event S that no draw from
   *  the other dataset falls in (a lower bound on the release's delta(epsilon) there); 1 when it
   *  could flag none. Appended after the struct's first version: written only when struct_size
   *  covers it. */
  double detectable_delta;
} dpcov_black_box_result;

/**
 * Audit a zCDP mechanism on the rows black-box, at the (epsilon, delta) its rho-zCDP implies: its
 * outputs have no tractable density, so the audit draws releases on a neighbouring pair (D, D'),
 * reduces each to the scalar @p statistic, and tests every event of that scalar (the bins between
 * the 9 deciles of a pilot sample, and their lower and upper tails): for an (epsilon, delta)-DP
 * mechanism P_D(S) - e^epsilon P_D'(S) <= delta; Clopper-Pearson bounds on both probabilities give
 * a lower bound on the left side, flagged above delta. alpha is split evenly (Bonferroni) over all
 * the bounds: a mechanism that matches its claim is flagged with probability <= @p alpha.
 *
 * The pair is the replace-one pair that changes the Gram matrix most: n rows on the sphere of
 * radius s, row 0 s e_1 in D and s e_2 in D' (s = @p scale, the row bound r, for Dong-Liang-Yi;
 * s = sqrt(@p scale), the square root of K, for CoinPress, whose change is then of the order of
 * its clipping radius of the whitened rows). The other settings of the releases are their
 * defaults (beta; CoinPress: t = 3 steps). The draws come from a generator seeded with @p seed:
 * the audit is reproducible, and nothing it draws is released.
 *
 * An audit can only find violations: "no violation found" is not a proof of privacy.
 *
 * @param mechanism  a ::dpcov_audit_rows_mechanism.
 * @param dim        d, 1 <= d <= 46340.
 * @param n          rows of each dataset, >= 1.
 * @param rho        the claimed zCDP budget, finite and > 0.
 * @param delta      delta of the claimed (epsilon, delta), in (0, 1).
 * @param scale      Dong-Liang-Yi: the row bound r, finite and > 0; CoinPress: K >= 1, finite.
 * @param statistic  a ::dpcov_black_box_statistic.
 * @param trials     releases per dataset for the tests, in [10, ::DPCOV_AUDIT_MAX_TRIALS] (a
 *                   pilot of max(10, trials / 5)
 *                   more per dataset places the bins).
 * @param alpha      probability of flagging a mechanism that matches its claim, in (0, 1).
 * @param seed       seed of the pair and the draws.
 * @param[out] result  the findings; the caller sets result->struct_size. Untouched on failure.
 * @return ::DPCOV_OK (whatever the verdict), ::DPCOV_E_NULL_POINTER (result),
 *         ::DPCOV_E_INVALID_ARGUMENT (unknown mechanism or statistic, trials outside
 *         [10, ::DPCOV_AUDIT_MAX_TRIALS], alpha outside
 *         (0, 1), a setting the mechanism's plan refuses, a struct_size too small),
 *         ::DPCOV_E_NON_FINITE, ::DPCOV_E_DIMENSION, ::DPCOV_E_NUMERICAL, ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_audit_rows_black_box(int32_t mechanism, int64_t dim, int64_t n,
                                                  double rho, double delta, double scale,
                                                  int32_t statistic, int64_t trials, double alpha,
                                                  uint64_t seed, dpcov_black_box_result *result);

/** What dpcov_audit_coinpress_mean() found. The caller sets struct_size. Of the two directions
 *  (draws from D against D', and the reverse), each statistic is that of the direction where it is
 *  largest. */
typedef struct dpcov_coinpress_mean_audit_result {
  /** Set by the caller to sizeof(dpcov_coinpress_mean_audit_result). */
  size_t struct_size;
  int32_t verdict;   /**< A ::dpcov_audit_verdict. */
  /** Bitwise OR of ::DPCOV_AUDIT_FINDING_DELTA_EXCEEDED, ::DPCOV_AUDIT_FINDING_RHO_EXCEEDED and
   *  ::DPCOV_AUDIT_FINDING_SAMPLER_MISMATCH; 0 if none. */
  int32_t findings;
  int64_t samples;   /**< Releases over both directions. */
  double rho;        /**< The audited claim: rho. */
  double epsilon;    /**< The audited claim: the epsilon rho-zCDP implies at delta. */
  double delta;      /**< The audited claim: delta. */
  /** Lower confidence bound on the rho the release spends on the pair (flagged above rho). */
  double rho_lower;
  double delta_estimate;  /**< delta(epsilon) = E[(1 - e^(epsilon - L))_+]: sample mean. */
  double delta_lower;     /**< delta(epsilon): empirical-Bernstein lower bound (flagged above delta). */
  double conformance_distance;   /**< KS distance of the standardised residuals from N(0, 1). */
  double conformance_threshold;  /**< The DKW threshold it is compared with. */
  double alpha_per_test;  /**< The level of each test after the Bonferroni split (alpha / 6). */
  /** The delta test's power at the draws it took: the smallest delta(epsilon) its
   *  empirical-Bernstein bound flags when the sample mean equals it (as
   *  dpcov_audit_result::detectable_delta); 1 when the draws could flag nothing. Appended after
   *  the struct's first version: written only when struct_size covers it. */
  double detectable_delta;
} dpcov_coinpress_mean_audit_result;

/**
 * Audit CoinPress mean estimation (dpcov_coinpress_mean_release()) with the exact density of its
 * whole t-step release: given the previous public centre, each step's output is Gaussian around
 * the mean offset of the rows projected onto that step's ball, so the privacy loss L of a release
 * on neighbours (D, D') is exact. The pair is the worst case: n - 1 rows near the origin and one
 * row at +F e_1 in D and -F e_1 in D', F = 10^6 (1 + the largest step radius), so that every
 * step's means differ by the sensitivity 2 R_i / n. Per direction: conformance of the
 * standardised residuals with N(0, 1) (Kolmogorov-Smirnov against the DKW threshold), a lower
 * confidence bound on the rho spent on the pair (chi-square bound on the residuals' variance along
 * the pair's direction), and delta(epsilon): from each release's exact L (empirical-Bernstein lower
 * bound, at half the test's alpha) and the two-sample lower bound on the release's delta(eps) of
 * the pair (P(L > eps) over the draws from D and from D', at eps in {0, mu, 2 mu, 3 mu}, mu =
 * sqrt(2 rho), against the claimed Gaussian composition's delta there; the other half, in the
 * findings as ::DPCOV_AUDIT_FINDING_DELTA_EXCEEDED, not in the delta fields); alpha is split
 * evenly over the 6 tests, so a release that matches its claim is flagged
 * with probability <= @p alpha. The claim is the plan's (dpcov_coinpress_mean_plan()): rho and the
 * (epsilon, delta) it implies. Reproducible from @p seed; nothing it draws is released.
 *
 * An audit can only find violations: "no violation found" is not a proof of privacy.
 *
 * @param dim     d, 1 <= d <= 46340.
 * @param n       rows of each dataset, >= 1.
 * @param params  the release's settings (r required), as for dpcov_coinpress_mean_plan().
 * @param trials  releases per direction, in [2, ::DPCOV_AUDIT_MAX_TRIALS].
 * @param alpha   probability of flagging a release that matches its claim, in (0, 1).
 * @param seed    seed of the draws.
 * @param[out] result  the findings; the caller sets result->struct_size. Untouched on failure.
 * @return ::DPCOV_OK (whatever the verdict), ::DPCOV_E_NULL_POINTER (result),
 *         the statuses of dpcov_coinpress_mean_plan(), ::DPCOV_E_INVALID_ARGUMENT (trials
 *         outside [2, ::DPCOV_AUDIT_MAX_TRIALS],
 *         alpha outside (0, 1), step radii whose far row 10^6 (1 + R) has no finite square, a
 *         struct_size too small), ::DPCOV_E_NUMERICAL, ::DPCOV_E_NOMEM.
 * @proof proofs/coinpress_mean.md
 */
DPCOV_API dpcov_status dpcov_audit_coinpress_mean(int64_t dim, int64_t n,
                                                  const dpcov_coinpress_mean_params *params,
                                                  int64_t trials, double alpha, uint64_t seed,
                                                  dpcov_coinpress_mean_audit_result *result);

/** What dpcov_audit_rows_exact() found. The caller sets struct_size. Of the two directions (draws
 *  from D against D', and the reverse), each statistic is that of the direction where it is
 *  largest. */
typedef struct dpcov_rows_exact_audit_result {
  /** Set by the caller to sizeof(dpcov_rows_exact_audit_result). */
  size_t struct_size;
  int32_t verdict;   /**< A ::dpcov_audit_verdict. */
  /** Bitwise OR of ::dpcov_audit_finding values (::DPCOV_AUDIT_FINDING_DELTA_EXCEEDED,
   *  ::DPCOV_AUDIT_FINDING_GAUSSIAN_PROFILE_EXCEEDED, ::DPCOV_AUDIT_FINDING_SAMPLER_MISMATCH,
   *  ::DPCOV_AUDIT_FINDING_RHO_EXCEEDED); 0 if none. */
  int32_t findings;
  int64_t samples;   /**< Releases over both directions. */
  int64_t n;         /**< Rows of each dataset of the audited pair (chosen from rho). */
  double rho;        /**< The audited claim: rho of the audited coordinates (dly_separate: rho / 2). */
  double epsilon;    /**< The audited claim: the epsilon that rho-zCDP implies at delta. */
  double delta;      /**< The audited claim: delta. */
  /** The claimed noise sigma of each audited coordinate (CoinPress with t >= 2: the smallest of
   *  its steps' sigma_i). */
  double sigma;
  /** Lower confidence bound on the rho the release spends on the pair (flagged above rho). */
  double rho_lower;
  double delta_estimate;  /**< delta(epsilon) = E[(1 - e^(epsilon - L))_+]: sample mean. */
  double delta_lower;     /**< delta(epsilon): empirical-Bernstein lower bound (flagged above delta). */
  /** Upper-triangle coordinates only (0 otherwise, and for CoinPress with t >= 2): the
   *  Gaussian-pair lower bound on the pair's delta at the noise the draws show (flagged above
   *  delta). */
  double gaussian_delta_lower;
  double conformance_distance;   /**< KS distance of the standardised noise from N(0, 1). */
  double conformance_threshold;  /**< The DKW threshold it is compared with. */
  /** Releases whose eigenvalues came within 1e-9 s^2 of the clamp (whose density the audit
   *  assumes away): any is a ::DPCOV_AUDIT_FINDING_SAMPLER_MISMATCH. 0 for CoinPress with
   *  t >= 2, whose audited steps come before the PSD projection. */
  int64_t clamp_hits;
  /** The level of each of the exact-density auditor's 6 tests (alpha / 12); the two-sample rho
   *  bound has alpha / 2. CoinPress with t >= 2: alpha / 6, each of its 6 tests (the rho bound
   *  among them). */
  double alpha_per_test;
  /** The delta test's power at the draws it took: the smallest delta(epsilon) its
   *  empirical-Bernstein bound flags when the sample mean equals it (as
   *  dpcov_audit_result::detectable_delta); 1 when the draws could flag nothing. Appended after
   *  the struct's first version: written only when struct_size covers it. */
  double detectable_delta;
} dpcov_rows_exact_audit_result;

/**
 * Audit a zCDP mechanism on the rows with the exact density of its output (or of a post-processing
 * of it): the release is Gaussian around a function of the data once its clamp is shown not to
 * bind, so the privacy loss L of each release on neighbours (D, D') is exact.
 * - ::DPCOV_AUDIT_ROWS_DLY_GAUSS: the upper triangle of the output, N(S, sigma^2) with S the second
 *   moment of the rows clipped to r, at the claimed rho;
 * - ::DPCOV_AUDIT_ROWS_DLY_SEPARATE: the eigenvalues of the output, lambda(S) + N(0, sigma^2 I), at
 *   the eigenvalue step's share rho / 2 and its (epsilon, delta) (the eigenvectors come from a
 *   Gauss release at rho / 2; the whole release has an exact density at d = 2 only, audited in
 *   tests/privacy/dly_separate_exact_audit_test.cpp);
 * - ::DPCOV_AUDIT_ROWS_COINPRESS with @p steps = 1, K = 4: S + 4 E, E the step's Gaussian noise.
 * - ::DPCOV_AUDIT_ROWS_COINPRESS with @p steps = t >= 2, K = 4: its output has no tractable
 *   density (each step whitens by a function of the unreleased earlier steps), but each step's
 *   noisy second moment Y_i is Gaussian given Y_1..Y_{i-1}, so the privacy loss of the whole
 *   transcript Y_1..Y_t, of which the release is a post-processing, is exact. The audit runs the
 *   library's release with its transcript handed back inside the library (it is never an output:
 *   the result holds only the statistics below) and recomputes each step's whitening and means
 *   from the claimed plan and the earlier Y_i. Its pair: n - 1 rows far out on the axes
 *   (F e_{j mod 3}, F = 10^6 sqrt(K) (1 + gamma)^t, so that every whitened row is clipped to gamma
 *   at every step) and row 0 at F e_1 in D, F e_2 in D': each step's mean moves by the
 *   sensitivity sqrt(2) gamma^2 / n to second order in the noise. n is the smallest multiple of
 *   1000 at which the largest sigma_i is at most gamma^2 / 400. Per direction: conformance of
 *   every step's standardised noise with N(0, 1), the Gaussian-pair lower bound on the rho spent
 *   (from the projections on each step's shift) and delta(epsilon) from the exact L and from the
 *   two-sample bound, as dpcov_audit_coinpress_mean() states, at alpha / 6 each.
 * Dong-Liang-Yi Adaptive and AdaptivePaper (branch and budget follow private statistics) have no
 * exact audit: ::DPCOV_E_PRECONDITION, whose message says so and names
 * dpcov_audit_rows_black_box().
 *
 * The pair (d = 3, unit s = 1 for Dong-Liang-Yi, s = 2 gamma for CoinPress): row 0 at 2s e_1 in D
 * and 2s e_2 in D' (clipped to s e_1, s e_2), n / 10 rows at s e_1, 3n / 10 at s e_2, n / 2 at
 * s e_3, the rest 0: the change of S attains the sensitivity. n is the smallest multiple of 1000
 * at which every eigenvalue of S lies 40 sigma from the clamp ends and from the others, so that
 * the clamp binds with probability below 1e-150 (each release that comes near it is counted in
 * clamp_hits and flagged).
 *
 * Per direction: conformance of the standardised noise with N(0, 1) (Kolmogorov-Smirnov against
 * the DKW threshold), the Gaussian-pair bound on delta (upper-triangle coordinates), and
 * delta(epsilon) from each release's exact L (empirical-Bernstein lower bound), at alpha / 12
 * each; and over both directions a two-sample lower confidence bound on the rho the release
 * spends on the pair at alpha / 2. A release that matches its claim is flagged with probability
 * <= @p alpha. Reproducible from @p seed; nothing it draws is released.
 *
 * An audit can only find violations: "no violation found" is not a proof of privacy.
 *
 * @param mechanism  a ::dpcov_audit_rows_mechanism.
 * @param steps      CoinPress's number of steps t in [1, 16] (t >= 2: the per-step audit above);
 *                   1 for the Dong-Liang-Yi mechanisms, which release in one step.
 * @param rho        the claimed zCDP budget of the whole release, finite and > 0, at least about
 *                   2e-7 (smaller rho needs a pair of more than 10^6 rows).
 * @param delta      delta of the claimed (epsilon, delta), in (0, 1).
 * @param trials     releases per direction, in [2, ::DPCOV_AUDIT_MAX_TRIALS].
 * @param alpha      probability of flagging a release that matches its claim, in (0, 1).
 * @param seed       seed of the draws.
 * @param[out] result  the findings; the caller sets result->struct_size. Untouched on failure.
 * @return ::DPCOV_OK (whatever the verdict), ::DPCOV_E_NULL_POINTER (result),
 *         ::DPCOV_E_PRECONDITION (dly_adaptive, dly_adaptive_paper: no exact audit; a sigma
 *         below the arithmetic's rounding), ::DPCOV_E_INVALID_ARGUMENT (unknown mechanism,
 *         steps out of range, rho too small, trials outside [2, ::DPCOV_AUDIT_MAX_TRIALS], alpha
 *         outside (0, 1), a struct_size
 *         too small),
 *         ::DPCOV_E_NON_FINITE (rho or delta), ::DPCOV_E_NUMERICAL, ::DPCOV_E_NOMEM.
 * @proof proofs/dong_liang_yi.md
 * @proof proofs/coinpress.md
 */
DPCOV_API dpcov_status dpcov_audit_rows_exact(int32_t mechanism, int64_t steps, double rho,
                                              double delta, int64_t trials, double alpha,
                                              uint64_t seed, dpcov_rows_exact_audit_result *result);

/**
 * As dpcov_audit_rows_exact() on several neighbouring pairs, reporting the worst: pair 0 is
 * dpcov_audit_rows_exact()'s axis pair, whose change of the second moment attains the
 * sensitivity on the diagonal; pair k >= 1 is that pair with both datasets rotated by one
 * orthogonal matrix drawn from @p seed and k, which keeps the rows' norms and the second moments'
 * eigenvalues (so the clamp stays 40 sigma away) and moves the change off the diagonal (where a
 * release whose off-diagonal noise is below its claim shows). Each pair is audited at
 * @p alpha / @p pairs, so that a release matching its claim is flagged with probability
 * <= @p alpha over all of them; pair k's draws come from @p seed + k (CoinPress with t >= 2:
 * @p seed + 2k and @p seed + 2k + 1, its far-row pair rotated the same way).
 *
 * @param mechanism   as for dpcov_audit_rows_exact().
 * @param steps       as for dpcov_audit_rows_exact().
 * @param rho         as for dpcov_audit_rows_exact().
 * @param delta       as for dpcov_audit_rows_exact().
 * @param trials      releases per direction and pair, in [2, ::DPCOV_AUDIT_MAX_TRIALS].
 * @param alpha       probability of flagging a release that matches its claim, over all pairs,
 *                    in (0, 1).
 * @param seed        seed of the rotations and the draws.
 * @param pairs       the number of pairs, in [1, 64]; 1 is dpcov_audit_rows_exact() at the same
 *                    alpha.
 * @param[out] result     the worst pair's findings (a flagged pair before any other, then the
 *                        largest rho_lower / rho), with samples over every pair and
 *                        alpha_per_test at alpha / pairs; the caller sets result->struct_size.
 *                        Untouched on failure.
 * @param[out] worst_pair the index of that pair (0 the axis pair). Untouched on failure.
 * @return the statuses of dpcov_audit_rows_exact(), ::DPCOV_E_NULL_POINTER (worst_pair) and
 *         ::DPCOV_E_INVALID_ARGUMENT (pairs outside [1, 64]).
 * @proof proofs/dong_liang_yi.md
 * @proof proofs/coinpress.md
 */
DPCOV_API dpcov_status dpcov_audit_rows_exact_pairs(int32_t mechanism, int64_t steps, double rho,
                                                    double delta, int64_t trials, double alpha,
                                                    uint64_t seed, int64_t pairs,
                                                    dpcov_rows_exact_audit_result *result,
                                                    int64_t *worst_pair);

/**
 * Audit a zCDP mechanism on the rows at the level of privacy units (docs/privacy-units.md;
 * proofs/unit_group_privacy.md, "Row mechanisms"): units of exactly @p max_rows_per_unit = k rows,
 * private under unit replace-one, released as the unit path releases them (the CLI's
 * `release --privacy-unit`, Python's zcdp_unit_release()): the library's release of the k U rows
 * at rho / k^2 (dpcov_unit_row_rho()), on a pair whose first unit has its k rows all replaced,
 * against the unit-level claim @p rho and the (epsilon, delta) it implies at @p delta. Every unit
 * of the pair holds exactly k rows, so the choice of kept rows keeps them all and pads none.
 * - ::DPCOV_AUDIT_ROWS_DLY_GAUSS, ::DPCOV_AUDIT_ROWS_DLY_SEPARATE (its eigenvalue step, claim
 *   rho / 2), ::DPCOV_AUDIT_ROWS_COINPRESS (any t): the exact density of dpcov_audit_rows_exact()
 *   on its axis pair with the first k rows, not row 0, moved (2s e_1 in D, 2s e_2 in D'; for
 *   CoinPress at t >= 2 F e_1 and F e_2), n a multiple of 1000 k chosen from the release's
 *   sigma. The k aligned rows move the second moment by k times the row-level sensitivity, the
 *   most any k replaced rows move it, so for these Gaussian releases the pair is a worst case.
 * - ::DPCOV_AUDIT_ROWS_COINPRESS_MEAN: the exact density of dpcov_audit_coinpress_mean() (d = 3,
 *   20 units, the prior ||mean|| <= 5 and Cov <= I, t = @p steps), k far rows at +F e_1 in D and
 *   -F e_1 in D': every step's means differ by k times the sensitivity.
 * - ::DPCOV_AUDIT_ROWS_DLY_ADAPTIVE, ::DPCOV_AUDIT_ROWS_DLY_ADAPTIVE_PAPER: no tractable density;
 *   the black-box audit of dpcov_audit_rows_black_box() (d = 3, r = 1, top-eigenvector
 *   alignment) on max(5, ceil(20 / k)) units, the first unit's k rows at e_1 in D and e_2 in D'.
 *   Its result fills verdict, findings (::DPCOV_AUDIT_FINDING_DELTA_EXCEEDED), samples, n, rho,
 *   epsilon, delta, delta_lower, alpha_per_test (per bound) and detectable_delta; the rest is 0.
 * With @p broken = 1 the planted broken variant instead: the same units released at @p rho itself
 * (rows bounded, units not), which spends k^2 rho on the pair and which the audit should flag.
 * Reproducible from @p seed; nothing it draws is released.
 *
 * An audit can only find violations: "no violation found" is not a proof of privacy.
 *
 * @param mechanism          a ::dpcov_audit_rows_mechanism, ::DPCOV_AUDIT_ROWS_COINPRESS_MEAN
 *                           included.
 * @param steps              CoinPress's and CoinPress mean's t in [1, 16]; 1 for Dong-Liang-Yi.
 * @param max_rows_per_unit  k, 1 <= k <= 2^20 (the exact audits: n of at most 10^6 rows bounds
 *                           k from rho).
 * @param rho                the unit-level claimed zCDP budget, finite and > 0.
 * @param delta              delta of the claimed (epsilon, delta), in (0, 1).
 * @param broken             0: the release of units; 1: the broken variant.
 * @param trials             releases per direction, in [2, ::DPCOV_AUDIT_MAX_TRIALS] (the
 *                           black-box audits: [10, ::DPCOV_AUDIT_MAX_TRIALS], per dataset).
 * @param alpha              probability of flagging a release that matches its claim, in (0, 1).
 * @param seed               seed of the pair (black-box) and the draws.
 * @param[out] result  the findings; the caller sets result->struct_size. Untouched on failure.
 * @return ::DPCOV_OK (whatever the verdict), ::DPCOV_E_NULL_POINTER (result),
 *         ::DPCOV_E_INVALID_ARGUMENT (unknown mechanism, steps out of range, k outside
 *         [1, 2^20], broken not 0 or 1, a rho or k that needs more than 10^6 rows, a per-row rho
 *         that underflows, trials or alpha out of range, a struct_size too small),
 *         ::DPCOV_E_NON_FINITE (rho or delta), ::DPCOV_E_PRECONDITION (a sigma below the
 *         arithmetic's rounding), ::DPCOV_E_NUMERICAL, ::DPCOV_E_NOMEM.
 * @proof proofs/unit_group_privacy.md
 */
DPCOV_API dpcov_status dpcov_audit_rows_units(int32_t mechanism, int64_t steps,
                                              int64_t max_rows_per_unit, double rho, double delta,
                                              int32_t broken, int64_t trials, double alpha,
                                              uint64_t seed, dpcov_rows_exact_audit_result *result);

#ifdef __cplusplus
}
#endif

#endif /* DPCOV_AUDIT_H */
