// C ABI of the Gram-input mechanisms (dpcov/mechanism.h).
#include "dpcov/mechanism.h"
#include "struct_size.hpp"

#include "../core/check.hpp"
#include "../core/mechanisms/exact_additive.hpp"
#include "../core/mechanisms/mechanism.hpp"
#include "../core/mechanisms/public_receipt.hpp"
#include "../core/mechanisms/registry.hpp"
#include "gram_handle.hpp"
#include "gram_release.hpp"
#include "guard.hpp"
#include "matrix_release.hpp"
#include "mechanism_options.hpp"
#include "receipt_writer.hpp"
#include "rng_handle.hpp"

namespace {

using dpcov::fail;
namespace mech = dpcov::mechanisms;

int32_t checked_enum(int32_t value, int32_t first, int32_t last, const char *name) {
  if (value < first || value > last)
    fail(dpcov::Status::InvalidArgument, name, " must be in [", first, ", ", last, "], got ",
         value);
  return value;
}

}  // namespace

namespace dpcov::capi {

mechanisms::Options options_from(const dpcov_mechanism_params *params) {
  mechanisms::Options options;
  if (params == nullptr) return options;
  struct_bytes(params, "params");
  options.neighbour = static_cast<dpcov::privacy::Neighbour>(
      checked_enum(params->neighbour, DPCOV_NEIGHBOUR_REPLACE_ONE, DPCOV_NEIGHBOUR_ADD_REMOVE,
                   "params->neighbour"));
  options.calibration = static_cast<mechanisms::Calibration>(
      checked_enum(params->calibration, DPCOV_CALIBRATION_DEFAULT,
                   DPCOV_CALIBRATION_BINGHAM_SENSITIVITY, "params->calibration"));
  options.lambda_min_bound = params->lambda_min_bound;
  options.lambda_min_scope = static_cast<dpcov::privacy::LambdaMinScope>(
      checked_enum(params->lambda_min_scope, DPCOV_LAMBDA_MIN_DOMAIN, DPCOV_LAMBDA_MIN_INPUT,
                   "params->lambda_min_scope"));
  options.audit_only_not_private =
      checked_enum(params->audit_only_not_private, 0, 1, "params->audit_only_not_private") == 1;
  options.budget_split = static_cast<mechanisms::BudgetSplit>(
      checked_enum(params->budget_split, DPCOV_BUDGET_SPLIT_DEFAULT, DPCOV_BUDGET_SPLIT_ADAPTIVE,
                   "params->budget_split"));
  options.beta = params->beta;
  options.rank = params->rank;
  options.projection_rows = params->projection_rows;
  options.posterior_dof = params->posterior_dof;
  return options;
}

}  // namespace dpcov::capi

namespace {

mech::Request request_from(int64_t dim, int64_t n, double bound, double epsilon, double delta,
                           const dpcov_mechanism_params *params) {
  return mech::Request{dim, n, bound, epsilon, delta, dpcov::capi::options_from(params)};
}

}  // namespace

namespace dpcov::capi {

void release_matrix_into(mech::MechanismId id, ConstMatrixView gram, const mech::Request &request,
                         const PlanOfMatrix &plan_of, dpcov_rng *rng, int32_t layout, double *out,
                         int64_t ldo, dpcov_receipt *receipt) {
  const MatrixView out_view =
      check::output_matrix(layout, request.dim, request.dim, out, ldo, "out");
  // The plan's checks first, so that a release fails exactly where the plan fails, with the
  // same status, before anything is drawn; the release then draws from this plan, so every
  // constant is computed once.
  const mech::Receipt planned = plan_of();
  c_receipt(planned, receipt);
  // Draw from the caller's generator itself: noise once drawn is consumed, so a call that fails
  // after drawing (a refusal) still advances it and a retry never reuses a draw. Arguments are
  // checked before the first draw, so a rejected call leaves the generator as it was.
  const mech::Release release = mech::release(id, gram, request, planned, rng->rng);
  check::finite_result(release.matrix.view(), "released matrix");
  const dpcov_receipt written = c_receipt(release.receipt, receipt);
  write_symmetric_from_upper(release.matrix, out_view);
  write_struct(receipt, written);
}

}  // namespace dpcov::capi

