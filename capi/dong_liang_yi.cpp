// C ABI of the Dong-Liang-Yi mechanisms (dpcov/dong_liang_yi.h).
#include "dpcov/dong_liang_yi.h"
#include "struct_size.hpp"

#include "../core/check.hpp"
#include "../core/data/row_bound.hpp"
#include "../core/mechanisms/dong_liang_yi.hpp"
#include "guard.hpp"
#include "receipt_prefix.hpp"
#include "zcdp_structs.hpp"
#include "rng_handle.hpp"

namespace {

using dpcov::fail;
namespace check = dpcov::check;
namespace mech = dpcov::mechanisms;

mech::DlyRequest request_from(int64_t n, int64_t dim, const dpcov_dly_params *params) {
  mech::DlyRequest r;
  r.dim = dim;
  r.n = n;
  r.rho = 0.1;
  if (params != nullptr) {
    dpcov::capi::struct_bytes(params, "params");
    r.variant = static_cast<mech::DlyVariant>(params->variant);
    r.rho = params->rho;
    r.radius = params->radius;
    r.beta = params->beta;
    r.delta = params->delta;
    // r bounds the rows' norms: the library's one range for row bounds.
    dpcov::data::check_row_bound(r.radius, "r");
  }
  return r;
}

dpcov_dly_receipt c_receipt(const mech::DlyReceipt &r, size_t struct_size) {
  dpcov_dly_receipt c{};
  dpcov::capi::set_prefix(c, dpcov::capi::registry_prefix(DPCOV_MECHANISM_DLY));
  c.struct_size = struct_size;
  c.seed_fixed = r.seed_fixed ? 1 : 0;
  c.epsilon = r.epsilon;
  c.delta = r.delta;
  c.rho = r.rho;
  c.bound = r.radius;
  c.n = r.n;
  c.variant = static_cast<int32_t>(r.variant);
  c.dim = r.dim;
  c.beta = r.beta;
  c.rho_covariance = r.rho_covariance;
  c.trace_sigma = r.trace_sigma;
  c.svt_epsilon = r.svt_epsilon;
  c.svt_queries = r.svt_queries;
  c.branch = r.branch;
  c.clip_radius = r.clip_radius;
  c.sigma_matrix = r.sigma_matrix;
  c.sigma_eigenvalues = r.sigma_eigenvalues;
  c.histogram_sigma = r.histogram_sigma;
  c.first_look_sigma = r.first_look_sigma;
  c.first_look_settled = r.first_look_settled;
  return c;
}

}  // namespace

namespace dpcov::capi {

mechanisms::DlyRequest dly_request(int64_t n, int64_t dim, const dpcov_dly_params *params) {
  return request_from(n, dim, params);
}

dpcov_dly_receipt dly_c_receipt(const mechanisms::DlyReceipt &r, size_t struct_size) {
  return c_receipt(r, struct_size);
}

}  // namespace dpcov::capi

extern "C" {

dpcov_status dpcov_dly_params_init(dpcov_dly_params *params, size_t size) {
  return dpcov::capi::guarded([&] {
    dpcov_dly_params d{};
    d.variant = DPCOV_DLY_ADAPTIVE;
    d.rho = 0.1;
    d.radius = 1.0;
    d.beta = 0.1;
    d.delta = 1e-6;
    dpcov::capi::init_struct(params, size, d, "params");
  });
}

dpcov_status dpcov_dly_plan(int64_t n, int64_t dim, const dpcov_dly_params *params,
                            dpcov_dly_receipt *receipt) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::struct_bytes(receipt, "receipt");
    dpcov::capi::write_struct(
        receipt, c_receipt(mech::dly_plan(request_from(n, dim, params)), receipt->struct_size));
  });
}

dpcov_status dpcov_dly_release(int32_t layout, int64_t n, int64_t dim, const double *rows,
                               int64_t ldr, const dpcov_dly_params *params, dpcov_rng *rng,
                               double *out, int64_t ldo, dpcov_dly_receipt *receipt) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::struct_bytes(receipt, "receipt");
    check::not_null(rng, "rng");
    const mech::DlyRequest request = request_from(n, dim, params);
    mech::dly_plan(request);  // every setting checked before the data
    const dpcov::ConstMatrixView data = check::matrix(layout, n, dim, rows, ldr, "rows");
    const dpcov::MatrixView target = check::output_matrix(layout, dim, dim, out, ldo, "out");
    // Draw from the caller's generator itself: noise once drawn is consumed, so a call that
    // fails after drawing still advances it (arguments are checked before the first draw).
    const mech::DlyRelease release = mech::dly_release(data, request, rng->rng);
    check::finite_result(release.covariance.view(), "released matrix");
    for (int64_t j = 0; j < dim; ++j)
      for (int64_t i = 0; i < dim; ++i) target(i, j) = release.covariance(i, j);
    dpcov_dly_receipt written = c_receipt(release.receipt, receipt->struct_size);
    written.generator = dpcov::capi::c_generator(rng->rng);
    dpcov::capi::write_struct(receipt, written);
  });
}

}  // extern "C"
