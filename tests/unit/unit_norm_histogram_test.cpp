// The private bound's histogram of privacy units (core/data/unit_norm_histogram.hpp): each unit
// counts once, in the cell of its largest row norm, whatever the order of its rows and chunks;
// its cells are the row histogram's (add_norm_histogram, one code path for the norms).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "core/data/row_bounding.hpp"
#include "core/data/unit_norm_histogram.hpp"
#include "core/matrix.hpp"

namespace dd = dpcov::data;

namespace {

const std::vector<double> kGrid = {1.0, 2.0, 4.0};

dpcov::ConstMatrixView rows_of(const std::vector<double> &values, int64_t cols) {
  return {values.data(), static_cast<int64_t>(values.size()) / cols, cols, cols, dpcov::Layout::RowMajor};
}

}  // namespace

TEST(UnitNormHistogram, CountsEachUnitOnceInTheCellOfItsLargestNorm) {
  // Norms 0.5, 3, 1.5 (unit 7), 5 (unit 2), 0.6 (unit 9), NaN (unit 4).
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> values = {0.3, 0.4, 0.0, 3.0, 0.9, 1.2, 3.0, 4.0, 0.6, 0.0, nan, 1.0};
  const std::vector<int64_t> units = {7, 7, 7, 2, 9, 4};
  dd::UnitNormHistogram h(kGrid.data(), 3);
  h.add(rows_of(values, 2), units.data());
  EXPECT_EQ(h.histogram(), (std::vector<uint64_t>{1, 0, 1, 2}));
  EXPECT_EQ(h.units(), 4);
}

TEST(UnitNormHistogram, IsTheSameWhateverTheChunksAndOrderOfRows) {
  const std::vector<double> values = {0.3, 0.4, 0.0, 3.0, 0.9, 1.2, 3.0, 4.0, 0.6, 0.0};
  const std::vector<int64_t> units = {7, 2, 7, 5, 2};
  dd::UnitNormHistogram whole(kGrid.data(), 3);
  whole.add(rows_of(values, 2), units.data());
  dd::UnitNormHistogram chunked(kGrid.data(), 3);
  for (int64_t i = 4; i >= 0; --i) {
    const std::vector<double> row(values.begin() + 2 * i, values.begin() + 2 * i + 2);
    chunked.add(rows_of(row, 2), &units[static_cast<size_t>(i)]);
  }
  EXPECT_EQ(whole.histogram(), chunked.histogram());
  EXPECT_EQ(whole.histogram(), (std::vector<uint64_t>{0, 1, 1, 1}));
}

TEST(UnitNormHistogram, OneRowPerUnitIsTheRowHistogram) {
  std::vector<double> values;
  std::vector<int64_t> units;
  for (int i = 0; i < 40; ++i) {
    values.push_back(0.137 * i);
    values.push_back(i % 3 == 0 ? 1e200 * (i % 2) : -0.05 * i);
    units.push_back(1000 - i);
  }
  const std::vector<double> grid = {0.5, 1.0, 1.5, 2.0, 3.0, 1e100};
  dd::UnitNormHistogram h(grid.data(), 6);
  h.add(rows_of(values, 2), units.data());
  std::vector<int64_t> rows(7, 0);
  dd::add_norm_histogram(rows_of(values, 2), grid.data(), 6, rows.data());
  EXPECT_EQ(h.histogram(), std::vector<uint64_t>(rows.begin(), rows.end()));
}
