// The private bound's histogram at the level of privacy units (proofs/private_bound.md, "Privacy
// units"): each unit counts once, in the grid cell of the largest norm among its rows. A unit
// added, removed or with all its rows replaced then moves one count by 1 or one unit between
// cells, exactly as one row does in the row histogram, so the private bound's mechanisms keep
// their sensitivity 1 (and the scan its monotone counts) at unit level.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "../matrix.hpp"

namespace dpcov::data {

// The grid cell of each row's Euclidean norm, measured as the Gram accumulator measures it
// (row_sums_of_squares, scaled_norm where the sum over- or underflows): cells[i] is the first k
// with norm <= grid[k], or `candidates` for a norm above them all or a non-finite row.
void norm_cells(ConstMatrixView a, const double *grid, int64_t candidates, int64_t *cells);

// Units by the cell of their largest row norm, built over chunks in any order of units. Every row
// of a unit counts, not only the k a release keeps: the kept rows are drawn after the bound is
// chosen, and a unit with no row above B has no kept row above it either. Memory: one entry per
// distinct unit (its id and largest cell).
class UnitNormHistogram {
 public:
  // Takes a copy of the increasing grid of `candidates` values (checked by the caller).
  UnitNormHistogram(const double *grid, int64_t candidates);

  // Adds the rows of `a`, row i belonging to the unit units[i].
  void add(ConstMatrixView a, const int64_t *units);

  // candidates + 1 counts of units: cell k those whose largest norm is in (grid[k-1], grid[k]],
  // the last those above every candidate (private: it may leave only through a mechanism).
  std::vector<uint64_t> histogram() const;

  int64_t units() const { return static_cast<int64_t>(top_cell_.size()); }

 private:
  std::vector<double> grid_;
  std::unordered_map<int64_t, int64_t> top_cell_;
};

}  // namespace dpcov::data
