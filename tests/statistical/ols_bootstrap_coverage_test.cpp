// The noise-aware (parametric bootstrap) 95% intervals of core/estimators/ols_bootstrap cover the
// TRUE coefficients of a Gaussian linear model at a rate within [0.93, 0.97], for every supported
// mechanism, at n in {1e3, 1e4, 1e5}, d = 10 features, epsilon in {0.5, 1} (wishart_additive:
// 0.5 only, its theorem needs epsilon < 1), delta = 1e-6, B = 1, and AdaSSP with y'y released
// (B_X = B_Y = 1; adassp_bootstrap_intervals, for beta from the unregularised released
// statistics). Where the noise swamps the data
// the intervals are refused (DPCOV_E_PRECONDITION), never printed: a refusal is counted apart.
//
// Model: rows [x, y], x ~ N(0, s^2 I_10), y = x' beta + e, e ~ N(0, s^2), s^2 = 1/140,
// beta_j = +-0.1. The Gram matrix of n such rows is W_11(n, Sigma) exactly, so the test draws it
// with the Wishart sampler instead of n rows. Every row must have norm <= B = 1 for the release to
// be private: ||[x, y]||^2 <= s^2 lambda_max chi2_11, lambda_max = 1.05 + sqrt(0.1025) = 1.3702,
// so a row exceeds 1 with probability P(chi2_11 > 102.2) < 1e-15 and any of the <= 2e10 rows of
// suite long does with probability < 2e-5 (the conditioning this ignores moves coverage by less).
//
// Repetition r checks coordinate r mod 10 only, so the indicators of one setting are independent
// Bernoulli draws given acceptance. Decision at alpha = 1e-6 per assertion (stat_support.hpp):
// the count of covered must be >= k*(0.93) (one-sided exact binomial: a true rate >= 0.93 fails
// with probability <= alpha) and the count of misses >= k*(0.03) (a true rate <= 0.97 fails with
// probability <= alpha). Per setting with >= 50 accepted repetitions, and pooled over all.
// At the default size (200 repetitions, 199 draws) the per-setting test only catches gross
// failures (it accepts rates down to about 0.85); the pooled one (>= 2000) accepts about 0.91 and
// up; suite long (DPCOV_STAT_SCALE = 10) tightens both.
//
// Mutants that must fail the pooled lower assertion: intervals of half the width, and the plug-in
// intervals that treat the release as exact data (solvers::regress).
// False-failure rate: at most 2 assertions per setting (21 settings) + 2 pooled + the refusal
// check at n = 1e5 (exact: none expected) <= 44e-6.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "core/error.hpp"
#include "core/estimators/ols_bootstrap.hpp"
#include "core/mechanisms/adassp.hpp"
#include "core/mechanisms/mechanism.hpp"
#include "core/random/wishart.hpp"
#include "stat_support.hpp"

