// C ABI of the samplers and log-densities (dpcov/sample.h).
#include "dpcov/sample.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "../core/check.hpp"
#include "../core/random/samplers.hpp"
#include "guard.hpp"
#include "rng_handle.hpp"

namespace {

using dpcov::ConstMatrixView;
using dpcov::Matrix;
using dpcov::MatrixView;
using dpcov::random::Rng;
namespace check = dpcov::check;

// Draws with the caller's generator itself: numbers once drawn are consumed, even when the call
// then fails, so a retry never reuses a draw. Arguments are checked before the first draw.
template <class Draw>
void with_rng(dpcov_rng *handle, Draw &&draw) {
  check::not_null(handle, "rng");
  draw(handle->rng);
}

void check_count(int64_t n, const double *out) {
  if (n < 0) dpcov::fail(dpcov::Status::Dimension, "n must be >= 0, got ", n);
  check::vector(n, out, sizeof(double), "out");
}

// A validated dim x dim input matrix, copied into column-major storage so that the result cannot
// depend on the caller's layout.
Matrix square_input(int32_t layout, int64_t dim, const double *data, int64_t ld,
                    const char *name) {
  check::dimension(dim, "dim");
  return Matrix::from(check::matrix(layout, dim, dim, data, ld, name));
}

MatrixView square_output(int32_t layout, int64_t dim, double *data, int64_t ld) {
  check::dimension(dim, "dim");
  return check::output_matrix(layout, dim, dim, data, ld, "out");
}

// Copies a drawn matrix out once every entry is known finite (a huge scale can overflow a draw):
// on DPCOV_E_NUMERICAL the output is untouched.
void write(const Matrix &m, MatrixView out) {
  check::finite_result(m.data(), static_cast<size_t>(m.rows() * m.cols()), "out");
  for (int64_t j = 0; j < m.cols(); ++j)
    for (int64_t i = 0; i < m.rows(); ++i) out(i, j) = m(i, j);
}

// Runs `fill(rng, points)` to draw n points into the columns of a dim x n buffer, then copies
// them out as the rows of an n x dim output, so nothing is written on failure.
template <class FillPoints>
void sample_point_columns(dpcov_rng *handle, int64_t dim, int64_t n, MatrixView out,
                          FillPoints &&fill) {
  with_rng(handle, [&](Rng &rng) {
    Matrix points(dim, n);
    fill(rng, points);
    check::finite_result(points.data(), static_cast<size_t>(dim * n), "out");
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < dim; ++j) out(i, j) = points(j, i);
  });
}

// sample_point_columns with `draw(rng, out_ptr)` called for each point in turn.
template <class DrawPoint>
void sample_points(dpcov_rng *handle, int64_t dim, int64_t n, MatrixView out, DrawPoint &&draw) {
  sample_point_columns(handle, dim, n, out, [&](Rng &rng, Matrix &points) {
    for (int64_t i = 0; i < n; ++i) draw(rng, points.data() + i * dim);
  });
}

// n draws of a scalar distribution; `validate` checks its parameters before anything is drawn.
template <class Validate, class Draw>
dpcov_status sample_vector(dpcov_rng *rng, int64_t n, double *out, Validate &&validate,
                           Draw &&draw) {
  return dpcov::capi::guarded([&] {
    check::not_null(rng, "rng");
    validate();
    check_count(n, out);
    // Drawn into a buffer first: a draw that overflows (a huge scale) fails the call with the
    // output untouched.
    std::vector<double> drawn(static_cast<size_t>(n));
    with_rng(rng, [&](Rng &local) {
      for (double &x : drawn) x = draw(local);
    });
    check::finite_result(drawn.data(), drawn.size(), "out");
    std::copy(drawn.begin(), drawn.end(), out);
  });
}

void no_parameter() {}

// A log-density leaving the C ABI: -infinity is the documented value outside the support; NaN or
// +infinity is a numerical failure.
double log_density_result(double value) {
  if (std::isnan(value) || value == HUGE_VAL)
    dpcov::fail(dpcov::Status::Numerical, "the log-density is not a number or +infinity (", value,
                ")");
  return value;
}

void check_points(int64_t dim, int64_t n) {
  check::dimension(dim, "dim");
  if (n < 1) dpcov::fail(dpcov::Status::Dimension, "n must be >= 1, got ", n);
}

}  // namespace

