// The robust (sandwich) noise-aware 95% intervals of core/estimators/sandwich_intervals cover the
// least-squares projection of models whose errors are not homoscedastic, at a rate within
// [0.93, 0.99]. Models: bench/sandwich_models.hpp (heteroscedastic, error sd proportional to |x_1|,
// with x_1 uniform and peaked; an omitted quadratic term), d = 3, n = 5e4, epsilon = 4,
// delta = 1e-6 (replace-one) split by privacy::sandwich_budget, B_X = B_Y = 1, 199 bootstrap
// worlds.
//
// Repetition r checks coordinate r mod 3, so the indicators of one model are independent
// Bernoulli draws. Decision at alpha = 1e-6 per assertion (stat_support.hpp): the count of
// covered >= k*(0.93) and the count of misses >= k*(0.01), per model. A refusal (the noise swamps
// the data) counts as a miss; none is expected here. 300 repetitions per model accept rates down
// to about 0.88 (gross failures only); suite long (DPCOV_STAT_SCALE = 10) accepts about 0.91 up.
// The peaked heteroscedastic model is asserted on the slope of x_1 in every repetition (independent
// across repetitions): there today's homoscedastic bootstrap (printed beside, the code before the
// robust intervals) covers about 0.8, which the >= 0.93 assertion rejects (measured by swapping
// it in: it fails); on the other two models its slope coverage, near 0.87 and 0.90, is printed
// only (300 repetitions cannot reject it at alpha = 1e-6; bench/sandwich_coverage measures it).
// The same three claims for a Gram mechanism's regression (gram_robust: Analyze Gauss release of
// [x, y] (norm <= sqrt 2) at the fit's share, the meat at the rest, gram_sandwich_intervals) on the
// peaked model's slope and the omitted square: there the homoscedastic bootstrap of the release
// (gram_homoscedastic, the intervals before) covers the peaked slope about 0.80 (241 of 300),
// which the >= 0.93 assertion rejects (measured by swapping it in: it fails).
// False-failure rate: 10 assertions at 1e-6 each: <= 1e-5.
#include <gtest/gtest.h>

#include <cstdio>

#include "bench/sandwich_models.hpp"
#include "stat_support.hpp"

namespace dpcov::sandwich_models {
namespace {

constexpr int64_t kD = 3;
constexpr double kEpsilon = 4.0, kDelta = 1e-6, kLevel = 0.95;

struct Tally {
  int64_t reps = 0, covered = 0;
  int64_t slope_covered = 0, homoscedastic_slope_covered = 0;  // of x_1, every repetition
};

// One way of computing the intervals from the rows at (epsilon, delta) in total.
using Fit = estimators::BootstrapIntervals (*)(const Rows &, double, double, double, int64_t,
                                               random::Rng &);

// `fit` (the robust intervals) and `before` (the homoscedastic ones they replace) on the rows of
// `model`; `what` names them in the printed counts.
Tally run(Model model, uint64_t seed, Fit fit = robust, Fit before = homoscedastic,
          const char *what = "robust") {
  random::Rng rng = random::Rng::from_seed(seed);
  Tally t;
  const int64_t reps = stat::scaled(300);
  for (int64_t rep = 0; rep < reps; ++rep) {
    const Rows rows = draw_rows(model, 50000, kD, rng);
    ++t.reps;
    try {
      const estimators::BootstrapIntervals ci = fit(rows, kEpsilon, kDelta, kLevel, 199, rng);
      t.covered += covers(ci, kD, rep % kD) ? 1 : 0;
      t.slope_covered += covers(ci, kD, 0) ? 1 : 0;
    } catch (const Error &e) {
      if (e.status() != Status::Precondition) throw;
    }
    try {
      const estimators::BootstrapIntervals ci = before(rows, kEpsilon, kDelta, kLevel, 199, rng);
      t.homoscedastic_slope_covered += covers(ci, kD, 0) ? 1 : 0;
    } catch (const Error &e) {
      if (e.status() != Status::Precondition) throw;
    }
  }
  std::printf("%s: %s %lld of %lld (slope of x_1: %lld), homoscedastic slope of x_1: %lld\n",
              model_name(model), what, static_cast<long long>(t.covered),
              static_cast<long long>(t.reps), static_cast<long long>(t.slope_covered),
              static_cast<long long>(t.homoscedastic_slope_covered));
  return t;
}

void expect_within(int64_t covered, int64_t reps, const std::string &what) {
  EXPECT_TRUE(stat::coverage_at_least(covered, reps, 0.93, what + " (>= 0.93)").pass);
  EXPECT_TRUE(stat::coverage_at_least(reps - covered, reps, 0.01, what + " (<= 0.99)").pass);
}

TEST(SandwichCoverage, HeteroscedasticErrorsCover) {
  const Tally t = run(Model::Heteroscedastic, 3301);
  expect_within(t.covered, t.reps, "heteroscedastic, robust");
}

TEST(SandwichCoverage, OmittedQuadraticTermCoversTheProjection) {
  const Tally t = run(Model::Misspecified, 3302);
  expect_within(t.covered, t.reps, "omitted quadratic, robust");
}

TEST(SandwichCoverage, SlopeWhoseErrorVarianceTheHomoscedasticModelMissesCovers) {
  const Tally t = run(Model::PeakedHeteroscedastic, 3303);
  expect_within(t.slope_covered, t.reps, "peaked heteroscedastic, robust, slope of x_1");
}

// The Gram mechanisms' robust intervals (gram_robust: the Analyze Gauss release of [x, y] at the
// fit's share, the meat at the rest, estimators::gram_sandwich_intervals) against the
// homoscedastic bootstrap of the same release at the whole budget (gram_homoscedastic, the Gram
// mechanisms' intervals before), on the peaked model's slope and the omitted square.
TEST(SandwichCoverage, GramMechanismSlopeWhoseErrorVarianceTheHomoscedasticModelMissesCovers) {
  const Tally t = run(Model::PeakedHeteroscedastic, 3311, gram_robust, gram_homoscedastic,
                      "Gram robust");
  expect_within(t.slope_covered, t.reps, "Gram, peaked heteroscedastic, slope of x_1");
}

TEST(SandwichCoverage, GramMechanismOmittedQuadraticTermCoversTheProjection) {
  const Tally t =
      run(Model::Misspecified, 3312, gram_robust, gram_homoscedastic, "Gram robust");
  expect_within(t.covered, t.reps, "Gram, omitted quadratic");
}

}  // namespace
}  // namespace dpcov::sandwich_models
