#include "private_glasso.hpp"

#include "../check.hpp"
#include "../error.hpp"
#include "../postprocess/eigenvalue_clip.hpp"
#include "mechanism.hpp"
#include "public_receipt.hpp"

namespace dpcov::mechanisms {

GlassoPerturbation glasso_perturbation(MechanismId mechanism) {
  return entry_of(static_cast<int32_t>(mechanism)).glasso;
}

Request private_glasso_request(MechanismId mechanism, Request request, double rho) {
  const GlassoPerturbation kind = glasso_perturbation(mechanism);
  if (kind == GlassoPerturbation::Unsupported)
    fail(Status::InvalidArgument, mechanism_name(mechanism),
         " is not a Wang-Huai-Xu perturbation: use ",
         names_where(
             [](const RegistryEntry &e) { return e.glasso != GlassoPerturbation::Unsupported; },
             " or ",
             [](const RegistryEntry &e) {
               return e.privacy == PrivacyModel::NotPrivate ? " (audit only)" : "";
             }));
  check::positive_finite(rho, "glasso penalty rho");
  // The covariance scale divides by n, which only replace-one neighbours make public.
  if (kind == GlassoPerturbation::Covariance && !n_is_public(request.options.neighbour))
    fail(Status::InvalidArgument, "the private graphical lasso solves on G / n with a public n: ",
         "it is stated for replace-one neighbours only (under add/remove n is private)");
  if (kind == GlassoPerturbation::Output) request.options.glasso_rho = rho;
  return request;
}

Receipt plan_private_glasso(MechanismId mechanism, const Request &request, double rho) {
  const Request r = private_glasso_request(mechanism, request, rho);
  Receipt receipt = plan(mechanism, r);
  if (r.n < 1) fail(Status::Dimension, "n must be >= 1 (the covariance is G / n), got ", r.n);
  receipt.glasso_rho = rho;
  return receipt;
}

PrivateGlasso private_glasso(MechanismId mechanism, ConstMatrixView gram, const Request &request,
                             double rho, const solvers::GlassoOptions &glasso,
                             random::Rng &rng) {
  return private_glasso(mechanism, gram, request, rho, plan_private_glasso(mechanism, request, rho),
                        glasso, rng);
}

namespace {

// S~ = Y / n, then the nearest PSD matrix: a Laplace or Gaussian release is indefinite at small
// epsilon, and block coordinate descent needs a positive definite start (S~ + rho I is one once
// S~ is PSD and the diagonal is penalised). Both steps read only the release.
Matrix covariance_of(Matrix y, int64_t n) {
  const double inverse_n = 1.0 / static_cast<double>(n);
  for (int64_t j = 0; j < y.cols(); ++j)
    for (int64_t i = 0; i < y.rows(); ++i) y(i, j) *= inverse_n;
  return postprocess::project_psd(y);
}

}  // namespace

PrivateGlassoCovariance private_glasso_covariance(MechanismId mechanism, ConstMatrixView gram,
                                                  const Request &request, const Receipt &planned,
                                                  random::Rng &rng) {
  if (glasso_perturbation(mechanism) == GlassoPerturbation::Output)
    fail(Status::InvalidArgument, mechanism_name(mechanism), " perturbs the precision matrix ",
         "itself: it releases no covariance (use the covariance perturbations)");
  // Any positive rho: the request's checks, which do not depend on it.
  const Request r = private_glasso_request(mechanism, request, 1.0);
  Release release = mechanisms::release(mechanism, gram, r, planned, rng);
  PrivateGlassoCovariance out{covariance_of(std::move(release.matrix), r.n), release.receipt};
  out.receipt.glasso_rho = 0.0;
  return out;
}

PrivateGlasso private_glasso(MechanismId mechanism, ConstMatrixView gram, const Request &request,
                             double rho, const Receipt &planned,
                             const solvers::GlassoOptions &glasso, random::Rng &rng) {
  const Request r = private_glasso_request(mechanism, request, rho);
  solvers::GlassoOptions options = glasso;
  options.rho = rho;
  solvers::validate(options);

  PrivateGlasso out;
  if (glasso_perturbation(mechanism) == GlassoPerturbation::Output) {
    Release release = mechanisms::release(mechanism, gram, r, planned, rng);
    out.receipt = release.receipt;
    out.receipt.glasso_rho = rho;
    out.precision = std::move(release.matrix);
    return out;
  }
  PrivateGlassoCovariance released = private_glasso_covariance(mechanism, gram, r, planned, rng);
  out.receipt = released.receipt;
  out.receipt.glasso_rho = rho;
  out.solve = solvers::graphical_lasso_undisclosed(released.covariance, options);
  out.has_solve = true;
  out.precision = out.solve.precision;
  return out;
}

}  // namespace dpcov::mechanisms
