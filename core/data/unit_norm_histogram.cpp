#include "unit_norm_histogram.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "row_bound.hpp"

namespace dpcov::data {

void norm_cells(ConstMatrixView a, const double *grid, int64_t candidates, int64_t *cells) {
  std::vector<double> sums(static_cast<size_t>(a.rows));
  row_sums_of_squares(a, 0, a.rows, sums.data());
  for (int64_t i = 0; i < a.rows; ++i) {
    const double sum = sums[static_cast<size_t>(i)];
    double norm = std::sqrt(sum);
    if (!(std::isfinite(sum) && sum > kTinySumOfSquares)) {
      bool finite = true;
      for (int64_t j = 0; j < a.cols; ++j) finite = finite && std::isfinite(a(i, j));
      norm = finite ? scaled_norm(a, i).value() : std::numeric_limits<double>::infinity();
    }
    cells[i] = std::lower_bound(grid, grid + candidates, norm) - grid;
  }
}

UnitNormHistogram::UnitNormHistogram(const double *grid, int64_t candidates)
    : grid_(grid, grid + candidates) {}

void UnitNormHistogram::add(ConstMatrixView a, const int64_t *units) {
  std::vector<int64_t> cells(static_cast<size_t>(a.rows));
  norm_cells(a, grid_.data(), static_cast<int64_t>(grid_.size()), cells.data());
  // The largest norm's cell is the largest cell: the cell is monotone in the norm.
  for (int64_t i = 0; i < a.rows; ++i) {
    const auto [it, added] = top_cell_.try_emplace(units[i], cells[static_cast<size_t>(i)]);
    if (!added) it->second = std::max(it->second, cells[static_cast<size_t>(i)]);
  }
}

std::vector<uint64_t> UnitNormHistogram::histogram() const {
  std::vector<uint64_t> counts(grid_.size() + 1, 0);
  for (const auto &[unit, cell] : top_cell_) ++counts[static_cast<size_t>(cell)];
  return counts;
}

}  // namespace dpcov::data
