#include "iev_step.hpp"

#include <cmath>

#include "../error.hpp"
#include "../linalg/blas.hpp"
#include "../mechanisms/eigenvector_sampling.hpp"
#include "../privacy/iev_budget.hpp"
#include "distributions.hpp"

namespace dpcov::audit {

namespace {

using mechanisms::MechanismId;

void check_circle_request(const mechanisms::Request &request) {
  if (request.dim != 2)
    fail(Status::InvalidArgument, "the circle step check needs d = 2, got d = ", request.dim);
  if (request.options.budget_split == mechanisms::BudgetSplit::Adaptive)
    fail(Status::InvalidArgument, "the circle step check needs the uniform budget split (the ",
         "adaptive split makes kappa depend on the released eigenvalues)");
}

void check_gram(ConstMatrixView gram) {
  if (gram.rows != 2 || gram.cols != 2)
    fail(Status::Dimension, "the circle step needs a 2 x 2 statistic, got ", gram.rows, " x ",
         gram.cols);
}

}  // namespace

double iev_first_step_exponent(const mechanisms::Request &request) {
  const mechanisms::Receipt receipt = mechanisms::plan_eigenvector_sampling(MechanismId::Iev, request);
  const privacy::BinghamExponent exponent =
      receipt.calibration == mechanisms::Calibration::BinghamSensitivity
          ? privacy::BinghamExponent::Sensitivity
          : privacy::BinghamExponent::Published;
  return privacy::bingham_exponent(exponent, receipt.neighbour, receipt.epsilon_step, request.bound);
}

double circle_step_log_density(const double *theta, ConstMatrixView gram, double kappa) {
  check_gram(gram);
  const std::vector<double> values = linalg::eigvalsh(Matrix::from(gram));  // ascending
  const double score = gram(0, 0) * theta[0] * theta[0] + 2.0 * gram(0, 1) * theta[0] * theta[1] +
                       gram(1, 1) * theta[1] * theta[1];
  return kappa * score - bingham_circle_log_normaliser(kappa * values[1], kappa * values[0]);
}

double circle_step_angle_transform(const double *theta, ConstMatrixView gram, double kappa) {
  check_gram(gram);
  const linalg::SymmetricEigen eig = linalg::eigh(Matrix::from(gram));  // ascending: top is 1
  const double along = eig.vectors(0, 1) * theta[0] + eig.vectors(1, 1) * theta[1];
  const double across = eig.vectors(0, 0) * theta[0] + eig.vectors(1, 0) * theta[1];
  // The density depends on psi only through cos 2 psi, symmetric about 0: folding psi into
  // [0, pi) (theta and -theta) keeps its law exp(c cos 2 psi) / (pi I_0(c)).
  const double psi = std::atan2(across, along);
  const double c = 0.5 * kappa * (eig.values[1] - eig.values[0]);
  return bingham_circle_angle_cdf(c, psi);
}

Target iev_circle_step_target(const mechanisms::Request &request) {
  check_circle_request(request);
  const mechanisms::Receipt receipt = mechanisms::plan_eigenvector_sampling(MechanismId::Iev, request);
  const double kappa = iev_first_step_exponent(request);
  Target target;
  target.name = "iev_step_1_circle";
  target.epsilon = receipt.epsilon_step;
  target.delta = 0.0;
  target.noise = {NoiseFamily::ClaimedLaw, NoiseBase::Gram, 0.0, 0.0};
  target.release = [request, kappa](ConstMatrixView gram, int64_t n, random::Rng &rng) {
    mechanisms::Request r = request;
    r.n = n;
    const mechanisms::EigenvectorRelease out =
        mechanisms::release_eigenvector_sampling(MechanismId::Iev, gram, r,
                                                 mechanisms::plan_eigenvector_sampling(MechanismId::Iev, r), rng);
    if (out.transcript.kappas.front() != kappa)
      fail(Status::Internal, "the release's first exponent ", out.transcript.kappas.front(),
           " differs from the planned ", kappa);
    Matrix theta(2, 1);
    theta(0, 0) = out.transcript.thetas(0, 0);
    theta(1, 0) = out.transcript.thetas(1, 0);
    return Output{std::move(theta), 0.0, false};
  };
  target.log_density = [kappa](const Output &out, ConstMatrixView gram, int64_t) {
    return circle_step_log_density(out.matrix.data(), gram, kappa);
  };
  target.transforms = [kappa](const Output &out, ConstMatrixView gram, int64_t,
                              std::vector<double> &uniforms) {
    uniforms.push_back(circle_step_angle_transform(out.matrix.data(), gram, kappa));
  };
  return target;
}

}  // namespace dpcov::audit
