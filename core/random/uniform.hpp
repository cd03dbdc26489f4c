// Uniform variates on (0, 1).
#pragma once

#include "rng.hpp"

namespace dpcov::random {

// Uniform on the open interval (0, 1): (k + 1/2) 2^-53 for k uniform on {0, ..., 2^53 - 1}. The
// top 53 bits of one 64-bit word give full double resolution on [1/2, 1); the half-step offset
// keeps 0 and 1 out, so log(u) and log(1 - u) are always finite, and makes the grid symmetric
// about 1/2 (u and 1 - u have the same distribution exactly).
inline double uniform01(Rng &rng) {
  constexpr double kStep = 0x1.0p-53;
  return (static_cast<double>(rng.next_u64() >> 11) + 0.5) * kStep;
}

}  // namespace dpcov::random
