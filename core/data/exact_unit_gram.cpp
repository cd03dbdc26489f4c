// ExactGramAccumulator::add_units(): the exact integer Gram of privacy units, whose bound is on
// each unit's integer trace rather than on each row (exact_gram.hpp).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "../error.hpp"
#include "../linalg/blas.hpp"
#include "exact_gram.hpp"

namespace dpcov::data {

namespace {

// Rows of rounded units handed to one dsyrk call: about 256 KiB (the block stays in a core's own
// cache between the rounding and dsyrk), but at least 256 rows, where dsyrk's per-call setup stops
// mattering.
constexpr int64_t kUnitBlockDoubles = int64_t{1} << 15;
constexpr int64_t kMinUnitBlockRows = 256;

// The unit's rows [first, end) rounded to the grid into z (row-major), `toward_zero` truncating,
// each coordinate scaled by `scale` first (an exact power of two); returns the integer trace.
// Coordinates are below 2^31 in magnitude and a trace of at most kMaxRowsPerUnit rows of d such
// squares stays below 2^127: it is summed in 128-bit integers.
ExactInt round_unit(ConstMatrixView rows, int64_t first, int64_t end, double to_grid, double scale,
                    bool toward_zero, double *z) {
  ExactInt trace = 0;
  for (int64_t i = first; i < end; ++i) {
    double *o = z + (i - first) * rows.cols;
    for (int64_t j = 0; j < rows.cols; ++j) {
      const double y = rows(i, j) * scale * to_grid;
      o[j] = toward_zero ? std::trunc(y) : std::nearbyint(y);
      const auto v = static_cast<int64_t>(o[j]);
      trace += static_cast<ExactInt>(v) * v;
    }
  }
  return trace;
}

// The rounded rows of whole units, their exact Gram summed by dsyrk in double and carried into
// 128-bit integers before it could round. Every rounded row has ||z||^2 <= its unit's trace <=
// r2, and |z_i z_j| <= ||z||^2, so while `g` holds at most kExactBlockRows units every product
// and partial sum of its entries is an integer of magnitude <= kExactBlockRows r2 < 2^53 (the
// constructor's check): exact in any order of addition, so the integers are those of the
// row-by-row sum whatever the blocking.
class UnitGramBlocks {
 public:
  UnitGramBlocks(int64_t d, std::vector<ExactInt> &sum)
      : d_(d),
        capacity_(std::max(kMinUnitBlockRows, kUnitBlockDoubles / d)),
        z_(static_cast<size_t>(capacity_ * d)),
        g_(static_cast<size_t>(d * d)),
        sum_(sum) {}

  // Adds the `count` rounded rows of one unit (row-major in `unit`).
  void add_unit(const double *unit, int64_t count) {
    if (units_in_g_ == kExactBlockRows) carry();
    ++units_in_g_;
    for (int64_t done = 0; done < count;) {
      if (rows_ == capacity_) multiply();
      const int64_t take = std::min(count - done, capacity_ - rows_);
      std::memcpy(z_.data() + rows_ * d_, unit + done * d_,
                  static_cast<size_t>(take * d_) * sizeof(double));
      rows_ += take;
      done += take;
    }
  }

  // Carries what is left into the 128-bit sum.
  void finish() { carry(); }

 private:
  void multiply() {
    if (rows_ == 0) return;
    linalg::syrk_upper({z_.data(), rows_, d_, d_, Layout::RowMajor}, g_fresh_ ? 0.0 : 1.0,
                       g_.data(), d_);
    g_fresh_ = false;
    rows_ = 0;
  }

  void carry() {
    multiply();
    if (!g_fresh_) {
      size_t k = 0;
      for (int64_t j = 0; j < d_; ++j)
        for (int64_t i = 0; i <= j; ++i)
          sum_[k++] += static_cast<int64_t>(g_[static_cast<size_t>(i + j * d_)]);
    }
    g_fresh_ = true;
    units_in_g_ = 0;
  }

  int64_t d_;
  int64_t capacity_;
  std::vector<double> z_;
  int64_t rows_ = 0;
  std::vector<double> g_;
  bool g_fresh_ = true;
  int64_t units_in_g_ = 0;
  std::vector<ExactInt> &sum_;
};

}  // namespace

GramCounts ExactGramAccumulator::add_units(ConstMatrixView rows, const std::vector<int64_t> &ends,
                                           const GramCounts &upstream) {
  const int64_t d = grid_.dim;
  if (rows.cols != d)
    fail(Status::Dimension, "rows have ", rows.cols, " columns but the accumulator has ", d);
  int64_t previous = 0;
  int64_t largest = 0;
  for (const int64_t end : ends) {
    if (end < previous || end > rows.rows)
      fail(Status::InvalidArgument, "unit ends must be non-decreasing up to the row count ",
           rows.rows, ", got ", end, " after ", previous);
    largest = std::max(largest, end - previous);
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
        fail(Status::InvalidArgument, "a unit's kept row is not bounded by the grid's bound ",
             grid_.bound);
  std::vector<ExactInt> chunk(upper_.size(), 0);
  UnitGramBlocks blocks(d, chunk);
  std::vector<double> z(static_cast<size_t>(largest * d));
  int64_t first = 0;
  for (const int64_t end : ends) {
    double scale = 1.0;
    bool toward_zero = false;
    while (round_unit(rows, first, end, to_grid_, scale, toward_zero, z.data()) >
           grid_.norm2_bound) {
      // Truncation gives sum ||z||^2 <= sum ||x||^2 (2^bits / B_u)^2 <= 2^2bits < r2 for rows
      // within the unit bound; halving covers anything else.
      if (toward_zero) scale *= 0.5;
      toward_zero = true;
    }
    blocks.add_unit(z.data(), end - first);
    first = end;
  }
  blocks.finish();
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
