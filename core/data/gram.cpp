#include "gram.hpp"

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <functional>
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

// Inside a kernel block, rows are taken in cache blocks, so that a cache block read for its norms
// is still in cache when it is read again for the Gram matrix. Short rows
// (core/linalg/short_gram.hpp) take cache blocks of kShortBlockRows, at most 256 KiB. Wider rows
// take about kBlockDoubles doubles (256 KiB) per cache block, so that the block and its scaled
// copy stay in a core's own (L2) cache between the norm pass, the scaling and dsyrk's packing;
// blocks larger than that cache are read again from the shared cache or from memory, which other
// processes contend for. Cache blocks keep at least kMinBlockRows rows while that stays under
// kMaxBlockDoubles (32 MiB): dsyrk on few rows spends its time on per-call setup and, on two or
// more threads, on synchronisation.
constexpr int64_t kShortBlockRows = 2048;
constexpr int64_t kBlockDoubles = int64_t{1} << 15;
constexpr int64_t kMinBlockRows = 256;
constexpr int64_t kMaxBlockDoubles = int64_t{1} << 22;
// Cache blocks for the panel kernel (core/linalg/panel_gram.hpp) keep at least this many rows,
// which its per-tile loads and stores of C are small beside; above 256 columns that is more than
// 2^15 doubles (1 MiB at 1000 columns), and measured faster than 256 rows
// (bench/results/numerics.md).
constexpr int64_t kPanelMinBlockRows = 128;

// Kernel blocks: the unit whose Gram matrix is added to the compensated sum, a power of two of
// rows fixed by the width alone. Short rows take 8192 (four cache blocks: Python's chunks of 8192
// rows then never wait in the pending buffer). Wider rows take about kKernelBlockDoubles (4 MiB)
// of rows, but enough for two stripes of eight cache blocks and of d rows each, so that two
// threads share a block (gram_stripes.hpp), as long as that stays under kMaxPendingDoubles
// (32 MiB). The compensated addition of a block's Gram matrix costs a few operations per entry,
// beside the block's thousands of multiply-adds per entry.
constexpr int64_t kShortKernelRows = 8192;
constexpr int64_t kKernelBlockDoubles = int64_t{1} << 19;
constexpr int64_t kMaxPendingDoubles = int64_t{1} << 22;

// The refusal of a Gram matrix whose entry would overflow (gram.hpp, add_rows()): it names the
// public B only, not the entry nor the row count n, which under add/remove is itself private.
[[noreturn]] void overflow(double bound) {
  fail(Status::Numerical, "the Gram matrix of n rows of norm <= B = ", bound,
       " overflows: n B^2 exceeds the largest double, where every release from a Gram matrix "
       "refuses anyway (its plan needs n B^2 2^20 finite); express the data in units that "
       "allow a smaller bound");
}

int64_t cache_rows_for(int64_t dim, bool short_rows, bool panels) {
  if (short_rows) return kShortBlockRows;
  if (panels) return std::max(kPanelMinBlockRows, kBlockDoubles / dim);
  return std::max<int64_t>({1, kBlockDoubles / dim, std::min(kMinBlockRows, kMaxBlockDoubles / dim)});
}

// Which kernel forms the Gram matrix of rows of a width, in cache blocks of how many rows, and the
// rows of a kernel block: all fixed by the width, never by the caller's chunks.
struct BlockPlan {
  bool short_rows = false;
  bool panel_rows = false;
  int64_t block_rows = 0;   // cache block
  int64_t kernel_rows = 0;  // kernel block
};

BlockPlan plan_blocks(int64_t dim) {
  BlockPlan plan;
  plan.short_rows = linalg::short_gram_applies({nullptr, 0, dim, dim, Layout::RowMajor});
  plan.panel_rows = !plan.short_rows && linalg::panel_gram_applies(dim);
  plan.block_rows = cache_rows_for(dim, plan.short_rows, plan.panel_rows);
  if (plan.short_rows) {
    plan.kernel_rows = kShortKernelRows;
    return plan;
  }
  const int64_t want = std::max({kKernelBlockDoubles / dim, 16 * plan.block_rows, 2 * dim});
  const int64_t cap = std::max<int64_t>(1, kMaxPendingDoubles / dim);
  plan.kernel_rows = static_cast<int64_t>(std::bit_floor(static_cast<uint64_t>(
      std::min(static_cast<int64_t>(std::bit_ceil(static_cast<uint64_t>(want))), cap))));
  return plan;
}

