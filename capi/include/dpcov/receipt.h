/**
 * @file dpcov/receipt.h
 * @brief The receipt every mechanism fills: which mechanism ran, under which theorem and neighbour
 *        relation, what privacy it spent, and every constant it derived.
 *
 * One receipt type serves every mechanism. A mechanism writes the constants it uses and leaves the
 * others 0. The same receipt comes from a plan (dpcov_mechanism_plan(): no data, no randomness) and
 * from a release; for the same arguments the two are equal field by field except the fields only a
 * release can know, which a plan leaves 0: `seed_fixed` and `generator`, and those documented
 * "release only" (the Bingham proposal counts, a propose-test-release's test value and result, and
 * the sigma_min variants' appended w). An auditor recomputes every constant from `mechanism`, `neighbour`,
 * `calibration`, `dim`, `n`, `bound`, `epsilon`, `delta` and `lambda_min_bound` with the formulas of
 * the proof named in `theorem`.
 *
 * A release's receipt is for the curator: it also holds diagnostics that depend on the data outside
 * any mechanism (the exact n under add/remove neighbours, the Bingham proposal counts of IEV and
 * KT). Publish only what dpcov_receipt_public() returns (proofs/public_receipt.md).
 *
 * The receipt is a plain struct whose first field is its own size, so fields can be appended in later
 * versions without breaking callers compiled against this one: set `struct_size` to
 * `sizeof(dpcov_receipt)` before passing it to the library. It holds no pointers; it may be copied,
 * stored and compared freely.
 */
#ifndef DPCOV_RECEIPT_H
#define DPCOV_RECEIPT_H

#include "dpcov/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Neighbouring datasets the guarantee is stated for. */
enum dpcov_neighbour {
  /** One row replaced by another of norm <= B; n is fixed and public (default). */
  DPCOV_NEIGHBOUR_REPLACE_ONE = 0,
  /** One row of norm <= B added or removed; n itself is then private. */
  DPCOV_NEIGHBOUR_ADD_REMOVE = 1
};

/**
 * How the noise scale was calibrated. In dpcov_mechanism_params, ::DPCOV_CALIBRATION_DEFAULT asks
 * for the mechanism's default; a receipt always names the calibration actually used.
 */
enum dpcov_calibration {
  /**
   * Request only: the mechanism's default (analytic Gaussian; upper-triangle Laplace; theorem;
   * Bingham sensitivity for IEV, Bingham published for KT).
   */
  DPCOV_CALIBRATION_DEFAULT = 0,
  /** Analytic Gaussian mechanism (Balle & Wang, ICML 2018, Thm 8): smallest sigma, any eps > 0. */
  DPCOV_CALIBRATION_ANALYTIC_GAUSSIAN = 1,
  /** Classical Gaussian mechanism (Dwork & Roth 2014, Thm A.1): sigma = Delta sqrt(2 ln(1.25/delta)) / eps, eps < 1. */
  DPCOV_CALIBRATION_CLASSICAL_GAUSSIAN = 2,
  /** Laplace scale from the L1 sensitivity of the upper triangle, where the noise is drawn: (d+1)B^2/eps (replace-one). */
  DPCOV_CALIBRATION_LAPLACE_UPPER_TRIANGLE = 3,
  /** Laplace scale as published (Jiang et al. Lemma 2; Wang et al.; Amin et al.): 2 d B^2 / eps. Valid but larger. */
  DPCOV_CALIBRATION_LAPLACE_PUBLISHED = 4,
  /** Constants fixed by the mechanism's theorem; there is nothing to choose (the Wishart mechanisms). */
  DPCOV_CALIBRATION_THEOREM = 5,
  /**
   * IEV and KT: the Bingham exponent as published (Amin et al. 2019, Alg. 1), kappa_i = eps_i / (4 B^2).
   * It spends eps_i / 2 (replace-one) or eps_i / 4 (add/remove) per step; eps_i is recorded. KT's default.
   */
  DPCOV_CALIBRATION_BINGHAM_PUBLISHED = 6,
  /**
   * IEV and KT: the Bingham exponent calibrated to the score sensitivity B^2, the largest for which
   * each step is eps_i-DP: kappa_i = eps_i / (2 B^2) (replace-one) or eps_i / B^2 (add/remove).
   * IEV's default.
   */
  DPCOV_CALIBRATION_BINGHAM_SENSITIVITY = 7
};

