// C ABI of AdaSSP's robust (sandwich) intervals (dpcov/adassp.h): the budget split, the meat's
// rows and the intervals, over privacy/sandwich_constants and estimators/sandwich_intervals.
#include <array>
#include <cmath>
#include <optional>
#include <vector>

#include "../core/check.hpp"
#include "../core/estimators/sandwich_intervals.hpp"
#include "../core/privacy/sandwich_constants.hpp"
#include "adassp_release.hpp"
#include "dpcov/adassp.h"
#include "guard.hpp"
#include "receipt_writer.hpp"
#include "rng_handle.hpp"
#include "struct_size.hpp"

namespace {

using dpcov::fail;
namespace check = dpcov::check;

size_t at(int64_t i) { return static_cast<size_t>(i); }

// The robust intervals of both AdaSSP sandwich entry points; the meat's noise is redrawn in every
// world when `meat_receipt` is given (its law checked before any draw).
void intervals(int32_t layout, int64_t p, const double *released_xtx, int64_t ld_xtx,
               const double *released_xty, const dpcov_adassp_receipt *receipt,
               const double *released_meat, int64_t ld_meat, const dpcov_receipt *meat_receipt,
               double level, int64_t num_bootstrap, dpcov_rng *rng,
               std::array<double *, 5> outputs) {
  const dpcov::capi::ReleasedStatistics s = dpcov::capi::read_release(
      layout, p, released_xtx, ld_xtx, released_xty, receipt, rng, level);
  check::not_null(outputs[0], "coefficients");
  const dpcov::Matrix meat = dpcov::capi::read_square(layout, p, released_meat, ld_meat, "released_meat");
  std::optional<dpcov::estimators::ReleaseNoise> meat_noise;
  if (meat_receipt != nullptr) {
    meat_noise = dpcov::capi::noise_from_receipt(meat_receipt, p, "meat_receipt");
    dpcov::estimators::validate(*meat_noise, p);
  }
  dpcov::random::Rng local = rng->rng;
  const dpcov::estimators::BootstrapIntervals b = dpcov::estimators::adassp_sandwich_intervals(
      s.xtx, s.xty, s.receipt, meat, level, num_bootstrap, local,
      meat_noise ? &*meat_noise : nullptr);
  dpcov::capi::write_intervals(
      p, {&b.coefficients, &b.std_errors, &b.p_values, &b.ci_lower, &b.ci_upper},
      {outputs[0], outputs[1], outputs[2], outputs[3], outputs[4]});
  rng->rng = local;
}

}  // namespace

extern "C" {

DPCOV_API dpcov_status dpcov_adassp_sandwich_plan(double bound_x, double bound_y, double epsilon,
                                                  double delta, dpcov_sandwich_budget *budget) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::struct_bytes(budget, "budget");
    check::positive_finite(bound_x, "bound_x");
    const dpcov::privacy::SandwichBudget split = dpcov::privacy::sandwich_budget(epsilon, delta);
    if (!(split.meat_epsilon > 0.0 && split.meat_delta > 0.0))
      fail(dpcov::Status::InvalidArgument, "epsilon = ", epsilon, " and delta = ", delta,
           " leave the meat a share that rounds to 0");
    dpcov_sandwich_budget out{};
    out.fit_epsilon = split.fit_epsilon;
    out.fit_delta = split.fit_delta;
    out.meat_epsilon = split.meat_epsilon;
    out.meat_delta = split.meat_delta;
    out.meat_share = dpcov::privacy::kSandwichMeatShare;
    out.residual_bound = dpcov::privacy::sandwich_residual_bound(bound_y);
    out.meat_row_bound = dpcov::privacy::sandwich_meat_row_bound(bound_x, out.residual_bound);
    check::finite_result(out.residual_bound, "residual_bound");
    check::finite_result(out.meat_row_bound, "meat_row_bound");
    dpcov::capi::write_struct(budget, out);
  });
}

DPCOV_API dpcov_status dpcov_adassp_sandwich_rows(int32_t layout, int64_t rows, int64_t p,
                                                  const double *xy, int64_t ldxy,
                                                  const double *beta0, double bound_x,
                                                  double residual_bound, double *u, int64_t ldu) {
  return dpcov::capi::guarded([&] {
    check::dimension(p, "p");  // before p + 1 is formed
    check::dimension(p + 1, "p + 1");
    const dpcov::ConstMatrixView in = check::matrix(layout, rows, p + 1, xy, ldxy, "xy", true);
    check::vector(p, beta0, sizeof(double), "beta0");
    check::positive_finite(bound_x, "bound_x");
    check::positive_finite(residual_bound, "residual_bound");
    if (!std::isfinite(bound_x * residual_bound))
      fail(dpcov::Status::InvalidArgument, "bound_x * residual_bound must be finite, got ",
           bound_x, " * ", residual_bound);
    std::vector<double> coefficients(beta0, beta0 + p);
    for (double v : coefficients) check::finite(v, "beta0");
    if (rows == 0) return;
    const dpcov::MatrixView out = check::output_matrix(layout, rows, p, u, ldu, "u");
    check::all_finite(in, "xy");
    std::vector<double> labels(at(rows));
    for (int64_t r = 0; r < rows; ++r) labels[at(r)] = in(r, p);
    const dpcov::Matrix computed = dpcov::estimators::sandwich_rows(
        dpcov::ConstMatrixView{in.data, rows, p, in.ld, in.layout}, labels, coefficients,
        bound_x, residual_bound);
    check::finite_result(computed.view(), "u");
    for (int64_t j = 0; j < p; ++j)
      for (int64_t r = 0; r < rows; ++r) out(r, j) = computed(r, j);
  });
}

DPCOV_API dpcov_status dpcov_adassp_sandwich_intervals(
    int32_t layout, int64_t p, const double *released_xtx, int64_t ld_xtx,
    const double *released_xty, const dpcov_adassp_receipt *receipt,
    const double *released_meat, int64_t ld_meat, double level, int64_t num_bootstrap,
    dpcov_rng *rng, double *coefficients, double *std_errors, double *p_values, double *ci_lower,
    double *ci_upper) {
  return dpcov::capi::guarded([&] {
    intervals(layout, p, released_xtx, ld_xtx, released_xty, receipt, released_meat, ld_meat,
              nullptr, level, num_bootstrap, rng,
              {coefficients, std_errors, p_values, ci_lower, ci_upper});
  });
}

DPCOV_API dpcov_status dpcov_adassp_robust_intervals(
    int32_t layout, int64_t p, const double *released_xtx, int64_t ld_xtx,
    const double *released_xty, const dpcov_adassp_receipt *receipt,
    const double *released_meat, int64_t ld_meat, const dpcov_receipt *meat_receipt, double level,
    int64_t num_bootstrap, dpcov_rng *rng, double *coefficients, double *std_errors,
    double *p_values, double *ci_lower, double *ci_upper) {
  return dpcov::capi::guarded([&] {
    check::not_null(meat_receipt, "meat_receipt");
    intervals(layout, p, released_xtx, ld_xtx, released_xty, receipt, released_meat, ld_meat,
              meat_receipt, level, num_bootstrap, rng,
              {coefficients, std_errors, p_values, ci_lower, ci_upper});
  });
}

}  // extern "C"
