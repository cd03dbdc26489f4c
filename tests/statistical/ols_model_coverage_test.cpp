// Private OLS by projection (Sheffet, ICML 2017, Alg. 1) covers the TRUE coefficients of the
// paper's generative model at the rate the exact analysis promises (proofs/ols_ptr.md, "Coverage
// of the model's beta").
//
// Model: y = X beta + e, rows of X iid N(0, s^2 I_9), e iid N(0, s^2), s^2 = 1/130,
// beta_j = +-0.1 (p = 9 coefficients, no intercept, d = 10 columns [X, y]), n = 80000 rows, r = 20
// projection rows, eps = 1, delta = 1e-6, B = 1. Data and projection are drawn afresh for every
// repetition; repetition k checks coordinate k mod 9 only, so the coverage indicators are
// independent Bernoulli draws.
//
// Promised rate. Given the data, the nominal interval beta~_j +- c se~_j (c the 0.975 quantile of
// T_{r-p}) covers the true beta_j with probability exactly
//   q(n, p, r) = E[ P(|T_{r-p}| <= c / sqrt(1 + Q)) ],  Q = K / E,  K ~ chi2_{r-p+1},
//   E ~ chi2_{n-p} independent,
// which does not depend on X, beta or the noise level. mpmath (30 digits, proofs/check/ols_ptr.py
// recomputes it): q(80000, 9, 20) = 0.9499855806. A refusal of the private test counts as a miss,
// so the count is Binomial(N, q') with q' >= q - P(refusal) (here P(refusal) < 1e-17:
// lambda_min(A^T A) is about 446, the threshold w^2 + shift 283.3, the Laplace scale 4), and the
// one-sided test at alpha = 1e-6 asserts count >= k*, k* the largest k with P(Bin(N, q) < k) <=
// alpha. mpmath, summing the binomial pmf: N = 1000 -> k* = 914 (P = 6.54e-7); N = 10000 (suite
// long) -> k* = 9393 (P = 8.83e-7). The test computes k* with Boost.Math the same way.
//
// Rows of the model are unbounded; the test requires every row to have norm <= B = 1 (the Gram
// accumulator rejects otherwise). ||[x, y]||^2 <= s^2 lambda_max chi2_10 with lambda_max = 1.3484
// (the covariance of [x, y] / s^2 has eigenvalues 1 (x8), 0.7416 and 1.3484), so a row exceeds B
// with probability P(chi2_10 > 96.41) = 2.8e-16 and any of the 8e7 (8e8 in suite long) rows does
// with probability <= 2.3e-8 (2.3e-7).
//
// Mutant: the same intervals with half the width must fail the same assertion (their coverage is
// P(|T_11| <= c / 2) = 0.705, an expected count of 705 of 1000).
// Assertions on the correct mechanism: 1 at alpha = 1e-6 plus the row bound (< 2.3e-8):
// false-failure rate < 1.1e-6.
#include <gtest/gtest.h>

#include <cmath>

#include "core/data/gram.hpp"
#include "core/error.hpp"
#include "core/mechanisms/ols_ptr.hpp"
#include "core/random/normal.hpp"
#include "stat_support.hpp"

namespace dpcov::mechanisms {
namespace {

constexpr int64_t kP = 9, kN = 80000, kR = 20;
constexpr double kVariance = 1.0 / 130.0;  // s^2 of every feature and of the noise
constexpr double kPromisedRate = 0.9499855806;

double true_beta(int64_t j) { return j % 2 == 0 ? 0.1 : -0.1; }

// G = A^T A for n rows of the model; throws if a row has norm > 1.
Matrix model_gram(random::Rng &rng) {
  const double s = std::sqrt(kVariance);
  Matrix a(kN, kP + 1);
  for (int64_t i = 0; i < kN; ++i) {
    double y = 0.0;
    for (int64_t j = 0; j < kP; ++j) {
      a(i, j) = s * random::standard_normal(rng);
      y += true_beta(j) * a(i, j);
    }
    a(i, kP) = y + s * random::standard_normal(rng);
  }
  GramAccumulator acc(kP + 1);
  acc.add_rows(a.view(), 1.0, BoundPolicy::Reject);
  return acc.matrix();
}

struct Coverage {
  int64_t reps = 0, covered = 0, covered_half_width = 0, refused = 0;
};

Coverage run(random::Rng &rng) {
  solvers::RegressionSpec spec;
  spec.label = kP;
  for (int64_t j = 0; j < kP; ++j) spec.features.push_back(j);
  spec.level = 0.95;
  Request request{kP + 1, kN, 1.0, 1.0, 1e-6, {}};
  request.options.projection_rows = kR;
  Coverage out;
  out.reps = stat::scaled(1000);
  for (int64_t k = 0; k < out.reps; ++k) {
    const Matrix g = model_gram(rng);
    const int64_t j = k % kP;
    const size_t at = static_cast<size_t>(j);
    try {
      const OlsInference fit = ols_jl_inference(g.view(), request, spec, rng);
      const double lo = fit.fit.ci_lower[at], hi = fit.fit.ci_upper[at];
      const double centre = 0.5 * (lo + hi), quarter = 0.25 * (hi - lo);
      out.covered += lo <= true_beta(j) && true_beta(j) <= hi;
      out.covered_half_width +=
          centre - quarter <= true_beta(j) && true_beta(j) <= centre + quarter;
    } catch (const Error &e) {
      if (e.status() != dpcov::Status::Refused) throw;
      ++out.refused;  // counted as a miss for both intervals
    }
  }
  return out;
}

TEST(OlsModelCoverage, NominalIntervalsCoverTheTrueBetaAtTheExactRateAndHalfWidthOnesDoNot) {
  random::Rng rng = random::Rng::from_seed(20171);
  const Coverage c = run(rng);
  EXPECT_LE(c.refused, 0) << "the test was expected to pass on every repetition";
  EXPECT_TRUE(stat::coverage_at_least(c.covered, c.reps, kPromisedRate,
                            "misses of the true beta (Alg. 1, nominal 95%)")
                  .pass)
      << c.covered << " of " << c.reps << " covered";
  EXPECT_FALSE(stat::coverage_at_least(c.covered_half_width, c.reps, kPromisedRate,
                             "mutant: misses of half-width intervals")
                   .pass)
      << c.covered_half_width << " of " << c.reps << " covered";
}

}  // namespace
}  // namespace dpcov::mechanisms
