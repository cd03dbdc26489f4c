// C ABI of AdaSSP (dpcov/adassp.h).
#include "dpcov/adassp.h"
#include "struct_size.hpp"

#include <cstring>
#include <vector>

#include "../core/check.hpp"
#include "../core/estimators/adassp_intervals.hpp"
#include "../core/estimators/ols_bootstrap.hpp"
#include "../core/mechanisms/adassp.hpp"
#include "adassp_release.hpp"
#include "adassp_params.hpp"
#include "guard.hpp"
#include "receipt_prefix.hpp"
#include "rng_handle.hpp"

namespace {

using dpcov::fail;
namespace check = dpcov::check;
namespace mech = dpcov::mechanisms;
namespace est = dpcov::estimators;
using dpcov::capi::read_release;
using dpcov::capi::ReleasedStatistics;
using dpcov::capi::write_intervals;

size_t at(int64_t i) { return static_cast<size_t>(i); }

// Columns in [0, d), distinct, none equal to the label.
void check_columns(int64_t d, int64_t label, const int64_t *features, int64_t num_features) {
  if (label < 0 || label >= d)
    fail(dpcov::Status::Dimension, "label column must be in [0, ", d, "), got ", label);
  if (num_features < 1)
    fail(dpcov::Status::Dimension, "num_features must be >= 1, got ", num_features);
  check::not_null(features, "features");
  std::vector<bool> seen(at(d), false);
  for (int64_t k = 0; k < num_features; ++k) {
    const int64_t c = features[k];
    if (c < 0 || c >= d)
      fail(dpcov::Status::Dimension, "features[", k, "] must be a column in [0, ", d, "), got ", c);
    if (c == label) fail(dpcov::Status::Dimension, "features[", k, "] is the label column ", c);
    if (seen[at(c)]) fail(dpcov::Status::Dimension, "features[", k, "] repeats column ", c);
    seen[at(c)] = true;
  }
}

void copy_name(char *out, size_t size, const char *name) {
  const size_t length = std::strlen(name);
  if (length >= size)
    fail(dpcov::Status::Internal, "name ", name, " is longer than the receipt field");
  std::memcpy(out, name, length + 1);
}

dpcov_adassp_receipt c_receipt(const mech::AdasspReceipt &r, size_t struct_size) {
  dpcov_adassp_receipt c{};
  c.struct_size = struct_size;
  dpcov::capi::set_prefix(c, dpcov::capi::registry_prefix(DPCOV_MECHANISM_ADASSP));
  c.neighbour = static_cast<int32_t>(r.neighbour);
  c.numerics = DPCOV_NUMERICS_IDEALIZED;
  c.seed_fixed = r.seed_fixed ? 1 : 0;
  c.epsilon = r.epsilon;
  c.delta = r.delta;
  c.rho = r.zcdp_rho;
  c.bound = r.bound_x;
  c.n = DPCOV_RECEIPT_N_WITHHELD;
  c.calibration = static_cast<int32_t>(r.calibration);
  c.num_regressors = r.dim;
  c.bound_y = r.bound_y;
  c.delta_exact = r.delta_exact;
  c.failure_probability = r.rho;
  c.sensitivity_lambda_min = r.sensitivity_lambda_min;
  c.sensitivity_gram = r.sensitivity_gram;
  c.sensitivity_cross = r.sensitivity_cross;
  c.sigma_lambda_min = r.sigma_lambda_min;
  c.sigma_gram = r.sigma_gram;
  c.sigma_gram_off_diagonal = r.sigma_gram_off_diagonal;
  c.sigma_cross = r.sigma_cross;
  c.lambda_min_shift = r.lambda_min_shift;
  c.noise_norm_bound = r.noise_norm_bound;
  c.eigenvalue_floor = r.eigenvalue_floor;
  c.released_lambda_min = r.released_lambda_min;
  c.ridge = r.ridge;
  c.eigenvalues_floored = r.eigenvalues_floored;
  copy_name(c.theorem, sizeof c.theorem, r.theorem);
  c.label_square_released = r.label_square ? 1 : 0;
  c.sensitivity_label_square = r.sensitivity_label_square;
  c.sigma_label_square = r.sigma_label_square;
  c.max_rows_per_unit = r.max_rows_per_unit;
  c.lambda_min_released = r.lambda_min_released ? 1 : 0;
  return c;
}

// The plan's constants, each finite or DPCOV_E_NUMERICAL: what dpcov_adassp_plan returns and what
// dpcov_adassp_fit checks before it reads the data, so that a fit fails with its plan's status.
mech::AdasspReceipt checked_plan(int64_t num_features, double bound_x, double bound_y,
                                 double epsilon, double delta, const dpcov_adassp_params *params) {
  const mech::AdasspReceipt plan = mech::plan_adassp(num_features, bound_x, bound_y, epsilon,
                                                     delta, dpcov::capi::adassp_options_from(params));
  const dpcov_adassp_receipt c = c_receipt(plan, sizeof(dpcov_adassp_receipt));
  for (const double constant : {c.delta_exact, c.sigma_lambda_min, c.sigma_gram, c.sigma_cross,
                                c.sigma_label_square, c.lambda_min_shift, c.noise_norm_bound,
                                c.rho})
    check::finite_result(constant, "receipt");
  return plan;
}

}  // namespace

