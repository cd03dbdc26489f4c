#include "eigenvector_sampling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "../check.hpp"
#include "../linalg/blas.hpp"
#include "../postprocess/eigenvalue_clip.hpp"
#include "../privacy/iev_budget.hpp"
#include "../privacy/laplace_scale.hpp"
#include "../random/bingham_dense.hpp"
#include "../random/samplers.hpp"
#include "statistic.hpp"
#include "registry.hpp"

namespace dpcov::mechanisms {

namespace {

// The utility failure probability of Cor. 1 when the caller leaves beta at 0 (constants.md
// section 8). It only shapes the adaptive split, never the privacy.
constexpr double kDefaultBeta = 0.05;

// How far from orthogonal to the earlier thetas a vector given to the IEV step density may be:
// far above the rounding of the release, far below any meaningful departure.
constexpr double kOrthogonalityTolerance = 1e-10;

bool is_iev(MechanismId mechanism) { return mechanism == MechanismId::Iev; }

void check_mechanism(MechanismId mechanism) {
  if (mechanism != MechanismId::Iev && mechanism != MechanismId::KtRank1)
    fail(Status::Internal, "eigenvector sampling called for ", mechanism_name(mechanism));
}

privacy::BinghamExponent exponent_of(const Receipt &receipt) {
  return receipt.calibration == Calibration::BinghamSensitivity
             ? privacy::BinghamExponent::Sensitivity
             : privacy::BinghamExponent::Published;
}

// IEV's steps: C_i is the trailing q x q block (upper triangle) of one d x d matrix, in the
// basis Q_i = H_0 ... H_{i-1} (restricted to its last q columns) of the complement of
// theta_0..theta_{i-1}. Step i draws y_i there (DenseBinghamSampler: no eigendecomposition),
// takes the Householder reflection with H_i y_i = beta_i e_0 and compresses in O(q^2):
// C_{i+1} = H_i C_i H_i without its first row and column. As H_j for j > i leaves e_i alone,
// theta_i = Q_i y_i = sign(beta_i) H_0 ... H_{k-1} e_i: the thetas are the columns of the
// product of the reflectors (LAPACK dorgqr), signed, orthonormal to working precision.
void draw_projected(ConstMatrixView gram, random::Rng &rng, EigenvectorTranscript &t) {
  const int64_t d = gram.rows, steps = t.thetas.cols();
  Matrix c = Matrix::from(gram);
  // Column i: y_i from row i, then overwritten by H_i's vector (implicit 1 at row i).
  Matrix &reflectors = t.thetas;
  std::vector<double> tau(static_cast<size_t>(steps)), sign(static_cast<size_t>(steps));
  std::vector<double> p(static_cast<size_t>(d));
  random::DenseBinghamSampler sampler;
  for (int64_t i = 0; i < steps; ++i) {
    const size_t ui = static_cast<size_t>(i);
    const int64_t q = d - i;
    double *block = &c(i, i), *v = &reflectors(i, i);
    t.proposals[ui] = sampler.sample(rng, q, block, d, t.kappas[ui], v);
    tau[ui] = linalg::householder_reflector(q, v);
    sign[ui] = v[0] < 0.0 ? -1.0 : 1.0;
    v[0] = 1.0;
    if (i + 1 == steps) break;
    // H C H = C - v w^T - w v^T with p = tau C v, w = p - (tau / 2)(v^T p) v.
    linalg::symv_upper(q, tau[ui], block, d, v, 0.0, p.data());
    double vp = 0.0;
    for (int64_t j = 0; j < q; ++j) vp += v[j] * p[static_cast<size_t>(j)];
    const double half = 0.5 * tau[ui] * vp;
    for (int64_t j = 0; j < q; ++j) p[static_cast<size_t>(j)] -= half * v[j];
    linalg::syr2_upper(q - 1, -1.0, v + 1, p.data() + 1, &c(i + 1, i + 1), d);
  }
  linalg::householder_product(d, steps, reflectors.data(), d, tau.data());
  for (int64_t i = 0; i < steps; ++i)
    if (sign[static_cast<size_t>(i)] < 0.0)
      for (int64_t r = 0; r < d; ++r) reflectors(r, i) = -reflectors(r, i);
}

// KT's steps: C_i = G - sum_{j<i} lambda_hat_j theta_j theta_j^T as one dense d x d matrix (upper
// triangle), each draw on the whole sphere by the dense sampler, then a rank-one update, O(d^2).
void draw_rank_one_deflated(ConstMatrixView gram, random::Rng &rng, EigenvectorTranscript &t) {
  const int64_t d = gram.rows, steps = t.thetas.cols();
  Matrix c = Matrix::from(gram);
  random::DenseBinghamSampler sampler;
  for (int64_t i = 0; i < steps; ++i) {
    const size_t ui = static_cast<size_t>(i);
    double *theta = &t.thetas(0, i);
    t.proposals[ui] = sampler.sample(rng, d, c.data(), d, t.kappas[ui], theta);
    if (i + 1 < steps) linalg::syr_upper(d, -t.lambda_hat[ui], theta, c.data(), d);
  }
}

// The eigenvalues of G, in decreasing order.
std::vector<double> eigenvalues_descending(ConstMatrixView gram) {
  std::vector<double> values = linalg::eigvalsh(Matrix::from(gram));
  std::reverse(values.begin(), values.end());
  return values;
}

double quadratic_form(ConstMatrixView g, const double *x) {
  double sum = 0.0;
  for (int64_t j = 0; j < g.cols; ++j) {
    double column = 0.0;
    for (int64_t i = 0; i < g.rows; ++i) column += g(i, j) * x[i];
    sum += x[j] * column;
  }
  return sum;
}

}  // namespace

Receipt plan_eigenvector_sampling(MechanismId mechanism, const Request &request) {
  check_mechanism(mechanism);
  Receipt receipt = base_receipt(mechanism, request, DeltaUse::Pure);
  const Options &options = request.options;
  if (options.rank < 0 || options.rank > request.dim)
    fail(Status::InvalidArgument, "rank must be in [0, d] = [0, ", request.dim,
         "] (0: all d eigenpairs), got ", options.rank);
  const int64_t steps = options.rank == 0 ? request.dim : options.rank;
  receipt.rank = steps;

  // Eigenvalues: the Laplace mechanism on the top `steps` eigenvalues (Alg. 1 step 1).
  receipt.sensitivity_norm = SensitivityNorm::L1;
  receipt.sensitivity = privacy::gram_eigenvalue_l1_sensitivity(options.neighbour, request.bound);
  receipt.epsilon_eigenvalues = privacy::iev_eigenvalue_epsilon(request.epsilon);
  receipt.scale = privacy::laplace_scale(receipt.sensitivity, receipt.epsilon_eigenvalues);

  // Eigenvectors: the exponent's constant.
  // IEV's default is the sensitivity-calibrated exponent with the adaptive split below, the best
  // proven configuration (twice the published exponent): at eps = 4 it cuts the error on diabetes,
  // breast_cancer and digits by 13-35% (bench/results/side_by_side.md), at eps = 16 and 64 on Wine
  // from 1.11 and 0.98 to 0.98 and 0.55 (bench/results/iev_high_epsilon.md). The paper's own
  // (published exponent, uniform split) stays available by name. KT keeps the published ones.
  switch (options.calibration) {
    case Calibration::Default:
      receipt.calibration =
          is_iev(mechanism) ? Calibration::BinghamSensitivity : Calibration::BinghamPublished;
      break;
    case Calibration::BinghamPublished: receipt.calibration = Calibration::BinghamPublished; break;
    case Calibration::BinghamSensitivity:
      receipt.calibration = Calibration::BinghamSensitivity;
      break;
    default: fail_calibration(mechanism, options.calibration);
  }
  receipt.exponent_factor = privacy::bingham_exponent_factor(exponent_of(receipt), options.neighbour);

  // Eigenvectors: the split of eps / 2 over the steps.
  const BudgetSplit split = options.budget_split == BudgetSplit::Default
                               ? (is_iev(mechanism) ? BudgetSplit::Adaptive : BudgetSplit::Uniform)
                               : options.budget_split;
  switch (split) {
    case BudgetSplit::Uniform:
      if (options.beta != 0.0)
        fail(Status::InvalidArgument, "beta applies only to the adaptive budget split; leave it 0");
      receipt.budget_split = BudgetSplit::Uniform;
      receipt.epsilon_step = privacy::iev_uniform_step_epsilon(request.epsilon, steps);
      break;
    case BudgetSplit::Adaptive:
      receipt.budget_split = BudgetSplit::Adaptive;
      receipt.beta = options.beta == 0.0 ? kDefaultBeta : options.beta;
      receipt.tau = privacy::iev_adaptive_tau(receipt.scale, steps, receipt.beta);
      break;
    default:
      fail(Status::InvalidArgument, "unknown budget split ",
           static_cast<int32_t>(options.budget_split));
  }

  // Post-processing: the spectrum of a Gram matrix of n rows of norm <= B lies in [0, n B^2]. n is
  // public only under replace-one; under add/remove only the lower clip is data-independent.
  receipt.clip_upper = options.neighbour == privacy::Neighbour::ReplaceOne
                           ? static_cast<double>(request.n) * request.bound * request.bound
                           : std::numeric_limits<double>::infinity();
  receipt.theorem = theorem_of(mechanism);
  return receipt;
}

EigenvectorRelease release_eigenvector_sampling(MechanismId mechanism, ConstMatrixView gram,
                                                const Request &request, const Receipt &planned,
                                                random::Rng &rng) {
  EigenvectorRelease out{Release{Matrix(), planned}, {}};
  Receipt &receipt = out.release.receipt;
  check_gram_statistic(gram, request);
  const int64_t d = request.dim, steps = receipt.rank;
  const size_t k = static_cast<size_t>(steps);
  const std::vector<double> values = eigenvalues_descending(gram);

  EigenvectorTranscript &t = out.transcript;
  t.lambda_hat.resize(k);
  for (size_t i = 0; i < k; ++i) t.lambda_hat[i] = values[i] + random::laplace(rng, receipt.scale);
  t.step_epsilons =
      receipt.budget_split == BudgetSplit::Adaptive
          ? privacy::iev_adaptive_step_epsilons(t.lambda_hat, receipt.tau,
                                                privacy::iev_eigenvector_epsilon(request.epsilon))
          : std::vector<double>(k, receipt.epsilon_step);
  t.kappas.resize(k);
  for (size_t i = 0; i < k; ++i)
    t.kappas[i] = privacy::bingham_exponent(exponent_of(receipt), receipt.neighbour,
                                            t.step_epsilons[i], request.bound);
  t.thetas = Matrix(d, steps);
  t.proposals.resize(k);
  if (is_iev(mechanism))
    draw_projected(gram, rng, t);
  else
    draw_rank_one_deflated(gram, rng, t);

  // C_hat = sum_i lambda_hat_i theta_i theta_i^T, spectrum clipped to [0, clip_upper]. For IEV the
  // thetas are orthonormal, so clipping lambda_hat is clipping the spectrum; for KT they are not,
  // and the clip acts on the eigenvalues of the sum.
  Matrix scaled = t.thetas;
  for (int64_t i = 0; i < steps; ++i) {
    const double l = t.lambda_hat[static_cast<size_t>(i)];
    const double weight = is_iev(mechanism) ? std::clamp(l, 0.0, receipt.clip_upper) : l;
    for (int64_t r = 0; r < d; ++r) scaled(r, i) *= weight;
  }
  Matrix sum = linalg::multiply(scaled, t.thetas, linalg::Trans::No, linalg::Trans::Yes);
  linalg::symmetrize_from_upper(sum);
  out.release.matrix = is_iev(mechanism) ? std::move(sum)
                                         : postprocess::clip_eigenvalues(sum, 0.0, receipt.clip_upper);

  int64_t proposals = 0;
  for (int64_t p : t.proposals) proposals += p;
  receipt.bingham_proposals = proposals;
  receipt.bingham_rejections = proposals - steps;
  record_generator(receipt, rng);
  return out;
}

double eigenvalue_log_density(MechanismId mechanism, std::span<const double> lambda_hat,
                              ConstMatrixView gram, const Request &request) {
  const Receipt receipt = plan_eigenvector_sampling(mechanism, request);
  check_gram_statistic(gram, request);
  if (static_cast<int64_t>(lambda_hat.size()) != receipt.rank)
    fail(Status::Dimension, "expected ", receipt.rank, " released eigenvalues, got ",
         lambda_hat.size());
  const std::vector<double> lambda = eigenvalues_descending(gram);
  const double b = receipt.scale;
  double sum = 0.0;
  for (size_t i = 0; i < lambda_hat.size(); ++i) {
    if (!std::isfinite(lambda_hat[i]))
      fail(Status::NonFinite, "released eigenvalue ", i, " is not finite");
    sum += -std::fabs(lambda_hat[i] - lambda[i]) / b - random::laplace_log_normaliser(b);
  }
  return sum;
}

double step_log_unnormalised_density(MechanismId mechanism, ConstMatrixView gram,
                                     const EigenvectorTranscript &transcript, int64_t step,
                                     const double *theta) {
  check_mechanism(mechanism);
  check::not_null(theta, "theta");
  const int64_t d = transcript.thetas.rows();
  if (gram.rows != d || gram.cols != d)
    fail(Status::Dimension, "gram must be ", d, " x ", d, " like the transcript");
  if (step < 0 || step >= transcript.thetas.cols())
    fail(Status::InvalidArgument, "step must be in [0, ", transcript.thetas.cols(), "), got ",
         step);
  double value = quadratic_form(gram, theta);
  for (int64_t j = 0; j < step; ++j) {
    double dot = 0.0;
    for (int64_t r = 0; r < d; ++r) dot += transcript.thetas(r, j) * theta[r];
    if (is_iev(mechanism)) {
      if (std::fabs(dot) > kOrthogonalityTolerance)
        fail(Status::InvalidArgument, "theta is not orthogonal to theta_", j, " (dot ", dot, ")");
    } else {
      value -= transcript.lambda_hat[static_cast<size_t>(j)] * dot * dot;
    }
  }
  return transcript.kappas[static_cast<size_t>(step)] * value;
}

}  // namespace dpcov::mechanisms
