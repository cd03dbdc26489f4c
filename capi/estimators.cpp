// C ABI of the estimators on released matrices (dpcov/estimators.h). Every argument is checked
// before any work, and outputs are written only after the computation has succeeded.
#include "dpcov/estimators.h"
#include "struct_size.hpp"

#include <cmath>
#include <cstddef>
#include <vector>

#include "../core/check.hpp"
#include "../core/solvers/glasso.hpp"
#include "../core/estimators/metrics.hpp"
#include "../core/estimators/pca.hpp"
#include "../core/solvers/regression.hpp"
#include "guard.hpp"
#include "receipt_writer.hpp"
#include "rng_handle.hpp"
#include "regression_result.hpp"

namespace {

using dpcov::ConstMatrixView;
using dpcov::fail;
using dpcov::Matrix;
using dpcov::MatrixView;
namespace check = dpcov::check;
namespace est = dpcov::estimators;
namespace solvers = dpcov::solvers;

// A d x d input that must be exactly symmetric and finite.
ConstMatrixView symmetric_input(int32_t layout, int64_t d, const double *a, int64_t ld,
                                const char *name) {
  check::dimension(d, "d");
  const ConstMatrixView v = check::matrix(layout, d, d, a, ld, name);
  check::symmetric(v, name);
  check::all_finite(v, name);
  return v;
}

bool flag(int32_t value, const char *name) {
  if (value != 0 && value != 1)
    fail(dpcov::Status::InvalidArgument, name, " must be 0 or 1, got ", value);
  return value == 1;
}

void copy_out(const std::vector<double> &values, double *out) {
  if (out == nullptr) return;
  for (size_t i = 0; i < values.size(); ++i) out[i] = values[i];
}

}  // namespace

namespace dpcov::capi {

void check_regression_result(const solvers::RegressionResult &r) {
  check::finite_result(r.coefficients.data(), r.coefficients.size(), "coefficients");
  check::finite_result(r.std_errors.data(), r.std_errors.size(), "std_errors");
  check::finite_result(r.p_values.data(), r.p_values.size(), "p_values");
  check::finite_result(r.ci_lower.data(), r.ci_lower.size(), "ci_lower");
  check::finite_result(r.ci_upper.data(), r.ci_upper.size(), "ci_upper");
  // A t-value is +-infinity only where its standard error is exactly 0 (documented: an exact fit).
  for (size_t i = 0; i < r.t_values.size(); ++i)
    if (std::isnan(r.t_values[i]) || (std::isinf(r.t_values[i]) && r.std_errors[i] != 0.0))
      check::finite_result(r.t_values[i], "a t-value");
}

dpcov_regression_summary c_summary(const solvers::RegressionResult &r) {
  dpcov_regression_summary s{};
  s.num_coefficients = static_cast<int64_t>(r.coefficients.size());
  s.dof = r.dof;
  s.rss = r.rss;
  s.residual_variance = r.residual_variance;
  s.t_critical = r.t_critical;
  s.rss_clamped = r.rss_clamped ? 1 : 0;
  return s;
}

dpcov_glasso_info c_glasso_info(const solvers::GlassoResult &r) {
  dpcov_glasso_info info{};
  info.iterations = r.iterations;
  info.kkt_residual = r.kkt_residual;
  info.duality_gap = r.duality_gap;
  info.start = static_cast<int32_t>(r.start);
  return info;
}

}  // namespace dpcov::capi

namespace {

void write_matrix(const Matrix &m, MatrixView out) {
  for (int64_t j = 0; j < m.cols(); ++j)
    for (int64_t i = 0; i < m.rows(); ++i) out(i, j) = m(i, j);
}

// The estimate/reference pair of a metric: same shape, both finite.
struct MetricPair {
  ConstMatrixView a, b;
};
MetricPair metric_inputs(int32_t layout, int64_t rows, int64_t cols, const double *a, int64_t lda,
                         const double *b, int64_t ldb, const char *name_a = "a",
                         const char *name_b = "b") {
  const ConstMatrixView va = check::matrix(layout, rows, cols, a, lda, name_a);
  const ConstMatrixView vb = check::matrix(layout, rows, cols, b, ldb, name_b);
  check::all_finite(va, name_a);
  check::all_finite(vb, name_b);
  return {va, vb};
}

}  // namespace

