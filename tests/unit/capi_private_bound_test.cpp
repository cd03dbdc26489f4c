// The private bound through the C ABI (dpcov/private_bound.h): the grid and its size query, a
// choice that lands near the target, reproducible with a seed, and every bad argument refused with
// a clear status and the outputs untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

struct Rng {
  dpcov_rng *rng = nullptr;
  explicit Rng(int64_t seed) { EXPECT_EQ(dpcov_rng_create_seeded(&rng, seed, 0), DPCOV_OK); }
  ~Rng() { dpcov_rng_destroy(&rng); }
};

std::vector<double> grid(double lo, double hi, double ratio) {
  int64_t k = 0;
  EXPECT_EQ(dpcov_private_bound_grid(lo, hi, ratio, nullptr, 0, &k), DPCOV_OK);
  std::vector<double> g(static_cast<size_t>(k));
  EXPECT_EQ(dpcov_private_bound_grid(lo, hi, ratio, g.data(), k, &k), DPCOV_OK);
  return g;
}

}  // namespace

TEST(CapiPrivateBound, GridAndItsSize) {
  EXPECT_EQ(grid(0.5, 7.0, 2.0), (std::vector<double>{0.5, 1.0, 2.0, 4.0, 8.0}));
}

TEST(CapiPrivateBound, ChoosesNearTheTargetQuantile) {
  // 1000 rows with norms 1..1000 (norm i / 10 after scaling); the 90% quantile is about 90.
  const std::vector<double> g = grid(1e-3, 1e6, 1.25);
  std::vector<int64_t> histogram(g.size() + 1, 0);
  for (int i = 1; i <= 1000; ++i) {
    const double norm = i / 10.0;
    size_t k = 0;
    while (k < g.size() && norm > g[k]) ++k;
    ++histogram[k];
  }
  Rng rng(11);
  int64_t index = -1;
  double bound = 0.0;
  ASSERT_EQ(dpcov_private_bound_select(g.data(), static_cast<int64_t>(g.size()), histogram.data(),
                                       100, 1.0, rng.rng, &index, &bound),
            DPCOV_OK)
      << dpcov_last_error_message();
  EXPECT_EQ(bound, g[static_cast<size_t>(index)]);
  EXPECT_GT(bound, 60.0);
  EXPECT_LT(bound, 130.0);
  // The same seed gives the same choice; index may be NULL.
  Rng again(11);
  double bound2 = 0.0;
  ASSERT_EQ(dpcov_private_bound_select(g.data(), static_cast<int64_t>(g.size()), histogram.data(),
                                       100, 1.0, again.rng, nullptr, &bound2),
            DPCOV_OK);
  EXPECT_EQ(bound2, bound);
}

