// At the edge of identifiability the bootstrap's printed intervals of a coefficient along a weak
// direction cover at their level (estimators/profile_hull.hpp, proofs/bootstrap_worlds.md, "The
// profile beside the worlds"). A threshold on the release selects: the rule that flags weak
// directions (weak_directions.hpp) lets through the releases whose noise made the direction
// stronger than the data's, and there the estimate's component along it is shrunk towards 0 by
// the ratio of the two, which no world built on the release sees. The profile of the pivot
// vector decides instead for the coefficients along directions below 4.5 noise sds: it prints
// where its set is closed, and the printed sets are selected only by that.
//
// Fixed design, p = 2: G = R diag(g, 2000) R' (R a rotation by 30 degrees; u'Eu has sd 1.17 along
// the weak direction u, so g = 1.5, 2, 2.5, 3, 4 is 1.3 to 3.4 noise sds), beta with component 4
// along u and 1 along the other, the sampling noise of X'y N(0, G) (unit error variance), the
// release [X, y]'[X, y] + E with E symmetric, N(0, 1) entries (Analyze Gauss's law). Unbounded
// coefficients are flagged (WeakCoefficients::Flag), not refused, so a release prints coefficient
// 0 (the one loading 3/4 on u) or not; its printed intervals are independent indicators given
// printing.
//
// Decisions, per strength: coverage of the printed intervals >= 0.93 and <= 0.99 (stat_support.hpp,
// exact binomial at alpha = 1e-6 each), and at least a fifth of the releases print. False-failure
// rate: <= 1e-5 over the five strengths for a construction that covers in [0.93, 0.99]. Measured
// (2000 releases each): 469, 816, 1123, 1467 and 1835 print, covering 0.913, 0.952, 0.959, 0.961
// and 0.956. With the weak rule deciding and the profile only hulled beside it, 202, 428, 683,
// 1013 and 1599 print, covering 0.797, 0.909, 0.933, 0.944 and 0.953: the first fails (and it
// prints under a fifth); with neither, 0.49 to 0.92.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "core/error.hpp"
#include "core/estimators/ols_bootstrap.hpp"
#include "core/linalg/blas.hpp"
#include "gram_release.hpp"
#include "stat_support.hpp"

namespace dpcov::estimators {
namespace {

constexpr int64_t kP = 2;

class EdgeCoverage : public ::testing::TestWithParam<double> {};

TEST_P(EdgeCoverage, AlongADirectionAFewNoiseSdsStrongPrintedIntervalsCover) {
  const double weak = GetParam();
  const double angle = std::acos(-1.0) / 6.0;
  const double u[kP] = {std::cos(angle), std::sin(angle)}, v[kP] = {-std::sin(angle), std::cos(angle)};
  Matrix g(kP, kP);
  for (int64_t j = 0; j < kP; ++j)
    for (int64_t i = 0; i < kP; ++i)
      g(i, j) = weak * u[i] * u[j] + 2000.0 * v[i] * v[j];
  Matrix l;
  ASSERT_TRUE(linalg::cholesky(g, l));
  std::vector<double> beta(kP);
  for (int64_t j = 0; j < kP; ++j) beta[static_cast<size_t>(j)] = 4.0 * u[j] + v[j];
  const ReleaseNoise noise{ReleaseNoise::Kind::SymmetricGaussian, 1.0, 0.0};
  const solvers::RegressionSpec spec = last_column_on_the_others(kP, 1000);
  random::Rng rng = random::Rng::from_seed(3304);
  const int64_t reps = stat::scaled(2000);
  int64_t printed = 0, covered = 0;
  double width = 0.0;
  for (int64_t r = 0; r < reps; ++r) {
    const Matrix released = gram_release(g, l, beta, spec.rows, noise, rng);
    try {
      const BootstrapIntervals b =
          ols_bootstrap_intervals(released.view(), noise, spec, 999, rng, WeakCoefficients::Flag);
      if (b.unbounded[0]) continue;
      ++printed;
      covered += b.ci_lower[0] <= beta[0] && beta[0] <= b.ci_upper[0];
      width += b.ci_upper[0] - b.ci_lower[0];
    } catch (const Error &err) {
      if (err.status() != Status::Precondition) throw;
    }
  }
  std::printf("g %.2f printed %lld of %lld, coverage %.4f, mean width %.4g\n", weak,
              static_cast<long long>(printed), static_cast<long long>(reps),
              printed ? static_cast<double>(covered) / static_cast<double>(printed) : 0.0,
              printed ? width / static_cast<double>(printed) : 0.0);
  ASSERT_GE(printed, reps / 5);
  EXPECT_TRUE(stat::coverage_at_least(covered, printed, 0.93, "coverage >= 0.93").pass);
  EXPECT_TRUE(stat::coverage_at_least(printed - covered, printed, 0.01, "coverage <= 0.99").pass);
}

INSTANTIATE_TEST_SUITE_P(Strengths, EdgeCoverage, ::testing::Values(1.5, 2.0, 2.5, 3.0, 4.0));

}  // namespace
}  // namespace dpcov::estimators
