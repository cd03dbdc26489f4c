#include "glasso_output.hpp"

#include "../error.hpp"
#include "../privacy/glasso_output.hpp"
#include "../random/samplers.hpp"
#include "statistic.hpp"
#include "registry.hpp"

namespace dpcov::mechanisms {

namespace {

// The solution is perturbed by noise whose density is evaluated around it, so it is solved well
// beyond the estimators' default tolerance: the log-density then refers to the matrix the release
// used up to rounding, whatever the starting point.
constexpr double kGlassoOutputTolerance = 1e-10;
constexpr int64_t kGlassoOutputMaxSweeps = 10000;

}  // namespace

Receipt plan_glasso_output(const Request &request) {
  Receipt receipt = base_receipt(MechanismId::GlassoOutputWishart, request, DeltaUse::Pure);
  if (!request.options.audit_only_not_private)
    fail(Status::NotPrivate,
         "glasso_output_wishart (Wang-Huai-Xu 2018 Alg. 1) is not differentially private: its "
         "Wishart noise has no mass outside the positive-definite cone (proofs/glasso_output.md); "
         "it runs only as an audit target with audit_only_not_private = 1");
  if (request.options.glasso_rho == 0.0)
    fail(Status::InvalidArgument, "glasso_output_wishart needs the public graphical-lasso "
         "penalty rho: run it through dpcov_private_glasso_plan / dpcov_private_glasso_release");
  if (request.options.neighbour != privacy::Neighbour::ReplaceOne)
    fail(Status::InvalidArgument, "glasso_output_wishart solves on G / n with a public n: it is "
         "stated for replace-one neighbours only");
  receipt.calibration = Calibration::Theorem;
  receipt.sensitivity_norm = SensitivityNorm::None;
  receipt.not_dp = true;
  receipt.glasso_rho = request.options.glasso_rho;
  receipt.dof = privacy::glasso_output_wishart_dof_not_dp(request.dim);
  receipt.scale = privacy::glasso_output_wishart_scale_not_dp(
      request.dim, request.n, request.bound, request.epsilon, request.options.glasso_rho);
  receipt.theorem = theorem_of(MechanismId::GlassoOutputWishart);
  return receipt;
}

solvers::GlassoResult glasso_output_solution(ConstMatrixView gram, const Request &request) {
  check_gram_statistic(gram, request);
  Matrix s(request.dim, request.dim);
  const double inverse_n = 1.0 / static_cast<double>(request.n);
  for (int64_t j = 0; j < request.dim; ++j)
    for (int64_t i = 0; i < request.dim; ++i) s(i, j) = gram(i, j) * inverse_n;
  solvers::GlassoOptions options;
  options.rho = request.options.glasso_rho;
  options.penalize_diagonal = true;
  options.tol = kGlassoOutputTolerance;
  options.max_iter = kGlassoOutputMaxSweeps;
  return solvers::graphical_lasso_undisclosed(s, options);
}

Release release_glasso_output(ConstMatrixView gram, const Request &request, const Receipt &planned,
                              random::Rng &rng) {
  Release out{Matrix(), planned};
  const solvers::GlassoResult solution = glasso_output_solution(gram, request);
  const Matrix noise =
      random::wishart(rng, out.receipt.dof, scaled_identity(out.receipt.dim, out.receipt.scale));
  out.matrix = add_mirrored(solution.precision.view(), noise);
  record_generator(out.receipt, rng);
  return out;
}

double log_density_glasso_output(ConstMatrixView released, ConstMatrixView gram,
                                 const Request &request) {
  const Receipt receipt = plan_glasso_output(request);
  check_released(released, request.dim);
  const solvers::GlassoResult solution = glasso_output_solution(gram, request);
  return random::wishart_log_density(subtract_mirrored(released, solution.precision.view()),
                                     receipt.dof, scaled_identity(receipt.dim, receipt.scale));
}

}  // namespace dpcov::mechanisms