/**
 * IEV and KT: how eps / 2 is split over the eigenvector steps (the other eps / 2 goes to the
 * eigenvalues). In dpcov_mechanism_params, ::DPCOV_BUDGET_SPLIT_DEFAULT asks for the mechanism's
 * default split (adaptive for IEV, uniform for KT);
 * a receipt names the split used, or ::DPCOV_BUDGET_SPLIT_DEFAULT for the other mechanisms.
 */
enum dpcov_budget_split {
  /** Request: the mechanism's default (IEV adaptive, KT uniform). Receipt: the mechanism has no split. */
  DPCOV_BUDGET_SPLIT_DEFAULT = 0,
  /** eps_i = eps / (2 k) for each of the k steps (Amin et al. 2019, Cor. 2). */
  DPCOV_BUDGET_SPLIT_UNIFORM = 1,
  /**
   * eps_i = (eps / 2) sqrt(lambda_hat_i + tau) / sum_j sqrt(lambda_hat_j + tau),
   * tau = b ln(2 k / beta) with b the eigenvalue Laplace scale (Amin et al. 2019, Cor. 1): more
   * budget for the directions of larger released eigenvalues. A function of released values only.
   */
  DPCOV_BUDGET_SPLIT_ADAPTIVE = 2
};

/** Which norm the `sensitivity` field of a receipt is measured in. */
enum dpcov_sensitivity_norm {
  DPCOV_SENSITIVITY_NONE = 0, /**< The mechanism is not calibrated by a sensitivity (Wishart). */
  DPCOV_SENSITIVITY_L1 = 1,   /**< L1 norm of the change of the upper triangle (diagonal included). */
  DPCOV_SENSITIVITY_L2 = 2    /**< L2 norm of the change of the upper triangle (diagonal included). */
};

/** For ::DPCOV_MECHANISM_INVERSE_GAUSS: what the public bound lambda_min(G) >= theta^2 covers. */
enum dpcov_lambda_min_scope {
  /** Every dataset in the domain satisfies it (Delta = B^2 / theta^4, times sqrt 2 for replace-one). Default. */
  DPCOV_LAMBDA_MIN_DOMAIN = 0,
  /**
   * Only the input is known to satisfy it, so a neighbour only has lambda_min >= theta^2 - B^2
   * (Delta = B^2 / (theta^2 (theta^2 - B^2)), times sqrt 2 for replace-one; needs theta^2 > B^2).
   */
  DPCOV_LAMBDA_MIN_INPUT = 1
};

/** The generator a release drew its noise from (dpcov/rng.h). */
enum dpcov_generator {
  /** A plan: no generator was used. */
  DPCOV_GENERATOR_NONE = 0,
  /** PCG64: an explicit seed; reproducible, and not private for anyone who knows the seed. */
  DPCOV_GENERATOR_PCG64 = 1,
  /** ChaCha20 keyed from the operating system (no seed): the default. */
  DPCOV_GENERATOR_CHACHA20 = 2
};

/** Whether the released values follow the distribution the privacy proof assumes exactly. */
enum dpcov_numerics {
  /**
   * Continuous noise sampled in floating point: private up to the rounding of the samplers
   * ("idealized numerics", Mironov 2012); the guarantee is that of the idealized mechanism.
   */
  DPCOV_NUMERICS_IDEALIZED = 0,
  /** Integer noise from exact samplers: the guarantee holds for the values as computed. */
  DPCOV_NUMERICS_EXACT = 1
};

/** Size of dpcov_receipt::theorem, terminating NUL included. */
#define DPCOV_RECEIPT_THEOREM_SIZE 160

