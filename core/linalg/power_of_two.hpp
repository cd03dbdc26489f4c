// Exact scaling by powers of two without a library call.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace dpcov::linalg {

// std::scalbn(x, e) (= std::ldexp): where 2^e is a normal double, x times 2^e is one correctly
// rounded product, the value scalbn returns (exact unless the result under- or overflows, and
// then the same rounding), without the call; elsewhere scalbn itself. The library call was 1.5%
// of an eigenvector release at d = 50 (G's scaling before its decomposition, d^2 entries, and
// Loewner's products).
inline double scale_by_power_of_two(double x, int e) {
  if (e < -1022 || e > 1023) return std::scalbn(x, e);
  return x * std::bit_cast<double>(static_cast<uint64_t>(e + 1023) << 52);
}

}  // namespace dpcov::linalg