namespace dpcov::estimators {
namespace {

constexpr int64_t kP = 10;
constexpr double kVariance = 1.0 / 140.0;

double true_beta(int64_t j) { return j % 2 == 0 ? 0.1 : -0.1; }

Matrix model_covariance() {
  Matrix sigma(kP + 1, kP + 1);
  double norm2 = 0.0;
  for (int64_t j = 0; j < kP; ++j) {
    sigma(j, j) = kVariance;
    sigma(j, kP) = sigma(kP, j) = kVariance * true_beta(j);
    norm2 += true_beta(j) * true_beta(j);
  }
  sigma(kP, kP) = kVariance * (norm2 + 1.0);
  return sigma;
}

struct Tally {
  int64_t reps = 0, refused = 0, covered = 0, half_covered = 0;
  int64_t plug_reps = 0, plug_covered = 0;
  double width = 0.0;
};

// The count of covered is compatible with a rate in [0.93, 0.97].
bool within(int64_t covered, int64_t reps, const std::string &what) {
  const bool low = stat::coverage_at_least(covered, reps, 0.93, what + " (>= 0.93)").pass;
  const bool high = stat::coverage_at_least(reps - covered, reps, 0.03, what + " (<= 0.97)").pass;
  return low && high;
}

// One release of `gram` ([x, y] Gram matrix) by `mechanism`, or by AdaSSP (with y'y) when
// `adassp`: the released statistic over [x, y] and the intervals from it.
struct Released {
  Matrix statistic;
  BootstrapIntervals intervals;
};

Released release_and_intervals(bool adassp, mechanisms::MechanismId mechanism, const Matrix &gram,
                               const mechanisms::Request &request,
                               const solvers::RegressionSpec &spec, int64_t draws, random::Rng &rng,
                               bool &refused) {
  Released out;
  refused = false;
  if (adassp) {
    mechanisms::AdasspOptions options;
    options.release_label_square = true;
    const mechanisms::AdasspReceipt plan =
        mechanisms::plan_adassp(kP, 1.0, 1.0, request.epsilon, request.delta, options);
    Matrix xtx(kP, kP);
    std::vector<double> xty(kP);
    for (int64_t j = 0; j < kP; ++j) {
      for (int64_t i = 0; i < kP; ++i) xtx(i, j) = gram(i, j);
      xty[static_cast<size_t>(j)] = gram(j, kP);
    }
    const mechanisms::AdasspFit fit = mechanisms::fit_adassp(xtx, xty, gram(kP, kP), plan, rng);
    out.statistic = Matrix(kP + 1, kP + 1);
    for (int64_t j = 0; j < kP; ++j) {
      for (int64_t i = 0; i < kP; ++i) out.statistic(i, j) = fit.xtx(i, j);
      out.statistic(j, kP) = out.statistic(kP, j) = fit.xty[static_cast<size_t>(j)];
    }
    out.statistic(kP, kP) = fit.yty;
    try {
      out.intervals = adassp_bootstrap_intervals(fit.xtx, fit.xty, fit.yty, spec.rows,
                                                 fit.receipt, spec.level, draws, rng);
    } catch (const Error &e) {
      if (e.status() != dpcov::Status::Precondition) throw;
      refused = true;
    }
    return out;
  }
  const mechanisms::Release rel = mechanisms::release(mechanism, gram.view(), request, rng);
  out.statistic = rel.matrix;
  try {
    out.intervals = ols_bootstrap_intervals(rel.matrix.view(), release_noise(rel.receipt), spec,
                                            draws, rng);
  } catch (const Error &e) {
    if (e.status() != dpcov::Status::Precondition) throw;
    refused = true;
  }
  return out;
}

Tally run(bool adassp, mechanisms::MechanismId mechanism, int64_t n, double epsilon, int64_t reps,
          int64_t draws, random::Rng &rng) {
  const Matrix sigma = model_covariance();
  solvers::RegressionSpec spec;
  spec.label = kP;
  for (int64_t j = 0; j < kP; ++j) spec.features.push_back(j);
  spec.rows = n;
  spec.level = 0.95;
  const mechanisms::Request request{kP + 1, n, 1.0, epsilon, 1e-6, {}};
  Tally t;
  for (int64_t r = 0; r < reps; ++r) {
    const Matrix gram = random::wishart(rng, static_cast<double>(n), sigma);
    bool refused = false;
    const Released rel =
        release_and_intervals(adassp, mechanism, gram, request, spec, draws, rng, refused);
    const int64_t j = r % kP;
    const size_t at = static_cast<size_t>(j);
    const double beta = true_beta(j);
    try {
      const solvers::RegressionResult plug = solvers::regress(rel.statistic.view(), spec);
      ++t.plug_reps;
      t.plug_covered += plug.ci_lower[at] <= beta && beta <= plug.ci_upper[at];
    } catch (const Error &e) {
      if (e.status() != dpcov::Status::NotPositiveDefinite) throw;
    }
    if (refused) {
      ++t.refused;
      continue;
    }
    const BootstrapIntervals &b = rel.intervals;
    const double lo = b.ci_lower[at], hi = b.ci_upper[at];
    const double centre = 0.5 * (lo + hi), quarter = 0.25 * (hi - lo);
    ++t.reps;
    t.covered += lo <= beta && beta <= hi;
    t.half_covered += centre - quarter <= beta && beta <= centre + quarter;
    t.width += hi - lo;
  }
  return t;
}

TEST(OlsBootstrapCoverage, NoiseAwareIntervalsCoverTheTrueBetaWithin93To97PercentOrAreRefused) {
  using mechanisms::MechanismId;
  struct Setting {
    MechanismId mechanism;
    const char *name;
    double epsilon;
    bool adassp = false;
  };
  const Setting settings[] = {{MechanismId::AnalyzeGauss, "analyze_gauss", 0.5},
                              {MechanismId::AnalyzeGauss, "analyze_gauss", 1.0},
                              {MechanismId::LaplaceSym, "laplace_sym", 0.5},
                              {MechanismId::LaplaceSym, "laplace_sym", 1.0},
                              {MechanismId::WishartAdditive, "wishart_additive", 0.5},
                              {MechanismId::AnalyzeGauss, "adassp", 0.5, true},
                              {MechanismId::AnalyzeGauss, "adassp", 1.0, true}};
  random::Rng rng = random::Rng::from_seed(2022);
  const int64_t reps = stat::scaled(200);
  const int64_t draws = stat::scaled(1) > 1 ? 999 : 199;
  Tally pooled;
  for (const Setting &s : settings) {
    for (const int64_t n : {1000, 10000, 100000}) {
      const Tally t = run(s.adassp, s.mechanism, n, s.epsilon, reps, draws, rng);
      const std::string what = concat(s.name, " eps ", s.epsilon, " n ", n);
      std::printf("%-36s accepted %5lld refused %5lld coverage %.4f mean width %.4g | plug-in %5lld "
                  "coverage %.4f\n",
                  what.c_str(), static_cast<long long>(t.reps), static_cast<long long>(t.refused),
                  t.reps ? static_cast<double>(t.covered) / static_cast<double>(t.reps) : 0.0,
                  t.reps ? t.width / static_cast<double>(t.reps) : 0.0,
                  static_cast<long long>(t.plug_reps),
                  t.plug_reps ? static_cast<double>(t.plug_covered) / static_cast<double>(t.plug_reps)
                              : 0.0);
      if (n == 100000) {
        EXPECT_EQ(t.refused, 0) << what << ": refused where the noise is small";
      }
      if (t.reps >= 50) {
        EXPECT_TRUE(within(t.covered, t.reps, what)) << what;
      }
      pooled.reps += t.reps;
      pooled.covered += t.covered;
      pooled.half_covered += t.half_covered;
      pooled.plug_reps += t.plug_reps;
      pooled.plug_covered += t.plug_covered;
    }
  }
  EXPECT_TRUE(within(pooled.covered, pooled.reps, "pooled"))
      << pooled.covered << " of " << pooled.reps;
  EXPECT_FALSE(stat::coverage_at_least(pooled.half_covered, pooled.reps, 0.93,
                                       "mutant: half-width intervals")
                   .pass);
  EXPECT_FALSE(stat::coverage_at_least(pooled.plug_covered, pooled.plug_reps, 0.93,
                                       "mutant: plug-in intervals (release taken as exact data)")
                   .pass);
}

}  // namespace
}  // namespace dpcov::estimators
