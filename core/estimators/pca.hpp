// Principal components of a symmetric matrix (a released second-moment or covariance matrix) and
// the distance between the leading subspaces of two such matrices.
#pragma once

#include <cstdint>
#include <vector>

#include "../matrix.hpp"
#include "../random/rng.hpp"
#include "release_noise.hpp"

namespace dpcov::estimators {

struct PrincipalComponents {
  std::vector<double> values;  // the k largest eigenvalues, descending
  Matrix vectors;              // d x k, orthonormal columns, matching `values`
  // max(values[i], 0) / sum_j max(lambda_j, 0) over all d eigenvalues: the explained-variance ratio
  // of the PSD projection of A (scikit-learn's values / trace for a PSD A), in [0, 1] (0 when no
  // eigenvalue is positive); empty unless requested.
  std::vector<double> explained_ratio;
};

// Top-k eigenpairs of the symmetric d x d matrix a (1 <= k <= d). Each eigenvector's sign is fixed
// so that its entry of largest magnitude (the first such) is positive, so that results do not
// depend on LAPACK's choice. With want_ratio, the ratios of the PSD projection (0 when a has no
// positive eigenvalue).
PrincipalComponents principal_components(const Matrix &a, int64_t k, bool want_ratio);

struct SubspaceDistance {
  std::vector<double> angles;  // principal angles in [0, pi/2], ascending
  double sin_theta_spectral;   // max_i sin(angle_i) = ||U U^T - V V^T||_2
  double sin_theta_frobenius;  // sqrt(sum_i sin^2(angle_i)) = ||U U^T - V V^T||_F / sqrt(2)
};

// Principal angles between the top-k eigenvector subspaces U of a and V of b (both d x d
// symmetric). Cosines are the singular values of U^T V and sines those of V - U U^T V; each angle
// is atan2(sine, cosine), so that small and large angles are both accurate (Bjorck and Golub 1973).
SubspaceDistance subspace_distance(const Matrix &a, const Matrix &b, int64_t k);

struct SubspaceErrorBound {
  double noise_norm = 0.0;       // the level-quantile of ||E||_2 over simulated draws of the noise
  double eigengap = 0.0;         // lambda_k - lambda_{k+1} of the release (DBL_MAX for k = d)
  double sin_theta_bound = 0.0;  // bound on ||sin Theta||_2 between released and true top-k
  bool swamped = false;          // eigengap <= 2 noise_norm: the noise can reorder the subspace
};

// How far the top-k eigenvector subspace of a release M~ = A + E can be from that of A, from
// the release and the noise law alone (no privacy cost). With eta the level-quantile of ||E||_2
// (`draws` simulations of the centred noise: a Wishart mean shifts every eigenvalue alike) and
// gap~ the released gap lambda_k - lambda_{k+1}: Weyl gives the true gap >= gap~ - 2 eta, and
// Davis-Kahan in the form of Yu, Wang, Samworth (Biometrika 2015, Thm 2) gives
// ||sin Theta||_2 <= 2 eta / (gap~ - 2 eta), capped at 1; with probability about `level` over the
// noise. When gap~ <= 2 eta the bound is 1 and `swamped` is set. With noise.grid_unit > 0 (exact
// numerics) eta includes the rows' rounding (proofs/grid_rounding.md), which needs the public n:
// Status::Precondition when noise.public_rows < 0. Throws Status::InvalidArgument (k, level,
// draws < 1, the law) and the statuses of the matrix checks.
SubspaceErrorBound subspace_error_bound(ConstMatrixView released, int64_t k,
                                        const ReleaseNoise &noise, double level, int64_t draws,
                                        random::Rng &rng);

// The same bound for the centred covariance computed from a released (d + 1) x (d + 1) second
// moment M of rows [c, x] (centre_second_moment with `constant_column`, `constant`, `n`): eta is
// the level-quantile over `draws` simulated draws E of the noise law (with its mean) of
// min_t ||D - t I||_2 = (lambda_max(D) - lambda_min(D)) / 2, D = centre(M') - centre(M' - E_c),
// with M' = M - mu I the release minus the noise's mean mu (0 but for Wishart) and E_c the
// centred noise: the spectral norm of D up to a multiple of the identity, which
// moves no eigenvector and no gap (so Weyl and Davis-Kahan apply to the shifted pair; this drops
// the Wishart mean's isotropic part, as the uncentred bound does). This is a parametric-bootstrap
// PLUG-IN: M - E stands for the unknown data's second moment, so `level` is approximate (its
// coverage is measured in tests/statistical/pca_centred_bound_test.cpp). The gap is that of
// centre(M'), the matrix whose components the surfaces print, k in [1, d]. With noise.grid_unit > 0, eta includes the rows' rounding to the grid
// (proofs/grid_rounding.md: at any n, with lambda_max read from the same draws). Throws Status::InvalidArgument (as above, and the centring arguments),
// Status::Precondition when the release's count, or that of more than a (1 - level) share of the
// draws, is below 1 (n estimated: the noise swamps the number of rows).
SubspaceErrorBound centred_subspace_error_bound(ConstMatrixView released, int64_t constant_column,
                                                double constant, int64_t n, int64_t k,
                                                const ReleaseNoise &noise, double level,
                                                int64_t draws, random::Rng &rng);

}  // namespace dpcov::estimators