/**
 * The members every receipt family starts with, in this order: dpcov_receipt, dpcov_adassp_receipt,
 * dpcov_dly_receipt, dpcov_coinpress_receipt and dpcov_coinpress_mean_receipt each repeat them by
 * name before their own (C's common initial sequence), so `r.epsilon` reads the same in every
 * family, and dpcov_receipt_prefix_of() copies them out of any family's receipt. A ledger, a
 * logger or a binding reads what any release spent through this struct alone.
 */
typedef struct dpcov_receipt_prefix {
  /** Set by the caller to the size of the struct it passes; the library writes no byte beyond it. */
  size_t struct_size;
  int32_t mechanism;     /**< A ::dpcov_mechanism_id (dpcov/mechanism.h); dpcov_mechanism_name() names it. */
  int32_t privacy_model; /**< The ::dpcov_mechanism_privacy the guarantee is stated in (the registry's). */
  int32_t neighbour;     /**< The ::dpcov_neighbour relation the guarantee is stated for. */
  int32_t numerics;      /**< The ::dpcov_numerics of the released values. */
  /** Release only: the ::dpcov_generator the noise came from; ::DPCOV_GENERATOR_NONE (0) in a plan. */
  int32_t generator;
  /** 1 if the generator came from an explicit seed (reproducible, not private for whoever knows it); 0 from OS entropy, and 0 in a plan. */
  int32_t seed_fixed;
  double epsilon;        /**< Epsilon spent (as claimed by the theorem). */
  double delta;          /**< Delta spent; 0 for pure epsilon-DP mechanisms. */
  /** The rho of rho-zCDP the release satisfies where the mechanism states one (the zCDP families, AdaSSP's single Gaussian mechanism); else 0. */
  double rho;
  /** B: every row has Euclidean norm <= B (AdaSSP: B_X, the regressors'); 0 for a mechanism that takes no norm bound (CoinPress). */
  double bound;
  /** Number of rows, public under replace-one; ::DPCOV_RECEIPT_N_WITHHELD where it is private (a public receipt under add/remove) or not an input (AdaSSP takes the Gram matrix). */
  int64_t n;
  /** Paper, theorem and proof file the constants come from, NUL-terminated. */
  char theorem[DPCOV_RECEIPT_THEOREM_SIZE];
} dpcov_receipt_prefix;

/**
 * What a mechanism on the Gram matrix did. Filled by dpcov_mechanism_plan() and the release
 * functions; the caller sets `struct_size` to `sizeof(dpcov_receipt)` first. Constants a mechanism
 * does not use are 0. Starts with the members of dpcov_receipt_prefix (documented there).
 */
