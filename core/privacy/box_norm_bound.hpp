// The Euclidean norm bound of rows scaled into a box (proofs/column_bounds.md).
#pragma once

#include <cstdint>

namespace dpcov::privacy {

// B for rows of `entries` values, each in [-1, 1]: the double sqrt(entries) rounded up. Every such
// row has norm <= sqrt(entries) <= B; and because B * B >= entries exactly and rounding is
// monotone, the floating-point sum of squares of the row, in any order, is <= entries <= fl(B * B),
// so the accumulator's bound test never clips or rejects a scaled row (proofs/column_bounds.md,
// "The norm bound"). Throws DPCOV_E_DIMENSION unless 1 <= entries <= 2^53.
double box_norm_bound(int64_t entries);

}  // namespace dpcov::privacy
