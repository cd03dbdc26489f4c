#include "gram.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "../check.hpp"
#include "../error.hpp"
#include "../linalg/blas.hpp"
#include "../linalg/blas_threads.hpp"
#include "../linalg/panel_gram.hpp"
#include "../linalg/short_gram.hpp"
#include "gram_stripes.hpp"
#include "row_bound.hpp"

namespace dpcov {

namespace {

// Rows are processed in blocks, so that a block read for its norms is still in cache when it is
// read again for the Gram matrix. Short rows (core/linalg/short_gram.hpp) take blocks of
// kShortBlockRows, at most 256 KiB. Wider rows take about kBlockDoubles doubles (256 KiB) per
// block, so that the block and its scaled copy stay in a core's own (L2) cache between the norm
// pass, the scaling and dsyrk's packing; blocks larger than that cache are read again from the
// shared cache or from memory, which other processes contend for. Blocks keep at least kMinBlockRows rows
// while that stays under kMaxBlockDoubles (32 MiB): dsyrk on few rows spends its time on
// per-call setup and, on two or more threads, on synchronisation.
constexpr int64_t kShortBlockRows = 2048;
constexpr int64_t kBlockDoubles = int64_t{1} << 15;
constexpr int64_t kMinBlockRows = 256;
constexpr int64_t kMaxBlockDoubles = int64_t{1} << 22;
// Blocks for the panel kernel (core/linalg/panel_gram.hpp) keep at least this many rows, which
// its per-tile loads and stores of C are small beside; above 256 columns that is more than 2^15
// doubles (1 MiB at 1000 columns), and measured faster than 256 rows (bench/results/numerics.md).
constexpr int64_t kPanelMinBlockRows = 128;

// The refusal of a Gram matrix whose entry would overflow (gram.hpp, add_rows()): it names the
// public B only, not the entry nor the row count n, which under add/remove is itself private.
[[noreturn]] void overflow(double bound) {
  fail(Status::Numerical, "the Gram matrix of n rows of norm <= B = ", bound,
       " overflows: n B^2 exceeds the largest double, where every release from a Gram matrix "
       "refuses anyway (its plan needs n B^2 2^20 finite); express the data in units that "
       "allow a smaller bound");
}

int64_t block_rows_for(int64_t dim, bool short_rows, bool panels) {
  if (short_rows) return kShortBlockRows;
  if (panels) return std::max(kPanelMinBlockRows, kBlockDoubles / dim);
  return std::max<int64_t>({1, kBlockDoubles / dim, std::min(kMinBlockRows, kMaxBlockDoubles / dim)});
}

// Which kernel forms the Gram matrix of a chunk's rows, and how many rows it takes at a time.
struct BlockPlan {
  bool short_rows = false;
  bool panel_rows = false;
  int64_t block_rows = 0;
};

BlockPlan plan_blocks(ConstMatrixView a) {
  BlockPlan plan;
  plan.short_rows = linalg::short_gram_applies(a);
  plan.panel_rows = !plan.short_rows && linalg::panel_gram_applies(a.cols);
  plan.block_rows = block_rows_for(a.cols, plan.short_rows, plan.panel_rows);
  return plan;
}

// Bounds rows [begin, end) of `a` and adds their Gram matrix to the upper triangle of the
// column-major a.cols x a.cols matrix `c`, in blocks small enough to stay in cache: each block's
// row norms are computed, then the block goes to dsyrk in one call, straight from the caller's
// memory (while still cached) when every row is within the bound, else as a scaled copy (clipped
// rows scaled, dropped rows zeroed). One dsyrk per block whatever the mix of rows keeps the clip
// path as fast as the plain one: splitting the block at each clipped row would call dsyrk on tiny
// runs. Short rows skip both dsyrk and the copy: their kernel scales each row in registers.
// Wider rows, where the panel kernel applies, are always copied, bounded as they are packed, so
// that its Gram reads them from cache whatever the mix of rows.
void add_bounded_blocks(ConstMatrixView a, int64_t begin, int64_t end, const BlockPlan &plan,
                        double bound, BoundPolicy policy, double *c, GramCounts &added) {
  const int64_t dim = a.cols, block_rows = plan.block_rows;
  std::optional<linalg::Panels> panels;
  if (plan.panel_rows) panels.emplace(std::min(block_rows, end - begin), dim);
  // Row-major rows are packed as their norms are taken, so the caller's memory is read once.
  const bool fused = plan.panel_rows && a.layout == Layout::RowMajor;
  std::vector<double> sums(static_cast<size_t>(block_rows));
  std::vector<double> factors;  // per-row factors of the current block (1, clip factor, or 0)
  std::vector<double> scaled;   // the current block after bounding, in the caller's layout
  for (int64_t first = begin; first < end; first += block_rows) {
    const int64_t count = std::min(block_rows, end - first);
    const ConstMatrixView block = a.row_block(first, count);
    if (fused)
      linalg::pack_rows_and_sums(block, *panels, sums.data());
    else if (plan.short_rows)
      linalg::short_row_sums_of_squares(a, first, count, sums.data());
    else
      data::row_sums_of_squares(a, first, count, sums.data());
    if (factors.empty()) factors.resize(static_cast<size_t>(block_rows));
    const bool all_within =
        !data::row_factors(a, first, count, sums.data(), bound, policy, factors.data(), added);
    if (plan.short_rows) {
      linalg::short_gram_upper(block, all_within ? nullptr : factors.data(), c, dim);
      continue;
    }
    if (plan.panel_rows) {
      if (!fused)
        linalg::pack_rows(block, all_within ? nullptr : factors.data(), *panels);
      else if (!all_within)
        linalg::scale_packed_rows(*panels, count, factors.data());
      linalg::panel_gram_upper(*panels, count, dim, c, dim);
      continue;
    }
    if (all_within) {
      linalg::syrk_upper(block, 1.0, c, dim);
      continue;
    }
    if (scaled.empty()) scaled.resize(static_cast<size_t>(block_rows * dim));
    linalg::syrk_upper(data::scale_rows(block, factors.data(), scaled.data()), 1.0, c, dim);
  }
}

}  // namespace

GramAccumulator::GramAccumulator(int64_t dim) : dim_(dim) {
  check::dimension(dim, "dimension");
  sum_.assign(static_cast<size_t>(dim * dim), 0.0);
  comp_.assign(static_cast<size_t>(dim * dim), 0.0);
}

GramCounts GramAccumulator::add_rows(ConstMatrixView a, double bound, BoundPolicy policy,
                                     const GramCounts &upstream) {
  if (a.cols != dim_)
    fail(Status::Dimension, "rows have ", a.cols, " columns but the accumulator has ", dim_);
  data::check_row_bound(bound, "bound");
  if (bound_ != 0.0 && bound != bound_)
    fail(Status::Incompatible, "bound ", bound, " differs from the bound ", bound_,
         " of the rows already accumulated");

  // The chunk's Gram is built in scratch and only added to the running sum once the whole chunk
  // has been validated, so a bad row anywhere leaves the accumulator unchanged. The panel kernel
  // runs on as many threads as the BLAS is given, over stripes of the chunk whose cut does not
  // depend on that number (gram_stripes.hpp); short rows are one read of memory that a thread
  // keeps up with, and dsyrk spreads its own work.
  std::vector<double> chunk(static_cast<size_t>(dim_ * dim_), 0.0);
  const BlockPlan plan = plan_blocks(a);
  const int64_t stripes =
      plan.panel_rows ? data::stripe_count(a.rows, plan.block_rows, dim_) : int64_t{1};
  GramCounts added;
  data::add_striped(
      stripes, a.rows, plan.block_rows, dim_, plan.panel_rows ? linalg::blas_threads() : 1,
      [&](int64_t begin, int64_t end, double *c, GramCounts &counts) {
        add_bounded_blocks(a, begin, end, plan, bound, policy, c, counts);
      },
      chunk.data(), added);
  added.rows = a.rows - added.dropped;
  added.clipped += upstream.clipped;
  added.dropped += upstream.dropped;
  added.clamped += upstream.clamped;
  added.drop_policy = policy == BoundPolicy::Drop || upstream.drop_policy;
  if (counts_.rows > INT64_MAX - added.rows || counts_.dropped > INT64_MAX - added.dropped ||
      counts_.clamped > INT64_MAX - added.clamped)
    fail(Status::TooLarge, "row count overflows a 64-bit integer");

  // Finite or failed: rows within a huge bound (or many rows) can overflow the sum of squares.
  for (int64_t j = 0; j < dim_; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      const size_t at = static_cast<size_t>(i + j * dim_);
      if (!std::isfinite(chunk[at]) || !std::isfinite(sum_[at] + chunk[at]))
        overflow(bound);
    }

  // Commit: nothing below can throw. A chunk whose rows were all dropped upstream still fixes
  // the bound, so that whether a release knows B never depends on the rows.
  if (a.rows > 0 || upstream.dropped > 0) {
    add_upper(chunk.data());
    bound_ = bound;
  }
  counts_.rows += added.rows;
  counts_.clipped += added.clipped;
  counts_.dropped += added.dropped;
  counts_.clamped += added.clamped;
  counts_.drop_policy = counts_.drop_policy || added.drop_policy;
  return added;
}

void GramAccumulator::add_upper(const double *chunk) {
  for (int64_t j = 0; j < dim_; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      const size_t at = static_cast<size_t>(i + j * dim_);
      data::neumaier_add(sum_[at], comp_[at], chunk[at]);
    }
}

void GramAccumulator::merge(const GramAccumulator &other) {
  if (&other == this) fail(Status::InvalidArgument, "cannot merge an accumulator into itself");
  if (other.dim_ != dim_)
    fail(Status::Incompatible, "cannot merge accumulators of dimensions ", dim_, " and ",
         other.dim_);
  if (bound_ != 0.0 && other.bound_ != 0.0 && bound_ != other.bound_)
    fail(Status::Incompatible, "cannot merge accumulators with bounds ", bound_, " and ",
         other.bound_);
  if (counts_.rows > INT64_MAX - other.counts_.rows ||
      counts_.dropped > INT64_MAX - other.counts_.dropped ||
      counts_.clamped > INT64_MAX - other.counts_.clamped)
    fail(Status::TooLarge, "row count overflows a 64-bit integer");
  for (int64_t j = 0; j < dim_; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      const size_t at = static_cast<size_t>(i + j * dim_);
      if (!std::isfinite(sum_[at] + other.sum_[at]))
        overflow(bound_ != 0.0 ? bound_ : other.bound_);
    }
  for (int64_t j = 0; j < dim_; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      const size_t at = static_cast<size_t>(i + j * dim_);
      data::neumaier_add(sum_[at], comp_[at], other.sum_[at]);
      data::neumaier_add(sum_[at], comp_[at], other.comp_[at]);
    }
  if (bound_ == 0.0) bound_ = other.bound_;
  counts_.rows += other.counts_.rows;
  counts_.clipped += other.counts_.clipped;
  counts_.dropped += other.counts_.dropped;
  counts_.clamped += other.counts_.clamped;
  counts_.drop_policy = counts_.drop_policy || other.counts_.drop_policy;
}

double GramAccumulator::entry(int64_t i, int64_t j) const {
  const size_t at = static_cast<size_t>(i + j * dim_);
  return sum_[at] + comp_[at];
}

Matrix GramAccumulator::matrix() const {
  Matrix g(dim_, dim_);
  write_matrix(g.view());
  return g;
}

void GramAccumulator::write_matrix(MatrixView out) const {
  for (int64_t j = 0; j < dim_; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      const double v = entry(i, j);
      out(i, j) = v;
      out(j, i) = v;
    }
}

GramAccumulator GramAccumulator::from_state(ConstMatrixView gram, const GramCounts &counts,
                                            double bound) {
  if (gram.rows != gram.cols)
    fail(Status::Dimension, "gram must be square, got ", gram.rows, " x ", gram.cols);
  GramAccumulator acc(gram.rows);
  check::all_finite(gram, "gram");
  check::symmetric(gram, "gram");
  data::check_row_bound(bound, "bound");
  if (counts.rows < 0 || counts.clipped < 0 || counts.dropped < 0)
    fail(Status::InvalidArgument, "row counters must be >= 0");
  if (counts.clipped > counts.rows)
    fail(Status::InvalidArgument, "clipped rows cannot exceed the rows included");
  check::gram_within_bound(gram, counts.rows, bound);
  for (int64_t j = 0; j < acc.dim_; ++j)
    for (int64_t i = 0; i <= j; ++i) acc.sum_[static_cast<size_t>(i + j * acc.dim_)] = gram(i, j);
  acc.bound_ = bound;
  acc.counts_ = counts;
  // A saved state does not say under which policy its rows were bounded: dropped rows tell.
  acc.counts_.drop_policy = counts.drop_policy || counts.dropped > 0;
  return acc;
}

void GramAccumulator::upper_parts(std::vector<double> &sum, std::vector<double> &comp) const {
  sum.clear();
  comp.clear();
  for (int64_t j = 0; j < dim_; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      sum.push_back(sum_[static_cast<size_t>(i + j * dim_)]);
      comp.push_back(comp_[static_cast<size_t>(i + j * dim_)]);
    }
}

GramAccumulator GramAccumulator::from_parts(int64_t dim, const std::vector<double> &sum,
                                            const std::vector<double> &comp,
                                            const GramCounts &counts, double bound) {
  check::dimension(dim, "dimension");
  const size_t packed = static_cast<size_t>(dim * (dim + 1) / 2);
  if (sum.size() != packed || comp.size() != packed)
    fail(Status::Dimension, "a saved Gram state of dimension ", dim, " holds ", packed,
         " entries, got ", sum.size(), " and ", comp.size());
  Matrix g(dim, dim);
  size_t k = 0;
  bool empty = true;
  for (int64_t j = 0; j < dim; ++j)
    for (int64_t i = 0; i <= j; ++i, ++k) {
      if (!std::isfinite(sum[k]) || !std::isfinite(comp[k]))
        fail(Status::NonFinite, "a saved Gram state holds a non-finite entry");
      g(i, j) = g(j, i) = sum[k] + comp[k];
      empty = empty && sum[k] == 0.0 && comp[k] == 0.0;
    }
  GramAccumulator acc(dim);
  if (bound == 0.0) {
    if (!empty || counts.rows != 0 || counts.clipped != 0 || counts.dropped < 0 ||
        counts.clamped < 0)
      fail(Status::InvalidArgument, "a saved Gram state without a bound must hold no rows");
    acc.counts_ = counts;
  } else {
    acc = from_state(g.view(), counts, bound);
    if (counts.clamped < 0)
      fail(Status::InvalidArgument, "clamped values must be >= 0");
    acc.counts_.clamped = counts.clamped;
  }
  k = 0;
  for (int64_t j = 0; j < dim; ++j)
    for (int64_t i = 0; i <= j; ++i, ++k) {
      acc.sum_[static_cast<size_t>(i + j * dim)] = sum[k];
      acc.comp_[static_cast<size_t>(i + j * dim)] = comp[k];
    }
  return acc;
}

}  // namespace dpcov
