#include "symmetric_noise.hpp"

#include <cmath>
#include <numbers>

#include "../check.hpp"
#include "exponential.hpp"
#include "normal.hpp"

namespace dpcov::random {

namespace {

void check_square(const Matrix &m, const char *name) {
  if (m.rows() != m.cols())
    fail(Status::Dimension, name, " must be square, got ", m.rows(), " x ", m.cols());
  check::dimension(m.rows(), name);
}

template <class Draw>
void fill_symmetric(Matrix &out, Draw draw) {
  for (int64_t j = 0; j < out.cols(); ++j)
    for (int64_t i = 0; i <= j; ++i) {
      const double x = draw();
      out(i, j) = x;
      out(j, i) = x;
    }
}

// Sum of `term` over the upper triangle, or -infinity if `noise` is not exactly symmetric.
template <class Term>
double upper_triangle_sum(const Matrix &noise, Term term) {
  double sum = 0.0;
  for (int64_t j = 0; j < noise.cols(); ++j)
    for (int64_t i = 0; i <= j; ++i) {
      if (noise(i, j) != noise(j, i)) return -INFINITY;
      sum += term(noise(i, j));
    }
  return sum;
}

}  // namespace

void symmetric_gaussian_noise(Rng &rng, double sigma, Matrix &out) {
  check_square(out, "symmetric noise matrix");
  check::positive_finite(sigma, "Gaussian noise sigma");
  fill_symmetric(out, [&] { return sigma * standard_normal(rng); });
}

void symmetric_laplace_noise(Rng &rng, double scale, Matrix &out) {
  check_square(out, "symmetric noise matrix");
  check::positive_finite(scale, "Laplace noise scale");
  fill_symmetric(out, [&] { return laplace(rng, scale); });
}

double symmetric_gaussian_log_density(const Matrix &noise, double sigma) {
  check_square(noise, "symmetric noise matrix");
  check::all_finite(noise.view(), "symmetric noise matrix");
  check::positive_finite(sigma, "Gaussian noise sigma");
  const double log_norm = std::log(sigma) + 0.5 * std::log(2.0 * std::numbers::pi);
  return upper_triangle_sum(noise, [&](double x) {
    const double z = x / sigma;
    return -0.5 * z * z - log_norm;
  });
}

double symmetric_laplace_log_density(const Matrix &noise, double scale) {
  check_square(noise, "symmetric noise matrix");
  check::all_finite(noise.view(), "symmetric noise matrix");
  check::positive_finite(scale, "Laplace noise scale");
  const double log_norm = laplace_log_normaliser(scale);
  return upper_triangle_sum(noise, [&](double x) { return -std::fabs(x) / scale - log_norm; });
}

}  // namespace dpcov::random
