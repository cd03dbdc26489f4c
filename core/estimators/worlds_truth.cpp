#include "worlds_truth.hpp"

#include <cmath>

#include "../error.hpp"
#include "../linalg/blas.hpp"

namespace dpcov::estimators {

Matrix noise_second_moment(const ReleaseNoise &noise, const Matrix &b) {
  const auto [off, diagonal] = entry_variances(noise);
  const int64_t p = b.rows();
  double trace = 0.0;
  for (int64_t i = 0; i < p; ++i) trace += b(i, i);
  Matrix q(p, p);
  for (int64_t j = 0; j < p; ++j)
    for (int64_t i = 0; i < p; ++i) q(i, j) = off * b(i, j);
  for (int64_t i = 0; i < p; ++i) q(i, i) += off * trace + (diagonal - 2.0 * off) * b(i, i);
  return q;
}

WorldsTruth worlds_truth(const Matrix &g, const std::vector<double> &gxy,
                         const ReleaseNoise &noise) {
  const int64_t p = g.rows();
  WorldsTruth truth{g, gxy, false};
  Matrix l;
  if (!linalg::cholesky(g, l))
    fail(Status::NotPositiveDefinite, "the worlds' truth needs a positive definite X'X");
  // D = L^-1 Q(G^-1) L^-T, G = L L': the correction relative to G, H = G^-1 - G^-1 Q G^-1 =
  // L^-T (I - D) L^-1, so the de-noised X'X is H^-1 = L (I - D)^-1 L'.
  Matrix d = noise_second_moment(noise, linalg::spd_inverse(g));
  linalg::trsm_lower(linalg::Side::Left, linalg::Trans::No, 1.0, l, d);
  linalg::trsm_lower(linalg::Side::Right, linalg::Trans::Yes, 1.0, l, d);
  linalg::symmetrize_from_upper(d);
  const linalg::SymmetricEigen eig = linalg::eigh(d);
  if (!(eig.values.back() <= kLargestWorldsCorrection)) return truth;
  Matrix scaled = eig.vectors;  // U (I - D)^-1/2 column by column
  for (int64_t k = 0; k < p; ++k) {
    const double s = 1.0 / std::sqrt(1.0 - eig.values[static_cast<size_t>(k)]);
    for (int64_t i = 0; i < p; ++i) scaled(i, k) *= s;
  }
  linalg::trmm_lower(linalg::Side::Left, linalg::Trans::No, 1.0, l, scaled);  // L U (I - D)^-1/2
  truth.xtx = linalg::multiply(scaled, scaled, linalg::Trans::No, linalg::Trans::Yes);
  linalg::symmetrize_from_upper(truth.xtx);
  truth.denoised = true;
  return truth;
}

}  // namespace dpcov::estimators
