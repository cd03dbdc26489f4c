// Guaranteed OLS intervals from an Analyze Gauss release (proofs/ols_analyze_gauss.md) cover what
// the theorem promises, and the plug-in intervals on the same releases do not.
//
// Model: rows [x, y], x ~ N(0, s^2 I_3), y = x . (0.5, -0.5, 0.25) + N(0, s^2), s^2 = 1/150,
// n = 100000, no intercept; Analyze Gauss at eps = 1, delta = 1e-6, B = 1 (replace-one); level 0.95.
// Data and noise are drawn afresh for every repetition; repetition k checks coordinate k mod 3, so
// the coverage indicators are independent Bernoulli draws.
//
// Promise: P(beta_j in model interval) >= 0.95; P(beta_hat_j in data interval) >= 0.975. The test
// asserts count >= k*, k* the largest k with P(Bin(N, promised) < k) <= alpha = 1e-6 (pmf summed
// with Boost.Math). Mutant: the plug-in OLS intervals on the same release (solvers::regress,
// n - p dof) must fail the model assertion; at these settings the privacy noise moves beta~ by
// several of their standard errors, so they cover the true beta about half of the time.
//
// Rows are unbounded in the model; a row exceeds B = 1 with probability below
// P(lambda_max chi2_4 > 150) with lambda_max(Cov([x, y]) / s^2) < 2.2: P(chi2_4 > 68) < 1e-13 per
// row, < 3e-6 over the 3e7 rows (the Gram accumulator rejects them: a failure, not a silent clip).
// False-failure rate: 2 assertions at 1e-6 plus the rows: < 4e-6.
#include <gtest/gtest.h>

#include <cmath>

#include "core/data/gram.hpp"
#include "core/error.hpp"
#include "core/solvers/regression.hpp"
#include "core/mechanisms/analyze_gauss.hpp"
#include "core/mechanisms/ols_analyze_gauss.hpp"
#include "core/random/normal.hpp"
#include "stat_support.hpp"

namespace dpcov::mechanisms {
namespace {

constexpr int64_t kP = 3, kN = 100000;
constexpr double kS = 0.0816496580927726;  // sqrt(1/150)
constexpr double kBeta[kP] = {0.5, -0.5, 0.25};

Matrix model_gram(random::Rng &rng) {
  Matrix a(kN, kP + 1);
  for (int64_t i = 0; i < kN; ++i) {
    double y = 0.0;
    for (int64_t j = 0; j < kP; ++j) {
      a(i, j) = kS * random::standard_normal(rng);
      y += kBeta[j] * a(i, j);
    }
    a(i, kP) = y + kS * random::standard_normal(rng);
  }
  GramAccumulator acc(kP + 1);
  acc.add_rows(a.view(), 1.0, BoundPolicy::Reject);
  return acc.matrix();
}

solvers::RegressionSpec spec() {
  solvers::RegressionSpec s;
  s.label = kP;
  s.features = {0, 1, 2};
  s.rows = kN;
  s.level = 0.95;
  return s;
}

TEST(OlsAnalyzeGaussCoverage, GuaranteedIntervalsCoverAndPlugInIntervalsDoNot) {
  random::Rng rng = random::Rng::from_seed(20172);
  const Request request{kP + 1, kN, 1.0, 1.0, 1e-6, {}};
  const int64_t reps = stat::scaled(300);
  int64_t model = 0, data = 0, plug_in = 0;
  for (int64_t k = 0; k < reps; ++k) {
    const Matrix g = model_gram(rng);
    const size_t j = static_cast<size_t>(k % kP);
    const double beta_hat = solvers::regress(g.view(), spec()).coefficients[j];
    const Release release = release_analyze_gauss(g.view(), request, plan_analyze_gauss(request), rng);
    const AnalyzeGaussIntervals r =
        analyze_gauss_ols_intervals(release.matrix.view(), release.receipt.sigma, spec());
    model += r.ci_lower[j] <= kBeta[j] && kBeta[j] <= r.ci_upper[j];
    data += r.data_ci_lower[j] <= beta_hat && beta_hat <= r.data_ci_upper[j];
    const solvers::RegressionResult naive = solvers::regress(release.matrix.view(), spec());
    plug_in += naive.ci_lower[j] <= kBeta[j] && kBeta[j] <= naive.ci_upper[j];
  }
  std::printf("coverage over %lld repetitions: model %lld, data %lld, plug-in %lld\n",
              static_cast<long long>(reps), static_cast<long long>(model),
              static_cast<long long>(data), static_cast<long long>(plug_in));
  EXPECT_TRUE(stat::coverage_at_least(model, reps, 0.95, "misses of the true beta").pass);
  EXPECT_TRUE(stat::coverage_at_least(data, reps, 0.975, "misses of beta_hat").pass);
  EXPECT_FALSE(stat::coverage_at_least(plug_in, reps, 0.95, "mutant: plug-in misses of the true beta").pass);
}

}  // namespace
}  // namespace dpcov::mechanisms