// Whether a kernel block of the caller's rows is formed where they are: the short-row kernel takes
// row-major rows only, the panel kernel both layouts; dsyrk would sum other layouts and other
// leading dimensions in another order, so its blocks always go through the row-major copy.
bool in_place(const BlockPlan &plan, Layout layout) {
  return plan.panel_rows || (plan.short_rows && layout == Layout::RowMajor);
}

// The plain sums of squares that decide each row's factor, by the same function for a row
// whatever kernel block it falls in: the short-row kernel's for row-major short rows, else the
// norm pass's (which sums a row in one order in both layouts).
void sums_of_squares(ConstMatrixView a, int64_t first, int64_t count, const BlockPlan &plan,
                     double *out) {
  if (plan.short_rows && a.layout == Layout::RowMajor)
    linalg::short_row_sums_of_squares(a, first, count, out);
  else
    data::row_sums_of_squares(a, first, count, out);
}

// Bounds rows [first, first + count) of `a` in cache blocks and adds their Gram matrix to the
// upper triangle of the column-major a.cols x a.cols matrix `c`. Each cache block's row norms are
// computed (unless `bounded`: rows already bounded into the pending buffer), then the block goes
// to dsyrk in one call, straight from the caller's memory (while still cached) when every row is
// within the bound, else as a scaled copy (clipped rows scaled, dropped rows zeroed). One dsyrk
// per block whatever the mix of rows keeps the clip path as fast as the plain one: splitting the
// block at each clipped row would call dsyrk on tiny runs. Short rows skip both dsyrk and the
// copy: their kernel scales each row in registers. Wider rows, where the panel kernel applies,
// are always copied, bounded as they are packed, so that its Gram reads them from cache whatever
// the mix of rows.
void add_bounded_blocks(ConstMatrixView a, int64_t begin, int64_t end, const BlockPlan &plan,
                        bool bounded, double bound, BoundPolicy policy, double *c,
                        GramCounts &added) {
  const int64_t dim = a.cols, block_rows = plan.block_rows;
  std::optional<linalg::Panels> panels;
  if (plan.panel_rows) panels.emplace(std::min(block_rows, end - begin), dim);
  // Row-major rows are packed as their norms are taken, so the caller's memory is read once.
  const bool fused = plan.panel_rows && a.layout == Layout::RowMajor && !bounded;
  std::vector<double> sums;
  std::vector<double> factors;  // per-row factors of the current block (1, clip factor, or 0)
  std::vector<double> scaled;   // the current block after bounding, in the caller's layout
  for (int64_t first = begin; first < end; first += block_rows) {
    const int64_t count = std::min(block_rows, end - first);
    const ConstMatrixView block = a.row_block(first, count);
    bool all_within = true;
    if (!bounded) {
      if (sums.empty()) sums.resize(static_cast<size_t>(block_rows));
      if (fused)
        linalg::pack_rows_and_sums(block, *panels, sums.data());
      else
        sums_of_squares(a, first, count, plan, sums.data());
      if (factors.empty()) factors.resize(static_cast<size_t>(block_rows));
      all_within =
          !data::row_factors(a, first, count, sums.data(), bound, policy, factors.data(), added);
    }
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

// The Gram matrix of the kernel block of rows [first, first + count) of `a` into `c` (zeroed,
// d x d column-major, upper triangle): the panel kernel on as many threads as the BLAS is given,
// over stripes whose cut depends on the block's size and width only (gram_stripes.hpp); short
// rows are one read of memory that a thread keeps up with, and dsyrk spreads its own work.
void block_gram(ConstMatrixView a, int64_t first, int64_t count, const BlockPlan &plan,
                bool bounded, double bound, BoundPolicy policy, double *c, GramCounts &added) {
  const int64_t dim = a.cols;
  const int64_t stripes =
      plan.panel_rows ? data::stripe_count(count, plan.block_rows, dim) : int64_t{1};
  data::add_striped(
      stripes, count, plan.block_rows, dim, plan.panel_rows ? linalg::blas_threads() : 1,
      [&](int64_t begin, int64_t end, double *out, GramCounts &counts) {
        add_bounded_blocks(a, first + begin, first + end, plan, bounded, bound, policy, out,
                           counts);
      },
      c, added);
}

// The factors that bound rows [first, first + count) of `a` (row_factors()); `scaled` false when
// every row is within the bound (every factor 1). Throws as row_factors() does, before anything
// is written, so that rows can be validated now and written where they go once nothing can fail.
struct RowFactors {
  std::vector<double> factors;
  bool scaled = false;
};

RowFactors row_factors_of(ConstMatrixView a, int64_t first, int64_t count, const BlockPlan &plan,
                          double bound, BoundPolicy policy, GramCounts &added) {
  RowFactors f;
  std::vector<double> sums(static_cast<size_t>(count));
  f.factors.resize(static_cast<size_t>(count));
  sums_of_squares(a, first, count, plan, sums.data());
  f.scaled = data::row_factors(a, first, count, sums.data(), bound, policy, f.factors.data(), added);
  return f;
}

// Writes rows [first, first + count) of `a`, bounded by `f`, row-major into `out` (count x
// a.cols): each entry f_r a(r, j) rounded once, as the kernels form it from the caller's rows, so
// that a block formed from this copy has the bits of the same block formed in place. Row-major
// rows within the bound are copied as they are (a factor of 1 changes no bit); clipped ones are
// scaled along the contiguous row.
void write_bounded_rows(ConstMatrixView a, int64_t first, int64_t count, const RowFactors &f,
                        double *out) {
  const int64_t dim = a.cols;
  if (a.layout == Layout::RowMajor) {
    if (!f.scaled && a.ld == dim) {
      std::memcpy(out, a.row(first), static_cast<size_t>(count * dim) * sizeof(double));
      return;
    }
    for (int64_t r = 0; r < count; ++r) {
      const double *x = a.row(first + r);
      double *o = out + r * dim;
      if (!f.scaled) {
        std::memcpy(o, x, static_cast<size_t>(dim) * sizeof(double));
        continue;
      }
      const double s = f.factors[static_cast<size_t>(r)];
      for (int64_t j = 0; j < dim; ++j) o[j] = s * x[j];
    }
    return;
  }
  const int64_t step = a.col_stride();
  for (int64_t r = 0; r < count; ++r) {
    const double *x = a.row(first + r);
    double *o = out + r * dim;
    const double s = f.scaled ? f.factors[static_cast<size_t>(r)] : 1.0;
    for (int64_t j = 0; j < dim; ++j) o[j] = f.scaled ? s * x[j * step] : x[j * step];
  }
}

// Both at once: validates, then writes (nothing is written if the rows fail).
void bound_rows_into(ConstMatrixView a, int64_t first, int64_t count, const BlockPlan &plan,
                     double bound, BoundPolicy policy, double *out, GramCounts &added) {
  write_bounded_rows(a, first, count, row_factors_of(a, first, count, plan, bound, policy, added),
                     out);
}

ConstMatrixView row_major(const double *rows, int64_t count, int64_t dim) {
  return {rows, count, dim, dim, Layout::RowMajor};
}

// Pending rows of the panel kernel are kept packed as the kernel reads them: cache block k of the
// kernel block (its rows [k block_rows, (k + 1) block_rows)) in panels of its own, packed as an
// in-place block packs the caller's rows. A row is then read from the caller once and packed
// once, and a block formed from the pending rows has the bits of the same block formed in place.
using PackedRows = std::vector<linalg::Panels>;

// The panels of a whole kernel block, made once (the first time rows are left pending).
void allocate_packed(PackedRows &packed, const BlockPlan &plan, int64_t dim) {
  if (!packed.empty()) return;
  PackedRows fresh;
  for (int64_t first = 0; first < plan.kernel_rows; first += plan.block_rows)
    fresh.emplace_back(std::min(plan.block_rows, plan.kernel_rows - first), dim);
  packed.swap(fresh);
}

// Validates rows [first, first + count) of `a`, bounds them and packs them as pending rows
// [at, at + count), cache block by cache block: row-major rows packed with their sums of squares
// and then scaled, as add_bounded_blocks() packs them in place; other layouts measured first and
// packed scaled. Throws as row_factors() does, having written past the live pending rows only.
void pack_pending(ConstMatrixView a, int64_t first, int64_t count, const BlockPlan &plan,
                  double bound, BoundPolicy policy, PackedRows &packed, int64_t at,
                  GramCounts &added) {
  const int64_t most = std::min(plan.block_rows, count);
  std::vector<double> sums(static_cast<size_t>(most)), factors(static_cast<size_t>(most));
  for (int64_t done = 0; done < count;) {
    const int64_t row = at + done, offset = row % plan.block_rows;
    const int64_t piece = std::min(count - done, plan.block_rows - offset);
    const ConstMatrixView rows = a.row_block(first + done, piece);
    linalg::Panels &panels = packed[static_cast<size_t>(row / plan.block_rows)];
    if (a.layout == Layout::RowMajor) {
      linalg::pack_rows_and_sums(rows, panels, sums.data(), offset);
      if (data::row_factors(a, first + done, piece, sums.data(), bound, policy, factors.data(),
                            added))
        linalg::scale_packed_rows(panels, piece, factors.data(), offset);
    } else {
      data::row_sums_of_squares(a, first + done, piece, sums.data());
      const bool scaled = data::row_factors(a, first + done, piece, sums.data(), bound, policy,
                                            factors.data(), added);
      linalg::pack_rows(rows, scaled ? factors.data() : nullptr, panels, offset);
    }
    done += piece;
  }
}

// Adds the Gram matrix of packed pending rows [begin, end), begin a whole number of cache blocks,
// to the upper triangle of `c`, as add_bounded_blocks() adds the same rows packed in place.
void add_packed_blocks(const PackedRows &packed, int64_t begin, int64_t end,
                       const BlockPlan &plan, int64_t dim, double *c) {
  for (int64_t first = begin; first < end; first += plan.block_rows)
    linalg::panel_gram_upper(packed[static_cast<size_t>(first / plan.block_rows)],
                             std::min(plan.block_rows, end - first), dim, c, dim);
}

// Pending rows of the short-row kernel are fed to its chains as they come, each cache block
// finished into the block's partial Gram matrix when its last row is in (short_gram.hpp): the
// kernel block's cache blocks then get the sums one call over each forms, without a copy of a row.
struct ShortPending {
  std::vector<double> partial;    // upper triangle, d x d: the finished cache blocks' sum
  linalg::ShortGramChains chains;  // the cache block under way
};

ShortPending fresh_short(int64_t dim) {
  return {std::vector<double>(static_cast<size_t>(dim * dim), 0.0), {}};
}

// Validates rows [first, first + count) of `a`, bounds them and feeds them to `p` as pending rows
// [at, at + count), as add_bounded_blocks() bounds the same rows in place (row-major) or from a
// bounded row-major copy (other layouts). Throws as row_factors() does.
void feed_short(ConstMatrixView a, int64_t first, int64_t count, const BlockPlan &plan,
                double bound, BoundPolicy policy, ShortPending &p, int64_t at, GramCounts &added) {
  const int64_t dim = a.cols, most = std::min(plan.block_rows, count);
  std::vector<double> sums, factors, copy;
  if (a.layout == Layout::RowMajor) {
    sums.resize(static_cast<size_t>(most));
    factors.resize(static_cast<size_t>(most));
  } else {
    copy.resize(static_cast<size_t>(most * dim));
  }
  for (int64_t done = 0; done < count;) {
    const int64_t offset = (at + done) % plan.block_rows;
    const int64_t piece = std::min(count - done, plan.block_rows - offset);
    if (a.layout == Layout::RowMajor) {
      linalg::short_row_sums_of_squares(a, first + done, piece, sums.data());
      const bool scaled = data::row_factors(a, first + done, piece, sums.data(), bound, policy,
                                            factors.data(), added);
      linalg::short_gram_chain(a.row_block(first + done, piece), scaled ? factors.data() : nullptr,
                               p.chains);
    } else {
      bound_rows_into(a, first + done, piece, plan, bound, policy, copy.data(), added);
      linalg::short_gram_chain(row_major(copy.data(), piece, dim), nullptr, p.chains);
    }
    if (offset + piece == plan.block_rows) {
      linalg::short_gram_finish(p.chains, dim, p.partial.data(), dim);
      p.chains = {};
    }
    done += piece;
  }
}

// The upper triangle of `from` (d x d) into `to`.
void copy_upper(int64_t dim, const double *from, double *to) {
  for (int64_t j = 0; j < dim; ++j) std::copy(from + j * dim, from + j * dim + j + 1, to + j * dim);
}

// The Gram matrix of the first `rows` pending rows, a block of its own, into `c` (zeroed, upper
// triangle), as block_gram() forms it from those rows.
void pending_gram(const std::vector<double> &pending, const PackedRows &packed,
                  const ShortPending &shortp, int64_t rows, const BlockPlan &plan, int64_t dim,
                  double bound, double *c) {
  GramCounts none;
  if (plan.short_rows) {
    copy_upper(dim, shortp.partial.data(), c);
    if (rows % plan.block_rows != 0) linalg::short_gram_finish(shortp.chains, dim, c, dim);
    return;
  }
  if (!plan.panel_rows) {
    block_gram(row_major(pending.data(), rows, dim), 0, rows, plan, true, bound,
               BoundPolicy::Clip, c, none);
    return;
  }
  data::add_striped(
      data::stripe_count(rows, plan.block_rows, dim), rows, plan.block_rows, dim,
      linalg::blas_threads(),
      [&](int64_t begin, int64_t end, double *out, GramCounts &) {
        add_packed_blocks(packed, begin, end, plan, dim, out);
      },
      c, none);
}

// Adds the upper triangle of a d x d column-major block Gram into the compensated sum.
void add_upper(int64_t dim, const double *block, std::vector<double> &sum,
               std::vector<double> &comp) {
  for (int64_t j = 0; j < dim; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      const size_t at = static_cast<size_t>(i + j * dim);
      data::neumaier_add(sum[at], comp[at], block[at]);
    }
}

bool all_finite_upper(int64_t dim, const std::vector<double> &sum, const std::vector<double> &comp) {
  for (int64_t j = 0; j < dim; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      const size_t at = static_cast<size_t>(i + j * dim);
      if (!std::isfinite(sum[at]) || !std::isfinite(comp[at])) return false;
    }
  return true;
}

// What a call to add_rows() builds before it commits: the running sum with the blocks it closed,
// the short-row kernel's pending block (a copy, fed the chunk's rows), and where the rows it
// leaves pending went. Rows past the live pending ones go straight into the pending buffer or
// panels (a failure then leaves the live rows as they were); packed rows that start a new pending
// block after the chunk closed the old one go into the spare panels, which become the pending
// block at the commit. Row-major rows left pending there (or when the buffer starts empty) keep
// only their factors until the commit, which writes them from the caller's rows once nothing can
// fail: no copy of them is staged.
struct Staged {
  std::vector<double> sum, comp;  // empty until a block closes
  std::vector<double> scratch;    // a block bounded apart from the caller's rows
  RowFactors tail;                // the factors of rows [tail_first, n) of the chunk
  int64_t tail_first = 0, tail_rows = 0;
  bool tail_kept = false;         // the tail already in shortp or in packed panels
  bool tail_spare = false;        // in the spare panels
  ShortPending shortp;            // the short-row kernel's pending block
  int64_t pending_rows = 0;
  GramCounts added;
};

// Whether the pending rows' Gram matrix can overflow: only where n B^2 passes DBL_MAX / 2 (rows
// of norm <= B sum to entries of at most n B^2 by Cauchy-Schwarz, and the margin covers
// rounding).
bool pending_may_overflow(int64_t rows, double bound) {
  return static_cast<double>(rows) * bound * bound > DBL_MAX / 2;
}

// Finite or failed: rows within a huge bound (or many rows) can overflow the sum. The closed
// blocks' sums are checked; the pending rows' Gram matrix (`pending_gram` writes it into a zeroed
// d x d matrix), added when the state is read, only where `pending` rows may overflow
// (pending_may_overflow()): below, it cannot overflow.
void check_finite(const Staged &st, const std::vector<double> &sum,
                  const std::vector<double> &comp, int64_t dim, bool pending,
                  const std::function<void(double *)> &pending_gram, double bound) {
  if (!st.sum.empty() && !all_finite_upper(dim, st.sum, st.comp)) overflow(bound);
  if (!pending) return;
  std::vector<double> s = st.sum.empty() ? sum : st.sum, c = st.sum.empty() ? comp : st.comp;
  std::vector<double> block(static_cast<size_t>(dim * dim), 0.0);
  pending_gram(block.data());
  add_upper(dim, block.data(), s, c);
  if (!all_finite_upper(dim, s, c)) overflow(bound);
}

}  // namespace

GramAccumulator::GramAccumulator(int64_t dim) : dim_(dim) {
  check::dimension(dim, "dimension");
  sum_.assign(static_cast<size_t>(dim * dim), 0.0);
  comp_.assign(static_cast<size_t>(dim * dim), 0.0);
}

int64_t GramAccumulator::block_rows() const { return plan_blocks(dim_).kernel_rows; }

GramCounts GramAccumulator::add_rows(ConstMatrixView a, double bound, BoundPolicy policy,
                                     const GramCounts &upstream) {
  if (a.cols != dim_)
    fail(Status::Dimension, "rows have ", a.cols, " columns but the accumulator has ", dim_);
  data::check_row_bound(bound, "bound");
  if (bound_ != 0.0 && bound != bound_)
    fail(Status::Incompatible, "bound ", bound, " differs from the bound ", bound_,
         " of the rows already accumulated");

  // Everything is built in Staged and committed once the whole chunk has been validated, so a bad
  // row anywhere leaves the accumulator unchanged.
  const BlockPlan plan = plan_blocks(dim_);
  const int64_t size = plan.kernel_rows, n = a.rows;
  Staged st;
  int64_t r = 0;
  st.pending_rows = pending_rows_;
  if (plan.short_rows && pending_rows_ > 0) st.shortp = {partial_, chains_};
  if (pending_rows_ > 0 && n > 0) {
    r = std::min(size - pending_rows_, n);
    if (plan.short_rows) {
      feed_short(a, 0, r, plan, bound, policy, st.shortp, pending_rows_, st.added);
    } else if (plan.panel_rows)
      pack_pending(a, 0, r, plan, bound, policy, packed_, pending_rows_, st.added);
    else
      bound_rows_into(a, 0, r, plan, bound, policy, pending_.data() + pending_rows_ * dim_,
                      st.added);
    st.pending_rows = pending_rows_ + r;
  }
  // The blocks this chunk closes: the pending block if it finished it, then its whole blocks,
  // all on one set of threads (gram_stripes.hpp), each added to the sum in order.
  const int64_t pending_block = st.pending_rows == size ? 1 : 0;
  const int64_t blocks = pending_block + (n - r) / size;
  if (blocks > 0) {
    st.sum = sum_;
    st.comp = comp_;
    if (pending_block == 1) st.pending_rows = 0;
    const bool own_copy = !in_place(plan, a.layout);
    if (own_copy) st.scratch.resize(static_cast<size_t>(size * dim_));
    const int64_t stripes =
        plan.panel_rows ? data::stripe_count(size, plan.block_rows, dim_) : int64_t{1};
    data::add_striped_blocks(
        blocks, stripes, size, plan.block_rows, dim_,
        plan.panel_rows ? linalg::blas_threads() : 1,
        [&](int64_t block, int64_t begin, int64_t end, double *c, GramCounts &counts) {
          if (block < pending_block) {
            if (plan.short_rows)
              copy_upper(dim_, st.shortp.partial.data(), c);
            else if (plan.panel_rows)
              add_packed_blocks(packed_, begin, end, plan, dim_, c);
            else
              add_bounded_blocks(row_major(pending_.data(), size, dim_), begin, end, plan, true,
                                 bound, policy, c, counts);
            return;
          }
          const int64_t first = r + (block - pending_block) * size;
          if (!own_copy) {
            add_bounded_blocks(a, first + begin, first + end, plan, false, bound, policy, c,
                               counts);
            return;
          }
          // Blocks not formed in place are never cut into stripes (only the panel kernel's are,
          // and it takes every layout in place): one thread, one block, the whole copy at once.
          bound_rows_into(a, first, size, plan, bound, policy, st.scratch.data(), counts);
          add_bounded_blocks(row_major(st.scratch.data(), size, dim_), 0, size, plan, true, bound,
                             policy, c, counts);
        },
        [&](int64_t, const double *gram) { add_upper(dim_, gram, st.sum, st.comp); }, st.added);
    r += (blocks - pending_block) * size;
  }
  if (r < n) {  // the rows of a block that this chunk starts and does not finish
    // Short rows go to a new pending block staged apart; packed rows straight into the pending
    // panels when they hold no live row (nothing a failure must keep), else (the chunk closed the
    // pending block, whose rows stay until the commit) into the spare panels.
    st.tail_kept = plan.short_rows || plan.panel_rows;
    if (plan.short_rows) {
      st.shortp = fresh_short(dim_);
      feed_short(a, r, n - r, plan, bound, policy, st.shortp, 0, st.added);
    } else if (plan.panel_rows) {
      st.tail_spare = pending_rows_ > 0;
      PackedRows &into = st.tail_spare ? spare_ : packed_;
      allocate_packed(into, plan, dim_);
      pack_pending(a, r, n - r, plan, bound, policy, into, 0, st.added);
    } else {
      st.tail = row_factors_of(a, r, n - r, plan, bound, policy, st.added);
    }
    st.tail_first = r;
    st.tail_rows = st.pending_rows = n - r;
  }

  GramCounts &added = st.added;
  added.rows = n - added.dropped;
  added.clipped += upstream.clipped;
  added.dropped += upstream.dropped;
  added.clamped += upstream.clamped;
  added.drop_policy = policy == BoundPolicy::Drop || upstream.drop_policy;
  if (counts_.rows > INT64_MAX - added.rows || counts_.dropped > INT64_MAX - added.dropped ||
      counts_.clamped > INT64_MAX - added.clamped)
    fail(Status::TooLarge, "row count overflows a 64-bit integer");
  // A tail not yet written is checked from a bounded copy of its own, made only where it can
  // overflow.
  const bool may_overflow =
      st.pending_rows > 0 && pending_may_overflow(counts_.rows + added.rows, bound);
  const bool tail_later = st.tail_rows > 0 && !st.tail_kept;
  std::vector<double> tail_copy;
  if (tail_later && may_overflow) {
    tail_copy.resize(static_cast<size_t>(st.tail_rows * dim_));
    write_bounded_rows(a, st.tail_first, st.tail_rows, st.tail, tail_copy.data());
  }
  check_finite(
      st, sum_, comp_, dim_, may_overflow,
      [&](double *c) {
        GramCounts none;
        if (!tail_copy.empty())
          block_gram(row_major(tail_copy.data(), st.tail_rows, dim_), 0, st.tail_rows, plan, true,
                     bound, BoundPolicy::Clip, c, none);
        else
          pending_gram(pending_, st.tail_spare ? spare_ : packed_, st.shortp, st.pending_rows,
                       plan, dim_, bound, c);
      },
      bound);

  // Commit: nothing below can throw. A chunk whose rows were all dropped upstream still fixes
  // the bound, so that whether a release knows B never depends on the rows.
  std::vector<double> buffer;
  if (pending_.empty() && tail_later) buffer.resize(static_cast<size_t>(size * dim_));
  if (!buffer.empty()) pending_.swap(buffer);
  if (!st.sum.empty()) {
    sum_.swap(st.sum);
    comp_.swap(st.comp);
  }
  if (plan.short_rows && st.pending_rows > 0) {
    partial_.swap(st.shortp.partial);
    chains_ = st.shortp.chains;
  }
  if (st.tail_spare) packed_.swap(spare_);
  if (tail_later)
    write_bounded_rows(a, st.tail_first, st.tail_rows, st.tail, pending_.data());
  pending_rows_ = st.pending_rows;
  if (n > 0 || upstream.dropped > 0) bound_ = bound;
  counts_.rows += added.rows;
  counts_.clipped += added.clipped;
  counts_.dropped += added.dropped;
  counts_.clamped += added.clamped;
  counts_.drop_policy = counts_.drop_policy || added.drop_policy;
  return added;
}

void GramAccumulator::closed_parts(std::vector<double> &sum, std::vector<double> &comp) const {
  sum = sum_;
  comp = comp_;
  if (pending_rows_ == 0) return;
  std::vector<double> block(static_cast<size_t>(dim_ * dim_), 0.0);
  pending_gram(pending_, packed_, {partial_, chains_}, pending_rows_, plan_blocks(dim_), dim_,
               bound_, block.data());
  add_upper(dim_, block.data(), sum, comp);
}

void GramAccumulator::close_block() const {
  if (pending_rows_ == 0) return;
  std::vector<double> sum, comp;
  closed_parts(sum, comp);
  sum_.swap(sum);
  comp_.swap(comp);
  pending_rows_ = 0;
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
  std::vector<double> sum, comp, other_sum, other_comp;
  closed_parts(sum, comp);
  other.closed_parts(other_sum, other_comp);
  for (int64_t j = 0; j < dim_; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      const size_t at = static_cast<size_t>(i + j * dim_);
      if (!std::isfinite(sum[at] + other_sum[at]))
        overflow(bound_ != 0.0 ? bound_ : other.bound_);
    }
  for (int64_t j = 0; j < dim_; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      const size_t at = static_cast<size_t>(i + j * dim_);
      data::neumaier_add(sum[at], comp[at], other_sum[at]);
      data::neumaier_add(sum[at], comp[at], other_comp[at]);
    }
  sum_.swap(sum);
  comp_.swap(comp);
  pending_rows_ = 0;
  if (bound_ == 0.0) bound_ = other.bound_;
  counts_.rows += other.counts_.rows;
  counts_.clipped += other.counts_.clipped;
  counts_.dropped += other.counts_.dropped;
  counts_.clamped += other.counts_.clamped;
  counts_.drop_policy = counts_.drop_policy || other.counts_.drop_policy;
}

Matrix GramAccumulator::matrix() const {
  Matrix g(dim_, dim_);
  write_matrix(g.view());
  return g;
}

void GramAccumulator::write_matrix(MatrixView out) const {
  std::vector<double> closed_sum, closed_comp;
  if (pending_rows_ > 0) closed_parts(closed_sum, closed_comp);
  const std::vector<double> &sum = pending_rows_ > 0 ? closed_sum : sum_;
  const std::vector<double> &comp = pending_rows_ > 0 ? closed_comp : comp_;
  for (int64_t j = 0; j < dim_; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      const size_t at = static_cast<size_t>(i + j * dim_);
      const double v = sum[at] + comp[at];
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
  close_block();
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
