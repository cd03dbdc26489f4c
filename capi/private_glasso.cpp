// C ABI of the Wang-Huai-Xu private graphical lasso (dpcov/private_glasso.h).
#include "dpcov/private_glasso.h"
#include "struct_size.hpp"

#include <cstddef>

#include "../core/check.hpp"
#include "../core/mechanisms/glasso_output.hpp"
#include "../core/mechanisms/mechanism.hpp"
#include "../core/mechanisms/private_glasso.hpp"
#include "guard.hpp"
#include "mechanism_options.hpp"
#include "receipt_writer.hpp"
#include "regression_result.hpp"
#include "rng_handle.hpp"

namespace {

using dpcov::fail;
namespace mech = dpcov::mechanisms;
namespace solvers = dpcov::solvers;

mech::Request request_from(int64_t dim, int64_t n, double bound, double epsilon, double delta,
                           const dpcov_mechanism_params *params) {
  return mech::Request{dim, n, bound, epsilon, delta, dpcov::capi::options_from(params)};
}

solvers::GlassoOptions glasso_options(const dpcov_glasso_params *params) {
  solvers::GlassoOptions options;
  if (params == nullptr) return options;
  dpcov::capi::struct_bytes(params, "glasso_params");
  if (params->penalize_diagonal != 0 && params->penalize_diagonal != 1)
    fail(dpcov::Status::InvalidArgument, "glasso_params->penalize_diagonal must be 0 or 1, got ",
         params->penalize_diagonal);
  options.penalize_diagonal = params->penalize_diagonal == 1;
  options.tol = params->tol;
  options.max_iter = params->max_iter;
  return options;
}

}  // namespace

extern "C" {

DPCOV_API dpcov_status dpcov_private_glasso_plan(int32_t mechanism, int64_t dim, int64_t n,
                                                 double bound, double epsilon, double delta,
                                                 const dpcov_mechanism_params *params, double rho,
                                                 dpcov_receipt *receipt) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::check_receipt_output(receipt);
    const mech::MechanismId id = mech::mechanism_id(mechanism);
    const mech::Receipt planned = mech::plan_private_glasso(
        id, request_from(dim, n, bound, epsilon, delta, params), rho);
    dpcov::capi::write_struct(receipt, dpcov::capi::c_receipt(planned, receipt));
  });
}

DPCOV_API dpcov_status dpcov_private_glasso_release(
    int32_t mechanism, int32_t layout, int64_t dim, const double *gram, int64_t ldg, int64_t n,
    double bound, double epsilon, double delta, const dpcov_mechanism_params *params, double rho,
    const dpcov_glasso_params *glasso_params, dpcov_rng *rng, double *precision, int64_t ldp,
    dpcov_receipt *receipt, dpcov_glasso_info *info) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::check_receipt_output(receipt);
    dpcov::check::not_null(rng, "rng");
    const mech::MechanismId id = mech::mechanism_id(mechanism);
    const mech::Request request = request_from(dim, n, bound, epsilon, delta, params);
    // The plan's checks first, receipt constants included, so that a release fails with the
    // status its plan gives whatever else is wrong (found by fuzz_solvers: a non-finite gram was
    // named before an overflowing Wishart constant). The release draws from this plan.
    const mech::Receipt planned = mech::plan_private_glasso(id, request, rho);
    dpcov::capi::c_receipt(planned, receipt);
    const bool output = mech::glasso_perturbation(id) == mech::GlassoPerturbation::Output;
    if (output && glasso_params != nullptr)
      fail(dpcov::Status::InvalidArgument,
           "glasso_params must be NULL for output perturbation: it ",
           "solves the paper's objective itself");
    if (output && info != nullptr)
      fail(dpcov::Status::InvalidArgument, "info must be NULL for output perturbation: the ",
           "convergence of a solve on the exact data is not private");
    const solvers::GlassoOptions options = glasso_options(glasso_params);
    if (info != nullptr)
      dpcov::capi::struct_bytes(info, "info");
    dpcov::check::dimension(dim, "dimension d");
    const dpcov::ConstMatrixView g = dpcov::check::matrix(layout, dim, dim, gram, ldg, "gram");
    const dpcov::MatrixView out =
        dpcov::check::output_matrix(layout, dim, dim, precision, ldp, "precision");
    // Draw from the caller's generator itself: noise once drawn is consumed, so a call that fails
    // after drawing (a refusal) still advances it and a retry never reuses a draw. Arguments are
    // checked before the first draw, so a rejected call leaves the generator as it was.
    dpcov::random::Rng &local = rng->rng;
    const mech::PrivateGlasso result =
        mech::private_glasso(id, g, request, rho, planned, options, local);
    const dpcov_receipt written = dpcov::capi::c_receipt(result.receipt, receipt);
    dpcov::check::finite_result(result.precision.view(), "precision");
    dpcov::write_symmetric_from_upper(result.precision, out);
    if (info != nullptr) dpcov::capi::write_struct(info, dpcov::capi::c_glasso_info(result.solve));
    dpcov::capi::write_struct(receipt, written);
  });
}

