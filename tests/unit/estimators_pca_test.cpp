// Top-k principal components against the full eigen-decomposition, and principal angles against
// rotations whose angles are known exactly.
#include "core/estimators/pca.hpp"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <random>

#include "core/error.hpp"
#include "core/linalg/blas.hpp"

namespace dpcov::estimators {
namespace {

Matrix random_symmetric(int64_t d, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::normal_distribution<double> normal;
  Matrix a(d, d);
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i <= j; ++i) a(i, j) = a(j, i) = normal(gen);
  return a;
}

// diag(values) rotated by the Givens rotation of angle theta in the plane (p, q): R D R^T.
Matrix rotated_diagonal(const std::vector<double> &values, int64_t p, int64_t q, double theta) {
  const int64_t d = static_cast<int64_t>(values.size());
  Matrix r = Matrix::identity(d);
  r(p, p) = std::cos(theta);
  r(q, q) = std::cos(theta);
  r(q, p) = std::sin(theta);
  r(p, q) = -std::sin(theta);
  Matrix rd = r;
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i < d; ++i) rd(i, j) *= values[static_cast<size_t>(j)];
  Matrix a = linalg::multiply(rd, r, linalg::Trans::No, linalg::Trans::Yes);
  linalg::symmetrize_from_upper(a);
  return a;
}

TEST(Pca, TopKAreTheLargestEigenpairsWithFixedSigns) {
  const Matrix a = random_symmetric(7, 1);
  const std::vector<double> all = linalg::eigvalsh(a);
  const PrincipalComponents pc = principal_components(a, 3, false);
  ASSERT_EQ(pc.values.size(), 3u);
  EXPECT_TRUE(pc.explained_ratio.empty());
  for (int64_t c = 0; c < 3; ++c) {
    EXPECT_NEAR(pc.values[static_cast<size_t>(c)], all[static_cast<size_t>(6 - c)], 1e-13);
    double largest = 0.0, signed_largest = 0.0;
    for (int64_t i = 0; i < 7; ++i) {
      double av = 0.0;
      for (int64_t k = 0; k < 7; ++k) av += a(i, k) * pc.vectors(k, c);
      EXPECT_NEAR(av, pc.values[static_cast<size_t>(c)] * pc.vectors(i, c), 1e-12);
      if (std::fabs(pc.vectors(i, c)) > largest) {
        largest = std::fabs(pc.vectors(i, c));
        signed_largest = pc.vectors(i, c);
      }
    }
    EXPECT_GT(signed_largest, 0.0) << "sign convention";
    for (int64_t c2 = 0; c2 < 3; ++c2) {
      double dot = 0.0;
      for (int64_t i = 0; i < 7; ++i) dot += pc.vectors(i, c) * pc.vectors(i, c2);
      EXPECT_NEAR(dot, c == c2 ? 1.0 : 0.0, 1e-13);
    }
  }
}

TEST(Pca, ExplainedRatiosAreEigenvaluesOverTrace) {
  const Matrix a = rotated_diagonal({4.0, 3.0, 2.0, 1.0}, 0, 3, 0.4);
  const PrincipalComponents pc = principal_components(a, 2, true);
  EXPECT_NEAR(pc.explained_ratio[0], 0.4, 1e-14);
  EXPECT_NEAR(pc.explained_ratio[1], 0.3, 1e-14);
}

TEST(Pca, ExplainedRatiosOfAnIndefiniteMatrixAreThoseOfItsPsdProjection) {
  // Eigenvalues 3, 1, -2, -4: trace -2 (values / trace would be -1.5 and -0.5); the PSD
  // projection has eigenvalues 3, 1, 0, 0.
  const Matrix a = rotated_diagonal({3.0, 1.0, -2.0, -4.0}, 0, 3, 0.4);
  const PrincipalComponents pc = principal_components(a, 4, true);
  EXPECT_NEAR(pc.explained_ratio[0], 0.75, 1e-14);
  EXPECT_NEAR(pc.explained_ratio[1], 0.25, 1e-14);
  EXPECT_EQ(pc.explained_ratio[2], 0.0);
  EXPECT_EQ(pc.explained_ratio[3], 0.0);
  Matrix negative(2, 2);
  negative(0, 0) = -1.0;
  negative(1, 1) = -3.0;
  const PrincipalComponents none = principal_components(negative, 2, true);
  EXPECT_EQ(none.explained_ratio, std::vector<double>({0.0, 0.0}));
}

