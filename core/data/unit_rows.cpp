#include "unit_rows.hpp"

#include <algorithm>
#include <cmath>

#include "../check.hpp"
#include "../error.hpp"
#include "../privacy/unit_bound.hpp"
#include "../random/discrete.hpp"

namespace dpcov::data {

UnitSampler::UnitSampler(int64_t max_rows_per_unit, int64_t cols)
    : k_(max_rows_per_unit), cols_(cols) {
  if (k_ < 1 || k_ > privacy::kMaxRowsPerUnit)
    fail(Status::InvalidArgument, "max_rows_per_unit must be in [1, ", privacy::kMaxRowsPerUnit,
         "], got ", k_);
  check::dimension(cols, "cols");
}

UnitSampler UnitSampler::from_state(int64_t max_rows_per_unit, int64_t cols,
                                    std::vector<std::pair<int64_t, int64_t>> ranges,
                                    int64_t units, int64_t truncated) {
  UnitSampler sampler(max_rows_per_unit, cols);
  for (size_t i = 0; i < ranges.size(); ++i)
    if (ranges[i].first > ranges[i].second ||
        (i > 0 && !(ranges[i - 1].second < ranges[i].first)))
      fail(Status::InvalidArgument, "a saved unit state's id ranges must be sorted, disjoint and ",
           "each first <= last; range ", i, " (0-based) is not");
  if (units < static_cast<int64_t>(ranges.size()) || truncated < 0 ||
      (units > 0 && ranges.empty()))
    fail(Status::InvalidArgument, "a saved unit state's counters are inconsistent: it must hold ",
         "at least one unit per id range and no negative count of truncated rows");
  sampler.ranges_ = std::move(ranges);
  if (!sampler.ranges_.empty()) sampler.last_ = sampler.ranges_.back().second;
  sampler.units_ = units;
  sampler.truncated_ = truncated;
  return sampler;
}

void UnitSampler::check(ConstMatrixView raw, const int64_t *ids) const {
  if (raw.cols != cols_)
    fail(Status::Dimension, "rows have ", raw.cols, " columns but the unit sampler takes ", cols_);
  // Everything checked before the first draw (add() calls this first): a refused chunk changes
  // nothing.
  for (int64_t i = 0; i < raw.rows; ++i) {
    const int64_t previous = i > 0 ? ids[i - 1] : last_;
    const bool first_ever = i == 0 && ranges_.empty();
    const bool back = i == 0 && !open_ ? ids[i] <= previous : ids[i] < previous;
    if (!first_ever && back)
      fail(Status::InvalidArgument, "row ", i, " (0-based) of this call has a unit id ",
           i == 0 ? "that does not follow the previous call's last row"
                  : "smaller than the previous row's",
           ": each unit's rows must be contiguous and the units in increasing order of id (sort ",
           "the rows by the unit column)");
    const double *r = raw.row(i);
    for (int64_t j = 0; j < cols_; ++j)
      if (!std::isfinite(r[j * raw.col_stride()]))
        fail_row(Status::NonFinite, i, "row ", i, ", column ", j,
                 " (0-based) is not finite; rows must be finite");
  }
}

void UnitSampler::add_checked(ConstMatrixView raw, const int64_t *ids, random::Rng &rng,
                              UnitBatch &out) {
  out.cols = cols_;
  // What the chunk closes is at most its own rows and the open unit's reservoir: one allocation,
  // not a doubling per closed unit (pages beyond what is written are never touched).
  out.rows.reserve(out.rows.size() + static_cast<size_t>(raw.rows * cols_) + reservoir_.size());
  for (int64_t i = 0; i < raw.rows; ++i) {
    if (!open_ || ids[i] != last_) {
      if (open_) close(out);
      if (live_)
        ranges_.back().second = ids[i];
      else
        ranges_.emplace_back(ids[i], ids[i]);
      live_ = true;
      open_ = true;
      last_ = ids[i];
    }
    take(raw.row(i), raw.col_stride(), rng);
  }
}

// Algorithm R: the first k rows fill the reservoir; row t > k replaces a uniform slot with
// probability k / t, which keeps every k-subset of the rows so far equally likely. The draw is
// exact (uniform_below() rejects, no modulo bias).
void UnitSampler::take(const double *row, int64_t stride, random::Rng &rng) {
  ++seen_;
  int64_t slot = seen_ - 1;
  if (seen_ > k_) {
    ++truncated_;
    slot = static_cast<int64_t>(random::uniform_below(rng, static_cast<random::u128>(seen_)));
    if (slot >= k_) return;
  } else {
    reservoir_.resize(static_cast<size_t>(seen_ * cols_));
  }
  double *o = reservoir_.data() + slot * cols_;
  for (int64_t j = 0; j < cols_; ++j) o[j] = row[j * stride];
}

void UnitSampler::close(UnitBatch &out) {
  out.rows.insert(out.rows.end(), reservoir_.begin(), reservoir_.end());
  out.ends.push_back(out.row_count());
  reservoir_.clear();
  seen_ = 0;
  open_ = false;
  ++units_;
}

void UnitSampler::finish(UnitBatch &out) {
  out.cols = cols_;
  if (open_) close(out);
}

void UnitSampler::merge(const UnitSampler &other) {
  if (other.k_ != k_ || other.cols_ != cols_)
    fail(Status::Incompatible, "cannot merge unit samplers of k = ", k_, " and ", other.k_,
         " (or of ", cols_, " and ", other.cols_, " columns)");
  if (open_ || other.open_)
    fail(Status::Precondition, "finish the units of both accumulators before merging them ",
         "(dpcov_gram_finish_units): an open unit may continue in the other partition");
  if (this == &other)
    fail(Status::InvalidArgument, "cannot merge an accumulator of units with itself: its units ",
         "would count twice");
  // The message names no unit id: it reaches logs (a Dask worker's) outside the curator's
  // files, and an id says who is in the data. The curator finds the overlap from the
  // partitions' smallest and largest ids.
  for (const auto &[a, b] : ranges_)
    for (const auto &[c, e] : other.ranges_)
      if (!(b < c || e < a))
        fail(Status::Incompatible, "the unit id ranges of the two partitions overlap: a unit ",
             "may be split between them, and its rows would count up to twice k; partition the ",
             "rows by ranges of the unit id (compare each partition's smallest and largest unit ",
             "id to find the overlap)");
  if (other.units_ > INT64_MAX - units_ || other.truncated_ > INT64_MAX - truncated_)
    fail(Status::TooLarge, "unit count overflows a 64-bit integer");
  std::vector<std::pair<int64_t, int64_t>> ranges = ranges_;
  ranges.insert(ranges.end(), other.ranges_.begin(), other.ranges_.end());
  std::sort(ranges.begin(), ranges.end());
  ranges_ = std::move(ranges);
  // Disjoint and sorted: the last range holds the largest id. New rows start a range above it.
  if (!ranges_.empty()) last_ = ranges_.back().second;
  live_ = false;
  units_ += other.units_;
  truncated_ += other.truncated_;
}

}  // namespace dpcov::data
