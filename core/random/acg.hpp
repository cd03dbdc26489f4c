// The angular central Gaussian distribution ACG(Omega) on the unit sphere S^{q-1}.
#pragma once

#include <cstdint>

#include "../matrix.hpp"
#include "rng.hpp"

namespace dpcov::random {

// ACG(Omega): u = z / ||z|| with z ~ N(0, Omega^{-1}) (Tyler 1987). Density with respect to the
// uniform probability measure on S^{q-1}: |Omega|^{1/2} (u^T Omega u)^{-q/2}. Omega and c Omega
// give the same distribution. The envelope of the Bingham sampler (bingham.hpp).
class AngularCentralGaussian {
 public:
  // Omega: q x q, finite, exactly symmetric, positive definite. Throws Status::Dimension,
  // Status::TooLarge, Status::NonFinite, Status::InvalidArgument (not symmetric),
  // Status::NotPositiveDefinite.
  explicit AngularCentralGaussian(const Matrix &omega);

  int64_t dim() const { return chol_.rows(); }

  // Writes one draw (dim() coordinates, unit norm) to out. With Omega = L L^T, z = L^{-T} g for
  // g ~ N(0, I) has covariance (L L^T)^{-1}.
  void sample(Rng &rng, double *out) const;

  // ln density at u (dim() coordinates); -infinity if |u^T u - 1| > 1e-10 (off the sphere).
  double log_density(const double *u) const;

 private:
  Matrix chol_;
  double half_log_det_;
};

// One draw of ACG(omega) into out[0..q-1]; see AngularCentralGaussian.
void acg(Rng &rng, const Matrix &omega, double *out);
double acg_log_density(const Matrix &omega, const double *u);

}  // namespace dpcov::random
