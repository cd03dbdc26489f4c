#include "exact_gram.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <utility>

#include "../check.hpp"
#include "../error.hpp"
#include "../linalg/blas.hpp"
#include "../linalg/panel_gram.hpp"
#include "row_bound.hpp"

namespace dpcov::data {

namespace {

constexpr double kTwo53 = 0x1.0p53;
// Blocks of about 256 KiB of rows (the block and its rounded copy in a core's own cache between
// the norm pass, the rounding and dsyrk, as GramAccumulator sizes its blocks), but at least
// kMinBlockRows rows, where dsyrk's per-call setup stops mattering, while that stays under
// kMaxBlockDoubles (32 MiB), and at most kExactBlockRows. The blocks' Grams add up in double (dsyrk
// with beta = 1) over up to kExactBlockRows rows, the exactness limit, before they are converted
// into the 128-bit sum: so the d(d+1)/2 conversions come once per kExactBlockRows rows, not once per
// block, and the rounded block is still cached when dsyrk reads it.
constexpr int64_t kBlockDoubles = int64_t{1} << 15;
constexpr int64_t kMinBlockRows = 256;
constexpr int64_t kMaxBlockDoubles = int64_t{1} << 22;
// Blocks for the panel kernel keep at least this many rows, as GramAccumulator's do.
constexpr int64_t kPanelMinBlockRows = 128;

// (y + 1.5 2^52) - 1.5 2^52 is y rounded to the nearest integer, ties to even, exactly as
// std::nearbyint in the default rounding mode, for |y| < 2^51: two additions that vectorise on
// every x86-64 (nearbyint needs SSE4.1 to be inlined). Here |y| = |x f 2^bits / B| <= 2^bits
// (1 + 3 2^-53) + 1 < 2^31 for every bounded row.
constexpr double kRoundingShift = 0x1.8p52;
inline double round_to_integer(double y) { return (y + kRoundingShift) - kRoundingShift; }

int64_t block_rows_for(int64_t dim, bool panels) {
  if (panels) return std::min(kExactBlockRows, std::max(kPanelMinBlockRows, kBlockDoubles / dim));
  return std::min(kExactBlockRows, std::max({int64_t{1}, kBlockDoubles / dim,
                                             std::min(kMinBlockRows, kMaxBlockDoubles / dim)}));
}

// Adds the upper triangle of the d x d column-major `g` (integer-valued doubles below 2^53 in
// magnitude, exact) into the packed 128-bit `sum`.
void add_exact_upper(const std::vector<double> &g, int64_t d, std::vector<ExactInt> &sum) {
  size_t k = 0;
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i <= j; ++i)
      sum[k++] += static_cast<int64_t>(g[static_cast<size_t>(i + j * d)]);
}

// z = round((x f) 2^bits / B) for each row x of `a` and its factor f, into `z` in the layout of
// `a`, packed (as scale_rows()); returns the view of it.
ConstMatrixView round_rows(ConstMatrixView a, const double *factors, double to_grid, double *z) {
  if (a.layout == Layout::RowMajor) {
    for (int64_t i = 0; i < a.rows; ++i) {
      const double *r = a.row(i);
      double *o = z + i * a.cols;
      const double f = factors[i];
      for (int64_t j = 0; j < a.cols; ++j) o[j] = round_to_integer(r[j] * f * to_grid);
    }
    return {z, a.rows, a.cols, a.cols, Layout::RowMajor};
  }
  for (int64_t j = 0; j < a.cols; ++j) {
    const double *c = a.data + j * a.ld;
    double *o = z + j * a.rows;
    for (int64_t i = 0; i < a.rows; ++i) o[i] = round_to_integer(c[i] * factors[i] * to_grid);
  }
  return {z, a.rows, a.cols, a.rows, Layout::ColMajor};
}

// Row i of the rounded block when its ||z||^2 exceeds r2: the row x halved (exactly) and rounded
// again until it is within, into out[0..cols), so that the bound the sensitivity uses holds for
// every row whatever the rounding did. While the exact sum of squares is at most r2 < 2^53 every
// partial sum is an integer below 2^53, exact in double in any order; above, the rounded sum
// cannot fall to r2 or below (rounding is monotone and r2 + 1 is a double).
void halve_until_within(ConstMatrixView a, int64_t i, double factor, double to_grid, int64_t r2,
                        double *out) {
  const double *r = a.row(i);
  const int64_t step = a.col_stride();
  double scale = 1.0;
  for (;;) {
    scale *= 0.5;
    double z2 = 0.0;
    for (int64_t j = 0; j < a.cols; ++j) {
      const double v = round_to_integer(r[j * step] * scale * factor * to_grid);
      out[j] = v;
      z2 += v * v;
    }
    if (z2 <= static_cast<double>(r2)) return;
  }
}

// What every block of a chunk reuses: its rows' sums of squares and bounding factors, the rounded
// rows (a copy in the caller's layout for dsyrk, or the panel kernel's packed panels), one row
// halved, and the blocks' Gram in double, `rows_in_g` rows of it not yet in 128-bit integers.
struct BlockWork {
  BlockWork(int64_t block_rows, int64_t d, bool use_panels)
      : sums(static_cast<size_t>(block_rows)), factors(static_cast<size_t>(block_rows)),
        halved(static_cast<size_t>(d)), g(static_cast<size_t>(d * d), 0.0) {
    if (use_panels) panels.emplace(block_rows, d);
    else z.resize(static_cast<size_t>(block_rows * d));
  }
  std::vector<double> sums, factors, halved, z, g;
  std::optional<linalg::Panels> panels;
  int64_t rows_in_g = 0;
};

// The block `block` (rows first.. of `a`) bounded, rounded to a copy and its Gram added into
// w.g by dsyrk: the rows' norms, their factors, the rounding, the rounded rows' ||z||^2.
void add_block_by_syrk(ConstMatrixView a, int64_t first, const ExactGridSpec &grid,
                       double to_grid, BoundPolicy policy, BlockWork &w, GramCounts &added) {
  const int64_t count = std::min(a.rows - first, static_cast<int64_t>(w.sums.size()));
  row_sums_of_squares(a, first, count, w.sums.data());
  if (!row_factors(a, first, count, w.sums.data(), grid.bound, policy, w.factors.data(), added))
    std::fill_n(w.factors.begin(), count, 1.0);
  const ConstMatrixView block = a.row_block(first, count);
  const ConstMatrixView zv = round_rows(block, w.factors.data(), to_grid, w.z.data());
  row_sums_of_squares(zv, 0, count, w.sums.data());
  const MatrixView z{w.z.data(), zv.rows, zv.cols, zv.ld, zv.layout};
  for (int64_t i = 0; i < count; ++i)
    if (w.sums[static_cast<size_t>(i)] > static_cast<double>(grid.norm2_bound)) {
      halve_until_within(block, i, w.factors[static_cast<size_t>(i)], to_grid, grid.norm2_bound,
                         w.halved.data());
      for (int64_t j = 0; j < grid.dim; ++j) z(i, j) = w.halved[static_cast<size_t>(j)];
    }
  linalg::syrk_upper(zv, w.rows_in_g == 0 ? 0.0 : 1.0, w.g.data(), grid.dim);
}

// As add_block_by_syrk() through the panel kernel: row-major rows are packed as their norms are
// taken (one read of the caller's rows), column-major ones packed bounded after the norm pass;
// the rounding and the integer ||z||^2 are one pass over the panels in cache, and the kernel
// reads them there. The integers are those of round_rows(), bit for bit.
void add_block_by_panels(ConstMatrixView a, int64_t first, const ExactGridSpec &grid,
                         double to_grid, BoundPolicy policy, BlockWork &w, GramCounts &added) {
  const int64_t count = std::min(a.rows - first, static_cast<int64_t>(w.sums.size()));
  const ConstMatrixView block = a.row_block(first, count);
  const bool fused = a.layout == Layout::RowMajor;
  if (fused) linalg::pack_rows_and_sums(block, *w.panels, w.sums.data());
  else row_sums_of_squares(a, first, count, w.sums.data());
  const bool all_within =
      !row_factors(a, first, count, w.sums.data(), grid.bound, policy, w.factors.data(), added);
  if (all_within) std::fill_n(w.factors.begin(), count, 1.0);
  // Packed column-major rows already hold x f rounded once, the product round_rows() rounds.
  if (!fused) linalg::pack_rows(block, all_within ? nullptr : w.factors.data(), *w.panels);
  linalg::round_packed_rows(*w.panels, count, fused && !all_within ? w.factors.data() : nullptr,
                            to_grid, w.sums.data());
  for (int64_t i = 0; i < count; ++i)
    if (w.sums[static_cast<size_t>(i)] > static_cast<double>(grid.norm2_bound)) {
      halve_until_within(block, i, w.factors[static_cast<size_t>(i)], to_grid, grid.norm2_bound,
                         w.halved.data());
      linalg::set_packed_row(*w.panels, i, w.halved.data());
    }
  if (w.rows_in_g == 0) std::fill(w.g.begin(), w.g.end(), 0.0);
  linalg::panel_gram_upper(*w.panels, count, grid.dim, w.g.data(), grid.dim);
}

void check_grid_bits(int bits) {
  if (bits < 1 || bits > 30)
    fail(Status::InvalidArgument, "grid bits must be in [1, 30], got ", bits);
}

}  // namespace

