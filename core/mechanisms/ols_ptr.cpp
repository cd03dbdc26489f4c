#include "ols_ptr.hpp"

#include <cmath>

#include "../check.hpp"
#include "../error.hpp"
#include "../privacy/jl_threshold.hpp"
#include "analyze_gauss.hpp"
#include "jl_ridge.hpp"
#include "projection.hpp"
#include "statistic.hpp"
#include "registry.hpp"

namespace dpcov::mechanisms {

namespace {

// The test, then the projection of the data alone; Status::Refused when the test fails. A refusal
// is an output of the test (its eps/2, delta/2 are spent): the draws stay consumed in `rng`, and
// the message carries only the refusal and public constants, never the noisy test value.
ProjectedData run(ConstMatrixView gram, const Receipt &planned, random::Rng &rng,
                  const SketchMaker &make_sketch) {
  ProjectedData out{Matrix(), {Matrix(), planned}};
  Receipt &receipt = out.release.receipt;
  receipt.test_value = private_sigma_min_squared(gram, receipt, rng);
  receipt.test_passed = receipt.test_value > receipt.threshold_w2;
  if (!receipt.test_passed)
    fail(Status::Refused, "refused: data not well spread. The private estimate of sigma_min(A)^2 ",
         "is not above the threshold w^2 = ", receipt.threshold_w2,
         " of Sheffet's OLS Alg. 1, so nothing is released. More rows, a smaller r or a larger ",
         "epsilon lower the threshold relative to sigma_min(A)^2");
  out.sketch = make_sketch(0.0, rng);
  out.release.matrix = sketch_second_moment(out.sketch);
  record_generator(receipt, rng);
  return out;
}

int64_t coefficient_count(const solvers::RegressionSpec &spec) {
  return static_cast<int64_t>(spec.features.size()) + (spec.intercept_column >= 0 ? 1 : 0);
}

// Checks the regression against the projection before any privacy is spent.
solvers::RegressionSpec projected_spec(solvers::RegressionSpec spec, int64_t d, int64_t r) {
  const int64_t p = coefficient_count(spec);
  if (r <= p)
    fail(Status::Precondition, "precondition r > p of the projected OLS inference fails: r = ", r,
         " projection rows, p = ", p, " coefficients (the t-values have r - p degrees of freedom)");
  spec.rows = r;
  solvers::validate(spec, d);
  return spec;
}

OlsInference infer(ProjectedData data, const solvers::RegressionSpec &spec,
                   bool coverage_guarantee) {
  OlsInference out;
  out.fit = solvers::regress(data.release.matrix.view(), spec);
  for (const double p : out.fit.p_values) out.reject.push_back(p < 1.0 - spec.level);
  out.coverage_guarantee = coverage_guarantee;
  out.data = std::move(data);
  return out;
}

}  // namespace

Receipt plan_ols_jl(const Request &request) {
  Receipt receipt = base_receipt(MechanismId::OlsJl, request, DeltaUse::Approximate);
  receipt.calibration = Calibration::Theorem;
  receipt.projection_rows = checked_projection_rows(request);
  plan_sigma_min_test(receipt);
  privacy::check_jl_step_preconditions(request.epsilon, request.delta,
                                       request.epsilon - receipt.test_epsilon,
                                       request.delta - receipt.test_delta);
  receipt.threshold_w2 = privacy::jl_threshold_squared(
      request.bound, request.epsilon - receipt.test_epsilon, request.delta - receipt.test_delta,
      receipt.projection_rows);
  receipt.theorem = theorem_of(MechanismId::OlsJl);
  return receipt;
}

ProjectedData release_ols_jl_projection(ConstMatrixView gram, const Request &request,
                                        const Receipt &planned, random::Rng &rng) {
  check_gram_statistic(gram, request);
  return run(gram, planned, rng, sketch_from_gram(gram, checked_projection_rows(request)));
}

Release release_ols_jl(ConstMatrixView gram, const Request &request, const Receipt &planned,
                       random::Rng &rng) {
  return release_ols_jl_projection(gram, request, planned, rng).release;
}

ProjectedData release_ols_jl_from_sketch(const SketchAccumulator &sketch, const Receipt &planned,
                                         random::Rng &rng) {
  const Matrix gram = sketch.gram().matrix();
  ProjectedData out = run(gram.view(), planned, rng,
                          [&sketch](double, random::Rng &) { return sketch.data_sketch(); });
  record_generator(out.release.receipt, sketch.generator());
  record_generator(out.release.receipt, rng);
  return out;
}

double log_density_ols_jl(ConstMatrixView released, double s2, ConstMatrixView gram,
                          const Request &request) {
  const Receipt receipt = plan_ols_jl(request);
  check_gram_statistic(gram, request);
  check_released(released, request.dim);
  check::finite(s2, "test value s2");
  if (!(s2 > receipt.threshold_w2)) return -INFINITY;
  return sigma_min_test_log_density(s2, gram, receipt) +
         second_moment_log_density(released, receipt.projection_rows, Matrix::from(gram));
}

double log_refusal_probability_ols_jl(ConstMatrixView gram, const Request &request) {
  const Receipt receipt = plan_ols_jl(request);
  check_gram_statistic(gram, request);
  return sigma_min_test_log_probability_at_most(receipt.threshold_w2, gram, receipt);
}

OlsInference ols_jl_inference(ConstMatrixView gram, const Request &request,
                              solvers::RegressionSpec spec, random::Rng &rng) {
  return ols_jl_inference(gram, request, plan_ols_jl(request), std::move(spec), rng);
}

OlsInference ols_jl_inference(ConstMatrixView gram, const Request &request, const Receipt &planned,
                              solvers::RegressionSpec spec, random::Rng &rng) {
  spec = projected_spec(std::move(spec), request.dim, planned.projection_rows);
  return infer(release_ols_jl_projection(gram, request, planned, rng), spec, true);
}

OlsInference ols_jl_inference_from_sketch(const SketchAccumulator &sketch, double epsilon,
                                          double delta, const Options &options,
                                          solvers::RegressionSpec spec, random::Rng &rng) {
  const Receipt planned = plan_ols_jl(sketch_request(sketch, epsilon, delta, options));
  spec = projected_spec(std::move(spec), sketch.dim(), sketch.projection_rows());
  return infer(release_ols_jl_from_sketch(sketch, planned, rng), spec, true);
}

OlsInference ols_analyze_gauss_inference(ConstMatrixView gram, const Request &request,
                                         solvers::RegressionSpec spec, random::Rng &rng) {
  return ols_analyze_gauss_inference(gram, request, plan_analyze_gauss(request), std::move(spec),
                                     rng);
}

OlsInference ols_analyze_gauss_inference(ConstMatrixView gram, const Request &request,
                                         const Receipt &planned, solvers::RegressionSpec spec,
                                         random::Rng &rng) {
  // The inference reads n (n - p degrees of freedom, the standard errors): public under
  // replace-one only. Refused before anything is drawn.
  if (request.options.neighbour == privacy::Neighbour::AddRemove)
    fail(Status::Incompatible, "Analyze Gauss OLS inference reads the number of rows (n - p ",
         "degrees of freedom), which add/remove neighbours keep private: release the second ",
         "moment matrix (dpcov_mechanism_release) and take intervals from it with a released ",
         "count (dpcov_ols_intervals)");
  spec.rows = request.n;
  solvers::validate(spec, request.dim);
  ProjectedData release{Matrix(), release_analyze_gauss(gram, request, planned, rng)};
  try {
    return infer(std::move(release), spec, false);
  } catch (const Error &e) {
    if (e.status() != Status::NotPositiveDefinite) throw;
    // The generic advice (a ridge) is one this entry point refuses.
    fail(Status::NotPositiveDefinite, "the noisy X'X of the Analyze Gauss release is not ",
         "positive definite; the noise was drawn (the budget is spent) and this release cannot ",
         "be fitted without a ridge, which this inference refuses. To keep a release that may be ",
         "indefinite, release it first (dpcov_mechanism_release) and fit it with a ridge ",
         "(dpcov_regression_fit) or take bootstrap intervals (dpcov_ols_bootstrap_intervals)");
  }
}

}  // namespace dpcov::mechanisms
