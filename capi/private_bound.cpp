// dpcov/private_bound.h over the kernel (core/mechanisms/private_bound.hpp).
#include "dpcov/private_bound.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "../core/check.hpp"
#include "../core/data/row_bounding.hpp"
#include "../core/data/unit_norm_histogram.hpp"
#include "../core/mechanisms/private_bound.hpp"
#include "../core/mechanisms/private_bound_scan.hpp"
#include "../core/privacy/bound_step_budget.hpp"
#include "guard.hpp"
#include "rng_handle.hpp"

namespace {

// The grid: K candidates, finite, > 0, strictly increasing.
void check_grid(const double *grid, int64_t candidates) {
  if (candidates < 1 ||
      static_cast<uint64_t>(candidates) > dpcov::mechanisms::kPrivateBoundMaxCandidates)
    dpcov::fail(dpcov::Status::InvalidArgument, "candidates must be in [1, ",
                dpcov::mechanisms::kPrivateBoundMaxCandidates, "], got ", candidates);
  dpcov::check::not_null(grid, "grid");
  dpcov::check::vector(candidates, grid, sizeof(double), "grid");
  for (int64_t k = 0; k < candidates; ++k) {
    dpcov::check::finite(grid[k], "grid");
    if (grid[k] <= 0.0 || (k > 0 && grid[k] <= grid[k - 1]))
      dpcov::fail(dpcov::Status::InvalidArgument, "grid must be > 0 and strictly increasing; grid[",
                  k, "] = ", grid[k]);
  }
}

// The grid and the K + 1 counts (each >= 0).
void check_grid_and_histogram(const double *grid, int64_t candidates, const int64_t *histogram) {
  check_grid(grid, candidates);
  dpcov::check::not_null(histogram, "histogram");
  dpcov::check::vector(candidates + 1, histogram, sizeof(int64_t), "histogram");
  for (int64_t k = 0; k <= candidates; ++k)
    if (histogram[k] < 0)
      dpcov::fail(dpcov::Status::InvalidArgument, "histogram counts must be >= 0; cell ", k,
                  " is negative");
}

// Adds `added` to the caller's histogram, all cells or none (a cell would pass INT64_MAX).
void add_counts(const std::vector<uint64_t> &added, int64_t *histogram) {
  for (size_t k = 0; k < added.size(); ++k)
    if (added[k] > static_cast<uint64_t>(INT64_MAX - histogram[k]))
      dpcov::fail(dpcov::Status::InvalidArgument, "histogram cell ", k, " would pass INT64_MAX");
  for (size_t k = 0; k < added.size(); ++k) histogram[k] += static_cast<int64_t>(added[k]);
}

// A grid's output arguments: the count's pointer, and `capacity` doubles at `grid` (NULL with 0
// to ask only for the count).
void check_grid_output(const double *grid, int64_t capacity, const int64_t *candidates) {
  dpcov::check::not_null(candidates, "candidates");
  if (capacity < 0 || (grid == nullptr && capacity != 0))
    dpcov::fail(dpcov::Status::InvalidArgument,
                "capacity must be >= 0, and 0 when grid is NULL, got ", capacity);
  dpcov::check::vector(capacity, grid, sizeof(double), "grid");
}

// Writes the candidates `values` to `grid` (when not NULL; refused if they do not fit) and their
// number to `candidates`.
void copy_grid(const std::vector<double> &values, double *grid, int64_t capacity,
               int64_t *candidates) {
  const auto count = static_cast<int64_t>(values.size());
  if (grid != nullptr && capacity < count)
    dpcov::fail(dpcov::Status::InvalidArgument, "grid holds ", capacity, " doubles; the grid has ",
                count, " candidates");
  if (grid != nullptr) std::copy(values.begin(), values.end(), grid);
  *candidates = count;
}

// Both selections: every argument checked before any draw, then `rule` (the kernel's selection)
// on the histogram; the outputs are written only on success.
template <typename Rule>
dpcov_status choose(const double *grid, int64_t candidates, const int64_t *histogram,
                    int64_t target_clipped, double epsilon, dpcov_rng *rng, int64_t *index,
                    double *bound, Rule rule) {
  return dpcov::capi::guarded([&] {
    check_grid_and_histogram(grid, candidates, histogram);
    dpcov::check::not_null(rng, "rng");
    dpcov::check::not_null(bound, "bound");
    std::vector<uint64_t> counts(static_cast<size_t>(candidates) + 1);
    for (size_t k = 0; k < counts.size(); ++k) counts[k] = static_cast<uint64_t>(histogram[k]);
    if (target_clipped < 0)
      dpcov::fail(dpcov::Status::InvalidArgument, "target_clipped must be >= 0, got ",
                  target_clipped);
    dpcov::check::epsilon(epsilon);
    const size_t chosen = rule(counts, static_cast<uint64_t>(target_clipped), epsilon, rng->rng);
    *bound = grid[chosen];
    if (index != nullptr) *index = static_cast<int64_t>(chosen);
  });
}

}  // namespace

extern "C" {

DPCOV_API dpcov_status dpcov_private_bound_quantile_target(double quantile, int64_t n,
                                                           int64_t *target) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(target, "target");
    *target = dpcov::mechanisms::private_bound_quantile_target(quantile, n);
  });
}

DPCOV_API dpcov_status dpcov_bound_step_total(double bound_epsilon, double epsilon, double *total) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(total, "total");
    *total = dpcov::privacy::bound_step_total(bound_epsilon, epsilon);
  });
}

