// C ABI of CoinPress mean estimation (dpcov/coinpress.h).
#include "dpcov/audit.h"
#include "dpcov/coinpress.h"
#include "struct_size.hpp"

#include <algorithm>
#include <initializer_list>
#include <utility>
#include <vector>

#include "../core/audit/coinpress_mean_audit.hpp"
#include "../core/check.hpp"
#include "../core/mechanisms/coinpress_mean.hpp"
#include "../core/privacy/coinpress_mean.hpp"
#include "guard.hpp"
#include "receipt_prefix.hpp"
#include "rng_handle.hpp"
#include "transcript_result.hpp"
#include "zcdp_structs.hpp"

namespace {

namespace check = dpcov::check;
namespace mech = dpcov::mechanisms;

dpcov_coinpress_mean_params defaults() {
  dpcov_coinpress_mean_params p{};
  p.struct_size = sizeof p;
  p.rho = 0.5;
  p.radius = -1.0;
  p.scale = 1.0;
  p.steps = 3;
  p.beta = 0.01;
  p.delta = 1e-6;
  return p;
}

}  // namespace

namespace dpcov::capi {

mech::CoinpressMeanRequest coinpress_mean_request(int64_t n, int64_t dim,
                                                  const dpcov_coinpress_mean_params *params) {
  const dpcov_coinpress_mean_params p = dpcov::capi::read_struct(params, defaults(), "params");
  mech::CoinpressMeanRequest r;
  r.dim = dim;
  r.n = n;
  r.rho = p.rho;
  r.radius = p.radius;
  r.scale = p.scale;
  r.steps = p.steps;
  r.beta = p.beta;
  r.delta = p.delta;
  return r;
}

dpcov_coinpress_mean_receipt coinpress_mean_c_receipt(const mech::CoinpressMeanReceipt &r) {
  dpcov_coinpress_mean_receipt c{};
  dpcov::capi::set_prefix(c, dpcov::capi::registry_prefix(DPCOV_MECHANISM_COINPRESS_MEAN));
  c.seed_fixed = r.seed_fixed ? 1 : 0;
  c.epsilon = r.epsilon;
  c.delta = r.delta;
  c.rho = r.rho;
  c.n = r.n;
  c.dim = r.dim;
  c.steps = r.steps;
  c.radius = r.radius;
  c.scale = r.scale;
  c.beta = r.beta;
  c.tail_radius = r.tail_radius;
  for (size_t i = 0; i < r.step_rho.size(); ++i) {
    c.step_rho[i] = r.step_rho[i];
    c.step_clip_radius[i] = r.step_clip_radius[i];
    c.step_sigma[i] = r.step_sigma[i];
  }
  return c;
}

}  // namespace dpcov::capi

extern "C" {

dpcov_status dpcov_coinpress_mean_params_init(dpcov_coinpress_mean_params *params, size_t size) {
  return dpcov::capi::guarded([&] { dpcov::capi::init_struct(params, size, defaults(), "params"); });
}

dpcov_status dpcov_coinpress_mean_plan(int64_t n, int64_t dim,
                                       const dpcov_coinpress_mean_params *params,
                                       dpcov_coinpress_mean_receipt *receipt) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::struct_bytes(receipt, "receipt");
    const mech::CoinpressMeanReceipt r =
        mech::coinpress_mean_plan(dpcov::capi::coinpress_mean_request(n, dim, params));
    dpcov::capi::write_struct(receipt, dpcov::capi::coinpress_mean_c_receipt(r));
  });
}

dpcov_status dpcov_coinpress_mean_release(int32_t layout, int64_t n, int64_t dim,
                                          const double *rows, int64_t ldr, const double *centre,
                                          const dpcov_coinpress_mean_params *params,
                                          dpcov_rng *rng, double *mean,
                                          dpcov_coinpress_mean_receipt *receipt) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::struct_bytes(receipt, "receipt");
    check::not_null(rng, "rng");
    const mech::CoinpressMeanRequest request =
        dpcov::capi::coinpress_mean_request(n, dim, params);
    mech::coinpress_mean_plan(request);  // every setting checked before the data
    const dpcov::ConstMatrixView data = check::matrix(layout, n, dim, rows, ldr, "rows");
    check::not_null(mean, "mean");
    check::vector(dim, mean, sizeof(double), "mean");
    std::vector<double> start(static_cast<size_t>(dim), 0.0);
    if (centre != nullptr) {
      check::vector(dim, centre, sizeof(double), "centre");
      start.assign(centre, centre + dim);
    }
    // Noise once drawn is consumed: every argument is checked before the first draw, and a
    // failure after it still advances the caller's generator.
    const mech::CoinpressMeanRelease release =
        mech::coinpress_mean_release(data, start, request, rng->rng);
    check::finite_result(release.mean.data(), release.mean.size(), "released mean");
    for (int64_t j = 0; j < dim; ++j) mean[j] = release.mean[static_cast<size_t>(j)];
    dpcov_coinpress_mean_receipt written =
        dpcov::capi::coinpress_mean_c_receipt(release.receipt);
    written.generator = dpcov::capi::c_generator(rng->rng);
    dpcov::capi::write_struct(receipt, written);
  });
}

dpcov_status dpcov_coinpress_centring_split(double rho, double *rho_mean, double *rho_covariance) {
  return dpcov::capi::guarded([&] {
    check::not_null(rho_mean, "rho_mean");
    check::not_null(rho_covariance, "rho_covariance");
    const auto [mean_share, covariance_share] = dpcov::privacy::coinpress_centring_split(rho);
    *rho_mean = mean_share;
    *rho_covariance = covariance_share;
  });
}

dpcov_status dpcov_audit_coinpress_mean(int64_t dim, int64_t n,
                                        const dpcov_coinpress_mean_params *params, int64_t trials,
                                        double alpha, uint64_t seed,
                                        dpcov_coinpress_mean_audit_result *result) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::struct_bytes(result, "result");
    const dpcov::audit::CoinpressMeanAuditReport report =
        dpcov::audit::audit_coinpress_mean(dpcov::capi::coinpress_mean_request(n, dim, params),
                                           trials, alpha, seed);
    dpcov_coinpress_mean_audit_result r{};
    r.struct_size = result->struct_size;
    r.samples = report.samples;
    dpcov::capi::transcript_fields(report, r);
    dpcov::capi::write_struct(result, r);
  });
}

}  // extern "C"