extern "C" {

DPCOV_API dpcov_status dpcov_mechanism_params_init(dpcov_mechanism_params *params, size_t size) {
  return dpcov::capi::guarded([&] {
    dpcov_mechanism_params d{};
    d.neighbour = DPCOV_NEIGHBOUR_REPLACE_ONE;
    d.calibration = DPCOV_CALIBRATION_DEFAULT;
    d.lambda_min_bound = 0.0;
    d.lambda_min_scope = DPCOV_LAMBDA_MIN_DOMAIN;
    d.audit_only_not_private = 0;
    d.budget_split = DPCOV_BUDGET_SPLIT_DEFAULT;
    d.beta = 0.0;
    d.rank = 0;
    d.projection_rows = 0;
    d.posterior_dof = 0;
    dpcov::capi::init_struct(params, size, d, "params");
  });
}

DPCOV_API const char *dpcov_mechanism_name(int32_t mechanism) {
  const mech::RegistryEntry *entry = mech::find_entry(mechanism);
  return entry != nullptr ? entry->name : "unknown";
}

DPCOV_API dpcov_status dpcov_mechanism_plan(int32_t mechanism, int64_t dim, int64_t n,
                                            double bound, double epsilon, double delta,
                                            const dpcov_mechanism_params *params,
                                            dpcov_receipt *receipt) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::check_receipt_output(receipt);
    const mech::MechanismId id = mech::mechanism_id(mechanism);
    const mech::Receipt planned =
        mech::plan(id, request_from(dim, n, bound, epsilon, delta, params));
    dpcov::capi::write_struct(receipt, dpcov::capi::c_receipt(planned, receipt));
  });
}

DPCOV_API dpcov_status dpcov_mechanism_release(int32_t mechanism, int32_t layout, int64_t dim,
                                               const double *gram, int64_t ldg, int64_t n,
                                               double bound, double epsilon, double delta,
                                               const dpcov_mechanism_params *params,
                                               dpcov_rng *rng, double *out, int64_t ldo,
                                               dpcov_receipt *receipt) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::check_receipt_output(receipt);
    dpcov::check::not_null(rng, "rng");
    const mech::MechanismId id = mech::mechanism_id(mechanism);
    const mech::Request request = request_from(dim, n, bound, epsilon, delta, params);
    dpcov::check::dimension(dim, "dimension d");
    const dpcov::ConstMatrixView view = dpcov::check::matrix(layout, dim, dim, gram, ldg, "gram");
    dpcov::capi::release_matrix_into(
        id, view, request, [&] { return mech::plan(id, request); }, rng, layout, out, ldo,
        receipt);
  });
}

DPCOV_API dpcov_status dpcov_mechanism_release_gram(int32_t mechanism, const dpcov_gram *gram,
                                                    double epsilon, double delta,
                                                    const dpcov_mechanism_params *params,
                                                    dpcov_rng *rng, int32_t layout, double *out,
                                                    int64_t ldo, dpcov_receipt *receipt) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::check_receipt_output(receipt);
    dpcov::check::not_null(gram, "gram");
    dpcov::check::not_null(rng, "rng");
    const mech::MechanismId id = mech::mechanism_id(mechanism);
    const mech::Request request =
        dpcov::capi::gram_request(*gram, epsilon, delta, dpcov::capi::options_from(params));
    // The release draws from this plan (and grid): each is computed once.
    const auto plan_of = [&](const mech::Request &drawn, mech::ExactGrid *grid) {
      return grid != nullptr ? mech::plan_exact_additive(id, drawn, grid) : mech::plan(id, drawn);
    };
    dpcov::capi::release_gram_into(id, *gram, request, plan_of, rng, layout, out, ldo, receipt);
  });
}

DPCOV_API dpcov_status dpcov_mechanism_log_density(int32_t mechanism, int32_t layout,
                                                   int64_t dim, const double *released,
                                                   int64_t ldr, const double *gram, int64_t ldg,
                                                   int64_t n, double bound, double epsilon,
                                                   double delta,
                                                   const dpcov_mechanism_params *params,
                                                   double *log_density) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(log_density, "log_density");
    const mech::MechanismId id = mech::mechanism_id(mechanism);
    const mech::Request request = request_from(dim, n, bound, epsilon, delta, params);
    dpcov::check::dimension(dim, "dimension d");
    const dpcov::ConstMatrixView y =
        dpcov::check::matrix(layout, dim, dim, released, ldr, "released");
    const dpcov::ConstMatrixView g = dpcov::check::matrix(layout, dim, dim, gram, ldg, "gram");
    *log_density = mech::log_density(id, y, g, request);
  });
}

DPCOV_API dpcov_status dpcov_mechanism_log_density_tested(
    int32_t mechanism, int32_t layout, int64_t dim, const double *released, int64_t ldr,
    double test_value, const double *gram, int64_t ldg, int64_t n, double bound, double epsilon,
    double delta, const dpcov_mechanism_params *params, double *log_density) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(log_density, "log_density");
    const mech::MechanismId id = mech::mechanism_id(mechanism);
    const mech::Request request = request_from(dim, n, bound, epsilon, delta, params);
    dpcov::check::dimension(dim, "dimension d");
    const dpcov::ConstMatrixView y =
        dpcov::check::matrix(layout, dim, dim, released, ldr, "released");
    const dpcov::ConstMatrixView g = dpcov::check::matrix(layout, dim, dim, gram, ldg, "gram");
    *log_density = mech::log_density_tested(id, y, test_value, g, request);
  });
}

}  // extern "C"