DPCOV_API dpcov_status dpcov_bound_step_rest(double epsilon, double bound_epsilon, double *rest) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(rest, "rest");
    *rest = dpcov::privacy::bound_step_rest(epsilon, bound_epsilon);
  });
}

DPCOV_API dpcov_status dpcov_private_bound_histogram(const double *grid, int64_t candidates,
                                                     int32_t layout, int64_t rows, int64_t cols,
                                                     const double *a, int64_t lda,
                                                     int64_t *histogram) {
  return dpcov::capi::guarded([&] {
    check_grid_and_histogram(grid, candidates, histogram);
    const dpcov::ConstMatrixView view = dpcov::check::matrix(layout, rows, cols, a, lda, "a", true);
    std::vector<int64_t> added(static_cast<size_t>(candidates) + 1, 0);
    dpcov::data::add_norm_histogram(view, grid, candidates, added.data());
    add_counts(std::vector<uint64_t>(added.begin(), added.end()), histogram);
  });
}

DPCOV_API dpcov_status dpcov_private_bound_unit_histogram(const double *grid, int64_t candidates,
                                                          int32_t layout, int64_t rows,
                                                          int64_t cols, const double *a,
                                                          int64_t lda, const int64_t *units,
                                                          int64_t *histogram) {
  return dpcov::capi::guarded([&] {
    check_grid_and_histogram(grid, candidates, histogram);
    const dpcov::ConstMatrixView view = dpcov::check::matrix(layout, rows, cols, a, lda, "a", true);
    if (rows > 0) dpcov::check::vector(rows, units, sizeof(int64_t), "units");
    dpcov::data::UnitNormHistogram counted(grid, candidates);
    if (rows > 0) counted.add(view, units);
    add_counts(counted.histogram(), histogram);
  });
}

DPCOV_API dpcov_status dpcov_private_bound_norm_cells(const double *grid, int64_t candidates,
                                                      int32_t layout, int64_t rows, int64_t cols,
                                                      const double *a, int64_t lda,
                                                      int64_t *cells) {
  return dpcov::capi::guarded([&] {
    check_grid(grid, candidates);
    const dpcov::ConstMatrixView view = dpcov::check::matrix(layout, rows, cols, a, lda, "a", true);
    dpcov::check::vector(rows, cells, sizeof(int64_t), "cells");
    // Measured apart and copied: the caller's cells stay untouched until nothing can fail, and
    // may overlap the rows.
    std::vector<int64_t> measured(static_cast<size_t>(rows));
    dpcov::data::norm_cells(view, grid, candidates, measured.data());
    std::copy(measured.begin(), measured.end(), cells);
  });
}

DPCOV_API dpcov_status dpcov_private_bound_grid(double lo, double hi, double ratio, double *grid,
                                                int64_t capacity, int64_t *candidates) {
  return dpcov::capi::guarded([&] {
    check_grid_output(grid, capacity, candidates);
    copy_grid(dpcov::mechanisms::private_bound_grid(lo, hi, ratio), grid, capacity, candidates);
  });
}

DPCOV_API dpcov_status dpcov_private_bound_below_grid(double bound, double *grid, int64_t capacity,
                                                      int64_t *candidates) {
  return dpcov::capi::guarded([&] {
    check_grid_output(grid, capacity, candidates);
    copy_grid(dpcov::mechanisms::private_bound_below_grid(bound), grid, capacity, candidates);
  });
}

DPCOV_API dpcov_status dpcov_private_bound_tighten(double bound, const int64_t *histogram,
                                                   int64_t n, double quantile, double epsilon,
                                                   dpcov_rng *rng, double *chosen) {
  return dpcov::capi::guarded([&] {
    const std::vector<double> grid = dpcov::mechanisms::private_bound_below_grid(bound);
    const int64_t cells = static_cast<int64_t>(grid.size()) + 1;
    dpcov::check::not_null(histogram, "histogram");
    dpcov::check::vector(cells, histogram, sizeof(int64_t), "histogram");
    dpcov::check::not_null(rng, "rng");
    dpcov::check::not_null(chosen, "chosen");
    std::vector<uint64_t> counts(static_cast<size_t>(cells));
    for (int64_t k = 0; k < cells; ++k) {
      if (histogram[k] < 0)
        dpcov::fail(dpcov::Status::InvalidArgument, "histogram counts must be >= 0; cell ", k,
                    " is negative");
      counts[static_cast<size_t>(k)] = static_cast<uint64_t>(histogram[k]);
    }
    dpcov::check::epsilon(epsilon);
    *chosen =
        grid[dpcov::mechanisms::private_bound_tighten(counts, n, quantile, epsilon, rng->rng)];
  });
}

DPCOV_API dpcov_status dpcov_private_bound_select(const double *grid, int64_t candidates,
                                                  const int64_t *histogram, int64_t target_clipped,
                                                  double epsilon, dpcov_rng *rng, int64_t *index,
                                                  double *bound) {
  return choose(grid, candidates, histogram, target_clipped, epsilon, rng, index, bound,
                dpcov::mechanisms::private_bound_select);
}

DPCOV_API dpcov_status dpcov_private_bound_scan(const double *grid, int64_t candidates,
                                                const int64_t *histogram, int64_t target_clipped,
                                                double epsilon, dpcov_rng *rng, int64_t *index,
                                                double *bound) {
  return choose(grid, candidates, histogram, target_clipped, epsilon, rng, index, bound,
                dpcov::mechanisms::private_bound_scan_select);
}

}  // extern "C"
