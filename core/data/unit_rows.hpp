// Per-unit contribution bounding (privacy units, proofs/unit_gram_sensitivity.md): rows arrive
// with the id of their unit (a person), each unit's rows contiguous and the units in increasing
// order of id; of each unit at most k rows are kept, a uniformly random k-subset of its rows
// drawn with the release's generator by reservoir sampling (Vitter's algorithm R), so that memory
// is O(k d) whatever the unit's size. The kept rows of each closed unit go on to the rows'
// bounding and an accumulator; the sampler itself never looks at the rows' values beyond checking
// they are finite.
//
// Increasing ids make a non-contiguous unit detectable in O(1) memory (an id that goes back is
// refused, naming the row), and make partitions mergeable when they hold disjoint ranges of ids:
// a unit split across two partitions shows as overlapping ranges, refused by merge(). A sampler
// keeps one range of ids per stream merged into it (memory O(partitions)), so that partitions
// merge in any order.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "../matrix.hpp"
#include "../random/rng.hpp"

namespace dpcov::data {

// The kept rows of the units a step closed: row-major, `cols` raw columns, unit u's rows
// [ends[u-1], ends[u]) (ends[-1] = 0).
struct UnitBatch {
  int64_t cols = 0;
  std::vector<double> rows;
  std::vector<int64_t> ends;

  int64_t row_count() const { return cols == 0 ? 0 : static_cast<int64_t>(rows.size()) / cols; }
  ConstMatrixView view() const { return {rows.data(), row_count(), cols, cols, Layout::RowMajor}; }
};

class UnitSampler {
 public:
  // Throws Status::InvalidArgument (k outside [1, privacy::kMaxRowsPerUnit]) or
  // Status::Dimension (cols).
  UnitSampler(int64_t max_rows_per_unit, int64_t cols);

  // Takes a chunk of raw rows (any layout, cols() columns) with their unit ids (ids[i] for row
  // i), appending to `out` the kept rows of every unit the chunk closes (a unit closes when a
  // larger id arrives; the last one stays open for the next chunk or finish()). Checks the whole
  // chunk before any draw or change: Status::Dimension, Status::NonFinite (a RowError naming the
  // row), Status::InvalidArgument naming the row whose id is below the previous row's (or, for
  // the first row, below the last closed unit's id, or equal to it after finish() or merge()).
  // For a strong guarantee across the caller's own steps, work on a copy and assign on success.
  void add(ConstMatrixView raw, const int64_t *ids, random::Rng &rng, UnitBatch &out) {
    check(raw, ids);
    add_checked(raw, ids, rng, out);
  }
  // add()'s checks alone, which change nothing; add_checked() is add() without them, for rows a
  // check() of the whole chunk has passed (a caller taking a chunk in slices checks it first, so
  // that a refusal names the chunk's row and comes before any draw).
  void check(ConstMatrixView raw, const int64_t *ids) const;
  void add_checked(ConstMatrixView raw, const int64_t *ids, random::Rng &rng, UnitBatch &out);

  // Closes the open unit, if any, appending its kept rows to `out`. Rows that follow must have
  // ids above it.
  void finish(UnitBatch &out);

  // A finished sampler saved elsewhere (dpcov_gram_export_state()): its id ranges (sorted,
  // disjoint, first <= last in each), the units closed and the rows truncated. Throws as the
  // constructor, and Status::InvalidArgument for ranges or counters no sampler can hold (fewer
  // units than ranges, negative counts).
  static UnitSampler from_state(int64_t max_rows_per_unit, int64_t cols,
                                std::vector<std::pair<int64_t, int64_t>> ranges, int64_t units,
                                int64_t truncated);
  // The id ranges seen, sorted and disjoint, one per stream merged in.
  const std::vector<std::pair<int64_t, int64_t>> &ranges() const { return ranges_; }

  // Takes in a sampler of the same k and columns that saw another partition of the rows: both
  // must be finished (Status::Precondition) and every id range of one disjoint from every id
  // range of the other (Status::Incompatible: a unit may have been split between them; partition
  // by ranges of the unit id). Status::Incompatible also for a different k or number of columns.
  // Rows added after a merge need ids above every unit seen.
  void merge(const UnitSampler &other);

  int64_t max_rows_per_unit() const { return k_; }
  int64_t cols() const { return cols_; }
  bool open() const { return open_; }
  // Units closed (curator-only under add/remove, where the number of units is private).
  int64_t units() const { return units_; }
  // Rows left out by the k limit: curator diagnostics, never published.
  int64_t truncated() const { return truncated_; }
  bool empty() const { return ranges_.empty(); }
  // The smallest and largest unit id seen (valid when !empty()).
  int64_t first_id() const { return ranges_.front().first; }
  int64_t last_id() const { return last_; }

 private:
  void close(UnitBatch &out);
  void take(const double *row, int64_t stride, random::Rng &rng);

  int64_t k_;
  int64_t cols_;
  // The ids seen: sorted disjoint ranges, one per stream merged in; the last grows with add()
  // while `live_`.
  std::vector<std::pair<int64_t, int64_t>> ranges_;
  bool live_ = false;
  bool open_ = false;  // last_ is the open unit's id
  int64_t last_ = 0;   // the largest id seen
  int64_t seen_ = 0;  // rows of the open unit so far
  std::vector<double> reservoir_;
  int64_t units_ = 0;
  int64_t truncated_ = 0;
};

}  // namespace dpcov::data
