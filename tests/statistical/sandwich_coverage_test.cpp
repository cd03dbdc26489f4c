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
// False-failure rate: 6 assertions at 1e-6 each: <= 6e-6.
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

Tally run(Model model, uint64_t seed) {
  random::Rng rng = random::Rng::from_seed(seed);
  Tally t;
  const int64_t reps = stat::scaled(300);
  for (int64_t rep = 0; rep < reps; ++rep) {
    const Rows rows = draw_rows(model, 50000, kD, rng);
    ++t.reps;
    try {
      const estimators::BootstrapIntervals ci = robust(rows, kEpsilon, kDelta, kLevel, 199, rng);
      t.covered += covers(ci, kD, rep % kD) ? 1 : 0;
      t.slope_covered += covers(ci, kD, 0) ? 1 : 0;
    } catch (const Error &e) {
      if (e.status() != Status::Precondition) throw;
    }
    try {
      const estimators::BootstrapIntervals ci =
          homoscedastic(rows, kEpsilon, kDelta, kLevel, 199, rng);
      t.homoscedastic_slope_covered += covers(ci, kD, 0) ? 1 : 0;
    } catch (const Error &e) {
      if (e.status() != Status::Precondition) throw;
    }
  }
  std::printf("%s: robust %lld of %lld (slope of x_1: %lld), homoscedastic slope of x_1: %lld\n",
              model_name(model), static_cast<long long>(t.covered),
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

}  // namespace
}  // namespace dpcov::sandwich_models
