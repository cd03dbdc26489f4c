// The Euclidean norm bound of rows scaled into a box (proofs/column_bounds.md).
#pragma once

#include <cstdint>

namespace dpcov::data {

// B for rows of `entries` values, each in [-1, 1]: the smallest double whose
// within_limit_squared(B, entries) is >= entries, about sqrt(entries) (1 + (entries + 16)
// 2^-53). Every such row has norm <= sqrt(entries) <= B; and because rounding is monotone, the
// floating-point sum of squares of the row, in any order, is <= entries <= that limit, so the
// accumulator keeps every scaled row whole: it never clips, drops or rejects one
// (proofs/column_bounds.md, "The norm bound"). Throws Status::Dimension unless
// 1 <= entries <= 2^53.
double box_norm_bound(int64_t entries);

}  // namespace dpcov::data
