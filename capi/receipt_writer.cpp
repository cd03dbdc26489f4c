#include "receipt_writer.hpp"
#include "receipt_prefix.hpp"
#include "struct_size.hpp"

#include <cmath>
#include <cstddef>
#include <cstring>
#include <utility>

#include "../core/check.hpp"
#include "../core/mechanisms/mechanism.hpp"

namespace dpcov::capi {

void check_receipt_output(const dpcov_receipt *out) {
  struct_bytes(out, "receipt");
}

dpcov_receipt c_receipt_fields(const mechanisms::Receipt &receipt) {
  dpcov_receipt c{};
  c.mechanism = static_cast<int32_t>(receipt.mechanism);
  c.privacy_model = registry_prefix(c.mechanism).privacy_model;
  c.neighbour = static_cast<int32_t>(receipt.neighbour);
  c.calibration = static_cast<int32_t>(receipt.calibration);
  c.not_dp = receipt.not_dp ? 1 : 0;
  c.seed_fixed = receipt.seed_fixed ? 1 : 0;
  c.sensitivity_norm = static_cast<int32_t>(receipt.sensitivity_norm);
  c.lambda_min_scope = static_cast<int32_t>(receipt.lambda_min_scope);
  c.dim = receipt.dim;
  c.n = receipt.n;
  c.bound = receipt.bound;
  c.epsilon = receipt.epsilon;
  c.delta = receipt.delta;
  c.sensitivity = receipt.sensitivity;
  c.sigma = receipt.sigma;
  c.scale = receipt.scale;
  c.dof = receipt.dof;
  c.lambda_min_bound = receipt.lambda_min_bound;
  c.epsilon_eigenvalues = receipt.epsilon_eigenvalues;
  c.epsilon_step = receipt.epsilon_step;
  c.budget_split = static_cast<int32_t>(receipt.budget_split);
  c.rank = receipt.rank;
  c.beta = receipt.beta;
  c.tau = receipt.tau;
  c.exponent_factor = receipt.exponent_factor;
  c.clip_upper = receipt.clip_upper;
  c.bingham_proposals = receipt.bingham_proposals;
  c.bingham_rejections = receipt.bingham_rejections;
  c.projection_rows = receipt.projection_rows;
  c.threshold_w2 = receipt.threshold_w2;
  c.appended_w = receipt.appended_w;
  c.test_epsilon = receipt.test_epsilon;
  c.test_delta = receipt.test_delta;
  c.test_scale = receipt.test_scale;
  c.test_shift = receipt.test_shift;
  c.test_value = receipt.test_value;
  c.test_passed = receipt.test_passed ? 1 : 0;
  c.glasso_rho = receipt.glasso_rho;
  c.max_rows_per_unit = receipt.max_rows_per_unit;
  c.generator = static_cast<int32_t>(receipt.generator);
  c.numerics = static_cast<int32_t>(receipt.numerics);
  const size_t length = std::strlen(receipt.theorem);
  if (length >= sizeof c.theorem)
    fail(dpcov::Status::Internal, "theorem string of ", receipt.theorem,
         " is longer than the receipt");
  std::memcpy(c.theorem, receipt.theorem, length + 1);
  return c;
}

dpcov_receipt c_receipt(const mechanisms::Receipt &receipt, const dpcov_receipt *out) {
  dpcov_receipt c = c_receipt_fields(receipt);
  c.struct_size = out->struct_size;
  // A plan or release never succeeds with a constant that is not finite: the same check for both,
  // so they return the same status. clip_upper alone may be +infinity (no clipping, documented).
  const std::pair<double, const char *> constants[] = {
      {c.bound, "bound"}, {c.epsilon, "epsilon"}, {c.delta, "delta"},
      {c.sensitivity, "sensitivity"}, {c.sigma, "sigma"}, {c.scale, "scale"}, {c.dof, "dof"},
      {c.lambda_min_bound, "lambda_min_bound"}, {c.epsilon_eigenvalues, "epsilon_eigenvalues"},
      {c.epsilon_step, "epsilon_step"}, {c.beta, "beta"}, {c.tau, "tau"},
      {c.exponent_factor, "exponent_factor"}, {c.threshold_w2, "threshold_w2"},
      {c.appended_w, "appended_w"}, {c.test_epsilon, "test_epsilon"},
      {c.test_delta, "test_delta"}, {c.test_scale, "test_scale"}, {c.test_shift, "test_shift"},
      {c.glasso_rho, "glasso_rho"}};
  // Headroom: a noise draw is at most a few dozen times its scale, and the released entries are
  // at most about n B^2 plus the noise, so constants within DBL_MAX / 2^20 give a finite release
  // and plan refuses exactly where release would overflow (the same status for both).
  constexpr double kHeadroom = 0x1p20;
  // The message is formatted only for a constant that fails: twenty formatted doubles per call
  // were a tenth of a small release (IEV at d = 5-10) and 1-2% at d = 50.
  for (const auto &[value, name] : constants)
    if (!std::isfinite(value * kHeadroom))
      check::finite_result(value * kHeadroom,
                           concat("receipt constant ", name, " (", value,
                                  ") times 2^20, the overflow headroom,").c_str());
  // A Wishart draw with dof degrees of freedom and scale s has entries of order dof * s.
  check::finite_result(c.dof * c.scale * kHeadroom,
                       "dof times scale times 2^20, the overflow headroom of a Wishart draw,");
  check::finite_result(c.test_value, "receipt constant test_value");
  check::finite_result(static_cast<double>(c.n) * c.bound * c.bound * kHeadroom,
                       "n B^2 times 2^20, the overflow headroom of the released entries,");
  if (std::isnan(c.clip_upper) || c.clip_upper == -HUGE_VAL)
    check::finite_result(c.clip_upper, "receipt constant clip_upper");
  return c;
}

mechanisms::Receipt core_receipt(const dpcov_receipt &c) {
  if (std::memchr(c.theorem, '\0', sizeof c.theorem) == nullptr)
    fail(dpcov::Status::InvalidArgument, "receipt->theorem must be NUL-terminated within its ",
         sizeof c.theorem, " bytes");
  mechanisms::Receipt r;
  r.mechanism = static_cast<mechanisms::MechanismId>(c.mechanism);
  r.neighbour = static_cast<privacy::Neighbour>(c.neighbour);
  r.calibration = static_cast<mechanisms::Calibration>(c.calibration);
  r.not_dp = c.not_dp != 0;
  r.seed_fixed = c.seed_fixed != 0;
  r.sensitivity_norm = static_cast<mechanisms::SensitivityNorm>(c.sensitivity_norm);
  r.lambda_min_scope = static_cast<privacy::LambdaMinScope>(c.lambda_min_scope);
  r.dim = c.dim;
  r.n = c.n;
  r.bound = c.bound;
  r.epsilon = c.epsilon;
  r.delta = c.delta;
  r.sensitivity = c.sensitivity;
  r.sigma = c.sigma;
  r.scale = c.scale;
  r.dof = c.dof;
  r.lambda_min_bound = c.lambda_min_bound;
  r.theorem = c.theorem;
  r.epsilon_eigenvalues = c.epsilon_eigenvalues;
  r.epsilon_step = c.epsilon_step;
  r.budget_split = static_cast<mechanisms::BudgetSplit>(c.budget_split);
  r.rank = c.rank;
  r.beta = c.beta;
  r.tau = c.tau;
  r.exponent_factor = c.exponent_factor;
  r.clip_upper = c.clip_upper;
  r.bingham_proposals = c.bingham_proposals;
  r.bingham_rejections = c.bingham_rejections;
  r.projection_rows = c.projection_rows;
  r.threshold_w2 = c.threshold_w2;
  r.appended_w = c.appended_w;
  r.test_epsilon = c.test_epsilon;
  r.test_delta = c.test_delta;
  r.test_scale = c.test_scale;
  r.test_shift = c.test_shift;
  r.test_value = c.test_value;
  r.test_passed = c.test_passed != 0;
  r.glasso_rho = c.glasso_rho;
  r.max_rows_per_unit = c.max_rows_per_unit;
  r.generator = static_cast<mechanisms::Generator>(c.generator);
  r.numerics = static_cast<mechanisms::Numerics>(c.numerics);
  return r;
}

estimators::ReleaseNoise noise_from_receipt(const dpcov_receipt *caller, int64_t d,
                                            const char *name) {
  const dpcov_receipt receipt = read_struct(caller, dpcov_receipt{}, name);
  if (receipt.dim != d)
    fail(dpcov::Status::InvalidArgument, name, "->dim = ", receipt.dim, " but its matrix is ", d,
         " x ", d);
  static_cast<void>(mechanisms::mechanism_id(receipt.mechanism));  // known, or its message
  // Exact numerics: the grid is found again from the public values, and the rounding's bound
  // reads n where it is public.
  if (receipt.numerics == 1 && receipt.neighbour != 0 && receipt.neighbour != 1)
    fail(dpcov::Status::InvalidArgument, "receipt->neighbour must be ",
         "DPCOV_NEIGHBOUR_REPLACE_ONE (0) or DPCOV_NEIGHBOUR_ADD_REMOVE (1), got ",
         receipt.neighbour);
  const mechanisms::Receipt r = core_receipt(receipt);
  return estimators::release_noise(r);
}

}  // namespace dpcov::capi
