// The bootstrap worlds' truth (estimators/worlds_truth.hpp, proofs/bootstrap_worlds.md): the
// noise's second moment Q(B) = E[E B E] for every law the worlds read, and the de-noised X'X
// whose inverse is unbiased for G^-1 to second order where the release's own inverse is not (a
// world built on the release carries its noise twice).
//
// False-failure rate: the Wishart check and the two unbiasedness checks are z-tests of means of
// independent draws (normal approximation, 4000 or more draws) at 5 standard errors per entry,
// 5.7e-7 each: 6 + 2 x 10 entries, <= 1.5e-5 for the file. The other checks are exact.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "core/estimators/worlds_truth.hpp"
#include "core/linalg/blas.hpp"
#include "core/random/rng.hpp"

namespace dpcov::estimators {
namespace {

ReleaseNoise adassp_noise(double sigma) {
  ReleaseNoise noise{ReleaseNoise::Kind::Adassp, sigma, 0.0};
  noise.off_diagonal = sigma / std::sqrt(2.0);
  noise.cross = noise.label = sigma;
  return noise;
}

// A symmetric positive definite p x p matrix with eigenvalues `values`, fixed eigenvectors.
Matrix with_eigenvalues(const std::vector<double> &values) {
  const int64_t p = static_cast<int64_t>(values.size());
  Matrix a(p, p);
  for (int64_t j = 0; j < p; ++j)
    for (int64_t i = 0; i < p; ++i) a(i, j) = std::sin(1.0 + 3.0 * static_cast<double>(i) +
                                                       7.0 * static_cast<double>(j));
  const linalg::SymmetricEigen basis = linalg::eigh(linalg::multiply(a, a, linalg::Trans::Yes));
  Matrix g(p, p);
  for (int64_t k = 0; k < p; ++k)
    for (int64_t j = 0; j < p; ++j)
      for (int64_t i = 0; i < p; ++i)
        g(i, j) += basis.vectors(i, k) * values[static_cast<size_t>(k)] * basis.vectors(j, k);
  linalg::symmetrize_from_upper(g);
  return g;
}

// The release's noise on the p x p feature block (the top-left block of the law's draw).
Matrix feature_noise(const ReleaseNoise &noise, int64_t p, random::Rng &rng) {
  const Matrix e = centred_noise(noise, noise.kind == ReleaseNoise::Kind::Adassp ? p + 1 : p, rng);
  Matrix out(p, p);
  for (int64_t j = 0; j < p; ++j)
    for (int64_t i = 0; i < p; ++i) out(i, j) = e(i, j);
  return out;
}

TEST(NoiseSecondMoment, IsTheSumOverIndependentEntries) {
  // E[E B E] = sum_{i <= j} Var(E_ij) S_ij B S_ij, S_ij the symmetric unit matrix of the pair:
  // a computation that shares nothing with the closed form.
  const int64_t p = 4;
  const Matrix b = with_eigenvalues({0.3, 1.0, 2.5, 7.0});
  for (const ReleaseNoise &noise :
       {ReleaseNoise{ReleaseNoise::Kind::SymmetricGaussian, 1.7, 0.0},
        ReleaseNoise{ReleaseNoise::Kind::SymmetricLaplace, 0.6, 0.0}, adassp_noise(2.0)}) {
    Matrix expected(p, p);
    for (int64_t j = 0; j < p; ++j)
      for (int64_t i = 0; i <= j; ++i) {
        Matrix s(p, p);
        s(i, j) = s(j, i) = 1.0;
        double var = noise.scale * noise.scale;
        if (noise.kind == ReleaseNoise::Kind::SymmetricLaplace) var *= 2.0;
        if (noise.kind == ReleaseNoise::Kind::Adassp && i != j)
          var = noise.off_diagonal * noise.off_diagonal;
        const Matrix term = linalg::multiply(linalg::multiply(s, b), s);
        for (int64_t c = 0; c < p; ++c)
          for (int64_t r = 0; r < p; ++r) expected(r, c) += var * term(r, c);
      }
    const Matrix q = noise_second_moment(noise, b);
    for (int64_t j = 0; j < p; ++j)
      for (int64_t i = 0; i < p; ++i) EXPECT_NEAR(q(i, j), expected(i, j), 1e-12) << i << j;
  }
}

TEST(NoiseSecondMoment, IsTheMeanOfWishartNoiseAroundB) {
  // Wishart entries are not independent; Isserlis gives the same form with s_o^2 = k s^2.
  const int64_t p = 3, draws = 20000;
  const ReleaseNoise noise{ReleaseNoise::Kind::Wishart, 0.5, 6.0};
  const Matrix b = with_eigenvalues({0.5, 1.0, 2.0});
  random::Rng rng = random::Rng::from_seed(11, 3);
  Matrix sum(p, p), square(p, p);
  for (int64_t t = 0; t < draws; ++t) {
    const Matrix e = centred_noise(noise, p, rng);
    const Matrix v = linalg::multiply(linalg::multiply(e, b), e);
    for (int64_t j = 0; j < p; ++j)
      for (int64_t i = 0; i < p; ++i) {
        sum(i, j) += v(i, j);
        square(i, j) += v(i, j) * v(i, j);
      }
  }
  const Matrix q = noise_second_moment(noise, b);
  const double n = static_cast<double>(draws);
  for (int64_t j = 0; j < p; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      const double mean = sum(i, j) / n;
      const double se = std::sqrt((square(i, j) / n - mean * mean) / n);
      EXPECT_LT(std::fabs(mean - q(i, j)), 5.0 * se) << i << j;
    }
}

// Per entry, the mean over `draws` releases of the inverse that `inverse_of` takes from the
// release G + E, against G^-1: true when every entry is within 5 standard errors.
template <typename Inverse>
bool unbiased(const Matrix &g, const ReleaseNoise &noise, int64_t draws, Inverse inverse_of) {
  const int64_t p = g.rows();
  const Matrix target = linalg::spd_inverse(g);
  random::Rng rng = random::Rng::from_seed(5, 3);
  Matrix sum(p, p), square(p, p);
  for (int64_t t = 0; t < draws; ++t) {
    Matrix a = g;
    const Matrix e = feature_noise(noise, p, rng);
    for (int64_t j = 0; j < p; ++j)
      for (int64_t i = 0; i < p; ++i) a(i, j) += e(i, j);
    const Matrix h = inverse_of(a);
    for (int64_t j = 0; j < p; ++j)
      for (int64_t i = 0; i < p; ++i) {
        sum(i, j) += h(i, j);
        square(i, j) += h(i, j) * h(i, j);
      }
  }
  const double n = static_cast<double>(draws);
  bool all = true;
  for (int64_t j = 0; j < p; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      const double mean = sum(i, j) / n;
      const double se = std::sqrt((square(i, j) / n - mean * mean) / n);
      all = all && std::fabs(mean - target(i, j)) < 5.0 * se;
    }
  return all;
}

TEST(WorldsTruth, ItsInverseIsUnbiasedWhereTheReleasesIsNot) {
  // Eigenvalues 50-200 against noise of sd 4-5 per entry (the correction's largest generalised
  // eigenvalue about 0.05): the release's inverse is biased by its second-order term,
  // G^-1 Q(G^-1) G^-1, 9 to 14 standard errors of the mean in its largest entry here (NumPy, six
  // seeds); the de-noised one is within 3.1 (its remainder is of fourth order).
  const Matrix g = with_eigenvalues({50.0, 80.0, 120.0, 200.0});
  for (const ReleaseNoise &noise :
       {ReleaseNoise{ReleaseNoise::Kind::SymmetricGaussian, 4.0, 0.0}, adassp_noise(5.0)}) {
    const int64_t draws = 4000;
    EXPECT_TRUE(unbiased(g, noise, draws, [&](const Matrix &a) {
      const WorldsTruth truth = worlds_truth(a, std::vector<double>(4, 0.0), noise);
      EXPECT_TRUE(truth.denoised);
      return linalg::spd_inverse(truth.xtx);
    }));
    // The release itself as the worlds' X'X (the construction that carried the noise twice).
    EXPECT_FALSE(unbiased(g, noise, draws, [](const Matrix &a) { return linalg::spd_inverse(a); }));
  }
}

TEST(WorldsTruth, KeepsTheReleasedXtyAndTheReleaseWithoutNoise) {
  const Matrix g = with_eigenvalues({50.0, 80.0, 120.0, 200.0});
  const std::vector<double> gxy = {1.0, -2.0, 3.0, 0.5};
  const WorldsTruth truth =
      worlds_truth(g, gxy, ReleaseNoise{ReleaseNoise::Kind::SymmetricGaussian, 1e-9, 0.0});
  EXPECT_EQ(truth.xty, gxy);
  EXPECT_TRUE(truth.denoised);
  for (int64_t j = 0; j < 4; ++j)
    for (int64_t i = 0; i < 4; ++i) EXPECT_NEAR(truth.xtx(i, j), g(i, j), 1e-9);
}

TEST(WorldsTruth, KeepsTheReleaseWhereTheCorrectionIsBeyondTheSeries) {
  // Smallest eigenvalue 1 against noise of sd 2: the correction would exceed
  // kLargestWorldsCorrection, so the worlds keep the release (conservative).
  const Matrix g = with_eigenvalues({1.0, 80.0, 120.0, 200.0});
  const WorldsTruth truth =
      worlds_truth(g, {0.0, 0.0, 0.0, 0.0}, ReleaseNoise{ReleaseNoise::Kind::SymmetricGaussian, 2.0, 0.0});
  EXPECT_FALSE(truth.denoised);
  for (int64_t j = 0; j < 4; ++j)
    for (int64_t i = 0; i < 4; ++i) EXPECT_EQ(truth.xtx(i, j), g(i, j));
}

TEST(WorldsTruth, RefusesAReleaseThatIsNotPositiveDefinite) {
  const Matrix g = with_eigenvalues({-1.0, 80.0, 120.0, 200.0});
  EXPECT_THROW(
      worlds_truth(g, {0.0, 0.0, 0.0, 0.0}, ReleaseNoise{ReleaseNoise::Kind::SymmetricGaussian, 1.0, 0.0}),
      Error);
}

}  // namespace
}  // namespace dpcov::estimators