TEST(Pca, ExplainedRatiosHoldWhereTheEigenvaluesSumOverflows) {
  Matrix a(2, 2);
  a(0, 0) = a(1, 1) = DBL_MAX;
  const PrincipalComponents pc = principal_components(a, 2, true);
  EXPECT_EQ(pc.explained_ratio[0], 0.5);
  EXPECT_EQ(pc.explained_ratio[1], 0.5);
}

TEST(Pca, RejectsKOutOfRange) {
  const Matrix a = random_symmetric(3, 2);
  for (int64_t k : {0, -1, 4}) {
    EXPECT_THROW(principal_components(a, k, false), Error);
    EXPECT_THROW(subspace_distance(a, a, k), Error);
  }
}

TEST(SubspaceDistance, RecoversTheRotationAngleExactlyEvenWhenTiny) {
  const std::vector<double> values = {5.0, 3.0, 1.0, 0.5};
  const Matrix a = rotated_diagonal(values, 0, 2, 0.0);
  for (double theta : {1e-9, 1e-5, 0.3, 1.2}) {
    // The top-2 subspace of A is span(e0, e1); rotating e0 towards e2 by theta gives angles
    // (0, theta). Note e2's eigenvalue stays below e1's, so the subspace is still the top two.
    const Matrix b = rotated_diagonal(values, 0, 2, theta);
    const SubspaceDistance s = subspace_distance(a, b, 2);
    ASSERT_EQ(s.angles.size(), 2u);
    EXPECT_NEAR(s.angles[0], 0.0, 1e-15);
    EXPECT_NEAR(s.angles[1], theta, 1e-14 * std::max(1.0, theta)) << theta;
    EXPECT_NEAR(s.sin_theta_spectral, std::sin(theta), 1e-15);
    EXPECT_NEAR(s.sin_theta_frobenius, std::sin(theta), 1e-15);
  }
}

TEST(SubspaceDistance, IdenticalSubspacesAreAtZeroAndOrthogonalOnesAtRightAngles) {
  const Matrix a = random_symmetric(5, 3);
  const SubspaceDistance same = subspace_distance(a, a, 3);
  for (double angle : same.angles) EXPECT_NEAR(angle, 0.0, 1e-7);
  EXPECT_NEAR(same.sin_theta_frobenius, 0.0, 1e-7);
  // diag(1, 0, 0) versus diag(0, 1, 0): top-1 subspaces e0 and e1.
  Matrix p(3, 3), q(3, 3);
  p(0, 0) = 1.0;
  q(1, 1) = 1.0;
  const SubspaceDistance orth = subspace_distance(p, q, 1);
  EXPECT_NEAR(orth.angles[0], M_PI / 2, 1e-15);
  EXPECT_EQ(orth.sin_theta_spectral, 1.0);
}

TEST(SubspaceDistance, SinThetaNormsEqualProjectorDifferenceNorms) {
  const Matrix a = random_symmetric(8, 4), b = random_symmetric(8, 5);
  const int64_t k = 3;
  const SubspaceDistance s = subspace_distance(a, b, k);
  const Matrix u = principal_components(a, k, false).vectors;
  const Matrix v = principal_components(b, k, false).vectors;
  Matrix diff = linalg::multiply(u, u, linalg::Trans::No, linalg::Trans::Yes);
  linalg::gemm(linalg::Trans::No, linalg::Trans::Yes, -1.0, v, v, 1.0, diff);
  const double spectral = linalg::singular_values(diff).front();
  EXPECT_NEAR(s.sin_theta_spectral, spectral, 1e-12);
  EXPECT_NEAR(s.sin_theta_frobenius * std::sqrt(2.0), linalg::nrm2(64, diff.data(), 1), 1e-12);
  for (size_t i = 1; i < s.angles.size(); ++i) EXPECT_LE(s.angles[i - 1], s.angles[i]);
}

}  // namespace
}  // namespace dpcov::estimators
