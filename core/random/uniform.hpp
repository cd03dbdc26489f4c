// Uniform variates on (0, 1).
#pragma once

#include <cstdint>

#include "rng.hpp"

namespace dpcov::random {

// Uniform on the open interval (0, 1) from one 64-bit word: (2k + 1) 2^-53 for k, the top 52
// bits, uniform on {0, ..., 2^52 - 1}: the midpoints of 2^52 cells of width 2^-52. Every value is
// a double exactly (2k + 1 < 2^53), the smallest is 2^-53 and the largest 1 - 2^-53, so 0 and 1
// never occur and log(u), log(1 - u) are finite; 1 - u is on the same grid with the same weight,
// so u and 1 - u have the same distribution exactly. (The earlier (k + 1/2) 2^-53 with 53 bits
// rounded k + 1/2 to even on [1/2, 1), a coarser grid there, and returned exactly 1.0 for the top
// k.)
inline double uniform01_from_bits(uint64_t bits) {
  constexpr double kStep = 0x1.0p-53;
  return static_cast<double>(2 * (bits >> 12) + 1) * kStep;
}

inline double uniform01(Rng &rng) { return uniform01_from_bits(rng.next_u64()); }

}  // namespace dpcov::random