extern "C" {

DPCOV_API dpcov_status dpcov_adassp_params_init(dpcov_adassp_params *params, size_t size) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::init_struct(params, size, dpcov::capi::default_adassp_params(), "params");
  });
}

DPCOV_API dpcov_status dpcov_adassp_plan(int64_t num_features, double bound_x, double bound_y,
                                         double epsilon, double delta,
                                         const dpcov_adassp_params *params,
                                         dpcov_adassp_receipt *receipt) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::struct_bytes(receipt, "receipt");
    const mech::AdasspReceipt plan =
        checked_plan(num_features, bound_x, bound_y, epsilon, delta, params);
    dpcov::capi::write_struct(receipt, c_receipt(plan, sizeof(dpcov_adassp_receipt)));
  });
}

DPCOV_API dpcov_status dpcov_adassp_fit(int32_t layout, int64_t d, const double *g, int64_t ldg,
                                        int64_t label, const int64_t *features,
                                        int64_t num_features, double bound_x, double bound_y,
                                        double epsilon, double delta,
                                        const dpcov_adassp_params *params, dpcov_rng *rng,
                                        double *coefficients, double *released_xtx,
                                        int64_t ld_xtx, double *released_xty,
                                        dpcov_adassp_receipt *receipt) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::struct_bytes(receipt, "receipt");
    check::not_null(rng, "rng");
    check::not_null(coefficients, "coefficients");
    // The plan's checks first, as dpcov_adassp_plan: a fit fails with its plan's status also
    // where the data are bad too (a non-finite g was named before a bad epsilon; fuzz_solvers).
    const mech::AdasspReceipt plan =
        checked_plan(num_features, bound_x, bound_y, epsilon, delta, params);
    if (d < 2) fail(dpcov::Status::Dimension, "d must be >= 2 (a label and a regressor), got ", d);
    const dpcov::ConstMatrixView view = check::matrix(layout, d, d, g, ldg, "g");
    check_columns(d, label, features, num_features);
    const int64_t p = num_features;
    dpcov::MatrixView xtx_out;
    if (released_xtx != nullptr)
      xtx_out = check::output_matrix(layout, p, p, released_xtx, ld_xtx, "released_xtx");
    check::all_finite(view, "g");
    check::symmetric(view, "g");

    dpcov::Matrix xtx(p, p);
    std::vector<double> xty(at(p));
    for (int64_t j = 0; j < p; ++j) {
      for (int64_t i = 0; i < p; ++i) xtx(i, j) = view(features[i], features[j]);
      xty[at(j)] = view(features[j], label);
    }
    // Draw from the caller's generator itself: noise once drawn is consumed, even if a check
    // below then fails, so a retry never reuses a draw.
    const mech::AdasspFit fit = mech::fit_adassp(xtx, xty, view(label, label), plan, rng->rng);
    dpcov_adassp_receipt written = c_receipt(fit.receipt, sizeof(dpcov_adassp_receipt));
    written.released_label_square = fit.yty;
    written.generator = dpcov::capi::c_generator(rng->rng);
    // Finite or failed: every output checked before any is written.
    check::finite_result(fit.coefficients.data(), fit.coefficients.size(), "coefficients");
    check::finite_result(fit.xtx.view(), "released_xtx");
    check::finite_result(fit.xty.data(), fit.xty.size(), "released_xty");
    for (const double constant :
         {written.bound, written.bound_y, written.epsilon, written.delta, written.delta_exact,
          written.failure_probability, written.sensitivity_lambda_min, written.sensitivity_gram,
          written.sensitivity_cross, written.sigma_lambda_min, written.sigma_gram,
          written.sigma_gram_off_diagonal, written.sigma_cross, written.lambda_min_shift,
          written.noise_norm_bound, written.eigenvalue_floor, written.released_lambda_min,
          written.ridge, written.sensitivity_label_square, written.sigma_label_square,
          written.released_label_square, written.rho})
      check::finite_result(constant, "receipt");

    for (int64_t i = 0; i < p; ++i) coefficients[i] = fit.coefficients[at(i)];
    if (released_xtx != nullptr)
      for (int64_t j = 0; j < p; ++j)
        for (int64_t i = 0; i < p; ++i) xtx_out(i, j) = fit.xtx(i, j);
    if (released_xty != nullptr)
      for (int64_t i = 0; i < p; ++i) released_xty[i] = fit.xty[at(i)];
    dpcov::capi::write_struct(receipt, written);
  });
}