double exact_grid_value(double value, double bound, int bits) {
  check_row_bound(bound, "bound");
  check_grid_bits(bits);
  if (!std::isfinite(value)) fail(Status::NonFinite, "value must be finite, got ", value);
  if (!(std::fabs(value) <= bound))
    fail(Status::InvalidArgument, "value must be within the bound, |value| <= ", bound, ", got ",
         value, ": a larger coordinate is clipped before it is rounded");
  // As round_rows() rounds a coordinate whose row needs no clipping (factor 1); |value 2^bits /
  // bound| <= 2^30, well within round_to_integer()'s range.
  return round_to_integer(value * (std::ldexp(1.0, bits) / bound)) * std::ldexp(bound, -bits);
}

ExactGramAccumulator::ExactGramAccumulator(const ExactGridSpec &grid, BoundPolicy policy)
    : grid_(grid), policy_(policy) {
  check::dimension(grid.dim, "dimension");
  check_row_bound(grid.bound, "bound");
  check_grid_bits(grid.bits);
  if (grid.norm2_bound < 1 ||
      !(static_cast<double>(kExactBlockRows) * static_cast<double>(grid.norm2_bound) < kTwo53))
    fail(Status::InvalidArgument, "the grid's bound on ||z||^2 must be in [1, 2^53 / ",
         kExactBlockRows, "), got ", grid.norm2_bound);
  if (policy == BoundPolicy::Drop)
    fail(Status::InvalidArgument, "exact numerics clip or reject rows above the bound; dropping "
         "would make the row count depend on the data");
  if (policy != BoundPolicy::Clip && policy != BoundPolicy::Reject)
    fail(Status::InvalidArgument, "unknown bound policy ", static_cast<int32_t>(policy));
  // B >= 2^-960 and bits <= 30: finite.
  to_grid_ = std::ldexp(1.0, grid.bits) / grid.bound;
  upper_.assign(static_cast<size_t>(grid.dim * (grid.dim + 1) / 2), 0);
}