DPCOV_API dpcov_status dpcov_private_glasso_covariance(
    int32_t mechanism, int32_t layout, int64_t dim, const double *gram, int64_t ldg, int64_t n,
    double bound, double epsilon, double delta, const dpcov_mechanism_params *params,
    dpcov_rng *rng, double *covariance, int64_t ldc, dpcov_receipt *receipt) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::check_receipt_output(receipt);
    dpcov::check::not_null(rng, "rng");
    const mech::MechanismId id = mech::mechanism_id(mechanism);
    if (mech::glasso_perturbation(id) == mech::GlassoPerturbation::Output)
      fail(dpcov::Status::InvalidArgument, mech::mechanism_name(id), " perturbs the precision ",
           "matrix itself and releases no covariance: use dpcov_private_glasso_release()");
    const mech::Request request = request_from(dim, n, bound, epsilon, delta, params);
    // The plan at any rho (the release does not read it): its checks before the first draw.
    const mech::Receipt planned = mech::plan_private_glasso(id, request, 1.0);
    dpcov::capi::c_receipt(planned, receipt);
    dpcov::check::dimension(dim, "dimension d");
    const dpcov::ConstMatrixView g = dpcov::check::matrix(layout, dim, dim, gram, ldg, "gram");
    const dpcov::MatrixView out =
        dpcov::check::output_matrix(layout, dim, dim, covariance, ldc, "covariance");
    const mech::PrivateGlassoCovariance result =
        mech::private_glasso_covariance(id, g, request, planned, rng->rng);
    const dpcov_receipt written = dpcov::capi::c_receipt(result.receipt, receipt);
    dpcov::check::finite_result(result.covariance.view(), "covariance");
    dpcov::write_symmetric_from_upper(result.covariance, out);
    dpcov::capi::write_struct(receipt, written);
  });
}

DPCOV_API dpcov_status dpcov_private_glasso_log_density(
    int32_t mechanism, int32_t layout, int64_t dim, const double *released, int64_t ldr,
    const double *gram, int64_t ldg, int64_t n, double bound, double epsilon, double delta,
    const dpcov_mechanism_params *params, double rho, double *log_density) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(log_density, "log_density");
    const mech::MechanismId id = mech::mechanism_id(mechanism);
    if (mech::glasso_perturbation(id) != mech::GlassoPerturbation::Output)
      fail(dpcov::Status::InvalidArgument,
           "only glasso_output_wishart has a log-density here; the ", "release of ",
           mech::mechanism_name(id), " has dpcov_mechanism_log_density");
    const mech::Request request = mech::private_glasso_request(
        id, request_from(dim, n, bound, epsilon, delta, params), rho);
    dpcov::check::dimension(dim, "dimension d");
    const dpcov::ConstMatrixView y =
        dpcov::check::matrix(layout, dim, dim, released, ldr, "released");
    const dpcov::ConstMatrixView g = dpcov::check::matrix(layout, dim, dim, gram, ldg, "gram");
    *log_density = mech::log_density_glasso_output(y, g, request);
  });
}

}  // extern "C"
