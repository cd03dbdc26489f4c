// AdaSSP (Yu-Xiang Wang, UAI 2018, Alg. 2): private linear regression by perturbing the
// sufficient statistics X'X and X'y, with a ridge chosen from a privately released lambda_min(X'X).
// Constants: privacy/adassp_constants.hpp; derivation: proofs/adassp.md.
#pragma once

#include <cstdint>
#include <vector>

#include "../matrix.hpp"
#include "../privacy/neighbour.hpp"
#include "../random/rng.hpp"

namespace dpcov::mechanisms {

enum class AdasspCalibration : int32_t {
  // One Gaussian mechanism over the three statistics, exact analytic calibration (default).
  JointAnalytic = 0,
  // The paper's constants (sqrt(ln(6/delta)) / (eps/3) per statistic, its shift and its eta),
  // used only after their exact joint delta is checked against the request.
  Paper = 1,
};

struct AdasspOptions {
  privacy::Neighbour neighbour = privacy::Neighbour::ReplaceOne;
  AdasspCalibration calibration = AdasspCalibration::JointAnalytic;
  double rho = 0.05;  // failure probability of the ridge (the paper's varrho)
  // Also release y'y + N(0, s_y^2) in the same Gaussian mechanism (each of the four statistics
  // then gets a quarter of mu^2 instead of a third): what noise-aware intervals need for the
  // residual variance (estimators/ols_bootstrap). Joint calibration only.
  bool release_label_square = false;
  // 0: rows are the neighbours. k >= 1: privacy units of at most k rows each (the caller's X'X
  // holds at most k rows of every unit; dpcov_unit_rows_keep or an accumulator of units chooses
  // them), the relation is between units, and every sensitivity is k times the row-level one
  // (privacy/adassp_unit_sensitivity.hpp, proofs/adassp_units.md). Joint calibration only.
  int64_t max_rows_per_unit = 0;
  // false: no lambda_min step. X'X, X'y (and y'y) alone share mu^2 (a half each, or a third with
  // y'y), and the ridge is its public bound eta: where the released lambda_min would be 0 after
  // its shift anyway (small n), its share of mu^2 goes to the statistics the intervals read
  // (proofs/adassp.md, "Without the lambda_min step"). Joint calibration at row level only.
  bool release_lambda_min = true;
};

// Every constant of a fit; data-independent (a plan), except the last three, which are functions
// of the release only.
struct AdasspReceipt {
  privacy::Neighbour neighbour = privacy::Neighbour::ReplaceOne;
  AdasspCalibration calibration = AdasspCalibration::JointAnalytic;
  bool seed_fixed = false;
  int64_t dim = 0;  // p, the number of regressors
  double bound_x = 0.0;
  double bound_y = 0.0;
  double epsilon = 0.0;
  double delta = 0.0;
  double rho = 0.0;
  double sensitivity_lambda_min = 0.0;
  double sensitivity_gram = 0.0;   // Frobenius
  double sensitivity_cross = 0.0;  // L2
  double sigma_lambda_min = 0.0;
  double sigma_gram = 0.0;               // diagonal entries of E
  double sigma_gram_off_diagonal = 0.0;  // entries above the diagonal: sigma_gram / sqrt 2, up
  double sigma_cross = 0.0;
  bool label_square = false;              // y'y released too
  double sensitivity_label_square = 0.0;  // B_Y^2 (0 unless label_square)
  double sigma_label_square = 0.0;        // s_y (0 unless label_square)
  double delta_exact = 0.0;        // exact delta of the joint release at epsilon (<= delta)
  double zcdp_rho = 0.0;           // the fit is zcdp_rho-zCDP (the ledger's zCDP charge)
  double lambda_min_shift = 0.0;
  double noise_norm_bound = 0.0;   // eta
  double eigenvalue_floor = 0.0;   // the PSD-safe solve raises eigenvalues below this to it
  int64_t max_rows_per_unit = 0;   // k of a unit-level fit, 0 at row level (public)
  // The lambda_min step ran (the default); without it its sensitivity, sigma and shift are 0 and
  // the ridge is noise_norm_bound.
  bool lambda_min_released = true;
  const char *theorem = "";
  // Functions of the release (post-processing), 0 in a plan.
  double released_lambda_min = 0.0;
  double ridge = 0.0;
  int64_t eigenvalues_floored = 0;
};

struct AdasspFit {
  AdasspReceipt receipt;
  Matrix xtx;                     // X'X + E (p x p, exactly symmetric)
  std::vector<double> xty;        // X'y + noise
  double yty = 0.0;               // y'y + noise when the plan releases it, else 0
  double lambda_min_noisy = 0.0;  // lambda_min(X'X) + noise, before shift and clamp (audit
                                  // only; 0 without the lambda_min step)
  std::vector<double> coefficients;
};

// All constants for p regressors, bounds ||x|| <= bound_x, |y| <= bound_y; throws on bad
// arguments, and Status::Precondition when the paper's constants do not meet (eps, delta).
AdasspReceipt plan_adassp(int64_t p, double bound_x, double bound_y, double epsilon, double delta,
                          const AdasspOptions &options);

// The fit from the exact statistics X'X (p x p, symmetric) and X'y (p) of rows within the bounds.
// `yty` is y'y (read only when the plan releases it). Draws the noise once, in the order
// lambda_min (if released), X'X (upper triangle column by column), X'y, then y'y if released.
AdasspFit fit_adassp(const Matrix &xtx, const std::vector<double> &xty, double yty,
                     const AdasspReceipt &plan, random::Rng &rng);

// PSD-safe ridge solve: (M + ridge I) theta = b through the eigen-decomposition of the symmetric
// M, every eigenvalue of M + ridge I below `floor` raised to `floor` (> 0). Returns the number
// raised through `floored`.
std::vector<double> adassp_solve(const Matrix &m, const std::vector<double> &b, double ridge,
                                 double floor, int64_t &floored);

// Natural log of the density of the Gaussian release (lambda_noisy, xtx_released, xty_released
// and, when the plan releases it, yty_released) given the exact statistics; -infinity if
// xtx_released is not exactly symmetric. Without the lambda_min step lambda_noisy is not read.
double log_density_adassp(double lambda_noisy, const Matrix &xtx_released,
                          const std::vector<double> &xty_released, double yty_released,
                          const Matrix &xtx, const std::vector<double> &xty, double yty,
                          const AdasspReceipt &plan);

}  // namespace dpcov::mechanisms