typedef struct dpcov_receipt {
  size_t struct_size;       /**< Set by the caller to sizeof(dpcov_receipt); the library writes no byte beyond it. */
  int32_t mechanism;        /**< As dpcov_receipt_prefix::mechanism. */
  int32_t privacy_model;    /**< As dpcov_receipt_prefix::privacy_model. */
  int32_t neighbour;        /**< As dpcov_receipt_prefix::neighbour. */
  int32_t numerics;         /**< As dpcov_receipt_prefix::numerics. */
  int32_t generator;        /**< As dpcov_receipt_prefix::generator (the weaker of a sketch's and the release's). */
  int32_t seed_fixed;       /**< As dpcov_receipt_prefix::seed_fixed. */
  double epsilon;           /**< Epsilon spent (as claimed by the theorem; see `not_dp`). */
  double delta;             /**< Delta spent; 0 for pure epsilon-DP mechanisms. */
  double rho;               /**< 0: no mechanism on the Gram matrix is stated in zCDP. */
  double bound;             /**< B: every row has Euclidean norm <= B. */
  int64_t n;                /**< Number of rows (public under replace-one). */
  /** Paper, theorem and proof file the constants come from, NUL-terminated. */
  char theorem[DPCOV_RECEIPT_THEOREM_SIZE];
  int32_t calibration;      /**< The ::dpcov_calibration actually used (never DEFAULT). */
  int32_t not_dp;           /**< 1 if the mechanism is known NOT to be differentially private. */
  int32_t sensitivity_norm; /**< A ::dpcov_sensitivity_norm: the norm of `sensitivity`. */
  int32_t lambda_min_scope; /**< Inverse Gauss: the ::dpcov_lambda_min_scope of `lambda_min_bound`; else 0. */
  int64_t dim;              /**< d: the statistic is d x d. */
  double sensitivity;       /**< The sensitivity the noise is calibrated to (norm: `sensitivity_norm`); 0 if none. */
  double sigma;             /**< Standard deviation of each Gaussian upper-triangle entry; 0 if none. */
  double scale;             /**< Laplace scale b, or the Wishart scale matrix is `scale` * I; 0 if none. */
  double dof;               /**< Wishart degrees of freedom; 0 if none. */
  double lambda_min_bound;  /**< Inverse Gauss: the public bound theta^2 <= lambda_min(G); 0 if none. */
  /** IEV and KT: eps0 = eps / 2, spent on the eigenvalues (Laplace scale `scale`); else 0. */
  double epsilon_eigenvalues;
  /** IEV and KT, uniform split: eps_i of every eigenvector step; 0 for the adaptive split (its shares depend on the release) and for other mechanisms. */
  double epsilon_step;
  /** IEV and KT: the ::dpcov_budget_split used; ::DPCOV_BUDGET_SPLIT_DEFAULT (0) for other mechanisms. */
  int32_t budget_split;
  /** IEV and KT: k, the number of eigenpairs released (d for a full release); else 0. */
  int64_t rank;
  /** IEV and KT, adaptive split: the utility failure probability beta of Cor. 1; else 0. */
  double beta;
  /** IEV and KT, adaptive split: tau = scale ln(2 k / beta); else 0. */
  double tau;
  /** IEV and KT: each step's exponent is kappa_i = exponent_factor eps_i / B^2 (1/4 published; 1/2 or 1 by sensitivity); else 0. */
  double exponent_factor;
  /** IEV and KT: the released spectrum is clipped to [0, clip_upper]; n B^2 under replace-one, +infinity under add/remove (n is private); else 0. */
  double clip_upper;
  /** IEV and KT, release only: Bingham proposals drawn in total (data-dependent: a timing side channel); 0 in a plan. */
  int64_t bingham_proposals;
  /** IEV and KT, release only: rejected proposals, bingham_proposals minus the k accepted ones; 0 in a plan. */
  int64_t bingham_rejections;
  /** JL ridge and OLS by projection: r, the rows of the projection; else 0 (inverse Wishart: m is `dof`). */
  int64_t projection_rows;
  /** JL, inverse Wishart and OLS: w^2 of Sheffet's Thm 3.1 / 5.1 at the release's share of the budget; else 0. */
  double threshold_w2;
  /** JL ridge and inverse Wishart: w of the appended block w I (sqrt(threshold_w2) rounded up; for the sigma_min variants data-dependent, release only, 0 in a plan); else 0. */
  double appended_w;
  /** Sigma_min variants and OLS: epsilon spent on the private sigma_min test (epsilon / 2); else 0. */
  double test_epsilon;
  /** Sigma_min variants and OLS: delta spent on the test (delta / 2); else 0. */
  double test_delta;
  /** Sigma_min variants and OLS: the Laplace scale b = 4 B^2 / epsilon of the test; else 0. */
  double test_scale;
  /** Sigma_min variants and OLS: the shift b ln(1/delta) subtracted from the noisy sigma_min^2; else 0. */
  double test_shift;
  /** Sigma_min variants and OLS, release only: the released test value s2; 0 in a plan. */
  double test_value;
  /** Sigma_min variants and OLS, release only: 1 if s2 > threshold_w2 (OLS releases only then); 0 in a plan. */
  int32_t test_passed;
  /** Wang-Huai-Xu graphical lasso (dpcov_private_glasso_*, ::DPCOV_MECHANISM_GLASSO_OUTPUT_WISHART): the public penalty rho; else 0. */
  double glasso_rho;
  /**
   * Privacy units (dpcov_row_bounding::max_rows_per_unit): k, the most rows one unit (a person)
   * contributes, when the guarantee is stated for units rather than rows; then `n` counts units,
   * `bound` is the unit bound B_u >= sqrt(k) B and the neighbour relation adds, removes or replaces
   * a whole unit (proofs/unit_gram_sensitivity.md). 0 when every row is its own unit. Public: k is
   * chosen by the caller, never read from the data.
   */
  int64_t max_rows_per_unit;
} dpcov_receipt;