GramCounts ExactGramAccumulator::add_rows(ConstMatrixView a, const GramCounts &upstream) {
  const int64_t d = grid_.dim;
  if (a.cols != d)
    fail(Status::Dimension, "rows have ", a.cols, " columns but the accumulator has ", d);
  if (counts_.rows > INT64_MAX - a.rows)
    fail(Status::TooLarge, "row count overflows a 64-bit integer");
  GramCounts added;
  added.clipped = upstream.clipped;
  added.dropped = upstream.dropped;
  added.clamped = upstream.clamped;
  added.drop_policy = upstream.drop_policy;
  if (counts_.dropped > INT64_MAX - added.dropped || counts_.clamped > INT64_MAX - added.clamped)
    fail(Status::TooLarge, "row count overflows a 64-bit integer");
  if (a.rows == 0) {
    commit(added);
    return added;
  }
  // Each block: its rows' norms and bounding factors (the accumulators' own code), the rounded
  // rows, their exact Gram (dsyrk, or the panel kernel on wide rows) added into `g` (every
  // product and partial sum an integer of magnitude <= kExactBlockRows r2 < 2^53 while `g` holds
  // at most kExactBlockRows rows, so every double operation is exact in any order; no fast
  // matrix multiplication), which is summed in 128-bit integers into the chunk's own sum before
  // it would hold more, and at the end. The chunk's sum joins the state only once the whole
  // chunk has been processed.
  const bool use_panels = linalg::panel_gram_applies(d);
  const int64_t block_rows = std::min(block_rows_for(d, use_panels), a.rows);
  BlockWork w(block_rows, d, use_panels);
  std::vector<ExactInt> chunk(upper_.size(), 0);
  for (int64_t first = 0; first < a.rows; first += block_rows) {
    const int64_t count = std::min(block_rows, a.rows - first);
    if (w.rows_in_g + count > kExactBlockRows) {
      add_exact_upper(w.g, d, chunk);
      w.rows_in_g = 0;
    }
    if (use_panels) add_block_by_panels(a, first, grid_, to_grid_, policy_, w, added);
    else add_block_by_syrk(a, first, grid_, to_grid_, policy_, w, added);
    w.rows_in_g += count;
  }
  add_exact_upper(w.g, d, chunk);
  added.rows = a.rows;
  for (size_t k = 0; k < upper_.size(); ++k) upper_[k] += chunk[k];
  commit(added);
  return added;
}

