// ExactGramAccumulator::add_units(): the exact integer Gram of privacy units, whose bound is on
// each unit's integer trace rather than on each row (exact_gram.hpp).
#include <cmath>

#include "../error.hpp"
#include "exact_gram.hpp"

namespace dpcov::data {

namespace {

// The unit's rows [first, end) rounded to the grid into z (row-major), `toward_zero` truncating,
// each coordinate scaled by `scale` first (an exact power of two); returns the integer trace.
// Coordinates are below 2^31 in magnitude and a trace of at most kMaxRowsPerUnit rows of d such
// squares stays below 2^127: it is summed in 128-bit integers.
ExactInt round_unit(ConstMatrixView rows, int64_t first, int64_t end, double to_grid, double scale,
                    bool toward_zero, std::vector<int64_t> &z) {
  ExactInt trace = 0;
  z.resize(static_cast<size_t>((end - first) * rows.cols));
  for (int64_t i = first; i < end; ++i)
    for (int64_t j = 0; j < rows.cols; ++j) {
      const double y = rows(i, j) * scale * to_grid;
      const double r = toward_zero ? std::trunc(y) : std::nearbyint(y);
      const auto v = static_cast<int64_t>(r);
      z[static_cast<size_t>((i - first) * rows.cols + j)] = v;
      trace += static_cast<ExactInt>(v) * v;
    }
  return trace;
}

}  // namespace

GramCounts ExactGramAccumulator::add_units(ConstMatrixView rows, const std::vector<int64_t> &ends,
                                           const GramCounts &upstream) {
  const int64_t d = grid_.dim;
  if (rows.cols != d)
    fail(Status::Dimension, "rows have ", rows.cols, " columns but the accumulator has ", d);
  int64_t previous = 0;
  for (const int64_t end : ends) {
    if (end < previous || end > rows.rows)
      fail(Status::InvalidArgument, "unit ends must be non-decreasing up to the row count ",
           rows.rows, ", got ", end, " after ", previous);
    previous = end;
  }
  if (previous != rows.rows)
    fail(Status::InvalidArgument, "unit ends stop at row ", previous, " of ", rows.rows);
  if (counts_.rows > INT64_MAX - rows.rows || counts_.dropped > INT64_MAX - upstream.dropped ||
      counts_.clamped > INT64_MAX - upstream.clamped)
    fail(Status::TooLarge, "row count overflows a 64-bit integer");
  // Every coordinate is below 2^bits (1 + 2^-30) + 1 < 2^31 in magnitude for rows of norm <= B:
  // a row beyond that is refused before anything is rounded.
  for (int64_t i = 0; i < rows.rows; ++i)
    for (int64_t j = 0; j < d; ++j)
      if (!(std::fabs(rows(i, j) * to_grid_) < 0x1p31))
        fail(Status::InvalidArgument, "row ", i, " (0-based) is not bounded by the grid's bound ",
             grid_.bound);
  std::vector<ExactInt> chunk(upper_.size(), 0);
  std::vector<int64_t> z;
  int64_t first = 0;
  for (const int64_t end : ends) {
    double scale = 1.0;
    bool toward_zero = false;
    while (round_unit(rows, first, end, to_grid_, scale, toward_zero, z) > grid_.norm2_bound) {
      // Truncation gives sum ||z||^2 <= sum ||x||^2 (2^bits / B_u)^2 <= 2^2bits < r2 for rows
      // within the unit bound; halving covers anything else.
      if (toward_zero) scale *= 0.5;
      toward_zero = true;
    }
    for (int64_t r = 0; r < end - first; ++r) {
      const int64_t *v = z.data() + r * d;
      size_t k = 0;
      for (int64_t j = 0; j < d; ++j)
        for (int64_t i = 0; i <= j; ++i) chunk[k++] += static_cast<ExactInt>(v[i]) * v[j];
    }
    first = end;
  }
  GramCounts added;
  added.rows = rows.rows;
  added.clipped = upstream.clipped;
  added.dropped = upstream.dropped;
  added.clamped = upstream.clamped;
  added.drop_policy = upstream.drop_policy;
  for (size_t k = 0; k < upper_.size(); ++k) upper_[k] += chunk[k];
  commit(added);
  return added;
}

}  // namespace dpcov::data