TEST(CapiPrivateBound, BadGridArgumentsAreRefusedAndOutputsUntouched) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  double out[4] = {-1, -1, -1, -1};
  int64_t k = -7;
  EXPECT_EQ(dpcov_private_bound_grid(1, 2, 2, out, 4, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_private_bound_grid(0, 2, 2, out, 4, &k), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_private_bound_grid(1, 1, 2, out, 4, &k), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_private_bound_grid(1, 2, 1, out, 4, &k), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_private_bound_grid(nan, 2, 2, out, 4, &k), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_private_bound_grid(1, 16, 2, out, 4, &k), DPCOV_E_INVALID_ARGUMENT);  // 5 needed
  EXPECT_EQ(dpcov_private_bound_grid(1, 2, 2, out, -1, &k), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_private_bound_grid(1, 2, 2, nullptr, 3, &k), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_private_bound_grid(1e-300, 1e300, 1.0001, nullptr, 0, &k), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_STRNE(dpcov_last_error_message(), "");
  EXPECT_EQ(k, -7);
  for (double v : out) EXPECT_EQ(v, -1.0);
}

// The exponential mechanism and the scan take the same arguments and refuse the same bad ones.
using Selection = dpcov_status (*)(const double *, int64_t, const int64_t *, int64_t, double,
                                   dpcov_rng *, int64_t *, double *);

class CapiPrivateBoundRule : public testing::TestWithParam<Selection> {};

INSTANTIATE_TEST_SUITE_P(BothRules, CapiPrivateBoundRule,
                         testing::Values(&dpcov_private_bound_select, &dpcov_private_bound_scan));

TEST(CapiPrivateBound, ScanChoosesJustAboveTheTargetQuantileOnAWideGrid) {
  // 442 rows with norms 200..465 (the raw diabetes data's range) on the CLI's grid, 1e-6 to 1e9:
  // the exponential mechanism's many candidates above the data share one utility; the scan stops
  // near the 95% quantile (about 452). At eps 0.1 the choice lands in [300, 2000] with probability
  // 0.954 (its exact law, private_bound_scan_log_probabilities: 0.66 on 527, the first candidate
  // above the data). Seeds 1..20: more than 8 misses has probability 1.0e-7 (binomial).
  const std::vector<double> g = grid(1e-6, 1e9, 1.25);
  std::vector<int64_t> histogram(g.size() + 1, 0);
  for (int i = 0; i < 442; ++i) {
    const double norm = 200.0 + 265.0 * i / 441.0;
    size_t k = 0;
    while (k < g.size() && norm > g[k]) ++k;
    ++histogram[k];
  }
  int misses = 0;
  for (int64_t seed = 1; seed <= 20; ++seed) {
    Rng rng(seed);
    int64_t index = -1;
    double bound = 0.0;
    ASSERT_EQ(dpcov_private_bound_scan(g.data(), static_cast<int64_t>(g.size()), histogram.data(),
                                       22, 0.1, rng.rng, &index, &bound),
              DPCOV_OK)
        << dpcov_last_error_message();
    EXPECT_EQ(bound, g[static_cast<size_t>(index)]);
    if (bound < 300.0 || bound > 2000.0) ++misses;
  }
  EXPECT_LE(misses, 8);
}

TEST(CapiPrivateBound, ScanRefusesAnEpsilonBelowItsScalesRange) {
  const std::vector<double> g{1.0, 2.0, 4.0};
  const std::vector<int64_t> h{3, 1, 0, 2};
  Rng rng(3);
  int64_t index = -7;
  double bound = -1.0;
  EXPECT_EQ(dpcov_private_bound_scan(g.data(), 3, h.data(), 1, 0x1p-27, rng.rng, &index, &bound),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("2^-26"), std::string::npos);
  EXPECT_EQ(index, -7);
  EXPECT_EQ(bound, -1.0);
}

TEST_P(CapiPrivateBoundRule, BadArgumentsAreRefusedAndOutputsUntouched) {
  const std::vector<double> g{1.0, 2.0, 4.0};
  const std::vector<int64_t> h{3, 1, 0, 2};
  Rng rng(3);
  int64_t index = -7;
  double bound = -1.0;
  auto call = [&](const double *gp, int64_t k, const int64_t *hp, int64_t target, double eps,
                  dpcov_rng *r, double *b) {
    return GetParam()(gp, k, hp, target, eps, r, &index, b);
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(call(nullptr, 3, h.data(), 1, 1.0, rng.rng, &bound), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(g.data(), 3, nullptr, 1, 1.0, rng.rng, &bound), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(g.data(), 3, h.data(), 1, 1.0, nullptr, &bound), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(g.data(), 3, h.data(), 1, 1.0, rng.rng, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(g.data(), 0, h.data(), 1, 1.0, rng.rng, &bound), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(g.data(), 5000, h.data(), 1, 1.0, rng.rng, &bound), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(g.data(), 3, h.data(), -1, 1.0, rng.rng, &bound), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(g.data(), 3, h.data(), 1, 0.0, rng.rng, &bound), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(g.data(), 3, h.data(), 1, nan, rng.rng, &bound), DPCOV_E_NON_FINITE);
  const std::vector<double> unsorted{1.0, 1.0, 4.0}, negative{-1.0, 2.0, 4.0}, inf{1.0, 2.0, INFINITY};
  EXPECT_EQ(call(unsorted.data(), 3, h.data(), 1, 1.0, rng.rng, &bound), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(negative.data(), 3, h.data(), 1, 1.0, rng.rng, &bound), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(inf.data(), 3, h.data(), 1, 1.0, rng.rng, &bound), DPCOV_E_NON_FINITE);
  const std::vector<int64_t> negative_count{3, -1, 0, 2};
  EXPECT_EQ(call(g.data(), 3, negative_count.data(), 1, 1.0, rng.rng, &bound),
            DPCOV_E_INVALID_ARGUMENT);
  const int64_t huge = int64_t{1} << 62;
  const std::vector<int64_t> too_many{huge, huge, 0, 0};
  EXPECT_EQ(call(g.data(), 3, too_many.data(), 1, 1.0, rng.rng, &bound), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(index, -7);
  EXPECT_EQ(bound, -1.0);
}

// Privacy units: each unit once, in the cell of its largest row norm; every bad argument refused
// with the histogram untouched.
TEST(CapiPrivateBound, UnitHistogramCountsUnitsByTheirLargestNorm) {
  const double grid[3] = {1.0, 2.0, 4.0};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // Norms 0.5 (unit 7), 2 (unit 5), 3 (unit 7), NaN (unit -1), 1e-200 (unit 5), 0.6 (unit 2).
  const double rows[12] = {0.3, 0.4, 0.0, 2.0, 1.8, 2.4, nan, 0.0, 1e-200, 0.0, 0.6, 0.0};
  const int64_t units[6] = {7, 5, 7, -1, 5, 2};
  int64_t histogram[4] = {1, 0, 0, 0};
  ASSERT_EQ(dpcov_private_bound_unit_histogram(grid, 3, DPCOV_ROW_MAJOR, 6, 2, rows, 2, units,
                                               histogram),
            DPCOV_OK);
  const int64_t expected[4] = {2, 1, 1, 1};
  for (int k = 0; k < 4; ++k) EXPECT_EQ(histogram[k], expected[k]) << k;
  EXPECT_EQ(dpcov_private_bound_unit_histogram(grid, 3, DPCOV_ROW_MAJOR, 0, 2, nullptr, 2, nullptr,
                                               histogram),
            DPCOV_OK);
  const double bad_grid[3] = {1.0, 1.0, 4.0};
  const double inf_grid[3] = {1.0, 2.0, INFINITY};
  int64_t negative[4] = {0, -1, 0, 0};
  int64_t full[4] = {0, 0, 0, INT64_MAX};
  struct Case {
    const double *grid;
    int64_t candidates;
    int32_t layout;
    int64_t rows, lda;
    const double *a;
    const int64_t *units;
    int64_t *histogram;
    dpcov_status expected;
  };
  const Case cases[] = {
      {bad_grid, 3, DPCOV_ROW_MAJOR, 6, 2, rows, units, histogram, DPCOV_E_INVALID_ARGUMENT},
      {inf_grid, 3, DPCOV_ROW_MAJOR, 6, 2, rows, units, histogram, DPCOV_E_NON_FINITE},
      {grid, 0, DPCOV_ROW_MAJOR, 6, 2, rows, units, histogram, DPCOV_E_INVALID_ARGUMENT},
      {nullptr, 3, DPCOV_ROW_MAJOR, 6, 2, rows, units, histogram, DPCOV_E_NULL_POINTER},
      {grid, 3, DPCOV_ROW_MAJOR, 6, 2, nullptr, units, histogram, DPCOV_E_NULL_POINTER},
      {grid, 3, DPCOV_ROW_MAJOR, 6, 2, rows, nullptr, histogram, DPCOV_E_NULL_POINTER},
      {grid, 3, DPCOV_ROW_MAJOR, 6, 2, rows, units, nullptr, DPCOV_E_NULL_POINTER},
      {grid, 3, 5, 6, 2, rows, units, histogram, DPCOV_E_LAYOUT},
      {grid, 3, DPCOV_ROW_MAJOR, -1, 2, rows, units, histogram, DPCOV_E_DIMENSION},
      {grid, 3, DPCOV_ROW_MAJOR, 6, 1, rows, units, histogram, DPCOV_E_LAYOUT},
      {grid, 3, DPCOV_ROW_MAJOR, 6, 2, rows, units, negative, DPCOV_E_INVALID_ARGUMENT},
      {grid, 3, DPCOV_ROW_MAJOR, 6, 2, rows, units, full, DPCOV_E_INVALID_ARGUMENT},
  };
  for (const Case &c : cases)
    EXPECT_EQ(dpcov_private_bound_unit_histogram(c.grid, c.candidates, c.layout, c.rows, 2, c.a,
                                                 c.lda, c.units, c.histogram),
              c.expected)
        << &c - cases;
  EXPECT_EQ(full[0], 0);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("INT64_MAX"), std::string::npos);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(histogram[k], expected[k]) << k;
}

TEST(CapiPrivateBound, TheBoundStepsRestIsTheLargestBudgetThatKeepsTheSumWithinEpsilon) {
  double rest = 0.0;
  ASSERT_EQ(dpcov_bound_step_rest(1.0, DPCOV_BOUND_STEP_SHARE, &rest), DPCOV_OK);
  // 1 - 0.1 in round-to-nearest is 0.9, whose exact sum with the double 0.1 exceeds 1.
  EXPECT_EQ(rest, std::nextafter(0.9, 0.0));
  ASSERT_EQ(dpcov_bound_step_rest(1.0, 0.5, &rest), DPCOV_OK);
  EXPECT_EQ(rest, 0.5);  // exact differences stay exact

  // Bad arguments: a status, a message, the output untouched.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const struct {
    double epsilon, bound_epsilon;
    dpcov_status status;
  } bad[] = {
      {1.0, 1.0, DPCOV_E_INVALID_ARGUMENT}, {1.0, 2.0, DPCOV_E_INVALID_ARGUMENT},
      {1.0, 0.0, DPCOV_E_INVALID_ARGUMENT}, {1.0, -0.1, DPCOV_E_INVALID_ARGUMENT},
      {0.0, 0.1, DPCOV_E_INVALID_ARGUMENT}, {-1.0, 0.1, DPCOV_E_INVALID_ARGUMENT},
      {nan, 0.1, DPCOV_E_NON_FINITE},       {inf, 0.1, DPCOV_E_NON_FINITE},
      {1.0, nan, DPCOV_E_NON_FINITE},       {2 * DPCOV_MAX_EPSILON, 1.0, DPCOV_E_INVALID_ARGUMENT}};
  for (const auto &b : bad) {
    rest = 7.0;
    EXPECT_EQ(dpcov_bound_step_rest(b.epsilon, b.bound_epsilon, &rest), b.status)
        << b.epsilon << " " << b.bound_epsilon;
    EXPECT_EQ(rest, 7.0);
    EXPECT_NE(std::string(dpcov_last_error_message()), "");
  }
  EXPECT_EQ(dpcov_bound_step_rest(1.0, 0.1, nullptr), DPCOV_E_NULL_POINTER);

  // The two steps as one release: the sum rounded up, and never above a budget they were split
  // from.
  double total = 0.0;
  ASSERT_EQ(dpcov_bound_step_total(0.1, 0.9, &total), DPCOV_OK);
  EXPECT_EQ(total, std::nextafter(1.0, 2.0));  // 0.1 + 0.9 exceeds 1 by 2^-55
  ASSERT_EQ(dpcov_bound_step_rest(1.0, 0.1, &rest), DPCOV_OK);
  ASSERT_EQ(dpcov_bound_step_total(0.1, rest, &total), DPCOV_OK);
  EXPECT_EQ(total, 1.0);
  total = 7.0;
  EXPECT_EQ(dpcov_bound_step_total(0.0, 1.0, &total), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_bound_step_total(1.0, nan, &total), DPCOV_E_NON_FINITE);
  EXPECT_EQ(dpcov_bound_step_total(std::numeric_limits<double>::max(),
                                   std::numeric_limits<double>::max(), &total),
            DPCOV_E_NUMERICAL);
  EXPECT_EQ(total, 7.0);
  EXPECT_EQ(dpcov_bound_step_total(0.1, 0.9, nullptr), DPCOV_E_NULL_POINTER);
}

TEST(CapiPrivateBound, TheQuantileTargetIsTheFloorOfTheExactProduct) {
  int64_t target = -1;
  ASSERT_EQ(dpcov_private_bound_quantile_target(DPCOV_AUTO_BOUND_QUANTILE, 100, &target), DPCOV_OK);
  EXPECT_EQ(target, 5);
  ASSERT_EQ(dpcov_private_bound_quantile_target(0.95, 19, &target), DPCOV_OK);
  EXPECT_EQ(target, 0);
  ASSERT_EQ(dpcov_private_bound_quantile_target(1.0, 1000, &target), DPCOV_OK);
  EXPECT_EQ(target, 0);
  ASSERT_EQ(dpcov_private_bound_quantile_target(0.5, 7, &target), DPCOV_OK);
  EXPECT_EQ(target, 3);
  ASSERT_EQ(dpcov_private_bound_quantile_target(0.25, 0, &target), DPCOV_OK);
  EXPECT_EQ(target, 0);
  // 1 - 0.9 is just below 0.1: the exact product with 10 is below 1, whatever its rounding.
  ASSERT_EQ(dpcov_private_bound_quantile_target(0.9, 10, &target), DPCOV_OK);
  EXPECT_EQ(target, 0);
  // n near INT64_MAX rounds up to 2^63 as a double: the target stays within [0, n] (it was
  // 2^63 cast to int64_t: INT64_MIN).
  const int64_t top = std::numeric_limits<int64_t>::max();
  for (const double q : {1e-300, 1e-9, 0.5, 0.999}) {
    for (const int64_t n : {top, top - 1, int64_t{1} << 62, (int64_t{1} << 53) + 1}) {
      ASSERT_EQ(dpcov_private_bound_quantile_target(q, n, &target), DPCOV_OK);
      EXPECT_TRUE(target >= 0 && target <= n) << q << " " << n << " " << target;
    }
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const double q : {0.0, -0.5, 1.5, nan}) {
    target = -7;
    EXPECT_EQ(dpcov_private_bound_quantile_target(q, 10, &target), DPCOV_E_INVALID_ARGUMENT) << q;
    EXPECT_EQ(target, -7);
  }
  EXPECT_EQ(dpcov_private_bound_quantile_target(0.95, -1, &target), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(target, -7);
  EXPECT_EQ(dpcov_private_bound_quantile_target(0.95, 10, nullptr), DPCOV_E_NULL_POINTER);
}

TEST(CapiPrivateBound, TighteningBelowAPublicBoundThroughTheAbi) {
  int64_t k = 0;
  ASSERT_EQ(dpcov_private_bound_below_grid(2.0, nullptr, 0, &k), DPCOV_OK);
  ASSERT_EQ(k, DPCOV_TIGHTEN_STEPS + 1);
  std::vector<double> g(static_cast<size_t>(k));
  ASSERT_EQ(dpcov_private_bound_below_grid(2.0, g.data(), k, &k), DPCOV_OK);
  EXPECT_EQ(g.back(), 2.0);
  EXPECT_EQ(g.front(), 2.0 / std::pow(DPCOV_TIGHTEN_RATIO, DPCOV_TIGHTEN_STEPS));
  // The norms of 200 rows over the grid (the library's histogram), 20 of them over the bound.
  std::vector<double> rows(200);
  for (int i = 0; i < 200; ++i) rows[static_cast<size_t>(i)] = i < 20 ? 5.0 : 0.3;
  std::vector<int64_t> histogram(g.size() + 1, 0);
  ASSERT_EQ(dpcov_private_bound_histogram(g.data(), k, DPCOV_ROW_MAJOR, 200, 1, rows.data(), 1,
                                          histogram.data()),
            DPCOV_OK);
  Rng rng(4);
  double chosen = -1.0;
  // Quantile 1: the bound itself, the one candidate with no row above it once the rows over it
  // count on it.
  ASSERT_EQ(dpcov_private_bound_tighten(2.0, histogram.data(), 200, 1.0, 50.0, rng.rng, &chosen),
            DPCOV_OK);
  EXPECT_EQ(chosen, 2.0);
}

TEST(CapiPrivateBound, BadTighteningArgumentsAreRefusedUntouchedAndDrawNothing) {
  std::vector<int64_t> histogram(DPCOV_TIGHTEN_STEPS + 2, 0);
  histogram[3] = 100;
  const double kUntouched = -7.0;
  struct Case {
    double bound;
    const int64_t *histogram;
    int64_t n;
    double quantile, epsilon;
    bool rng, out;
    dpcov_status expected;
  };
  const double inf = std::numeric_limits<double>::infinity();
  for (const Case &c : std::vector<Case>{
           {0.0, histogram.data(), 100, 0.95, 1.0, true, true, DPCOV_E_INVALID_ARGUMENT},
           {1e-300, histogram.data(), 100, 0.95, 1.0, true, true, DPCOV_E_INVALID_ARGUMENT},
           {std::nan(""), histogram.data(), 100, 0.95, 1.0, true, true, DPCOV_E_NON_FINITE},
           {1.0, nullptr, 100, 0.95, 1.0, true, true, DPCOV_E_NULL_POINTER},
           {1.0, histogram.data(), 99, 0.95, 1.0, true, true, DPCOV_E_INVALID_ARGUMENT},
           {1.0, histogram.data(), -1, 0.95, 1.0, true, true, DPCOV_E_INVALID_ARGUMENT},
           {1.0, histogram.data(), 100, 0.0, 1.0, true, true, DPCOV_E_INVALID_ARGUMENT},
           {1.0, histogram.data(), 100, std::nan(""), 1.0, true, true, DPCOV_E_INVALID_ARGUMENT},
           {1.0, histogram.data(), 100, 0.95, 0.0, true, true, DPCOV_E_INVALID_ARGUMENT},
           {1.0, histogram.data(), 100, 0.95, inf, true, true, DPCOV_E_NON_FINITE},
           {1.0, histogram.data(), 100, 0.95, 1.0, false, true, DPCOV_E_NULL_POINTER},
           {1.0, histogram.data(), 100, 0.95, 1.0, true, false, DPCOV_E_NULL_POINTER}}) {
    Rng rng(5), fresh(5);
    double chosen = kUntouched;
    const dpcov_status s =
        dpcov_private_bound_tighten(c.bound, c.histogram, c.n, c.quantile, c.epsilon,
                                    c.rng ? rng.rng : nullptr, c.out ? &chosen : nullptr);
    EXPECT_EQ(s, c.expected) << c.bound << " " << c.n << " " << c.quantile << " " << c.epsilon;
    EXPECT_NE(std::string(dpcov_last_error_message()), "");
    EXPECT_EQ(chosen, kUntouched);
    uint64_t a = 0, b = 1;
    ASSERT_EQ(dpcov_rng_next_u64(rng.rng, &a), DPCOV_OK);
    ASSERT_EQ(dpcov_rng_next_u64(fresh.rng, &b), DPCOV_OK);
    EXPECT_EQ(a, b) << "a refused tightening drew";
  }
  // A negative count, and the grid's output arguments.
  histogram[0] = -1;
  Rng rng(6);
  double chosen = kUntouched;
  EXPECT_EQ(dpcov_private_bound_tighten(1.0, histogram.data(), 99, 0.95, 1.0, rng.rng, &chosen),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(chosen, kUntouched);
  std::vector<double> g(3, kUntouched);
  int64_t k = -1;
  EXPECT_EQ(dpcov_private_bound_below_grid(1.0, g.data(), 3, &k), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_private_bound_below_grid(1.0, nullptr, 3, &k), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_private_bound_below_grid(1.0, g.data(), -1, &k), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_private_bound_below_grid(1.0, nullptr, 0, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(k, -1);
  EXPECT_EQ(g, std::vector<double>(3, kUntouched));
}
