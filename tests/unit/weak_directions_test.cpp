// The coefficients no bootstrap world can bound (estimators/weak_directions.hpp,
// proofs/bootstrap_worlds.md, "Directions the release may have made"): the noise sd of u'Eu for
// every law the worlds read, against a sum over the independent entries that shares nothing with
// the closed form, and the rule's two thresholds, each on both sides. Every check is exact: no
// false failures.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/estimators/weak_directions.hpp"
#include "core/random/normal.hpp"
#include "core/random/rng.hpp"

namespace dpcov::estimators {
namespace {

ReleaseNoise adassp_noise(double sigma, double off) {
  ReleaseNoise noise{ReleaseNoise::Kind::Adassp, sigma, 0.0};
  noise.off_diagonal = off;
  noise.cross = noise.label = sigma;
  return noise;
}

// Var(u'Eu) = sum_i u_i^4 Var(E_ii) + sum_{i < j} (2 u_i u_j)^2 Var(E_ij).
double entrywise_variance(const ReleaseNoise &noise, const std::vector<double> &u) {
  double diagonal = noise.scale * noise.scale, off = diagonal;
  if (noise.kind == ReleaseNoise::Kind::SymmetricLaplace) diagonal = off = 2.0 * diagonal;
  if (noise.kind == ReleaseNoise::Kind::Wishart) {
    off = noise.dof * noise.scale * noise.scale;
    diagonal = 2.0 * off;
  }
  if (noise.kind == ReleaseNoise::Kind::Adassp) off = noise.off_diagonal * noise.off_diagonal;
  double v = 0.0;
  for (size_t i = 0; i < u.size(); ++i) {
    v += std::pow(u[i], 4) * diagonal;
    for (size_t j = i + 1; j < u.size(); ++j) v += 4.0 * u[i] * u[i] * u[j] * u[j] * off;
  }
  return v;
}

TEST(WeakDirections, NoiseSdOfADirectionIsTheSumOverIndependentEntries) {
  random::Rng rng = random::Rng::from_seed(17);
  const ReleaseNoise laws[] = {ReleaseNoise{ReleaseNoise::Kind::SymmetricGaussian, 1.7, 0.0},
                               ReleaseNoise{ReleaseNoise::Kind::SymmetricLaplace, 0.6, 0.0},
                               ReleaseNoise{ReleaseNoise::Kind::Wishart, 0.3, 9.0},
                               adassp_noise(2.0, 2.0 / std::sqrt(2.0)), adassp_noise(2.0, 0.5)};
  for (int trial = 0; trial < 400; ++trial) {
    std::vector<double> u(static_cast<size_t>(1 + trial % 12));
    double norm = 0.0;
    for (double &x : u) {
      x = random::standard_normal(rng);
      norm += x * x;
    }
    for (double &x : u) x /= std::sqrt(norm);
    for (const ReleaseNoise &noise : laws) {
      const double expected = std::sqrt(entrywise_variance(noise, u));
      EXPECT_NEAR(direction_noise_sd(noise, u), expected, 1e-12 * expected) << trial;
    }
  }
}

TEST(WeakDirections, AWeakDirectionMakesItsCoefficientUnbounded) {
  // diag(1000, 500, w) with noise sd 10 of u'Eu along every axis: the third direction is weak
  // below w = 30.
  const ReleaseNoise noise{ReleaseNoise::Kind::SymmetricGaussian, 10.0, 0.0};
  for (const double w : {29.9, 30.1, 5.0, -1.0}) {
    Matrix g(3, 3);
    g(0, 0) = 1000.0;
    g(1, 1) = 500.0;
    g(2, 2) = w;
    const std::vector<bool> out = unbounded_coefficients(g, noise);
    EXPECT_FALSE(out[0]);
    EXPECT_FALSE(out[1]);
    EXPECT_EQ(out[2], w < 30.0) << w;
  }
}

TEST(WeakDirections, ACoefficientIsUnboundedFromATenthOfItsSquaredLoading) {
  // The weak direction (0, sin t, cos t) of eigenvalue 1 loads sin^2 t on the second coefficient.
  const ReleaseNoise noise{ReleaseNoise::Kind::SymmetricGaussian, 10.0, 0.0};
  for (const double loading : {0.09, 0.11}) {
    const double s = std::sqrt(loading), c = std::sqrt(1.0 - loading);
    Matrix g(3, 3);
    g(0, 0) = 1000.0;
    // 1 u u' + 800 v v', u = (0, s, c), v = (0, c, -s).
    g(1, 1) = s * s + 800.0 * c * c;
    g(2, 2) = c * c + 800.0 * s * s;
    g(1, 2) = g(2, 1) = s * c - 800.0 * c * s;
    const std::vector<bool> out = unbounded_coefficients(g, noise);
    EXPECT_FALSE(out[0]);
    EXPECT_EQ(out[1], loading >= kWeakLoading) << loading;
    EXPECT_TRUE(out[2]);
  }
}

// The directions are one matrix's eigenvectors, their strength read on another: diag(1000, 500, 40)
// has the axes for eigenvectors, and a strength of 20 on the third axis makes it weak at 3 noise
// sds (30) where its own eigenvalue does not; its loading is the whole of the third coefficient.
TEST(WeakDirections, LoadingsReadTheStrengthOnAnotherMatrix) {
  const ReleaseNoise noise{ReleaseNoise::Kind::SymmetricGaussian, 10.0, 0.0};
  Matrix g(3, 3), strength(3, 3);
  g(0, 0) = strength(0, 0) = 1000.0;
  g(1, 1) = strength(1, 1) = 500.0;
  g(2, 2) = 40.0;
  strength(2, 2) = 20.0;
  EXPECT_EQ(weak_loadings(g, nullptr, noise, 3.0), (std::vector<double>{0.0, 0.0, 0.0}));
  EXPECT_EQ(weak_loadings(g, &strength, noise, 3.0), (std::vector<double>{0.0, 0.0, 1.0}));
  EXPECT_EQ(weak_loadings(g, &strength, noise, 1.9), (std::vector<double>{0.0, 0.0, 0.0}));
}

}  // namespace
}  // namespace dpcov::estimators