extern "C" {

DPCOV_API dpcov_status dpcov_regression_params_init(dpcov_regression_params *params,
                                                    size_t size) {
  return dpcov::capi::guarded([&] {
    dpcov_regression_params d{};
    d.intercept_column = -1;
    d.ridge = 0.0;
    d.level = 0.95;
    dpcov::capi::init_struct(params, size, d, "params");
  });
}

DPCOV_API dpcov_status dpcov_regression_fit(int32_t layout, int64_t d, const double *g, int64_t ldg,
                                            int64_t n, int64_t label, const int64_t *features,
                                            int64_t num_features,
                                            const dpcov_regression_params *params,
                                            double *coefficients, double *std_errors,
                                            double *t_values, double *p_values, double *ci_lower,
                                            double *ci_upper, dpcov_regression_summary *summary) {
  return dpcov::capi::guarded([&] {
    if (d < 2) fail(dpcov::Status::Dimension, "d must be >= 2 (a label and a regressor), got ", d);
    const ConstMatrixView view = symmetric_input(layout, d, g, ldg, "g");
    if (num_features < 0)
      fail(dpcov::Status::Dimension, "num_features must be >= 0, got ", num_features);
    // Distinct columns other than the label: checked before the array is read.
    if (num_features > d - 1)
      fail(dpcov::Status::Dimension, "num_features must be <= d - 1 = ", d - 1, ", got ",
           num_features);
    check::vector(num_features, features, sizeof(int64_t), "features");
    solvers::RegressionSpec spec;
    spec.label = label;
    spec.rows = n;
    spec.features.assign(features, features + num_features);
    if (params != nullptr) {
      dpcov::capi::struct_bytes(params, "params");
      spec.intercept_column = params->intercept_column;
      spec.ridge = params->ridge;
      spec.level = params->level;
    }
    solvers::validate(spec, d);
    check::not_null(coefficients, "coefficients");
    if (summary != nullptr)
      dpcov::capi::struct_bytes(summary, "summary");

    const solvers::RegressionResult r = solvers::regress(view, spec);
    dpcov::capi::check_regression_result(r);
    copy_out(r.coefficients, coefficients);
    copy_out(r.std_errors, std_errors);
    copy_out(r.t_values, t_values);
    copy_out(r.p_values, p_values);
    copy_out(r.ci_lower, ci_lower);
    copy_out(r.ci_upper, ci_upper);
    if (summary != nullptr) dpcov::capi::write_struct(summary, dpcov::capi::c_summary(r));
  });
}

DPCOV_API dpcov_status dpcov_pca_top_k(int32_t layout, int64_t d, const double *a, int64_t lda,
                                       int64_t k, double *values, double *vectors, int64_t ldv,
                                       double *explained_ratio) {
  return dpcov::capi::guarded([&] {
    const ConstMatrixView view = symmetric_input(layout, d, a, lda, "a");
    if (k < 1 || k > d) fail(dpcov::Status::InvalidArgument, "k must be in [1, ", d, "], got ", k);
    check::not_null(values, "values");
    MatrixView out_vectors;
    if (vectors != nullptr)
      out_vectors = check::output_matrix(layout, d, k, vectors, ldv, "vectors");

    const est::PrincipalComponents pc =
        est::principal_components(Matrix::from(view), k, explained_ratio != nullptr);
    check::finite_result(pc.values.data(), pc.values.size(), "values");
    check::finite_result(pc.explained_ratio.data(), pc.explained_ratio.size(), "explained_ratio");
    check::finite_result(pc.vectors.view(), "vectors");
    copy_out(pc.values, values);
    copy_out(pc.explained_ratio, explained_ratio);
    if (vectors != nullptr) write_matrix(pc.vectors, out_vectors);
  });
}

DPCOV_API dpcov_status dpcov_pca_subspace_distance(int32_t layout, int64_t d, const double *a,
                                                   int64_t lda, const double *b, int64_t ldb,
                                                   int64_t k, double *sin_theta_spectral,
                                                   double *sin_theta_frobenius, double *angles) {
  return dpcov::capi::guarded([&] {
    const ConstMatrixView va = symmetric_input(layout, d, a, lda, "a");
    const ConstMatrixView vb = symmetric_input(layout, d, b, ldb, "b");
    if (k < 1 || k > d) fail(dpcov::Status::InvalidArgument, "k must be in [1, ", d, "], got ", k);
    check::not_null(sin_theta_spectral, "sin_theta_spectral");
    check::not_null(sin_theta_frobenius, "sin_theta_frobenius");

    const est::SubspaceDistance s = est::subspace_distance(Matrix::from(va), Matrix::from(vb), k);
    check::finite_result(s.sin_theta_spectral, "sin_theta_spectral");
    check::finite_result(s.sin_theta_frobenius, "sin_theta_frobenius");
    check::finite_result(s.angles.data(), s.angles.size(), "angles");
    *sin_theta_spectral = s.sin_theta_spectral;
    *sin_theta_frobenius = s.sin_theta_frobenius;
    copy_out(s.angles, angles);
  });
}

DPCOV_API dpcov_status dpcov_pca_subspace_error_bound(int32_t layout, int64_t d,
                                                      const double *released, int64_t ld,
                                                      const dpcov_receipt *receipt, int64_t k,
                                                      double level, int64_t num_draws,
                                                      dpcov_rng *rng, double *noise_norm,
                                                      double *eigengap, double *sin_theta_bound,
                                                      int32_t *swamped) {
  return dpcov::capi::guarded([&] {
    const ConstMatrixView v = symmetric_input(layout, d, released, ld, "released");
    const est::ReleaseNoise noise = dpcov::capi::noise_from_receipt(receipt, d);
    check::not_null(rng, "rng");
    check::not_null(sin_theta_bound, "sin_theta_bound");
    dpcov::random::Rng local = rng->rng;
    const est::SubspaceErrorBound b = est::subspace_error_bound(v, k, noise, level, num_draws, local);
    *sin_theta_bound = b.sin_theta_bound;
    if (noise_norm != nullptr) *noise_norm = b.noise_norm;
    if (eigengap != nullptr) *eigengap = b.eigengap;
    if (swamped != nullptr) *swamped = b.swamped ? 1 : 0;
    rng->rng = local;
  });
}

DPCOV_API dpcov_status dpcov_pca_centred_subspace_error_bound(
    int32_t layout, int64_t dim, const double *released, int64_t ld, const dpcov_receipt *receipt,
    int64_t constant_column, double constant, int64_t n, int64_t k, double level,
    int64_t num_draws, dpcov_rng *rng, double *noise_norm, double *eigengap,
    double *sin_theta_bound, int32_t *swamped) {
  return dpcov::capi::guarded([&] {
    if (dim < 2)
      dpcov::fail(dpcov::Status::Dimension, "dim must be >= 2 (a constant column and data), got ",
                  dim);
    const ConstMatrixView v = symmetric_input(layout, dim, released, ld, "released");
    const est::ReleaseNoise noise = dpcov::capi::noise_from_receipt(receipt, dim);
    check::not_null(rng, "rng");
    check::not_null(sin_theta_bound, "sin_theta_bound");
    dpcov::random::Rng local = rng->rng;
    const est::SubspaceErrorBound b = est::centred_subspace_error_bound(
        v, constant_column, constant, n, k, noise, level, num_draws, local);
    *sin_theta_bound = b.sin_theta_bound;
    if (noise_norm != nullptr) *noise_norm = b.noise_norm;
    if (eigengap != nullptr) *eigengap = b.eigengap;
    if (swamped != nullptr) *swamped = b.swamped ? 1 : 0;
    rng->rng = local;
  });
}

DPCOV_API dpcov_status dpcov_glasso_params_init(dpcov_glasso_params *params, size_t size) {
  return dpcov::capi::guarded([&] {
    const solvers::GlassoOptions defaults;
    dpcov_glasso_params d{};
    d.penalize_diagonal = defaults.penalize_diagonal ? 1 : 0;
    d.tol = defaults.tol;
    d.max_iter = defaults.max_iter;
    dpcov::capi::init_struct(params, size, d, "params");
  });
}

DPCOV_API dpcov_status dpcov_glasso_solve(int32_t layout, int64_t d, const double *s, int64_t lds,
                                          double rho, const dpcov_glasso_params *params,
                                          const double *warm_start, int64_t ldw, double *precision,
                                          int64_t ldp, double *covariance, int64_t ldc,
                                          dpcov_glasso_info *info) {
  return dpcov::capi::guarded([&] {
    const ConstMatrixView vs = symmetric_input(layout, d, s, lds, "s");
    solvers::GlassoOptions options;
    options.rho = rho;
    if (params != nullptr) {
      dpcov::capi::struct_bytes(params, "params");
      options.penalize_diagonal = flag(params->penalize_diagonal, "params->penalize_diagonal");
      options.tol = params->tol;
      options.max_iter = params->max_iter;
    }
    solvers::validate(options);
    Matrix warm;
    if (warm_start != nullptr)
      warm = Matrix::from(symmetric_input(layout, d, warm_start, ldw, "warm_start"));
    const MatrixView out_precision =
        check::output_matrix(layout, d, d, precision, ldp, "precision");
    MatrixView out_covariance;
    if (covariance != nullptr)
      out_covariance = check::output_matrix(layout, d, d, covariance, ldc, "covariance");
    if (info != nullptr)
      dpcov::capi::struct_bytes(info, "info");

    const solvers::GlassoResult r =
        solvers::graphical_lasso(Matrix::from(vs), options, warm_start != nullptr ? &warm : nullptr);
    check::finite_result(r.precision.view(), "precision");
    if (covariance != nullptr) check::finite_result(r.covariance.view(), "covariance");
    write_matrix(r.precision, out_precision);
    if (covariance != nullptr) write_matrix(r.covariance, out_covariance);
    if (info != nullptr) dpcov::capi::write_struct(info, dpcov::capi::c_glasso_info(r));
  });
}

DPCOV_API dpcov_status dpcov_metric_frobenius_error(int32_t layout, int64_t rows, int64_t cols,
                                                    const double *a, int64_t lda, const double *b,
                                                    int64_t ldb, int32_t relative, double *out) {
  return dpcov::capi::guarded([&] {
    const MetricPair m = metric_inputs(layout, rows, cols, a, lda, b, ldb);
    const bool rel = flag(relative, "relative");
    check::not_null(out, "out");
    const double value = est::frobenius_error(m.a, m.b, rel);
    check::finite_result(value, "frobenius error");
    *out = value;
  });
}

DPCOV_API dpcov_status dpcov_metric_spectral_error(int32_t layout, int64_t rows, int64_t cols,
                                                   const double *a, int64_t lda, const double *b,
                                                   int64_t ldb, int32_t relative, double *out) {
  return dpcov::capi::guarded([&] {
    const MetricPair m = metric_inputs(layout, rows, cols, a, lda, b, ldb);
    const bool rel = flag(relative, "relative");
    check::not_null(out, "out");
    const double value = est::spectral_error(m.a, m.b, rel);
    check::finite_result(value, "spectral error");
    *out = value;
  });
}

DPCOV_API dpcov_status dpcov_metric_vector_error(int64_t n, const double *a, const double *b,
                                                 int32_t relative, double *out) {
  return dpcov::capi::guarded([&] {
    if (n < 1) fail(dpcov::Status::Dimension, "n must be >= 1, got ", n);
    if (n > check::kBlasIntMax)
      fail(dpcov::Status::TooLarge, "n = ", n, " must fit a 32-bit BLAS integer");
    check::vector(n, a, sizeof(double), "a");
    check::vector(n, b, sizeof(double), "b");
    check::all_finite({a, n, 1, n, dpcov::Layout::ColMajor}, "a");
    check::all_finite({b, n, 1, n, dpcov::Layout::ColMajor}, "b");
    const bool rel = flag(relative, "relative");
    check::not_null(out, "out");
    const double value = est::vector_error(a, b, n, rel);
    check::finite_result(value, "vector error");
    *out = value;
  });
}

DPCOV_API dpcov_status dpcov_metric_support_recovery(int32_t layout, int64_t d,
                                                     const double *estimate, int64_t lde,
                                                     const double *truth, int64_t ldt,
                                                     double threshold,
                                                     dpcov_support_recovery *out) {
  return dpcov::capi::guarded([&] {
    check::dimension(d, "d");
    const MetricPair m =
        metric_inputs(layout, d, d, estimate, lde, truth, ldt, "estimate", "truth");
    check::not_null(out, "out");
    dpcov::capi::struct_bytes(out, "out");
    const est::SupportRecovery s = est::support_recovery(m.a, m.b, threshold);
    dpcov_support_recovery written{};
    written.true_positives = s.true_positives;
    written.false_positives = s.false_positives;
    written.false_negatives = s.false_negatives;
    written.true_negatives = s.true_negatives;
    written.precision = s.precision;
    written.recall = s.recall;
    dpcov::capi::write_struct(out, written);
  });
}

}  // extern "C"