/** dpcov_receipt::n in a public receipt when n is private (::DPCOV_NEIGHBOUR_ADD_REMOVE). */
#define DPCOV_RECEIPT_N_WITHHELD (-1)

/**
 * The publishable part of a receipt: a copy of @p receipt with the curator-only fields withheld.
 * Under ::DPCOV_NEIGHBOUR_ADD_REMOVE, n is private and becomes ::DPCOV_RECEIPT_N_WITHHELD; the
 * Bingham proposal counts (`bingham_proposals`, `bingham_rejections`), whose law depends on the
 * data, become 0. Every other field is a function of public parameters (mechanism, neighbour
 * relation, d, B, epsilon, delta, n under replace-one) and of released values (the test value of a
 * propose-test-release mechanism and the w derived from it), so publishing it costs no privacy
 * beyond the release (proofs/public_receipt.md). The time a release takes is not covered: IEV and
 * KT's running time grows with their proposal count.
 *
 * @param receipt  a receipt filled by the library (struct_size at least that of the first version
 *                 of dpcov_receipt, through `glasso_rho`; fields beyond it read as 0;
 *                 `neighbour` a ::dpcov_neighbour); not retained.
 * @param[out] out receives the public receipt; the caller sets out->struct_size. May equal
 *                 @p receipt. Untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER (@p receipt or @p out NULL),
 *         ::DPCOV_E_INVALID_ARGUMENT (a struct_size below the first version's, or an unknown
 *         neighbour relation).
 * @proof proofs/public_receipt.md
 *
 * Thread-safety: reentrant.
 */
DPCOV_API dpcov_status dpcov_receipt_public(const dpcov_receipt *receipt, dpcov_receipt *out);

/**
 * The common prefix of any family's receipt: what a ledger, a logger or a binding needs to read
 * a release without knowing its family. Copies the dpcov_receipt_prefix members of @p receipt
 * (whose first member is its own struct_size) after checking them; a public receipt stays public
 * (n as withheld stays withheld).
 *
 * @param receipt  a receipt of any family filled by the library (dpcov_receipt,
 *                 dpcov_adassp_receipt, dpcov_dly_receipt, dpcov_coinpress_receipt,
 *                 dpcov_coinpress_mean_receipt): its struct_size at least
 *                 sizeof(dpcov_receipt_prefix), its mechanism an id of the registry
 *                 (dpcov_mechanism_info_by_id()), its enums known values, its theorem
 *                 NUL-terminated; not retained.
 * @param[out] out receives the prefix, written up to out->struct_size (set by the caller, at least
 *                 sizeof(dpcov_receipt_prefix) of this version). Untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER (@p receipt or @p out NULL),
 *         ::DPCOV_E_INVALID_ARGUMENT (a struct_size too small, an unknown mechanism id, privacy
 *         model, neighbour relation, numerics or generator, a privacy model other than the
 *         registry's for the mechanism, seed_fixed not 0 or 1, a theorem without its NUL),
 *         ::DPCOV_E_NON_FINITE (epsilon, delta, rho or bound not finite).
 *
 * Thread-safety: reentrant.
 */
DPCOV_API dpcov_status dpcov_receipt_prefix_of(const void *receipt, dpcov_receipt_prefix *out);

#ifdef __cplusplus
}
#endif

#endif /* DPCOV_RECEIPT_H */
