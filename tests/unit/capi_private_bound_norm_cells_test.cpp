// Each row's cell of the private bound's grid through the C ABI (dpcov_private_bound_norm_cells):
// the cells of both histograms, so that a unit's rows split over any pieces, each piece keeping
// the largest cell per unit, give dpcov_private_bound_unit_histogram() of all the rows in one call;
// every bad argument refused with the cells untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

const double kNan = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

// Rows of 3 columns over many scales, with the edges of the norm code: NaN and infinite values,
// norms above the largest double and below the smallest normal, exactly a candidate, zero.
std::vector<double> edge_rows(int64_t rows, std::mt19937_64 &gen, const std::vector<double> &g) {
  std::uniform_int_distribution<int> kind(0, 9), cell(0, static_cast<int>(g.size()) - 1);
  std::uniform_real_distribution<double> scale(-8.0, 8.0), value(-1.0, 1.0);
  std::vector<double> a(static_cast<size_t>(rows * 3));
  for (int64_t i = 0; i < rows; ++i) {
    double *row = &a[static_cast<size_t>(i * 3)];
    const double s = std::pow(10.0, scale(gen));
    for (int j = 0; j < 3; ++j) row[j] = s * value(gen);
    switch (kind(gen)) {
      case 0: row[1] = kNan; break;
      case 1: row[2] = -kInf; break;
      case 2: std::fill(row, row + 3, 1.5e308); break;  // the sum of squares overflows
      case 3: std::fill(row, row + 3, 1e-170); break;    // it underflows
      case 4:  // exactly a candidate
        row[0] = g[static_cast<size_t>(cell(gen))];
        row[1] = row[2] = 0.0;
        break;
      case 5: std::fill(row, row + 3, 0.0); break;
      default: break;
    }
  }
  return a;
}

TEST(CapiPrivateBoundNormCells, AreTheCellsOfTheRowHistogram) {
  const double grid[3] = {1.0, 2.0, 4.0};
  // Norms 0.5, 2 and 1 (exactly candidates), 3, NaN, 1e-200, 5, infinity, 1.4e308 (its sum of
  // squares overflows): a non-finite row and a norm above every candidate in cell K = 3.
  const double rows[18] = {0.3, 0.4, 0.0, 2.0, 1.8, 2.4, kNan, 0.0, 1e-200,
                           0.0, 3.0, 4.0, 1.0, 0.0, kInf, 1.0, 1e308, 1e308};
  int64_t cells[9];
  ASSERT_EQ(dpcov_private_bound_norm_cells(grid, 3, DPCOV_ROW_MAJOR, 9, 2, rows, 2, cells),
            DPCOV_OK)
      << dpcov_last_error_message();
  const int64_t expected[9] = {0, 1, 2, 3, 0, 3, 0, 3, 3};
  for (int i = 0; i < 9; ++i) EXPECT_EQ(cells[i], expected[i]) << i;
  // The same rows column-major.
  double columns[18];
  for (int i = 0; i < 9; ++i)
    for (int j = 0; j < 2; ++j) columns[j * 9 + i] = rows[i * 2 + j];
  int64_t by_column[9];
  ASSERT_EQ(dpcov_private_bound_norm_cells(grid, 3, DPCOV_COL_MAJOR, 9, 2, columns, 9, by_column),
            DPCOV_OK);
  EXPECT_TRUE(std::equal(cells, cells + 9, by_column));
  EXPECT_EQ(dpcov_private_bound_norm_cells(grid, 3, DPCOV_ROW_MAJOR, 0, 2, nullptr, 2, nullptr),
            DPCOV_OK);
}

// Random rows with every edge of the norm code: the cells counted are the row histogram, and the
// largest cell per unit per piece, maximised over the pieces and counted once per unit, is the
// unit histogram of all the rows in one call, for random units split over random pieces.
// Deterministic (no false failures).
TEST(CapiPrivateBoundNormCells, MaximaOverAnySplitGiveTheUnitHistogram) {
  std::vector<double> g(40);
  for (size_t k = 0; k < g.size(); ++k) g[k] = std::pow(10.0, -9.0 + 0.5 * static_cast<double>(k));
  const auto K = static_cast<int64_t>(g.size());
  std::mt19937_64 gen(34);
  for (int trial = 0; trial < 50; ++trial) {
    const int64_t n = std::uniform_int_distribution<int64_t>(1, 300)(gen);
    const std::vector<double> a = edge_rows(n, gen, g);
    std::vector<int64_t> units(static_cast<size_t>(n));
    const int64_t unit_count = std::uniform_int_distribution<int64_t>(1, n)(gen);
    for (int64_t &u : units)
      u = std::uniform_int_distribution<int64_t>(0, unit_count - 1)(gen) * 7919 - 1000;

    std::vector<int64_t> cells(static_cast<size_t>(n), -1);
    ASSERT_EQ(dpcov_private_bound_norm_cells(g.data(), K, DPCOV_ROW_MAJOR, n, 3, a.data(), 3,
                                             cells.data()),
              DPCOV_OK);
    std::vector<int64_t> rows_counted(static_cast<size_t>(K + 1), 0), from_cells = rows_counted;
    ASSERT_EQ(dpcov_private_bound_histogram(g.data(), K, DPCOV_ROW_MAJOR, n, 3, a.data(), 3,
                                            rows_counted.data()),
              DPCOV_OK);
    for (int64_t c : cells) {
      ASSERT_GE(c, 0);
      ASSERT_LE(c, K);
      ++from_cells[static_cast<size_t>(c)];
    }
    EXPECT_EQ(from_cells, rows_counted) << trial;

    // Pieces of random lengths, each measured by its own call.
    std::map<int64_t, int64_t> largest;
    for (int64_t start = 0; start < n;) {
      const int64_t end = std::min(n, start + std::uniform_int_distribution<int64_t>(1, 40)(gen));
      std::vector<int64_t> piece(static_cast<size_t>(end - start));
      ASSERT_EQ(dpcov_private_bound_norm_cells(g.data(), K, DPCOV_ROW_MAJOR, end - start, 3,
                                               &a[static_cast<size_t>(start * 3)], 3, piece.data()),
                DPCOV_OK);
      for (int64_t i = start; i < end; ++i) {
        const int64_t c = piece[static_cast<size_t>(i - start)];
        auto [it, added] = largest.try_emplace(units[static_cast<size_t>(i)], c);
        if (!added) it->second = std::max(it->second, c);
      }
      start = end;
    }
    std::vector<int64_t> split(static_cast<size_t>(K + 1), 0), whole = split;
    for (const auto &[unit, cell] : largest) ++split[static_cast<size_t>(cell)];
    ASSERT_EQ(dpcov_private_bound_unit_histogram(g.data(), K, DPCOV_ROW_MAJOR, n, 3, a.data(), 3,
                                                 units.data(), whole.data()),
              DPCOV_OK);
    EXPECT_EQ(split, whole) << trial;
  }
}

