// Exact integer Gram accumulator: the rows of a stream, bounded by the accumulators' own row
// bounding (row_bound.hpp) and rounded to a public grid z = round(x 2^bits / B), summed as the
// exact integer matrix sum_i z_i z_i^T (proofs/exact_additive.md, steps 2 and 3). Memory is
// O(d^2 + kExactBlockRows d) whatever the number of rows; the sum is independent of how the rows
// are chunked or merged, bit for bit, because every step is exact integer arithmetic.
#pragma once

#include <cstdint>
#include <vector>

#include "../matrix.hpp"
#include "gram.hpp"

namespace dpcov::data {

__extension__ typedef __int128 ExactInt;

// Rows per exact block: a block's Gram is exact in double when kExactBlockRows r2 < 2^53 (every
// product and partial sum an integer below 2^53), which the plan's choice of grid guarantees.
inline constexpr int64_t kExactBlockRows = 4096;

// The public grid of an accumulator: rows of `dim` columns bounded to norm `bound`, coordinates
// rounded to multiples of bound 2^-bits, every rounded row held to ||z||^2 <= norm2_bound.
struct ExactGridSpec {
  int64_t dim = 0;
  double bound = 0.0;
  int bits = 0;
  int64_t norm2_bound = 0;

  bool operator==(const ExactGridSpec &) const = default;
};

// The value a coordinate `value` (|value| <= bound) takes on the grid of unit bound 2^-bits:
// round(value 2^bits / bound) bound 2^-bits, rounded as the accumulator rounds every coordinate
// of a row within the bound. A constant column holds this value, not its own, in every row of an
// exact release, so whoever centres or fits an intercept on the release divides by it: one
// function, so that the surfaces cannot round differently from the rows. Throws
// Status::NonFinite or Status::InvalidArgument (bound as check_row_bound() and >= 2^-500, bits
// outside [1, 30], |value| > bound).
double exact_grid_value(double value, double bound, int bits);

class ExactGramAccumulator {
 public:
  // Throws Status::Dimension (dim), Status::NonFinite or Status::InvalidArgument (the bound, as
  // check_row_bound(); bits outside [1, 30]; norm2_bound outside [1, 2^53 / kExactBlockRows); a
  // grid unit whose inverse 2^bits / bound overflows; BoundPolicy::Drop, which would make the row
  // count depend on the data).
  ExactGramAccumulator(const ExactGridSpec &grid, BoundPolicy policy);

  // Adds the rows of `rows` (n x d, any layout): each row bounded as GramAccumulator::add_rows()
  // bounds it (non-finite rows Status::NonFinite; above B clipped, or Status::NormBound naming
  // the chunk's row under Reject), rounded to the grid, and, should ||z||^2 exceed norm2_bound
  // (never for a row of norm <= B, proofs/exact_additive.md), halved until it does not. The
  // whole chunk is processed before anything is added, so a throw leaves the accumulator
  // unchanged. Returns what this chunk contributed. `upstream` is what an earlier bounding step
  // (data::RowBounding) did to the same rows: its clipped, dropped and clamped counts and its
  // drop flag join the counters with the chunk, on success only (as GramAccumulator::add_rows()).
  GramCounts add_rows(ConstMatrixView rows, const GramCounts &upstream = {});

  // Adds whole privacy units of rows already bounded (row-major; unit u's rows [ends[u-1],
  // ends[u]), ends[-1] = 0; core/data/unit_rows.hpp): the rows rounded to the grid to nearest, and
  // a unit whose integer trace sum ||z||^2 exceeds norm2_bound rounded toward zero instead, then
  // halved until it does not, so that every unit's integer contribution is PSD with trace <=
  // norm2_bound, which the unit-level sensitivity uses (proofs/unit_gram_sensitivity.md). Not
  // bounded again: privacy rests on that exact trace test alone. Throws Status::Dimension,
  // Status::InvalidArgument (ends not increasing to the row count) or Status::TooLarge, leaving
  // the accumulator unchanged. `upstream` as add_rows().
  GramCounts add_units(ConstMatrixView rows, const std::vector<int64_t> &ends,
                       const GramCounts &upstream = {});

  // An accumulator holding a state saved elsewhere (dpcov_gram_export_state()): `upper` packed as
  // upper() packs it, with `counts`. Checks what sums of rows with ||z||^2 <= norm2_bound satisfy
  // (diagonal >= 0, trace <= rows norm2_bound, |g_ij| <= (g_ii + g_jj) / 2, counters >= 0 with
  // clipped <= rows), so that no release can be fed entries its sensitivity does not cover.
  // Throws as the constructor, and Status::InvalidArgument or Status::NormBound.
  static ExactGramAccumulator from_state(const ExactGridSpec &grid, BoundPolicy policy,
                                         const GramCounts &counts, std::vector<ExactInt> upper);

  // Adds everything `other` accumulated. Throws Status::Incompatible (a different grid),
  // Status::InvalidArgument (itself) or Status::TooLarge (the row count overflows), leaving
  // *this unchanged.
  void merge(const ExactGramAccumulator &other);

  const ExactGridSpec &grid() const { return grid_; }
  BoundPolicy policy() const { return policy_; }
  const GramCounts &counts() const { return counts_; }
  // The exact integer Gram, upper triangle packed column by column: entry (i, j), i <= j, at
  // j (j + 1) / 2 + i. No n below 2^63 can overflow it: n r2 < 2^63 2^41.
  const std::vector<ExactInt> &upper() const { return upper_; }
  // The Gram matrix of the rounded rows in data units, (B 2^-bits)^2 times the integers, in full
  // (d x d, exactly symmetric): the curator's view of the statistic, not a release. Throws
  // Status::Numerical, `out` untouched, where an entry overflows a double (bounds near 1e300).
  void write_matrix(MatrixView out) const;

 private:
  // Adds a chunk's (or a merged accumulator's) counters; cannot throw.
  void commit(const GramCounts &added);

  ExactGridSpec grid_;
  BoundPolicy policy_;
  double to_grid_;  // 2^bits / bound, rounded
  GramCounts counts_;
  std::vector<ExactInt> upper_;
};

}  // namespace dpcov::data
