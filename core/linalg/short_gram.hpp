// The Gram matrix of short rows (at most 16 columns, row-major) by a kernel that keeps the whole
// d x d result in AVX-512 registers and reads each row once. At such widths dsyrk spends most of
// its time packing its operands (bench/gram_bench: bare dsyrk at d = 10 moves about 8 GB/s, well
// under what the rows' memory delivers), and bounding the rows would otherwise need a scaled copy
// of every block with a clipped row in it. CPUs without AVX-512 keep the dsyrk path.
#pragma once

#include <array>
#include <cstdint>

#include "../matrix.hpp"

namespace dpcov::linalg {

// The widest row the kernel takes.
inline constexpr int64_t kShortRowMaxColumns = 16;

// True if short_gram_upper() takes `a` on this CPU: row-major, 1 to 16 columns, AVX-512F present.
bool short_gram_applies(ConstMatrixView a);

// Sums of squares of rows [first, first + count) of `a` into out[0..count), each row read by one
// or two masked loads. Requires short_gram_applies(a).
void short_row_sums_of_squares(ConstMatrixView a, int64_t first, int64_t count, double *out);

// C(i, j) += sum_r (f_r a(r, i)) (f_r a(r, j)) for i <= j, on the upper triangle of the
// column-major C (leading dimension ldc), f_r = factors[r] (all 1 when factors is null). Each
// scaled entry f_r a(r, j) is rounded once, as in a scaled copy of the rows, so that a clipped
// row's contribution is that of a row of norm <= B. Requires short_gram_applies(a).
void short_gram_upper(ConstMatrixView a, const double *factors, double *c, int64_t ldc);

// The kernel's running sums: each entry of G is one chain of fused multiply-adds over the rows,
// held in a lane of one of at most 24 eight-lane accumulators. Zero for a chain not yet started.
struct ShortGramChains {
  alignas(64) std::array<double, 24 * 8> lanes{};
};

// short_gram_upper() in parts: short_gram_chain() continues every chain over the rows of `a`
// (bounded by `factors` as there), and short_gram_finish() adds the chains' sums to C. Rows fed
// in several calls and then finished give the bits of one short_gram_upper() over all of them,
// which is chain and finish on chains that start at zero. Require short_gram_applies(a), `cols`
// <= kShortRowMaxColumns.
void short_gram_chain(ConstMatrixView a, const double *factors, ShortGramChains &chains);
void short_gram_finish(const ShortGramChains &chains, int64_t cols, double *c, int64_t ldc);

}  // namespace dpcov::linalg
