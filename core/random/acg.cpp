#include "acg.hpp"

#include <cmath>
#include <vector>

#include "../linalg/blas.hpp"
#include "normal.hpp"
#include "spd.hpp"

namespace dpcov::random {

namespace {

// Tolerance on |u^T u - 1| for a point to count as on the sphere: far above the rounding error of
// a normalised vector of any size the library accepts, far below any meaningful departure.
constexpr double kSphereTolerance = 1e-10;

}  // namespace

AngularCentralGaussian::AngularCentralGaussian(const Matrix &omega)
    : chol_(checked_cholesky(omega, "ACG matrix Omega")),
      half_log_det_(0.5 * linalg::log_det_from_cholesky(chol_)) {}

void AngularCentralGaussian::sample(Rng &rng, double *out) const {
  const int64_t q = dim();
  for (;;) {
    for (int64_t i = 0; i < q; ++i) out[i] = standard_normal(rng);
    // Back substitution for L^T z = g; L^T is upper triangular with L^T(i, k) = L(k, i).
    for (int64_t i = q - 1; i >= 0; --i) {
      double s = out[i];
      for (int64_t k = i + 1; k < q; ++k) s -= chol_(k, i) * out[k];
      out[i] = s / chol_(i, i);
    }
    double sum = 0.0;
    for (int64_t i = 0; i < q; ++i) sum += out[i] * out[i];
    if (sum > 0.0 && std::isfinite(sum)) {
      const double inv = 1.0 / std::sqrt(sum);
      for (int64_t i = 0; i < q; ++i) out[i] *= inv;
      return;
    }
  }
}

double AngularCentralGaussian::log_density(const double *u) const {
  const int64_t q = dim();
  double norm2 = 0.0;
  for (int64_t i = 0; i < q; ++i) norm2 += u[i] * u[i];
  if (!(std::fabs(norm2 - 1.0) <= kSphereTolerance)) return -INFINITY;
  // u^T Omega u = || L^T u ||^2.
  double quad = 0.0;
  for (int64_t i = 0; i < q; ++i) {
    double s = 0.0;
    for (int64_t k = i; k < q; ++k) s += chol_(k, i) * u[k];
    quad += s * s;
  }
  return half_log_det_ - 0.5 * static_cast<double>(q) * std::log(quad);
}

void acg(Rng &rng, const Matrix &omega, double *out) {
  AngularCentralGaussian(omega).sample(rng, out);
}

double acg_log_density(const Matrix &omega, const double *u) {
  return AngularCentralGaussian(omega).log_density(u);
}

}  // namespace dpcov::random
