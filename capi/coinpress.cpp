// C ABI of CoinPress and the zCDP conversion (dpcov/coinpress.h).
#include "dpcov/coinpress.h"
#include "struct_size.hpp"

#include "../core/check.hpp"
#include "../core/mechanisms/coinpress.hpp"
#include "../core/privacy/zcdp.hpp"
#include "guard.hpp"
#include "receipt_prefix.hpp"
#include "zcdp_structs.hpp"
#include "rng_handle.hpp"

namespace {

using dpcov::fail;
namespace check = dpcov::check;
namespace mech = dpcov::mechanisms;

mech::CoinpressRequest request_from(int64_t n, int64_t dim, const dpcov_coinpress_params *params) {
  dpcov::capi::struct_bytes(params, "params");
  mech::CoinpressRequest r;
  r.dim = dim;
  r.n = n;
  r.rho = params->rho;
  r.k_bound = params->k_bound;
  r.steps = params->steps;
  r.beta = params->beta;
  r.delta = params->delta;
  return r;
}

dpcov_coinpress_receipt c_receipt(const mech::CoinpressReceipt &r, size_t struct_size) {
  dpcov_coinpress_receipt c{};
  dpcov::capi::set_prefix(c, dpcov::capi::registry_prefix(DPCOV_MECHANISM_COINPRESS));
  c.struct_size = struct_size;
  c.seed_fixed = r.seed_fixed ? 1 : 0;
  c.epsilon = r.epsilon;
  c.delta = r.delta;
  c.rho = r.rho;
  c.n = r.n;
  c.dim = r.dim;
  c.steps = r.steps;
  c.k_bound = r.k_bound;
  c.beta = r.beta;
  c.clip_radius = r.clip_radius;
  c.eta = r.eta;
  for (size_t i = 0; i < r.step_rho.size(); ++i) {
    c.step_rho[i] = r.step_rho[i];
    c.step_sigma[i] = r.step_sigma[i];
  }
  return c;
}

}  // namespace

namespace dpcov::capi {

mechanisms::CoinpressRequest coinpress_request(int64_t n, int64_t dim,
                                               const dpcov_coinpress_params *params) {
  return request_from(n, dim, params);
}

dpcov_coinpress_receipt coinpress_c_receipt(const mechanisms::CoinpressReceipt &r,
                                            size_t struct_size) {
  return c_receipt(r, struct_size);
}

}  // namespace dpcov::capi

extern "C" {

dpcov_status dpcov_coinpress_params_init(dpcov_coinpress_params *params, size_t size) {
  return dpcov::capi::guarded([&] {
    dpcov_coinpress_params d{};
    d.rho = 0.5;
    d.k_bound = 0.0;
    d.steps = 3;
    d.beta = 0.1;
    d.delta = 1e-6;
    dpcov::capi::init_struct(params, size, d, "params");
  });
}

dpcov_status dpcov_coinpress_plan(int64_t n, int64_t dim, const dpcov_coinpress_params *params,
                                  dpcov_coinpress_receipt *receipt) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::struct_bytes(receipt, "receipt");
    const mech::CoinpressReceipt r = mech::coinpress_plan(request_from(n, dim, params));
    dpcov::capi::write_struct(receipt, c_receipt(r, receipt->struct_size));
  });
}

dpcov_status dpcov_coinpress_release(int32_t layout, int64_t n, int64_t dim, const double *rows,
                                     int64_t ldr, const dpcov_coinpress_params *params,
                                     dpcov_rng *rng, double *out, int64_t ldo,
                                     dpcov_coinpress_receipt *receipt) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::struct_bytes(receipt, "receipt");
    check::not_null(rng, "rng");
    const mech::CoinpressRequest request = request_from(n, dim, params);
    mech::coinpress_plan(request);  // every setting checked before the data
    const dpcov::ConstMatrixView data = check::matrix(layout, n, dim, rows, ldr, "rows");
    const dpcov::MatrixView target = check::output_matrix(layout, dim, dim, out, ldo, "out");
    // Draw from the caller's generator itself: noise once drawn is consumed, so a call that
    // fails after drawing still advances it (arguments are checked before the first draw).
    const mech::CoinpressRelease release = mech::coinpress_release(data, request, rng->rng);
    check::finite_result(release.covariance.view(), "released matrix");
    for (int64_t j = 0; j < dim; ++j)
      for (int64_t i = 0; i < dim; ++i) target(i, j) = release.covariance(i, j);
    dpcov_coinpress_receipt written = c_receipt(release.receipt, receipt->struct_size);
    written.generator = dpcov::capi::c_generator(rng->rng);
    dpcov::capi::write_struct(receipt, written);
  });
}

dpcov_status dpcov_zcdp_epsilon(double rho, double delta, double *epsilon) {
  return dpcov::capi::guarded([&] {
    check::not_null(epsilon, "epsilon");
    *epsilon = dpcov::privacy::zcdp_epsilon(rho, delta);
  });
}

dpcov_status dpcov_zcdp_rho(double epsilon, double delta, double *rho) {
  return dpcov::capi::guarded([&] {
    check::not_null(rho, "rho");
    *rho = dpcov::privacy::zcdp_rho_for_epsilon(epsilon, delta);
  });
}

}  // extern "C"
