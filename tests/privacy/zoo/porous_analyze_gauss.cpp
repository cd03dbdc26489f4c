#include "porous_analyze_gauss.hpp"

#include <cmath>

#include "core/random/normal.hpp"
#include "zoo_case.hpp"

namespace dpcov::audit::zoo {

bool gaussian_output_reachable(double o, double g, double sigma) {
  // Slightly inside the tail start, so that rounding of o - g cannot exclude a tail draw.
  if (std::fabs(o - g) >= 0.999 * sigma * random::ziggurat_tail_start()) return true;
  for (int layer = 0; layer < random::kZigguratLayers; ++layer) {
    const double width = random::ziggurat_layer_width(layer);
    const uint64_t end = layer == 0 ? random::ziggurat_base_limit() : uint64_t{1} << 52;
    const auto noise = [sigma, width](uint64_t a) { return sigma * (static_cast<double>(a) * width); };
    const auto plus = [&](uint64_t a) { return g + noise(a); };   // non-decreasing in a
    const auto minus = [&](uint64_t a) { return g - noise(a); };  // non-increasing in a
    if (monotone_hits(plus, 0, end, o, true) || monotone_hits(minus, 0, end, o, false)) return true;
  }
  return false;
}

}  // namespace dpcov::audit::zoo
