// Fieller's interval beside the bootstrap worlds (estimators/fieller_hull.hpp,
// proofs/bootstrap_worlds.md, "Fieller beside the worlds"): the set's ends solve the pivot's
// equation and bound the values that pass it; along a direction 3.5 noise sds strong the pivot's
// level set holds the truth at its level over simulated releases (4000, fixed seed: a pivot whose
// variance is right covers 0.95 and leaves [0.93, 0.97] with probability below 1e-8); a design
// whose every direction is strong is left bit for bit; and the hulled p-values agree with the
// hulled intervals.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/estimators/fieller_hull.hpp"
#include "core/linalg/blas.hpp"
#include "core/random/normal.hpp"
#include "core/random/rng.hpp"
#include "core/random/symmetric_noise.hpp"
#include "core/random/uniform.hpp"

namespace dpcov::estimators {
namespace {

ReleaseNoise gaussian(double sigma) { return {ReleaseNoise::Kind::SymmetricGaussian, sigma, 0.0}; }

TEST(FiellerInterval, EndsSolveThePivotsEquationAndBoundWhatPassesIt) {
  random::Rng rng = random::Rng::from_seed(11);
  const double z = 1.959963984540054;
  int bounded = 0;
  for (int trial = 0; trial < 500; ++trial) {
    FiellerPivot f;
    f.a = 1.0 + 9.0 * random::uniform01(rng);
    f.ub = 4.0 * random::standard_normal(rng);
    f.c2 = random::uniform01(rng);
    f.c1 = 0.2 * random::standard_normal(rng) * std::sqrt(f.c2);
    f.c0 = 0.05 + random::uniform01(rng);
    const auto set = fieller_interval(f, z);
    const auto passes = [&](double t) {
      const double r = f.ub - f.a * t;
      return r * r - z * z * (f.c0 + t * (f.c1 + t * f.c2));
    };
    if (!set) {
      EXPECT_FALSE(f.a * f.a > z * z * f.c2 && passes(f.ub / f.a) <= 0.0) << trial;
      continue;
    }
    ++bounded;
    const auto [lo, hi] = *set;
    ASSERT_LT(lo, hi);
    const double scale = f.ub * f.ub + z * z * f.c0 + 1.0;
    EXPECT_NEAR(passes(lo) / scale, 0.0, 1e-9);
    EXPECT_NEAR(passes(hi) / scale, 0.0, 1e-9);
    EXPECT_LE(passes(0.5 * (lo + hi)), 0.0);
    EXPECT_GT(passes(hi + (hi - lo)), 0.0);
    EXPECT_GT(passes(lo - (hi - lo)), 0.0);
    EXPECT_NEAR(fieller_p_value(f, lo), 0.05, 1e-9);
  }
  EXPECT_GT(bounded, 200);
}

// Releases of G = diag(g, 1000) (g = 3.5 noise sds of u'Eu, sigma 1) with X'y = G beta, beta =
// (5, 1), no sampling noise: along the release's weakest eigenvector u the pivot's level set (a
// bounded interval, or else the values the pivot's test accepts) holds the true u'beta at its
// level: the variance fieller_pivot gives the pivot is the pivot's.
TEST(FiellerPivot, ItsLevelSetHoldsTheTruthAtItsLevel) {
  random::Rng rng = random::Rng::from_seed(12);
  const ReleaseNoise noise = gaussian(1.0);
  const double g = 3.5, beta[2] = {5.0, 1.0}, z = 1.959963984540054;
  int covered = 0, bounded = 0;
  const int releases = 4000;
  for (int r = 0; r < releases; ++r) {
    Matrix e(3, 3);
    random::symmetric_gaussian_noise(rng, 1.0, e);
    Matrix a(2, 2);
    a(0, 0) = g + e(0, 0);
    a(1, 1) = 1000.0 + e(1, 1);
    a(0, 1) = a(1, 0) = e(0, 1);
    const std::vector<double> xty = {g * beta[0] + e(0, 2), 1000.0 * beta[1] + e(1, 2)};
    const double det = a(0, 0) * a(1, 1) - a(0, 1) * a(1, 0);
    const std::vector<double> estimate = {(a(1, 1) * xty[0] - a(0, 1) * xty[1]) / det,
                                          (a(0, 0) * xty[1] - a(1, 0) * xty[0]) / det};
    const linalg::SymmetricEigen eig = linalg::eigh(a);
    const std::vector<double> u = {eig.vectors(0, 0), eig.vectors(1, 0)};
    const FiellerPivot f = fieller_pivot(u, eig.values[0], estimate, noise, 0.0);
    const double t = u[0] * beta[0] + u[1] * beta[1];
    if (const auto set = fieller_interval(f, z)) {
      ++bounded;
      covered += set->first <= t && t <= set->second;
    } else {
      covered += fieller_p_value(f, t) > 0.05;
    }
  }
  const double coverage = static_cast<double>(covered) / releases;
  EXPECT_GE(coverage, 0.93);
  EXPECT_LE(coverage, 0.97);
  EXPECT_GT(bounded, releases / 2);
}

TEST(HullWithFieller, LeavesADesignWhoseEveryDirectionIsStrongBitForBit) {
  Matrix a(2, 2);
  a(0, 0) = a(1, 1) = 1000.0;
  a(0, 1) = a(1, 0) = 3.0;
  BootstrapIntervals out;
  out.coefficients = {0.5, -0.2};
  out.ci_lower = {0.4, -0.3};
  out.ci_upper = {0.6, -0.1};
  out.p_values = {0.002, 0.004};
  out.std_errors = {0.05, 0.05};
  out.unbounded = {false, false};
  const BootstrapIntervals before = out;
  hull_with_fieller(a, a, Matrix::identity(2), gaussian(1.0), 0.95, out);
  EXPECT_EQ(out.ci_lower, before.ci_lower);
  EXPECT_EQ(out.ci_upper, before.ci_upper);
  EXPECT_EQ(out.p_values, before.p_values);
}

// After the hull a p-value at most 1 - level exactly where the interval excludes 0, whatever the
// bootstrap's interval was (here the estimate alone, with the p-value of an interval that
// excludes 0), over random weak directions and truths.
TEST(HullWithFieller, PValuesAgreeWithTheHulledIntervals) {
  random::Rng rng = random::Rng::from_seed(13);
  const ReleaseNoise noise = gaussian(1.0);
  int touched = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const double g = 2.5 + 3.4 * random::uniform01(rng);
    Matrix a(2, 2);
    a(0, 0) = g;
    a(1, 1) = 1000.0;
    const std::vector<double> estimate = {2.0 * random::standard_normal(rng),
                                          random::standard_normal(rng)};
    const std::vector<double> xty = {g * estimate[0], 1000.0 * estimate[1]};
    BootstrapIntervals out;
    out.coefficients = out.ci_lower = out.ci_upper = estimate;
    out.p_values = {0.0, 0.0};
    out.std_errors = {0.0, 0.0};
    out.unbounded = {false, false};
    hull_with_fieller(a, a, Matrix(2, 2), noise, 0.95, out);
    if (out.ci_lower[0] == estimate[0] && out.ci_upper[0] == estimate[0]) continue;
    ++touched;
    const bool excludes = out.ci_lower[0] > 0.0 || out.ci_upper[0] < 0.0;
    EXPECT_EQ(out.p_values[0] <= 0.05, excludes) << trial;
  }
  EXPECT_GT(touched, 200);
}

}  // namespace
}  // namespace dpcov::estimators
