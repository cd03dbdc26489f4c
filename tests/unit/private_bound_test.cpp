// The private bound's pieces (core/mechanisms/private_bound.hpp): grid, cells, utilities and the
// validation of every argument. The selection probabilities are pinned against mpmath by
// proofs/check/private_bound.py, the sampler by tests/statistical/private_bound_test.cpp, the
// privacy by tests/privacy/private_bound_audit_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "core/mechanisms/private_bound.hpp"
#include "dpcov.h"

namespace dm = dpcov::mechanisms;

namespace {

dpcov_status status_of(auto &&call) {
  try {
    call();
  } catch (const dpcov::Error &e) {
    return static_cast<dpcov_status>(e.status());
  }
  return DPCOV_OK;
}

}  // namespace

TEST(PrivateBound, GridIsGeometricAndEndsAtTheFirstCandidateAtLeastHi) {
  const std::vector<double> grid = dm::private_bound_grid(0.5, 7.0, 2.0);
  EXPECT_EQ(grid, (std::vector<double>{0.5, 1.0, 2.0, 4.0, 8.0}));
  EXPECT_EQ(dm::private_bound_grid(1.0, 4.0, 2.0), (std::vector<double>{1.0, 2.0, 4.0}));
}

TEST(PrivateBound, GridRefusesBadParameters) {
  const double inf = std::numeric_limits<double>::infinity();
  for (auto [lo, hi, ratio] : std::vector<std::array<double, 3>>{
           {0.0, 1.0, 2.0}, {-1.0, 1.0, 2.0}, {1.0, 1.0, 2.0}, {1.0, 2.0, 1.0}, {1.0, inf, 2.0},
           {std::nan(""), 2.0, 2.0}, {1.0, 2.0, std::nan("")}, {1e-300, 1e300, 1.0000001}})
    EXPECT_EQ(status_of([&] { dm::private_bound_grid(lo, hi, ratio); }), DPCOV_E_INVALID_ARGUMENT)
        << lo << " " << hi << " " << ratio;
}

TEST(PrivateBound, CellIsTheSmallestCandidateAtLeastTheNorm) {
  const std::vector<double> grid{1.0, 2.0, 4.0};
  EXPECT_EQ(dm::private_bound_cell(0.0, grid), 0u);
  EXPECT_EQ(dm::private_bound_cell(1.0, grid), 0u);
  EXPECT_EQ(dm::private_bound_cell(1.5, grid), 1u);
  EXPECT_EQ(dm::private_bound_cell(4.0, grid), 2u);
  EXPECT_EQ(dm::private_bound_cell(4.5, grid), 3u);
  EXPECT_EQ(dm::private_bound_cell(std::nan(""), grid), 3u);
}

TEST(PrivateBound, UtilitiesCountTheRowsAboveEachCandidate) {
  // Cells: 3 rows <= b0, 1 in (b0, b1], 0 in (b1, b2], 2 above b2. Above: b0 3, b1 2, b2 2.
  EXPECT_EQ(dm::private_bound_utilities({3, 1, 0, 2}, 2), (std::vector<double>{-1.0, 0.0, 0.0}));
  EXPECT_EQ(dm::private_bound_utilities({3, 1, 0, 2}, 0), (std::vector<double>{-3.0, -2.0, -2.0}));
}

TEST(PrivateBound, ExponentFactorIsHalfEpsilon) {
  EXPECT_EQ(dm::private_bound_exponent_factor(1.0), 0.5);
  EXPECT_EQ(dm::private_bound_exponent_factor(0x1.3p-7), 0x1.3p-8);
  // Halving an odd subnormal rounds to even, possibly up: the factor must stay <= eps / 2.
  for (double eps : {0x3p-1074, 0x5p-1074, 0x1p-1074}) {
    const double f = dm::private_bound_exponent_factor(eps);
    EXPECT_LE(2.0 * f, eps) << eps;
  }
  for (double eps : {0.0, -1.0, std::nan(""), std::numeric_limits<double>::infinity()})
    EXPECT_EQ(status_of([&] { dm::private_bound_exponent_factor(eps); }), DPCOV_E_INVALID_ARGUMENT);
}

