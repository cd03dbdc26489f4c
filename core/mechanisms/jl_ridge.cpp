#include "jl_ridge.hpp"

#include "../error.hpp"
#include "../privacy/jl_threshold.hpp"
#include "../privacy/upward.hpp"
#include "projection.hpp"
#include "statistic.hpp"
#include "registry.hpp"

namespace dpcov::mechanisms {

namespace {

Receipt plan_common(MechanismId id, const Request &request) {
  Receipt receipt = base_receipt(id, request, DeltaUse::Approximate);
  receipt.calibration = Calibration::Theorem;
  receipt.projection_rows = checked_projection_rows(request);
  return receipt;
}

// The release given a way to produce R [A; w I]: runs the test (Alg. 2), picks w, and forms
// S^T S / r.
SketchRelease run(ConstMatrixView gram, const Receipt &planned, random::Rng &rng,
                  const SketchMaker &make_sketch) {
  SketchRelease out{Matrix(), {Matrix(), planned}};
  Receipt &receipt = out.release.receipt;
  if (planned.mechanism == MechanismId::JlRidgeSigmaMin) {
    receipt.test_value = private_sigma_min_squared(gram, receipt, rng);
    receipt.test_passed = receipt.test_value > receipt.threshold_w2;
    receipt.appended_w = appended_w_after_test(receipt.test_value, receipt.threshold_w2);
  }
  out.sketch = make_sketch(receipt.appended_w, rng);
  out.release.matrix = sketch_second_moment(out.sketch);
  record_generator(receipt, rng);
  return out;
}

}  // namespace

Receipt plan_jl_ridge(const Request &request) {
  Receipt receipt = plan_common(MechanismId::JlRidge, request);
  receipt.threshold_w2 = privacy::jl_threshold_squared(request.bound, request.epsilon,
                                                       request.delta, receipt.projection_rows);
  receipt.appended_w = privacy::upward::sqrt_up(receipt.threshold_w2);
  receipt.theorem = theorem_of(MechanismId::JlRidge);
  return receipt;
}

Receipt plan_jl_ridge_sigma_min(const Request &request) {
  Receipt receipt = plan_common(MechanismId::JlRidgeSigmaMin, request);
  plan_sigma_min_test(receipt);
  privacy::check_jl_step_preconditions(request.epsilon, request.delta,
                                       request.epsilon - receipt.test_epsilon,
                                       request.delta - receipt.test_delta);
  receipt.threshold_w2 = privacy::jl_threshold_squared(
      request.bound, request.epsilon - receipt.test_epsilon, request.delta - receipt.test_delta,
      receipt.projection_rows);
  receipt.theorem = theorem_of(MechanismId::JlRidgeSigmaMin);
  return receipt;
}

Release release_jl_ridge(ConstMatrixView gram, const Request &request, const Receipt &planned,
                         random::Rng &rng) {
  return release_jl_ridge_sketch(gram, request, planned, rng).release;
}

Release release_jl_ridge_sigma_min(ConstMatrixView gram, const Request &request,
                                   const Receipt &planned, random::Rng &rng) {
  return release_jl_ridge_sketch(gram, request, planned, rng).release;
}

SketchRelease release_jl_ridge_sketch(ConstMatrixView gram, const Request &request,
                                      const Receipt &planned, random::Rng &rng) {
  if (planned.mechanism != MechanismId::JlRidge && planned.mechanism != MechanismId::JlRidgeSigmaMin)
    fail(Status::InvalidArgument, mechanism_name(planned.mechanism),
         " is not a JL ridge mechanism");
  check_gram_statistic(gram, request);
  return run(gram, planned, rng,
             sketch_from_gram(gram, checked_projection_rows(request)));
}

Request sketch_request(const SketchAccumulator &sketch, double epsilon, double delta,
                       const Options &options) {
  if (sketch.bound() == 0.0)
    fail(Status::InvalidArgument, "the sketch holds no chunk yet, so its bound B is unknown");
  if (options.projection_rows != sketch.projection_rows())
    fail(Status::Incompatible, "projection_rows ", options.projection_rows,
         " differs from the sketch's r = ", sketch.projection_rows());
  return Request{sketch.dim(), sketch.counts().rows, sketch.bound(), epsilon, delta, options};
}

SketchRelease release_jl_ridge_from_sketch(const SketchAccumulator &sketch, const Receipt &planned,
                                           random::Rng &rng) {
  if (planned.mechanism != MechanismId::JlRidge && planned.mechanism != MechanismId::JlRidgeSigmaMin)
    fail(Status::InvalidArgument, mechanism_name(planned.mechanism),
         " is not a JL ridge mechanism");
  const Matrix gram = sketch.gram().matrix();
  SketchRelease out = run(gram.view(), planned, rng,
                          [&sketch](double w, random::Rng &) { return sketch.sketch(w); });
  // The sketch's weights, not `rng`, carry the projection: its seed is what a receipt reports.
  record_generator(out.release.receipt, sketch.generator());
  record_generator(out.release.receipt, rng);
  return out;
}

double log_density_jl_ridge(ConstMatrixView released, ConstMatrixView gram,
                            const Request &request) {
  const Receipt receipt = plan_jl_ridge(request);
  check_gram_statistic(gram, request);
  check_released(released, request.dim);
  using privacy::upward::mul_up;
  return second_moment_log_density(released, receipt.projection_rows,
                                   add_ridge(gram, mul_up(receipt.appended_w, receipt.appended_w)));
}

double log_density_jl_ridge_sigma_min(ConstMatrixView released, double s2, ConstMatrixView gram,
                                      const Request &request) {
  const Receipt receipt = plan_jl_ridge_sigma_min(request);
  check_gram_statistic(gram, request);
  check_released(released, request.dim);
  const double w = appended_w_after_test(s2, receipt.threshold_w2);
  using privacy::upward::mul_up;
  return sigma_min_test_log_density(s2, gram, receipt) +
         second_moment_log_density(released, receipt.projection_rows,
                                   add_ridge(gram, mul_up(w, w)));
}

}  // namespace dpcov::mechanisms