DPCOV_API dpcov_status dpcov_adassp_bootstrap_intervals(
    int32_t layout, int64_t p, const double *released_xtx, int64_t ld_xtx,
    const double *released_xty, int64_t n, const dpcov_adassp_receipt *receipt, double level,
    int64_t num_bootstrap, dpcov_rng *rng, double *coefficients, double *std_errors,
    double *p_values, double *ci_lower, double *ci_upper) {
  return dpcov::capi::guarded([&] {
    const ReleasedStatistics s =
        read_release(layout, p, released_xtx, ld_xtx, released_xty, receipt, rng, level);
    check::not_null(coefficients, "coefficients");
    dpcov::random::Rng local = rng->rng;
    const est::BootstrapIntervals b = est::adassp_bootstrap_intervals(
        s.xtx, s.xty, receipt->released_label_square, n, s.receipt, level, num_bootstrap, local);
    write_intervals(p, {&b.coefficients, &b.std_errors, &b.p_values, &b.ci_lower, &b.ci_upper},
                    {coefficients, std_errors, p_values, ci_lower, ci_upper});
    rng->rng = local;
  });
}

DPCOV_API dpcov_status dpcov_adassp_intervals(
    int32_t layout, int64_t p, const double *released_xtx, int64_t ld_xtx,
    const double *released_xty, int64_t n, const dpcov_adassp_receipt *receipt,
    int64_t intercept_column, double level, int64_t num_draws, dpcov_rng *rng,
    double *coefficients, double *std_errors, double *p_values, double *ci_lower,
    double *ci_upper, int32_t *conclusive, int32_t *method) {
  return dpcov::capi::guarded([&] {
    const ReleasedStatistics s =
        read_release(layout, p, released_xtx, ld_xtx, released_xty, receipt, rng, level);
    check::not_null(coefficients, "coefficients");
    check::not_null(ci_lower, "ci_lower");
    check::not_null(ci_upper, "ci_upper");
    check::not_null(conclusive, "conclusive");
    check::not_null(method, "method");
    dpcov::random::Rng local = rng->rng;
    const est::RegressionIntervals b =
        est::adassp_intervals(s.xtx, s.xty, receipt->released_label_square, n, s.receipt,
                              intercept_column, level, num_draws, local);
    write_intervals(p, {&b.coefficients, &b.std_errors, &b.p_values, &b.ci_lower, &b.ci_upper},
                    {coefficients, std_errors, p_values, ci_lower, ci_upper});
    for (int64_t i = 0; i < p; ++i) conclusive[i] = b.conclusive[at(i)];
    *method = static_cast<int32_t>(b.method);
    rng->rng = local;
  });
}

}  // extern "C"
