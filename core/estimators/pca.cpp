#include "pca.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "../check.hpp"
#include "../error.hpp"
#include "../linalg/blas.hpp"

namespace dpcov::estimators {

namespace {

void check_k(int64_t k, int64_t d) {
  if (k < 1 || k > d) fail(DPCOV_E_INVALID_ARGUMENT, "k must be in [1, ", d, "], got ", k);
}

// The top-k eigenvectors of a as the columns of a d x k matrix, largest eigenvalue first.
Matrix top_vectors(const linalg::SymmetricEigen &e, int64_t k) {
  const int64_t d = e.vectors.rows();
  Matrix v(d, k);
  for (int64_t c = 0; c < k; ++c) {
    const int64_t src = d - 1 - c;
    int64_t arg_max = 0;
    for (int64_t i = 1; i < d; ++i)
      if (std::fabs(e.vectors(i, src)) > std::fabs(e.vectors(arg_max, src))) arg_max = i;
    const double sign = e.vectors(arg_max, src) < 0.0 ? -1.0 : 1.0;
    for (int64_t i = 0; i < d; ++i) v(i, c) = sign * e.vectors(i, src);
  }
  return v;
}

}  // namespace

PrincipalComponents principal_components(const Matrix &a, int64_t k, bool want_ratio) {
  const int64_t d = a.rows();
  check_k(k, d);
  const linalg::SymmetricEigen e = linalg::eigh(a);
  // The ratios are those of the PSD projection of a (its negative eigenvalues clipped to 0, the
  // nearest PSD matrix in Frobenius norm): each in [0, 1], summing to <= 1 over any k. The plain
  // values / trace(a) of an indefinite release can exceed 1 or be negative. Without a positive
  // eigenvalue the projection is 0 and explains nothing: every ratio is 0.
  double clipped_sum = 0.0;
  for (const double v : e.values) clipped_sum += std::max(v, 0.0);
  PrincipalComponents pc;
  pc.vectors = top_vectors(e, k);
  for (int64_t c = 0; c < k; ++c) {
    pc.values.push_back(e.values[static_cast<size_t>(d - 1 - c)]);
    if (want_ratio)
      pc.explained_ratio.push_back(clipped_sum > 0.0 ? std::max(pc.values.back(), 0.0) / clipped_sum
                                                     : 0.0);
  }
  return pc;
}

SubspaceDistance subspace_distance(const Matrix &a, const Matrix &b, int64_t k) {
  const int64_t d = a.rows();
  if (b.rows() != d)
    fail(DPCOV_E_DIMENSION, "the two matrices must have the same size, got ", d, " and ", b.rows());
  check_k(k, d);
  const Matrix u = top_vectors(linalg::eigh(a), k);
  const Matrix v = top_vectors(linalg::eigh(b), k);
  const Matrix utv = linalg::multiply(u, v, linalg::Trans::Yes);
  Matrix residual = v;  // V - U (U^T V)
  linalg::gemm(linalg::Trans::No, linalg::Trans::No, -1.0, u, utv, 1.0, residual);
  std::vector<double> cosines = linalg::singular_values(utv);     // descending
  std::vector<double> sines = linalg::singular_values(residual);  // descending
  std::reverse(sines.begin(), sines.end());
  SubspaceDistance out{{}, 0.0, 0.0};
  double sum_sq = 0.0;
  for (size_t i = 0; i < cosines.size(); ++i) {
    // Both lists describe the same angles, smallest first; rounding may leave a cosine slightly
    // above 1, which atan2 absorbs.
    const double angle = std::atan2(sines[i], cosines[i]);
    out.angles.push_back(angle);
    const double s = std::sin(angle);
    sum_sq += s * s;
    out.sin_theta_spectral = std::max(out.sin_theta_spectral, s);
  }
  out.sin_theta_frobenius = std::sqrt(sum_sq);
  return out;
}

SubspaceErrorBound subspace_error_bound(ConstMatrixView released, int64_t k,
                                        const ReleaseNoise &noise, double level, int64_t draws,
                                        random::Rng &rng) {
  check::all_finite(released, "released matrix");
  check::symmetric(released, "released matrix");
  const int64_t d = released.rows;
  check_k(k, d);
  validate(noise, d);
  if (!(level > 0.0 && level < 1.0))
    fail(DPCOV_E_INVALID_ARGUMENT, "level must be in (0, 1), got ", level);
  if (draws < 1) fail(DPCOV_E_INVALID_ARGUMENT, "draws must be >= 1, got ", draws);
  std::vector<double> norms;
  for (int64_t b = 0; b < draws; ++b) {
    const std::vector<double> eig = linalg::eigvalsh(centred_noise(noise, d, rng));
    norms.push_back(std::max(std::fabs(eig.front()), std::fabs(eig.back())));
  }
  std::sort(norms.begin(), norms.end());
  const auto q = static_cast<int64_t>(std::ceil(level * static_cast<double>(draws))) - 1;
  SubspaceErrorBound out;
  out.noise_norm = norms[static_cast<size_t>(std::clamp<int64_t>(q, 0, draws - 1))];
  const std::vector<double> values = linalg::eigvalsh(Matrix::from(released));  // ascending
  if (k == d) {
    out.eigengap = std::numeric_limits<double>::infinity();
    return out;  // the whole space: no error
  }
  out.eigengap = values[static_cast<size_t>(d - k)] - values[static_cast<size_t>(d - k - 1)];
  const double true_gap = out.eigengap - 2.0 * out.noise_norm;
  out.swamped = !(true_gap > 0.0);
  out.sin_theta_bound = out.swamped ? 1.0 : std::min(1.0, 2.0 * out.noise_norm / true_gap);
  return out;
}

}  // namespace dpcov::estimators
