#include "inverse_wishart.hpp"

#include "../error.hpp"
#include "../privacy/jl_threshold.hpp"
#include "../privacy/upward.hpp"
#include "../random/wishart.hpp"
#include "projection.hpp"
#include "statistic.hpp"
#include "registry.hpp"

namespace dpcov::mechanisms {

namespace {

constexpr int64_t kMaxPosteriorDof = int64_t{1} << 53;

Receipt plan_common(MechanismId id, const Request &request) {
  Receipt receipt = base_receipt(id, request, DeltaUse::Approximate);
  receipt.calibration = Calibration::Theorem;
  const int64_t m = request.options.posterior_dof;
  if (m < request.dim)
    fail(Status::Precondition, "precondition m >= d of the inverse-Wishart posterior (Sheffet ",
         "Thm 5.1 / B.4) fails: posterior_dof m = ", m, ", d = ", request.dim);
  // m is carried as a double (the receipt's dof, the Bartlett factor's chi-square degrees m - i):
  // above 2^53 it is rounded there, and the released law is not the one the proof is about.
  if (m > kMaxPosteriorDof)
    fail(Status::InvalidArgument, "posterior_dof m must be at most 2^53 = ", kMaxPosteriorDof,
         " (the largest degrees of freedom a double holds exactly), got ", m);
  receipt.dof = static_cast<double>(m);
  return receipt;
}

Matrix posterior_scale(ConstMatrixView gram, double w) {
  return add_ridge(gram, privacy::upward::mul_up(w, w));
}

Release run(ConstMatrixView gram, const Request &request, const Receipt &planned,
            random::Rng &rng) {
  Release out{Matrix(), planned};
  check_gram_statistic(gram, request);
  Receipt &receipt = out.receipt;
  if (planned.mechanism == MechanismId::InverseWishartSigmaMin) {
    receipt.test_value = private_sigma_min_squared(gram, receipt, rng);
    receipt.test_passed = receipt.test_value > receipt.threshold_w2;
    receipt.appended_w = appended_w_after_test(receipt.test_value, receipt.threshold_w2);
  }
  out.matrix = random::inverse_wishart(rng, receipt.dof, posterior_scale(gram, receipt.appended_w));
  record_generator(receipt, rng);
  return out;
}

}  // namespace

Receipt plan_inverse_wishart(const Request &request) {
  Receipt receipt = plan_common(MechanismId::InverseWishart, request);
  receipt.threshold_w2 = privacy::inverse_wishart_prior_squared(
      request.bound, request.epsilon, request.delta, request.options.posterior_dof);
  receipt.appended_w = privacy::upward::sqrt_up(receipt.threshold_w2);
  receipt.theorem = theorem_of(MechanismId::InverseWishart);
  return receipt;
}

Receipt plan_inverse_wishart_sigma_min(const Request &request) {
  Receipt receipt = plan_common(MechanismId::InverseWishartSigmaMin, request);
  plan_sigma_min_test(receipt);
  privacy::check_jl_step_preconditions(request.epsilon, request.delta,
                                       request.epsilon - receipt.test_epsilon,
                                       request.delta - receipt.test_delta);
  receipt.threshold_w2 = privacy::inverse_wishart_prior_squared(
      request.bound, request.epsilon - receipt.test_epsilon, request.delta - receipt.test_delta,
      request.options.posterior_dof);
  receipt.theorem = theorem_of(MechanismId::InverseWishartSigmaMin);
  return receipt;
}

Release release_inverse_wishart(ConstMatrixView gram, const Request &request,
                                const Receipt &planned, random::Rng &rng) {
  return run(gram, request, planned, rng);
}

Release release_inverse_wishart_sigma_min(ConstMatrixView gram, const Request &request,
                                          const Receipt &planned, random::Rng &rng) {
  return run(gram, request, planned, rng);
}

double log_density_inverse_wishart(ConstMatrixView released, ConstMatrixView gram,
                                   const Request &request) {
  const Receipt receipt = plan_inverse_wishart(request);
  check_gram_statistic(gram, request);
  check_released(released, request.dim);
  return random::inverse_wishart_log_density(Matrix::from(released), receipt.dof,
                                             posterior_scale(gram, receipt.appended_w));
}

double log_density_inverse_wishart_sigma_min(ConstMatrixView released, double s2,
                                             ConstMatrixView gram, const Request &request) {
  const Receipt receipt = plan_inverse_wishart_sigma_min(request);
  check_gram_statistic(gram, request);
  check_released(released, request.dim);
  const double w = appended_w_after_test(s2, receipt.threshold_w2);
  return sigma_min_test_log_density(s2, gram, receipt) +
         random::inverse_wishart_log_density(Matrix::from(released), receipt.dof,
                                             posterior_scale(gram, w));
}

}  // namespace dpcov::mechanisms
