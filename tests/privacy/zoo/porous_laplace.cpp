#include "porous_laplace.hpp"

#include <cmath>

#include "zoo_case.hpp"

namespace dpcov::audit::zoo {

namespace {

// Above this many scales the sampler's lowest cell (52 ln 2 + Exp(1)) may produce the magnitude.
constexpr double kLowestCellMagnitude = 35.0;

}  // namespace

bool laplace_output_reachable(double o, double g, double scale) {
  if (std::fabs(o - g) >= kLowestCellMagnitude * scale) return true;
  // magnitude(k) = fl(b fl(-ln((2k + 1) 2^-53))), decreasing in k.
  const auto magnitude = [scale](uint64_t k) {
    return scale * -std::log(static_cast<double>(2 * k + 1) * 0x1.0p-53);
  };
  constexpr uint64_t kFirst = 1, kEnd = uint64_t{1} << 52;
  const auto plus = [&](uint64_t k) { return g + magnitude(k); };   // non-increasing in k
  const auto minus = [&](uint64_t k) { return g - magnitude(k); };  // non-decreasing in k
  return monotone_hits(plus, kFirst, kEnd, o, false) || monotone_hits(minus, kFirst, kEnd, o, true);
}

}  // namespace dpcov::audit::zoo
