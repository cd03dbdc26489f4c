// Gram accumulator: G = sum_i b(a_i) b(a_i)^T over a stream of rows, where b bounds each row's
// Euclidean norm by B (clip, reject or drop). Memory is O(d^2 + block) whatever the number of
// rows: the kernel cuts the stream into blocks of block_rows() rows, counted from the first row
// (or from the last close of a block by upper_parts() or merge()), forms each block's Gram matrix
// and adds it to a compensated sum, so the same rows in the same order give the same bits however
// the caller cuts them into chunks (docs/threading.md, Determinism).
#pragma once

#include <cstdint>
#include <vector>

#include "../linalg/panel_gram.hpp"
#include "../linalg/short_gram.hpp"
#include "../matrix.hpp"

namespace dpcov {

enum class BoundPolicy : int32_t {
  Clip = 0,
  Reject = 1,
  Drop = 2
};

struct GramCounts {
  int64_t rows = 0;     // rows included in G
  int64_t clipped = 0;  // included rows that were scaled down to norm B
  int64_t dropped = 0;  // rows left out under BoundPolicy::Drop
  int64_t clamped = 0;  // values clamped into public column bounds (data::RowBounding)
  // Whether any chunk was bounded under BoundPolicy::Drop: the request, not the data, decides
  // whether a release must refuse it (data::check_drop_policy()).
  bool drop_policy = false;
};

class GramAccumulator {
 public:
  explicit GramAccumulator(int64_t dim);

  // An accumulator holding a state summed elsewhere (e.g. over machines): G = `gram` with the
  // given counters and bound. Checks what a Gram statistic of counts.rows rows of norm <= bound
  // satisfies: d x d, finite, exactly symmetric, diagonal >= 0, trace <= rows B^2 (to the
  // rounding of a sum, relative 1e-9), counters >= 0 with clipped <= rows, bound finite and > 0.
  // Throws Status::Dimension, Status::NonFinite, Status::InvalidArgument or Status::NormBound.
  static GramAccumulator from_state(ConstMatrixView gram, const GramCounts &counts, double bound);

  // The accumulator saved by dpcov_gram_export_state(): the upper triangles of the running sum and
  // of its compensation, packed column by column (entry (i, j), i <= j, at j (j + 1) / 2 + i), as
  // upper_parts() writes them, so that a restored accumulator continues bit for bit. Checks as
  // from_state() on their sum; `bound` 0 (no row added yet) only with no rows and zero sums.
  static GramAccumulator from_parts(int64_t dim, const std::vector<double> &sum,
                                    const std::vector<double> &comp, const GramCounts &counts,
                                    double bound);
  // The packed upper triangles of the running sum and its compensation (see from_parts()). A
  // saved state holds no row: the rows of an unfinished block are first closed into the sum as a
  // shorter block, here too, so that this accumulator and one restored from its parts continue
  // alike (both start their next block at the next row). Logically const: G is unchanged.
  void upper_parts(std::vector<double> &sum, std::vector<double> &comp) const;

  // Adds the rows of `rows` (n x d, any layout). The whole chunk is validated first: on NaN/Inf,
  // or a row over the bound under BoundPolicy::Reject, it throws and the accumulator is unchanged
  // (strong exception guarantee, also for allocation failure). `bound` must match earlier chunks.
  // Returns what this chunk contributed. `upstream` is what an earlier bounding step
  // (data::RowBounding) did to the same rows: its clipped, dropped and clamped counts and its
  // drop flag are added to the counters with the chunk, on success only.
  // An entry of G that would overflow throws Status::Numerical, the accumulator unchanged. Rows
  // of norm <= B sum to entries of at most n B^2 (Cauchy-Schwarz; the compensated sum's rounding
  // is far below relative 1), so this happens only where n B^2 exceeds DBL_MAX (about 1.8e8 rows
  // at B = 1e150), where every release from G refuses anyway: its plan needs n B^2 2^20 finite
  // (the receipt's overflow headroom, capi/receipt_writer.cpp). Whether a sum overflows there
  // depends on the rows, so the message names only n and B, never the data's entries; the
  // outcome, no release, is the same for every dataset of those n and B.
  GramCounts add_rows(ConstMatrixView rows, double bound, BoundPolicy policy,
                      const GramCounts &upstream = {});

  // Adds everything `other` accumulated (its unfinished block included, `other` unchanged), after
  // closing this accumulator's unfinished block as upper_parts() does. Throws (leaving *this unchanged) if dimensions or bounds
  // are incompatible, or Status::Numerical as add_rows() where an entry of the sum would overflow.
  void merge(const GramAccumulator &other);

  int64_t dim() const { return dim_; }
  // The bound every included row satisfies; 0 until a chunk has been added.
  double bound() const { return bound_; }
  const GramCounts &counts() const { return counts_; }
  // Rows per block of the kernel for this dimension (gram.cpp: block_rows_for()).
  int64_t block_rows() const;
  // G in full (exactly symmetric): the sum with the unfinished block's Gram matrix added to a copy,
  // so reading G changes nothing that follows.
  Matrix matrix() const;
  void write_matrix(MatrixView out) const;

 private:
  // The running sum and compensation with the unfinished block's Gram matrix added (copies).
  void closed_parts(std::vector<double> &sum, std::vector<double> &comp) const;
  // Closes the unfinished block into the sum (strong guarantee).
  void close_block() const;

  int64_t dim_;
  double bound_ = 0.0;
  GramCounts counts_;
  // Upper triangles (column-major, d x d) of the running sum and of its Neumaier compensation:
  // G = sum_ + comp_ + the Gram matrix of the pending rows. Compensating across blocks keeps the
  // sum accurate even for 10^9 rows. Mutable for close_block() only, which keeps G.
  mutable std::vector<double> sum_;
  mutable std::vector<double> comp_;
  // The unfinished block: pending_rows_ rows, fewer than block_rows(). Rows the short-row kernel
  // takes are not kept: the block's Gram matrix over its finished cache blocks (partial_, upper
  // triangle, d x d) and the kernel's chains over the rows of the cache block under way (chains_)
  // hold them. Rows the panel kernel takes are kept packed as it reads them, each cache block of
  // the kernel block in panels of its own (packed_); a chunk that closes the pending block packs
  // the rows it leaves pending into the spare panels (spare_, swapped in at its commit), so that
  // the caller's rows are read once and the old rows stay until nothing can fail. Other rows
  // row-major, d columns (pending_). The storage is allocated at the first row left pending.
  mutable std::vector<double> pending_;
  mutable std::vector<linalg::Panels> packed_;
  mutable std::vector<linalg::Panels> spare_;
  mutable std::vector<double> partial_;
  mutable linalg::ShortGramChains chains_;
  mutable int64_t pending_rows_ = 0;
};

}  // namespace dpcov