void ExactGramAccumulator::write_matrix(MatrixView out) const {
  const double unit = std::ldexp(grid_.bound, -grid_.bits);
  // Near the largest bounds unit^2 overflows: a zero integer is still 0 (not 0 * inf), and any
  // other entry then overflows in data units, refused before anything is written.
  const auto value = [&](ExactInt v) {
    return v == 0 ? 0.0 : static_cast<double>(v) * (unit * unit);
  };
  for (ExactInt v : upper_)
    if (!std::isfinite(value(v)))
      fail(Status::Numerical, "the exact Gram matrix in data units overflows a double (grid unit ",
           unit, "): its integers are exact, but (unit 2^-bits B)^2 times them is not finite");
  size_t k = 0;
  for (int64_t j = 0; j < grid_.dim; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      const double entry = value(upper_[k++]);
      out(i, j) = entry;
      out(j, i) = entry;
    }
}

void ExactGramAccumulator::commit(const GramCounts &added) {
  counts_.rows += added.rows;
  counts_.clipped += added.clipped;
  counts_.dropped += added.dropped;
  counts_.clamped += added.clamped;
  counts_.drop_policy = counts_.drop_policy || added.drop_policy;
}

void ExactGramAccumulator::merge(const ExactGramAccumulator &other) {
  if (&other == this) fail(Status::InvalidArgument, "cannot merge an accumulator into itself");
  if (!(other.grid_ == grid_))
    fail(Status::Incompatible, "cannot merge exact accumulators of different grids (d ",
         grid_.dim, " and ", other.grid_.dim, ", B ", grid_.bound, " and ", other.grid_.bound,
         ", bits ", grid_.bits, " and ", other.grid_.bits, ", r2 ", grid_.norm2_bound, " and ",
         other.grid_.norm2_bound, ")");
  if (counts_.rows > INT64_MAX - other.counts_.rows ||
      counts_.dropped > INT64_MAX - other.counts_.dropped ||
      counts_.clamped > INT64_MAX - other.counts_.clamped)
    fail(Status::TooLarge, "row count overflows a 64-bit integer");
  for (size_t k = 0; k < upper_.size(); ++k) upper_[k] += other.upper_[k];
  commit(other.counts_);
}

ExactGramAccumulator ExactGramAccumulator::from_state(const ExactGridSpec &grid, BoundPolicy policy,
                                                      const GramCounts &counts,
                                                      std::vector<ExactInt> upper) {
  ExactGramAccumulator acc(grid, policy);
  if (upper.size() != acc.upper_.size())
    fail(Status::Dimension, "a saved exact state of dimension ", grid.dim, " holds ",
         acc.upper_.size(), " entries, got ", upper.size());
  if (counts.rows < 0 || counts.clipped < 0 || counts.dropped < 0 || counts.clamped < 0 ||
      counts.clipped > counts.rows)
    fail(Status::InvalidArgument, "a saved exact state's counters must be >= 0 with clipped <= ",
         "rows");
  // Every row has ||z||^2 <= r2, so the diagonal is >= 0 and sums to at most n r2 (< 2^63 2^41,
  // no overflow), and a Gram matrix is positive semidefinite, so |g_ij| <= sqrt(g_ii g_jj) <=
  // (g_ii + g_jj) / 2.
  ExactInt trace = 0;
  for (int64_t j = 0; j < grid.dim; ++j) {
    const ExactInt diag = upper[static_cast<size_t>(j * (j + 1) / 2 + j)];
    if (diag < 0 || diag > static_cast<ExactInt>(counts.rows) * grid.norm2_bound - trace)
      fail(Status::NormBound, "a saved exact state's diagonal is negative or its trace exceeds ",
           "its row count times the grid's bound on ||z||^2");
    trace += diag;
  }
  for (int64_t j = 0; j < grid.dim; ++j)
    for (int64_t i = 0; i < j; ++i) {
      const ExactInt g = upper[static_cast<size_t>(j * (j + 1) / 2 + i)];
      const ExactInt sum = upper[static_cast<size_t>(i * (i + 1) / 2 + i)] +
                           upper[static_cast<size_t>(j * (j + 1) / 2 + j)];
      // |2 g| <= sum, written without 2 g, which overflows for a forged |g| near 2^127.
      if (g > sum / 2 || g < -(sum / 2))
        fail(Status::NormBound, "a saved exact state is not a Gram matrix: entry (", i, ", ", j,
             ") exceeds the mean of its diagonal entries");
    }
  acc.upper_ = std::move(upper);
  acc.counts_ = counts;
  acc.counts_.drop_policy = counts.drop_policy || counts.dropped > 0;
  return acc;
}

}  // namespace dpcov::data