extern "C" {

DPCOV_API dpcov_status dpcov_sample_uniform01(dpcov_rng *rng, int64_t n, double *out) {
  return sample_vector(rng, n, out, no_parameter,
                       [](Rng &r) { return dpcov::random::uniform01(r); });
}

DPCOV_API dpcov_status dpcov_sample_standard_normal(dpcov_rng *rng, int64_t n, double *out) {
  return sample_vector(rng, n, out, no_parameter,
                       [](Rng &r) { return dpcov::random::standard_normal(r); });
}

DPCOV_API dpcov_status dpcov_sample_exponential(dpcov_rng *rng, int64_t n, double *out) {
  return sample_vector(rng, n, out, no_parameter,
                       [](Rng &r) { return dpcov::random::exponential(r); });
}

DPCOV_API dpcov_status dpcov_sample_laplace(dpcov_rng *rng, double scale, int64_t n,
                                            double *out) {
  return sample_vector(
      rng, n, out, [&] { check::positive_finite(scale, "scale"); },
      [scale](Rng &r) { return dpcov::random::laplace(r, scale); });
}

DPCOV_API dpcov_status dpcov_sample_gamma(dpcov_rng *rng, double shape, int64_t n, double *out) {
  return sample_vector(
      rng, n, out, [&] { check::positive_finite(shape, "shape"); },
      [shape](Rng &r) { return dpcov::random::gamma(r, shape); });
}

DPCOV_API dpcov_status dpcov_sample_chi_square(dpcov_rng *rng, double dof, int64_t n,
                                               double *out) {
  return sample_vector(
      rng, n, out, [&] { check::positive_finite(dof, "dof"); },
      [dof](Rng &r) { return dpcov::random::chi_square(r, dof); });
}

DPCOV_API dpcov_status dpcov_sample_uniform_sphere(dpcov_rng *rng, int64_t dim, int64_t n,
                                                   int32_t layout, double *out, int64_t ld_out) {
  return dpcov::capi::guarded([&] {
    check::not_null(rng, "rng");
    check_points(dim, n);
    const MatrixView view = check::output_matrix(layout, n, dim, out, ld_out, "out");
    sample_points(rng, dim, n, view,
                  [dim](Rng &r, double *x) { dpcov::random::uniform_sphere(r, x, dim); });
  });
}

DPCOV_API dpcov_status dpcov_sample_wishart(dpcov_rng *rng, double dof, int32_t layout,
                                            int64_t dim, const double *scale, int64_t ld_scale,
                                            double *out, int64_t ld_out) {
  return dpcov::capi::guarded([&] {
    check::not_null(rng, "rng");
    const Matrix s = square_input(layout, dim, scale, ld_scale, "scale");
    const MatrixView view = square_output(layout, dim, out, ld_out);
    with_rng(rng, [&](Rng &r) { write(dpcov::random::wishart(r, dof, s), view); });
  });
}

DPCOV_API dpcov_status dpcov_sample_inverse_wishart(dpcov_rng *rng, double dof, int32_t layout,
                                                    int64_t dim, const double *psi,
                                                    int64_t ld_psi, double *out, int64_t ld_out) {
  return dpcov::capi::guarded([&] {
    check::not_null(rng, "rng");
    const Matrix p = square_input(layout, dim, psi, ld_psi, "psi");
    const MatrixView view = square_output(layout, dim, out, ld_out);
    with_rng(rng, [&](Rng &r) { write(dpcov::random::inverse_wishart(r, dof, p), view); });
  });
}

DPCOV_API dpcov_status dpcov_sample_acg(dpcov_rng *rng, int32_t layout, int64_t dim,
                                        const double *omega, int64_t ld_omega, int64_t n,
                                        double *out, int64_t ld_out) {
  return dpcov::capi::guarded([&] {
    check::not_null(rng, "rng");
    const dpcov::random::AngularCentralGaussian acg(
        square_input(layout, dim, omega, ld_omega, "omega"));
    check_points(dim, n);
    const MatrixView view = check::output_matrix(layout, n, dim, out, ld_out, "out");
    sample_points(rng, dim, n, view, [&acg](Rng &r, double *x) { acg.sample(r, x); });
  });
}

DPCOV_API dpcov_status dpcov_sample_bingham(dpcov_rng *rng, int32_t layout, int64_t dim,
                                            const double *a, int64_t lda, int64_t n, double *out,
                                            int64_t ld_out, int64_t *tries) {
  return dpcov::capi::guarded([&] {
    check::not_null(rng, "rng");
    const dpcov::random::BinghamSampler sampler(square_input(layout, dim, a, lda, "a"));
    check_points(dim, n);
    const MatrixView view = check::output_matrix(layout, n, dim, out, ld_out, "out");
    int64_t total = 0;
    sample_point_columns(rng, dim, n, view, [&](Rng &r, Matrix &points) {
      total = sampler.sample_columns(r, n, points.data(), dim);
    });
    if (tries != nullptr) *tries = total;
  });
}

DPCOV_API dpcov_status dpcov_sample_symmetric_gaussian_noise(dpcov_rng *rng, double sigma,
                                                             int32_t layout, int64_t dim,
                                                             double *out, int64_t ld) {
  return dpcov::capi::guarded([&] {
    check::not_null(rng, "rng");
    check::positive_finite(sigma, "sigma");
    const MatrixView view = square_output(layout, dim, out, ld);
    Matrix noise(dim, dim);
    with_rng(rng, [&](Rng &r) { dpcov::random::symmetric_gaussian_noise(r, sigma, noise); });
    write(noise, view);
  });
}

DPCOV_API dpcov_status dpcov_sample_symmetric_laplace_noise(dpcov_rng *rng, double scale,
                                                            int32_t layout, int64_t dim,
                                                            double *out, int64_t ld) {
  return dpcov::capi::guarded([&] {
    check::not_null(rng, "rng");
    check::positive_finite(scale, "scale");
    const MatrixView view = square_output(layout, dim, out, ld);
    Matrix noise(dim, dim);
    with_rng(rng, [&](Rng &r) { dpcov::random::symmetric_laplace_noise(r, scale, noise); });
    write(noise, view);
  });
}

DPCOV_API dpcov_status dpcov_log_density_wishart(int32_t layout, int64_t dim, const double *w,
                                                 int64_t ld_w, double dof, const double *scale,
                                                 int64_t ld_scale, double *out) {
  return dpcov::capi::guarded([&] {
    const Matrix point = square_input(layout, dim, w, ld_w, "w");
    const Matrix s = square_input(layout, dim, scale, ld_scale, "scale");
    check::not_null(out, "out");
    *out = log_density_result(dpcov::random::wishart_log_density(point, dof, s));
  });
}

DPCOV_API dpcov_status dpcov_log_density_inverse_wishart(int32_t layout, int64_t dim,
                                                         const double *x, int64_t ld_x,
                                                         double dof, const double *psi,
                                                         int64_t ld_psi, double *out) {
  return dpcov::capi::guarded([&] {
    const Matrix point = square_input(layout, dim, x, ld_x, "x");
    const Matrix p = square_input(layout, dim, psi, ld_psi, "psi");
    check::not_null(out, "out");
    *out = log_density_result(dpcov::random::inverse_wishart_log_density(point, dof, p));
  });
}

DPCOV_API dpcov_status dpcov_log_density_acg(int32_t layout, int64_t dim, const double *omega,
                                             int64_t ld_omega, const double *u, double *out) {
  return dpcov::capi::guarded([&] {
    const dpcov::random::AngularCentralGaussian acg(
        square_input(layout, dim, omega, ld_omega, "omega"));
    check::vector(dim, u, sizeof(double), "u");
    check::not_null(out, "out");
    for (int64_t i = 0; i < dim; ++i) check::finite(u[i], "u");
    *out = log_density_result(acg.log_density(u));
  });
}

DPCOV_API dpcov_status dpcov_log_density_symmetric_gaussian(int32_t layout, int64_t dim,
                                                            const double *noise, int64_t ld,
                                                            double sigma, double *out) {
  return dpcov::capi::guarded([&] {
    const Matrix m = square_input(layout, dim, noise, ld, "noise");
    check::not_null(out, "out");
    *out = log_density_result(dpcov::random::symmetric_gaussian_log_density(m, sigma));
  });
}

DPCOV_API dpcov_status dpcov_log_density_symmetric_laplace(int32_t layout, int64_t dim,
                                                           const double *noise, int64_t ld,
                                                           double scale, double *out) {
  return dpcov::capi::guarded([&] {
    const Matrix m = square_input(layout, dim, noise, ld, "noise");
    check::not_null(out, "out");
    *out = log_density_result(dpcov::random::symmetric_laplace_log_density(m, scale));
  });
}

}  // extern "C"
