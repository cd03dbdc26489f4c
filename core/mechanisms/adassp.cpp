#include "adassp.hpp"

#include <cmath>
#include <numbers>
#include <utility>

#include "../check.hpp"
#include "../linalg/blas.hpp"
#include "../privacy/adassp_constants.hpp"
#include "../privacy/adassp_unit_sensitivity.hpp"
#include "../random/normal.hpp"
#include "request.hpp"
#include "../privacy/upward.hpp"
#include "registry.hpp"

namespace dpcov::mechanisms {

namespace {

size_t at(int64_t i) { return static_cast<size_t>(i); }

constexpr const char *kTheoremPaper =
    "Wang 2018 (UAI) Alg. 2, published constants, exact joint delta checked; proofs/adassp.md";

constexpr const char *kTheoremWithoutLambdaMin =
    "Wang 2018 (UAI) Alg. 2 without the lambda_min step (ridge eta); joint analytic Gaussian "
    "(Balle-Wang 2018 Thm 8); proofs/adassp.md";

constexpr const char *kTheoremUnits =
    "Wang 2018 (UAI) Alg. 2 at unit sensitivities (k rows per unit); joint analytic Gaussian "
    "(Balle-Wang 2018 Thm 8); proofs/adassp_units.md";

double normal_log_density(double x, double sigma) {
  const double z = x / sigma;
  return -0.5 * z * z - std::log(sigma) - 0.5 * std::log(2.0 * std::numbers::pi);
}

}  // namespace

AdasspReceipt plan_adassp(int64_t p, double bound_x, double bound_y, double epsilon, double delta,
                          const AdasspOptions &options) {
  if (p < 1) fail(Status::Dimension, "the regression needs at least one regressor, got ", p);
  check::dimension(p, "number of regressors");
  check::positive_finite(bound_x, "bound_x (the bound on the norm of a row of regressors)");
  check::positive_finite(bound_y, "bound_y (the bound on |y|)");
  // X'X, X'y and y'y are entries of the computed Gram: below 2^-500 their subnormal rounding
  // reaches the sensitivities B_X^2, B_X B_Y and B_Y^2, as for every mechanism on the Gram
  // (kSmallestGramBound; proofs/analyze_gauss.md, "Small bounds").
  for (const auto &[bound, name] : {std::pair{bound_x, "bound_x"}, std::pair{bound_y, "bound_y"}})
    if (!(bound >= kSmallestGramBound))
      fail(Status::InvalidArgument, "AdaSSP needs ", name, " >= 2^-500 (about 3.05e-151), got ",
           bound, ": below it the Gram's entries round in the subnormals by as much as their ",
           "sensitivity (proofs/analyze_gauss.md, Small bounds); rows scaled up by 2^k release a ",
           "Gram that scales back down by 2^-2k exactly");
  check::epsilon(epsilon);
  check::delta(delta);
  const bool paper = options.calibration == AdasspCalibration::Paper;
  if (options.calibration != AdasspCalibration::JointAnalytic &&
      options.calibration != AdasspCalibration::Paper)
    fail(Status::InvalidArgument,
         "AdaSSP calibration must be 0 (joint analytic) or 1 (paper), got ",
         static_cast<int32_t>(options.calibration));
  if (options.neighbour != privacy::Neighbour::ReplaceOne &&
      options.neighbour != privacy::Neighbour::AddRemove)
    fail(Status::InvalidArgument, "neighbour must be 0 (replace-one) or 1 (add/remove), got ",
         static_cast<int32_t>(options.neighbour));

  if (paper && options.max_rows_per_unit != 0)
    fail(Status::InvalidArgument, "AdaSSP takes privacy units with the joint analytic calibration "
         "only; the paper's constants are for one row");
  if (paper && options.release_label_square)
    fail(Status::InvalidArgument, "AdaSSP releases y'y (for intervals) with the joint analytic "
         "calibration only; the paper's constants have no share for it");
  // The split is for the small-n intervals at a public n, which a unit-level fit has neither of;
  // the unit audit (audit_adassp_unit_releases) covers the releases a unit fit can make.
  if (options.max_rows_per_unit != 0 && !options.release_lambda_min)
    fail(Status::InvalidArgument, "AdaSSP drops the lambda_min step at row level only (for the "
         "small-n intervals at a public n); a fit of privacy units keeps it");
  if (paper && !options.release_lambda_min)
    fail(Status::InvalidArgument, "AdaSSP drops the lambda_min step with the joint analytic "
         "calibration only; the paper's constants are for its three statistics");

  AdasspReceipt r;
  r.neighbour = options.neighbour;
  r.calibration = options.calibration;
  r.dim = p;
  r.bound_x = bound_x;
  r.bound_y = bound_y;
  r.epsilon = epsilon;
  r.delta = delta;
  r.rho = options.rho;
  // Row level (k = 0) or one unit of at most k rows: the same mechanism, its sensitivities k
  // times larger (proofs/adassp_units.md); nothing below reads n.
  const privacy::AdasspSensitivities s = privacy::adassp_unit_sensitivities(
      options.neighbour, bound_x, bound_y, options.max_rows_per_unit);
  r.max_rows_per_unit = options.max_rows_per_unit;
  r.sensitivity_lambda_min = s.lambda_min;
  r.sensitivity_gram = s.gram;
  r.sensitivity_cross = s.cross;
  r.label_square = options.release_label_square;
  r.lambda_min_released = options.release_lambda_min;
  if (!r.lambda_min_released) r.sensitivity_lambda_min = 0.0;
  // The statistics released, in drawing order: [lambda_min,] X'X, X'y[, y'y].
  const int64_t first = r.lambda_min_released ? 0 : 1;
  const int64_t statistics = (r.label_square ? 4 : 3) - first;
  if (r.label_square) r.sensitivity_label_square = s.label_square;
  const double sensitivities[4] = {r.sensitivity_lambda_min, r.sensitivity_gram,
                                   r.sensitivity_cross, r.sensitivity_label_square};
  if (paper) {
    // The paper's formulas verbatim: its sensitivities are the add/remove ones (B_X^2, B_X^2,
    // B_X B_Y) whatever the relation; the exact delta below uses the relation's true ones.
    const double published[3] = {
        r.sensitivity_lambda_min,
        privacy::adassp_gram_sensitivity(privacy::Neighbour::AddRemove, bound_x),
        privacy::adassp_cross_sensitivity(privacy::Neighbour::AddRemove, bound_x, bound_y)};
    r.sigma_lambda_min = privacy::adassp_paper_sigma(epsilon, delta, published[0]);
    r.sigma_gram = privacy::adassp_paper_sigma(epsilon, delta, published[1]);
    r.sigma_cross = privacy::adassp_paper_sigma(epsilon, delta, published[2]);
  } else {
    if (r.lambda_min_released)
      r.sigma_lambda_min =
          privacy::adassp_joint_sigma(epsilon, delta, r.sensitivity_lambda_min, statistics);
    r.sigma_gram = privacy::adassp_joint_sigma(epsilon, delta, r.sensitivity_gram, statistics);
    r.sigma_cross = privacy::adassp_joint_sigma(epsilon, delta, r.sensitivity_cross, statistics);
    if (r.label_square)
      r.sigma_label_square =
          privacy::adassp_joint_sigma(epsilon, delta, r.sensitivity_label_square, statistics);
  }
  r.sigma_gram_off_diagonal =
      privacy::upward::mul_up(r.sigma_gram, privacy::upward::sqrt_up(0.5));
  const double sigmas[4] = {r.sigma_lambda_min, r.sigma_gram, r.sigma_cross,
                            r.sigma_label_square};
  r.delta_exact =
      privacy::adassp_joint_delta(epsilon, sensitivities + first, sigmas + first, statistics);
  r.zcdp_rho = privacy::adassp_zcdp_rho(sensitivities + first, sigmas + first, statistics);
  // The joint calibration meets delta by construction (analytic_gaussian_sigma); the paper's
  // constants are checked, with a relative margin of 1e-6 for the double-precision evaluation.
  if (paper && !(r.delta_exact * (1.0 + 1e-6) <= delta))
    fail(Status::Precondition, "the paper's AdaSSP constants are not (", epsilon, ", ", delta,
         ")-DP under this neighbour relation: their exact delta is ", r.delta_exact,
         "; use the joint analytic calibration (the default)");
  if (paper) {
    r.lambda_min_shift = privacy::adassp_paper_lambda_min_shift(epsilon, delta, bound_x);
    r.noise_norm_bound =
        privacy::adassp_paper_noise_norm_bound(epsilon, delta, bound_x, p, options.rho);
  } else {
    if (r.lambda_min_released)
      r.lambda_min_shift = privacy::adassp_lambda_min_shift(r.sigma_lambda_min, options.rho);
    r.noise_norm_bound = privacy::adassp_noise_norm_bound(r.sigma_gram, p, options.rho);
  }
  r.eigenvalue_floor = r.sigma_gram;
  r.theorem = paper                         ? kTheoremPaper
              : options.max_rows_per_unit != 0 ? kTheoremUnits
              : !options.release_lambda_min    ? kTheoremWithoutLambdaMin
                                               : entry_of(kAdasspId).theorem;
  return r;
}

std::vector<double> adassp_solve(const Matrix &m, const std::vector<double> &b, double ridge,
                                 double floor, int64_t &floored) {
  const int64_t p = m.rows();
  const linalg::SymmetricEigen eigen = linalg::eigh(m);
  // theta = V diag(1 / max(lambda_i + ridge, floor)) V' b.
  std::vector<double> projected(at(p), 0.0);
  floored = 0;
  for (int64_t k = 0; k < p; ++k) {
    double dot = 0.0;
    for (int64_t i = 0; i < p; ++i) dot += eigen.vectors(i, k) * b[at(i)];
    double value = eigen.values[at(k)] + ridge;
    if (!(value >= floor)) {
      value = floor;
      ++floored;
    }
    projected[at(k)] = dot / value;
  }
  std::vector<double> theta(at(p), 0.0);
  for (int64_t k = 0; k < p; ++k)
    for (int64_t i = 0; i < p; ++i) theta[at(i)] += eigen.vectors(i, k) * projected[at(k)];
  return theta;
}

AdasspFit fit_adassp(const Matrix &xtx, const std::vector<double> &xty, double yty,
                     const AdasspReceipt &plan, random::Rng &rng) {
  const int64_t p = plan.dim;
  if (xtx.rows() != p || xtx.cols() != p || static_cast<int64_t>(xty.size()) != p)
    fail(Status::Dimension, "X'X must be ", p, " x ", p, " and X'y of length ", p);
  check::all_finite(xtx.view(), "X'X");
  check::symmetric(xtx.view(), "X'X");
  for (int64_t i = 0; i < p; ++i) check::finite(xty[at(i)], "X'y");
  if (plan.label_square) check::finite(yty, "y'y");

  AdasspFit fit;
  fit.receipt = plan;
  fit.receipt.seed_fixed = rng.seed_fixed();
  if (plan.lambda_min_released)
    fit.lambda_min_noisy =
        linalg::eigvalsh(xtx).front() + plan.sigma_lambda_min * random::standard_normal(rng);
  fit.xtx = xtx;
  for (int64_t j = 0; j < p; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      const double s = i == j ? plan.sigma_gram : plan.sigma_gram_off_diagonal;
      const double value = xtx(i, j) + s * random::standard_normal(rng);
      fit.xtx(i, j) = value;
      fit.xtx(j, i) = value;
    }
  fit.xty = xty;
  for (int64_t i = 0; i < p; ++i) fit.xty[at(i)] += plan.sigma_cross * random::standard_normal(rng);
  if (plan.label_square) fit.yty = yty + plan.sigma_label_square * random::standard_normal(rng);

  // Post-processing of the release: Alg. 2 lines 2, 3 and 6; without the lambda_min step the
  // released value is taken as 0, its floor, so the ridge is eta.
  if (plan.lambda_min_released)
    fit.receipt.released_lambda_min =
        std::fmax(fit.lambda_min_noisy - plan.lambda_min_shift, 0.0);
  fit.receipt.ridge = privacy::adassp_ridge(plan.noise_norm_bound, fit.receipt.released_lambda_min);
  fit.coefficients = adassp_solve(fit.xtx, fit.xty, fit.receipt.ridge, plan.eigenvalue_floor,
                                  fit.receipt.eigenvalues_floored);
  return fit;
}

double log_density_adassp(double lambda_noisy, const Matrix &xtx_released,
                          const std::vector<double> &xty_released, double yty_released,
                          const Matrix &xtx, const std::vector<double> &xty, double yty,
                          const AdasspReceipt &plan) {
  const int64_t p = plan.dim;
  double sum = plan.lambda_min_released
                   ? normal_log_density(lambda_noisy - linalg::eigvalsh(xtx).front(),
                                        plan.sigma_lambda_min)
                   : 0.0;
  for (int64_t j = 0; j < p; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      if (xtx_released(i, j) != xtx_released(j, i)) return -INFINITY;
      const double s = i == j ? plan.sigma_gram : plan.sigma_gram_off_diagonal;
      sum += normal_log_density(xtx_released(i, j) - xtx(i, j), s);
    }
  for (int64_t i = 0; i < p; ++i)
    sum += normal_log_density(xty_released[at(i)] - xty[at(i)], plan.sigma_cross);
  if (plan.label_square) sum += normal_log_density(yty_released - yty, plan.sigma_label_square);
  return sum;
}

}  // namespace dpcov::mechanisms