TEST(CapiPrivateBoundNormCells, BadArgumentsAreRefusedAndTheCellsUntouched) {
  const double grid[3] = {1.0, 2.0, 4.0};
  const double rows[6] = {0.3, 0.4, 2.0, 1.8, 3.0, 4.0};
  const double bad_grid[3] = {1.0, 1.0, 4.0}, negative_grid[3] = {-1.0, 2.0, 4.0};
  const double inf_grid[3] = {1.0, 2.0, kInf}, nan_grid[3] = {1.0, kNan, 4.0};
  int64_t cells[3] = {-7, -7, -7};
  // 2^61 rows of 4 doubles: 2^63 elements fit int64_t, 2^66 bytes do not.
  const int64_t wrap_rows = int64_t{1} << 61;
  // Three cells starting 8 bytes before the end of the address space wrap around it.
  auto *far_cells = reinterpret_cast<int64_t *>(UINTPTR_MAX - 7);
  struct Case {
    const double *grid;
    int64_t candidates;
    int32_t layout;
    int64_t rows, cols, lda;
    const double *a;
    int64_t *cells;
    dpcov_status expected;
  };
  const Case cases[] = {
      {bad_grid, 3, DPCOV_ROW_MAJOR, 3, 2, 2, rows, cells, DPCOV_E_INVALID_ARGUMENT},
      {negative_grid, 3, DPCOV_ROW_MAJOR, 3, 2, 2, rows, cells, DPCOV_E_INVALID_ARGUMENT},
      {inf_grid, 3, DPCOV_ROW_MAJOR, 3, 2, 2, rows, cells, DPCOV_E_NON_FINITE},
      {nan_grid, 3, DPCOV_ROW_MAJOR, 3, 2, 2, rows, cells, DPCOV_E_NON_FINITE},
      {grid, 0, DPCOV_ROW_MAJOR, 3, 2, 2, rows, cells, DPCOV_E_INVALID_ARGUMENT},
      {grid, 4097, DPCOV_ROW_MAJOR, 3, 2, 2, rows, cells, DPCOV_E_INVALID_ARGUMENT},
      {nullptr, 3, DPCOV_ROW_MAJOR, 3, 2, 2, rows, cells, DPCOV_E_NULL_POINTER},
      {grid, 3, DPCOV_ROW_MAJOR, 3, 2, 2, nullptr, cells, DPCOV_E_NULL_POINTER},
      {grid, 3, DPCOV_ROW_MAJOR, 3, 2, 2, rows, nullptr, DPCOV_E_NULL_POINTER},
      {grid, 3, 5, 3, 2, 2, rows, cells, DPCOV_E_LAYOUT},
      {grid, 3, DPCOV_ROW_MAJOR, -1, 2, 2, rows, cells, DPCOV_E_DIMENSION},
      {grid, 3, DPCOV_ROW_MAJOR, 3, 0, 2, rows, cells, DPCOV_E_DIMENSION},
      {grid, 3, DPCOV_ROW_MAJOR, 3, 2, 1, rows, cells, DPCOV_E_LAYOUT},
      {grid, 3, DPCOV_ROW_MAJOR, wrap_rows, 4, 4, rows, cells, DPCOV_E_TOO_LARGE},
      {grid, 3, DPCOV_ROW_MAJOR, 3, 2, 2, rows, far_cells, DPCOV_E_TOO_LARGE},
  };
  for (const Case &c : cases) {
    EXPECT_EQ(dpcov_private_bound_norm_cells(c.grid, c.candidates, c.layout, c.rows, c.cols, c.a,
                                             c.lda, c.cells),
              c.expected)
        << &c - cases;
    EXPECT_NE(std::string(dpcov_last_error_message()), "") << &c - cases;
  }
  for (int64_t c : cells) EXPECT_EQ(c, -7);
}

}  // namespace
