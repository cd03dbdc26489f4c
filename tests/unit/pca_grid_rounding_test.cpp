// The PCA subspace bounds of a release with exact numerics cover the rows' rounding to the grid
// (proofs/grid_rounding.md): rows whose rounding errors all turn the top direction the same way,
// at a budget where the noise is negligible, so that only the rounding term can cover them.
#include <gtest/gtest.h>

#include <cmath>

#include "core/error.hpp"
#include "core/estimators/centring.hpp"
#include "core/estimators/pca.hpp"
#include "core/estimators/release_noise.hpp"
#include "core/linalg/blas.hpp"
#include "core/mechanisms/exact_additive.hpp"
#include "core/random/rng.hpp"

namespace dpcov::estimators {
namespace {

using mechanisms::MechanismId;
using mechanisms::Request;

constexpr double kUnit = 0x1p-12;  // the grid at B = 1 and this budget: 12 bits
// Just off the grid's midpoints: rounded to (300, 100) units, the direction turns by 2e-3.
const double kRow[2] = {300.49 * kUnit, 99.51 * kUnit};

Request request(int64_t dim, int64_t n, privacy::Neighbour neighbour) {
  Request r;
  r.dim = dim;
  r.n = n;
  r.bound = 1.0;
  r.epsilon = 1e9;
  r.delta = 1e-6;
  r.options.neighbour = neighbour;
  return r;
}

Matrix gram(const Matrix &rows) {
  Matrix g(rows.cols(), rows.cols());
  for (int64_t i = 0; i < rows.cols(); ++i)
    for (int64_t j = 0; j < rows.cols(); ++j)
      for (int64_t r = 0; r < rows.rows(); ++r) g(i, j) += rows(r, i) * rows(r, j);
  return g;
}

TEST(GridRounding, TheUncentredBoundCoversRowsRoundedTheSameWay) {
  const int64_t n = 1000;
  Matrix rows(n, 2);
  for (int64_t r = 0; r < n; ++r) rows(r, 0) = kRow[0], rows(r, 1) = kRow[1];
  const Request req = request(2, n, privacy::Neighbour::ReplaceOne);
  random::Rng rng = random::Rng::from_seed(1);
  const mechanisms::Release rel =
      mechanisms::release_exact_additive(MechanismId::AnalyzeGauss, rows.view(), req, rng);
  ReleaseNoise noise = release_noise(rel.receipt);
  EXPECT_EQ(noise.grid_unit, kUnit);
  EXPECT_EQ(noise.public_rows, n);
  const double actual = subspace_distance(rel.matrix, gram(rows), 1).sin_theta_spectral;
  EXPECT_GT(actual, 1e-3);
  random::Rng draws = random::Rng::from_seed(2);
  const SubspaceErrorBound b = subspace_error_bound(rel.matrix.view(), 1, noise, 0.95, 200, draws);
  EXPECT_GE(b.sin_theta_bound, actual);
  EXPECT_LT(b.sin_theta_bound, 20.0 * actual);
  // The noise alone does not cover it: the term is needed.
  noise.grid_unit = 0.0;
  draws = random::Rng::from_seed(2);
  EXPECT_LT(subspace_error_bound(rel.matrix.view(), 1, noise, 0.95, 200, draws).sin_theta_bound,
            0.1 * actual);
}

TEST(GridRounding, TheCentredBoundCoversRowsRoundedTheSameWay) {
  const int64_t n = 1000;
  Matrix rows(n, 3);
  for (int64_t r = 0; r < n; ++r) {
    const double s = r % 2 == 0 ? 1.0 : -1.0;  // mean 0: the centred covariance is v v'
    rows(r, 0) = 0.5;                          // the constant, on the grid
    rows(r, 1) = s * kRow[0];
    rows(r, 2) = s * kRow[1];
  }
  Matrix truth(2, 2);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) truth(i, j) = kRow[i] * kRow[j];
  for (const int64_t public_n : {n, int64_t{0}}) {
    const Request req = request(3, n, privacy::Neighbour::ReplaceOne);
    random::Rng rng = random::Rng::from_seed(3);
    const mechanisms::Release rel =
        mechanisms::release_exact_additive(MechanismId::AnalyzeGauss, rows.view(), req, rng);
    const ReleaseNoise noise = release_noise(rel.receipt);
    const Centred centred = centre_second_moment(rel.matrix.view(), 0, 0.5, public_n);
    const double actual = subspace_distance(centred.covariance, truth, 1).sin_theta_spectral;
    EXPECT_GT(actual, 1e-3);
    random::Rng draws = random::Rng::from_seed(4);
    const SubspaceErrorBound b = centred_subspace_error_bound(rel.matrix.view(), 0, 0.5, public_n,
                                                              1, noise, 0.95, 200, draws);
    EXPECT_GE(b.sin_theta_bound, actual) << public_n;
    EXPECT_LT(b.sin_theta_bound, 20.0 * actual) << public_n;
  }
}

TEST(GridRounding, TheUncentredBoundUnderAddRemoveIsRefusedForItsPrivateN) {
  Matrix rows(10, 2);
  for (int64_t r = 0; r < 10; ++r) rows(r, 0) = kRow[0], rows(r, 1) = kRow[1];
  const Request req = request(2, 10, privacy::Neighbour::AddRemove);
  random::Rng rng = random::Rng::from_seed(5);
  const mechanisms::Release rel =
      mechanisms::release_exact_additive(MechanismId::AnalyzeGauss, rows.view(), req, rng);
  const ReleaseNoise noise = release_noise(rel.receipt);
  EXPECT_EQ(noise.public_rows, -1);
  random::Rng draws = random::Rng::from_seed(6);
  try {
    subspace_error_bound(rel.matrix.view(), 1, noise, 0.95, 50, draws);
    FAIL() << "expected Status::Precondition";
  } catch (const Error &e) {
    EXPECT_EQ(e.status(), Status::Precondition);
  }
}

TEST(GridRounding, AnIdealizedReleaseHasNoRoundingTerm) {
  mechanisms::Receipt receipt;
  receipt.mechanism = MechanismId::AnalyzeGauss;
  receipt.sigma = 1.0;
  const ReleaseNoise noise = release_noise(receipt);
  EXPECT_EQ(noise.grid_unit, 0.0);
}

}  // namespace
}  // namespace dpcov::estimators