TEST(PrivateBound, BadHistogramsAreRefused) {
  auto rng = dpcov::random::Rng::from_seed(1);
  const uint64_t half = uint64_t{1} << 52;
  for (const auto &histogram : std::vector<std::vector<uint64_t>>{
           {}, {5}, {half, half, 1}, std::vector<uint64_t>(dm::kPrivateBoundMaxCandidates + 2, 1)}) {
    EXPECT_EQ(status_of([&] { dm::private_bound_utilities(histogram, 0); }), DPCOV_E_INVALID_ARGUMENT);
    EXPECT_EQ(status_of([&] { dm::private_bound_select(histogram, 0, 1.0, rng); }),
              DPCOV_E_INVALID_ARGUMENT);
  }
  EXPECT_EQ(status_of([&] { dm::private_bound_log_probabilities({1, 2}, 0, 0.0); }),
            DPCOV_E_INVALID_ARGUMENT);
}

TEST(PrivateBound, ProbabilitiesSumToOneAndFavourTheTarget) {
  const std::vector<double> logs = dm::private_bound_log_probabilities({50, 30, 15, 4, 1}, 5, 0.5);
  double total = 0.0;
  for (double l : logs) total += std::exp(l);
  EXPECT_NEAR(total, 1.0, 1e-14);
  // Above b_k: 50, 20, 5, 1; the target 5 clipped rows picks b_2.
  EXPECT_EQ(std::max_element(logs.begin(), logs.end()) - logs.begin(), 2);
}

TEST(PrivateBound, SelectionIsInRange) {
  auto rng = dpcov::random::Rng::from_seed(7);
  for (int i = 0; i < 1000; ++i) EXPECT_LT(dm::private_bound_select({0, 0, 0, 9}, 100, 0.1, rng), 3u);
}

TEST(PrivateBound, BelowGridDividesTheBoundAndEndsAtIt) {
  const std::vector<double> grid = dm::private_bound_below_grid(3.0);
  ASSERT_EQ(grid.size(), static_cast<size_t>(dm::kTightenSteps) + 1);
  for (int k = dm::kTightenSteps; k >= 1; --k)
    EXPECT_EQ(grid[static_cast<size_t>(dm::kTightenSteps - k)], 3.0 / std::pow(1.25, k));
  EXPECT_EQ(grid.back(), 3.0);
  // Every candidate is a row bound the library takes (>= 2^-960).
  EXPECT_EQ(dm::private_bound_below_grid(0x1p-960 * std::pow(1.25, 12)).front(), 0x1p-960);
  for (double bad : {0.0, -1.0, 1e-300, 0x1p-960})
    EXPECT_EQ(status_of([&] { dm::private_bound_below_grid(bad); }), DPCOV_E_INVALID_ARGUMENT)
        << bad;
  for (double bad : {std::nan(""), std::numeric_limits<double>::infinity()})
    EXPECT_EQ(status_of([&] { dm::private_bound_below_grid(bad); }), DPCOV_E_NON_FINITE) << bad;
}

TEST(PrivateBound, TighteningCountsRowsOverTheBoundOnIt) {
  auto rng = dpcov::random::Rng::from_seed(8);
  std::vector<uint64_t> cells(static_cast<size_t>(dm::kTightenSteps) + 2, 0);
  cells[5] = 95;
  cells.back() = 5;  // over the public bound: clipped onto it
  // Quantile 1 (no row above): the bound is the one candidate with none above it once the rows
  // over it count on it; counted above it, candidates 5 to 12 would tie.
  for (int i = 0; i < 200; ++i)
    EXPECT_EQ(dm::private_bound_tighten(cells, 100, 1.0, 50.0, rng),
              static_cast<size_t>(dm::kTightenSteps));
  // The 0.95 quantile's target of 5 rows above: candidates 5 to 11, never below the data.
  for (int i = 0; i < 200; ++i) {
    const size_t k = dm::private_bound_tighten(cells, 100, 0.95, 50.0, rng);
    EXPECT_GE(k, 5u);
    EXPECT_LT(k, static_cast<size_t>(dm::kTightenSteps));
  }
  EXPECT_EQ(status_of([&] { dm::private_bound_tighten(cells, 99, 0.95, 1.0, rng); }),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status_of([&] {
              dm::private_bound_tighten({95, 5}, 100, 0.95, 1.0, rng);
            }),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status_of([&] { dm::private_bound_tighten(cells, 100, 0.0, 1.0, rng); }),
            DPCOV_E_INVALID_ARGUMENT);
}
