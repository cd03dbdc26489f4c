// C ABI of private OLS inference (dpcov/ols.h).
#include "dpcov/ols.h"
#include "struct_size.hpp"

#include <array>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "../core/check.hpp"
#include "../core/estimators/ols_bootstrap.hpp"
#include "../core/estimators/sandwich_intervals.hpp"
#include "../core/mechanisms/mechanism.hpp"
#include "../core/mechanisms/ols_analyze_gauss.hpp"
#include "../core/mechanisms/ols_ptr.hpp"
#include "guard.hpp"
#include "mechanism_options.hpp"
#include "receipt_writer.hpp"
#include "regression_result.hpp"
#include "rng_handle.hpp"

namespace {

using dpcov::fail;
namespace check = dpcov::check;
namespace mech = dpcov::mechanisms;
namespace est = dpcov::estimators;
namespace solvers = dpcov::solvers;

enum class Algorithm { Projection, AnalyzeGauss };

void copy_out(const std::vector<double> &values, double *out) {
  if (out == nullptr) return;
  for (size_t i = 0; i < values.size(); ++i) out[i] = values[i];
}

// The bootstrap's per-coefficient outputs, checked finite before any is written (finite or
// failed: found by fuzz_solvers, a non-finite output with DPCOV_OK); NULL outputs are skipped.
// The NaN of a flagged unbounded coefficient is its outcome, said by dpcov_ols_intervals'
// `conclusive`, and is not checked.
void write_bootstrap(const est::BootstrapIntervals &r, std::array<double *, 5> outputs) {
  const std::array<std::pair<const std::vector<double> *, const char *>, 5> values = {
      std::pair{&r.coefficients, "coefficients"}, std::pair{&r.std_errors, "std_errors"},
      std::pair{&r.p_values, "p_values"}, std::pair{&r.ci_lower, "ci_lower"},
      std::pair{&r.ci_upper, "ci_upper"}};
  for (const auto &[v, name] : values)
    for (size_t i = 0; i < v->size(); ++i)
      if (v == &r.coefficients || i >= r.unbounded.size() || !r.unbounded[i])
        check::finite_result((*v)[i], name);
  for (size_t k = 0; k < values.size(); ++k) copy_out(*values[k].first, outputs[k]);
}

// The regression of `label` on `features` with the intercept and level of reg_params (NULL: the
// defaults), which must not ask for a ridge penalty.
solvers::RegressionSpec ols_spec(int64_t d, int64_t n, int64_t label, const int64_t *features,
                             int64_t num_features, const dpcov_regression_params *reg_params) {
  if (d < 2) fail(dpcov::Status::Dimension, "d must be >= 2 (a label and a regressor), got ", d);
  if (num_features < 0)
    fail(dpcov::Status::Dimension, "num_features must be >= 0, got ", num_features);
  // Distinct columns other than the label: checked before the array is read.
  if (num_features > d - 1)
    fail(dpcov::Status::Dimension, "num_features must be <= d - 1 = ", d - 1, ", got ",
         num_features);
  check::vector(num_features, features, sizeof(int64_t), "features");
  solvers::RegressionSpec spec;
  spec.label = label;
  spec.features.assign(features, features + num_features);
  spec.rows = n;
  if (reg_params != nullptr) {
    dpcov::capi::struct_bytes(reg_params, "reg_params");
    if (reg_params->ridge != 0.0)
      fail(dpcov::Status::InvalidArgument, "private OLS inference takes no ridge penalty; got ",
           reg_params->ridge);
    spec.intercept_column = reg_params->intercept_column;
    spec.level = reg_params->level;
  }
  return spec;
}

// What both bootstrap intervals read of their arguments, checked: the release's noise law, the
// regression and the release. The generator and the coefficients' output are required.
struct BootstrapInput {
  est::ReleaseNoise noise;
  solvers::RegressionSpec spec;
  dpcov::ConstMatrixView view;
};

BootstrapInput bootstrap_input(int32_t layout, int64_t d, const double *released, int64_t ld,
                               const dpcov_receipt *receipt, int64_t label,
                               const int64_t *features, int64_t num_features,
                               const dpcov_regression_params *reg_params, const dpcov_rng *rng,
                               const double *coefficients) {
  check::not_null(receipt, "receipt");
  check::not_null(rng, "rng");
  check::not_null(coefficients, "coefficients");
  est::ReleaseNoise noise = dpcov::capi::noise_from_receipt(receipt, d);
  solvers::RegressionSpec spec = ols_spec(d, receipt->n, label, features, num_features, reg_params);
  return {noise, std::move(spec), check::matrix(layout, d, d, released, ld, "released")};
}

dpcov_status run(Algorithm algorithm, int32_t layout, int64_t d, const double *g, int64_t ldg,
                 int64_t n, double bound, double epsilon, double delta,
                 const dpcov_mechanism_params *params, int64_t label, const int64_t *features,
                 int64_t num_features, const dpcov_regression_params *reg_params, dpcov_rng *rng,
                 double *coefficients, double *std_errors, double *t_values, double *p_values,
                 double *ci_lower, double *ci_upper, int32_t *reject,
                 dpcov_regression_summary *summary, dpcov_receipt *receipt) {
  return dpcov::capi::guarded([&] {
    dpcov::capi::check_receipt_output(receipt);
    check::not_null(rng, "rng");
    check::not_null(coefficients, "coefficients");
    const solvers::RegressionSpec spec = ols_spec(d, n, label, features, num_features, reg_params);
    const dpcov::ConstMatrixView view = check::matrix(layout, d, d, g, ldg, "g");
    if (summary != nullptr) dpcov::capi::struct_bytes(summary, "summary");
    const mech::Request request{d, n, bound, epsilon, delta, dpcov::capi::options_from(params)};
    // The plan's receipt checks first (a constant that overflows is refused), as in
    // dpcov_mechanism_release(): the release fails where its plan fails, with the same status,
    // before anything is drawn. The release then uses this plan: its constants are computed once.
    const mech::Receipt planned = mech::plan(
        algorithm == Algorithm::Projection ? mech::MechanismId::OlsJl : mech::MechanismId::AnalyzeGauss,
        request);
    dpcov::capi::c_receipt(planned, receipt);

    // Draw from the caller's generator itself: noise once drawn is consumed, so a call that fails
    // after drawing (a refusal) still advances it and a retry never reuses a draw. Arguments are
    // checked before the first draw, so a rejected call leaves the generator as it was.
    dpcov::random::Rng &local = rng->rng;
    const mech::OlsInference result =
        algorithm == Algorithm::Projection
            ? mech::ols_jl_inference(view, request, planned, spec, local)
            : mech::ols_analyze_gauss_inference(view, request, planned, spec, local);
    const dpcov_receipt written = dpcov::capi::c_receipt(result.data.release.receipt, receipt);
    const solvers::RegressionResult &r = result.fit;
    dpcov::capi::check_regression_result(r);
    copy_out(r.coefficients, coefficients);
    copy_out(r.std_errors, std_errors);
    copy_out(r.t_values, t_values);
    copy_out(r.p_values, p_values);
    copy_out(r.ci_lower, ci_lower);
    copy_out(r.ci_upper, ci_upper);
    if (reject != nullptr)
      for (size_t i = 0; i < result.reject.size(); ++i) reject[i] = result.reject[i] ? 1 : 0;
    if (summary != nullptr) dpcov::capi::write_struct(summary, dpcov::capi::c_summary(r));
    dpcov::capi::write_struct(receipt, written);
  });
}

// The robust intervals of the sandwich entry points from `in` (bootstrap_input), drawn from
// `rng`; the meat's noise is redrawn in every world when `meat_receipt` is given (its law checked
// before any draw).
est::BootstrapIntervals sandwich(const BootstrapInput &in, int32_t layout,
                                 const double *released_meat, int64_t ld_meat,
                                 const dpcov_receipt *meat_receipt, int64_t num_bootstrap,
                                 dpcov::random::Rng &rng, est::WeakCoefficients weak) {
  const auto p = static_cast<int64_t>(in.spec.features.size()) +
                 (in.spec.intercept_column >= 0 ? 1 : 0);
  const dpcov::ConstMatrixView meat_view =
      check::matrix(layout, p, p, released_meat, ld_meat, "released_meat");
  dpcov::Matrix meat(p, p);
  for (int64_t j = 0; j < p; ++j)
    for (int64_t i = 0; i < p; ++i) meat(i, j) = meat_view(i, j);
  std::optional<est::ReleaseNoise> meat_noise;
  if (meat_receipt != nullptr) {
    meat_noise = dpcov::capi::noise_from_receipt(meat_receipt, p, "meat_receipt");
    est::validate(*meat_noise, p);
  }
  return est::gram_sandwich_intervals(in.view, in.noise, in.spec, meat, num_bootstrap, rng,
                                      meat_noise ? &*meat_noise : nullptr, weak);
}

// The entry points of the sandwich: the intervals from a copy of the caller's generator, written
// and the generator advanced on success only.
void sandwich_entry(int32_t layout, int64_t d, const double *released, int64_t ld,
                    const dpcov_receipt *receipt, int64_t label, const int64_t *features,
                    int64_t num_features, const dpcov_regression_params *reg_params,
                    const double *released_meat, int64_t ld_meat,
                    const dpcov_receipt *meat_receipt, int64_t num_bootstrap, dpcov_rng *rng,
                    std::array<double *, 5> outputs) {
  const BootstrapInput in = bootstrap_input(layout, d, released, ld, receipt, label, features,
                                            num_features, reg_params, rng, outputs[0]);
  dpcov::random::Rng local = rng->rng;
  const est::BootstrapIntervals r = sandwich(in, layout, released_meat, ld_meat, meat_receipt,
                                             num_bootstrap, local, est::WeakCoefficients::Refuse);
  write_bootstrap(r, outputs);
  rng->rng = local;
}

}  // namespace

