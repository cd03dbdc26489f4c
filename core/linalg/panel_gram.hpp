// The Gram matrix of a block of rows wider than the short-row kernel's limit, from a copy of the
// rows packed into panels of eight columns, by an AVX-512 kernel of our own. The rows are bounded
// as they are packed (each entry f_r x_rj rounded once, as in a scaled copy), so a block with
// clipped or dropped rows costs what an unclipped one does, and the kernel reads the packed copy
// from the core's own cache, where dsyrk would pack the caller's rows again (bench/gram_bench:
// the clip path within 1.1x of a bare dsyrk, which packs from memory once).
// With more than one BLAS thread the accumulator runs it on that many threads of its own, each on
// a stripe of the rows (core/data/gram_stripes.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "../matrix.hpp"

namespace dpcov::linalg {

// True if the panel kernel takes rows of `cols` columns on this CPU: more than 16 columns (below,
// core/linalg/short_gram.hpp) and AVX-512F present.
bool panel_gram_applies(int64_t cols);

// Panels for blocks of up to `rows` rows of `cols` columns: ceil(cols / 8) panels of rows x 8
// doubles, 64-byte aligned, the columns past `cols` zero.
class Panels {
 public:
  Panels(int64_t rows, int64_t cols);
  // data_ points into store_: a copy takes a buffer of its own and finds its own cache line in
  // it (the default copy would point into the original's storage); a move keeps the heap buffer
  // and so the pointer.
  Panels(const Panels &other);
  Panels &operator=(const Panels &other);
  Panels(Panels &&) = default;
  Panels &operator=(Panels &&) = default;
  double *data() { return data_; }
  const double *data() const { return data_; }
  int64_t rows() const { return rows_; }
  int64_t cols() const { return cols_; }
  // Doubles from one panel to the next: rows() x 8.
  int64_t stride() const { return rows_ * 8; }

 private:
  int64_t rows_ = 0, cols_ = 0;
  std::vector<double> store_;
  double *data_ = nullptr;
};

// Packs the block `a` (either layout, a.cols the Panels' cols) into rows [first, first + a.rows)
// of `panels` (at most its rows): entry (r, j) is factors[r] a(r, j) rounded once (a(r, j) when
// factors is null), as data::scale_rows() writes it, so that a clipped row in the panels has the
// norm the bounding proved (proofs/row_bound.md). Requires panel_gram_applies(a.cols).
void pack_rows(ConstMatrixView a, const double *factors, Panels &panels, int64_t first = 0);

// Packs the row-major block `a` unscaled into rows [first, first + a.rows) of `panels`, as
// pack_rows() with null factors, and writes each row's plain sum of squares into
// sums[0..a.rows), bit for bit as data::row_sums_of_squares() forms it (the order
// proofs/row_bound.md bounds): the caller's rows are read once, and the panels are in cache for
// scale_packed_rows() and the kernel. Requires panel_gram_applies(a.cols).
void pack_rows_and_sums(ConstMatrixView a, Panels &panels, double *sums, int64_t first = 0);

// Multiplies each packed row first + r, r < rows, whose factors[r] is not 1 by it, rounding each
// entry once: the panels then hold what pack_rows() with these factors writes.
void scale_packed_rows(Panels &panels, int64_t rows, const double *factors, int64_t first = 0);

// Rounds each packed row r < rows to integers in place for the exact Gram (core/data/exact_gram.hpp):
// entry v becomes round((v factors[r]) to_grid) to nearest, ties to even, each product rounded
// once (v to_grid when factors is null), the value data::ExactGramAccumulator rounds the entry of
// the caller's row to; and writes each row's sum of squares of those integers into sums[r] (exact
// below 2^53, and above r2 < 2^53 whenever the exact sum is: the test of the grid's bound). Then
// panel_gram_upper() forms their integer Gram exactly while its sums stay below 2^53. Requires
// |v f to_grid| < 2^51.
void round_packed_rows(Panels &panels, int64_t rows, const double *factors, double to_grid,
                       double *sums);

// Writes values[0..cols) as packed row r < panels.rows() (the row a rounding replaced).
void set_packed_row(Panels &panels, int64_t r, const double *values);

// C(i, j) += sum_r y(r, i) y(r, j) for i <= j < cols, on the upper triangle of the column-major C
// (leading dimension ldc), y the `rows` rows packed by pack_rows(). The strictly lower triangle
// of C is not written. Requires panel_gram_applies(cols).
void panel_gram_upper(const Panels &panels, int64_t rows, int64_t cols, double *c, int64_t ldc);

}  // namespace dpcov::linalg