extern "C" {

DPCOV_API dpcov_status dpcov_bootstrap_draws_check(double level, int64_t num_bootstrap) {
  return dpcov::capi::guarded(
      [&] { dpcov::estimators::check_bootstrap_draws(level, num_bootstrap); });
}

DPCOV_API dpcov_status dpcov_ols_jl(int32_t layout, int64_t d, const double *g, int64_t ldg,
                                    int64_t n, double bound, double epsilon, double delta,
                                    const dpcov_mechanism_params *params, int64_t label,
                                    const int64_t *features, int64_t num_features,
                                    const dpcov_regression_params *reg_params, dpcov_rng *rng,
                                    double *coefficients, double *std_errors, double *t_values,
                                    double *p_values, double *ci_lower, double *ci_upper,
                                    int32_t *reject, dpcov_regression_summary *summary,
                                    dpcov_receipt *receipt) {
  return run(Algorithm::Projection, layout, d, g, ldg, n, bound, epsilon, delta, params, label,
             features, num_features, reg_params, rng, coefficients, std_errors, t_values, p_values,
             ci_lower, ci_upper, reject, summary, receipt);
}

DPCOV_API dpcov_status dpcov_ols_analyze_gauss(
    int32_t layout, int64_t d, const double *g, int64_t ldg, int64_t n, double bound,
    double epsilon, double delta, const dpcov_mechanism_params *params, int64_t label,
    const int64_t *features, int64_t num_features, const dpcov_regression_params *reg_params,
    dpcov_rng *rng, double *coefficients, double *std_errors, double *t_values, double *p_values,
    double *ci_lower, double *ci_upper, int32_t *reject, dpcov_regression_summary *summary,
    dpcov_receipt *receipt) {
  return run(Algorithm::AnalyzeGauss, layout, d, g, ldg, n, bound, epsilon, delta, params, label,
             features, num_features, reg_params, rng, coefficients, std_errors, t_values, p_values,
             ci_lower, ci_upper, reject, summary, receipt);
}

DPCOV_API dpcov_status dpcov_ols_analyze_gauss_intervals(
    int32_t layout, int64_t d, const double *released, int64_t ld, double sigma, int64_t n,
    int64_t label, const int64_t *features, int64_t num_features,
    const dpcov_regression_params *reg_params, double *coefficients, double *ci_lower,
    double *ci_upper, double *data_ci_lower, double *data_ci_upper, int32_t *reject,
    double *noise_norm_bound, double *kappa) {
  return dpcov::capi::guarded([&] {
    check::not_null(coefficients, "coefficients");
    const solvers::RegressionSpec spec = ols_spec(d, n, label, features, num_features, reg_params);
    const dpcov::ConstMatrixView view = check::matrix(layout, d, d, released, ld, "released");
    const mech::AnalyzeGaussIntervals r = mech::analyze_gauss_ols_intervals(view, sigma, spec);
    for (const auto &[values, name] :
         {std::pair{&r.coefficients, "coefficients"}, std::pair{&r.ci_lower, "ci_lower"},
          std::pair{&r.ci_upper, "ci_upper"}, std::pair{&r.data_ci_lower, "data_ci_lower"},
          std::pair{&r.data_ci_upper, "data_ci_upper"}})
      check::finite_result(values->data(), values->size(), name);
    check::finite_result(r.noise_norm_bound, "noise_norm_bound");
    check::finite_result(r.kappa, "kappa");
    copy_out(r.coefficients, coefficients);
    copy_out(r.ci_lower, ci_lower);
    copy_out(r.ci_upper, ci_upper);
    copy_out(r.data_ci_lower, data_ci_lower);
    copy_out(r.data_ci_upper, data_ci_upper);
    if (reject != nullptr)
      for (size_t i = 0; i < r.reject.size(); ++i) reject[i] = r.reject[i] ? 1 : 0;
    if (noise_norm_bound != nullptr) *noise_norm_bound = r.noise_norm_bound;
    if (kappa != nullptr) *kappa = r.kappa;
  });
}

DPCOV_API dpcov_status dpcov_ols_bootstrap_intervals(
    int32_t layout, int64_t d, const double *released, int64_t ld, const dpcov_receipt *receipt,
    int64_t label, const int64_t *features, int64_t num_features,
    const dpcov_regression_params *reg_params, int64_t num_bootstrap, dpcov_rng *rng,
    double *coefficients, double *std_errors, double *p_values, double *ci_lower,
    double *ci_upper, double *noise_norm, double *kappa) {
  return dpcov::capi::guarded([&] {
    const BootstrapInput in = bootstrap_input(layout, d, released, ld, receipt, label, features,
                                              num_features, reg_params, rng, coefficients);
    dpcov::random::Rng local = rng->rng;
    const est::BootstrapIntervals r =
        est::ols_bootstrap_intervals(in.view, in.noise, in.spec, num_bootstrap, local);
    check::finite_result(r.noise_norm, "noise_norm");
    check::finite_result(r.kappa, "kappa");
    write_bootstrap(r, {coefficients, std_errors, p_values, ci_lower, ci_upper});
    if (noise_norm != nullptr) *noise_norm = r.noise_norm;
    if (kappa != nullptr) *kappa = r.kappa;
    rng->rng = local;
  });
}

DPCOV_API dpcov_status dpcov_ols_sandwich_intervals(
    int32_t layout, int64_t d, const double *released, int64_t ld, const dpcov_receipt *receipt,
    int64_t label, const int64_t *features, int64_t num_features,
    const dpcov_regression_params *reg_params, const double *released_meat, int64_t ld_meat,
    int64_t num_bootstrap, dpcov_rng *rng, double *coefficients, double *std_errors,
    double *p_values, double *ci_lower, double *ci_upper) {
  return dpcov::capi::guarded([&] {
    sandwich_entry(layout, d, released, ld, receipt, label, features, num_features, reg_params,
                   released_meat, ld_meat, nullptr, num_bootstrap, rng,
                   {coefficients, std_errors, p_values, ci_lower, ci_upper});
  });
}

DPCOV_API dpcov_status dpcov_ols_robust_intervals(
    int32_t layout, int64_t d, const double *released, int64_t ld, const dpcov_receipt *receipt,
    int64_t label, const int64_t *features, int64_t num_features,
    const dpcov_regression_params *reg_params, const double *released_meat, int64_t ld_meat,
    const dpcov_receipt *meat_receipt, int64_t num_bootstrap, dpcov_rng *rng,
    double *coefficients, double *std_errors, double *p_values, double *ci_lower,
    double *ci_upper) {
  return dpcov::capi::guarded([&] {
    check::not_null(meat_receipt, "meat_receipt");
    sandwich_entry(layout, d, released, ld, receipt, label, features, num_features, reg_params,
                   released_meat, ld_meat, meat_receipt, num_bootstrap, rng,
                   {coefficients, std_errors, p_values, ci_lower, ci_upper});
  });
}

DPCOV_API dpcov_status dpcov_ols_intervals(
    int32_t layout, int64_t d, const double *released, int64_t ld, const dpcov_receipt *receipt,
    int64_t label, const int64_t *features, int64_t num_features,
    const dpcov_regression_params *reg_params, const double *released_meat, int64_t ld_meat,
    const dpcov_receipt *meat_receipt, int64_t num_bootstrap, dpcov_rng *rng,
    double *coefficients, double *std_errors, double *p_values, double *ci_lower,
    double *ci_upper, int32_t *conclusive, double *noise_norm, double *kappa) {
  return dpcov::capi::guarded([&] {
    check::not_null(conclusive, "conclusive");
    if ((released_meat == nullptr) != (meat_receipt == nullptr))
      fail(dpcov::Status::InvalidArgument, "released_meat and meat_receipt go together: both "
           "(intervals robust to the errors' variance) or neither (homoscedastic errors)");
    const BootstrapInput in = bootstrap_input(layout, d, released, ld, receipt, label, features,
                                              num_features, reg_params, rng, coefficients);
    dpcov::random::Rng local = rng->rng;
    const est::BootstrapIntervals r =
        released_meat == nullptr
            ? est::ols_bootstrap_intervals(in.view, in.noise, in.spec, num_bootstrap, local,
                                           est::WeakCoefficients::Flag)
            : sandwich(in, layout, released_meat, ld_meat, meat_receipt, num_bootstrap, local,
                       est::WeakCoefficients::Flag);
    check::finite_result(r.noise_norm, "noise_norm");
    check::finite_result(r.kappa, "kappa");
    write_bootstrap(r, {coefficients, std_errors, p_values, ci_lower, ci_upper});
    for (size_t i = 0; i < r.unbounded.size(); ++i)
      conclusive[i] = r.unbounded[i] ? DPCOV_COEFFICIENT_UNBOUNDED : DPCOV_COEFFICIENT_BOUNDED;
    if (noise_norm != nullptr) *noise_norm = r.noise_norm;
    if (kappa != nullptr) *kappa = r.kappa;
    rng->rng = local;
  });
}

}  // extern "C"
