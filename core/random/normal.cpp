#include "normal.hpp"

#include <cmath>
#include <cstdint>
#include <numbers>

#include "exponential.hpp"
#include "uniform.hpp"

namespace dpcov::random {

namespace {

constexpr int kLayers = kZigguratLayers;
constexpr double kTwo52 = 0x1.0p52;

double density(double x) { return std::exp(-0.5 * x * x); }

// The ziggurat of the unnormalised density f(x) = exp(-x^2 / 2) on x >= 0: 255 rectangles
// [0, x_i] x [f(x_i), f(x_{i-1})] (i = 1..255, x_0 = 0) and a base strip [0, r] x [0, f(r)] plus
// the tail beyond r, all of the same area v. Layer 0 is the base, drawn as a box of width v / f(r).
struct Tables {
  double r = 0.0;
  double width[kLayers];       // layer width / 2^52, so that width * (52-bit integer) is uniform
  uint64_t inside[kLayers];    // an abscissa integer below this is under the density for sure
  double height[kLayers];      // f at the layer's right edge; height[0] = f(0) = 1
};

// Builds the layers downwards from x_255 = r and returns f(x_1) + v / x_1 - 1, which is zero when
// the top layer has area v too. Positive (including "ran out of room") when r is too small.
double close_ziggurat(double r, double *x) {
  const double v = r * density(r) + std::sqrt(std::numbers::pi / 2.0) * std::erfc(r / std::sqrt(2.0));
  x[kLayers - 1] = r;
  for (int i = kLayers - 1; i >= 2; --i) {
    const double next = density(x[i]) + v / x[i];
    if (next >= 1.0) return 1.0;
    x[i - 1] = std::sqrt(-2.0 * std::log(next));
  }
  return density(x[1]) + v / x[1] - 1.0;
}

Tables build_tables() {
  // r is found by bisection to the last bit rather than copied from the literature
  // (3.6541528853610088), so that the 256 layers close exactly in double precision.
  double lo = 3.0, hi = 4.0;
  double x[kLayers];
  for (int it = 0; it < 200 && lo < hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    if (close_ziggurat(mid, x) > 0.0) lo = mid; else hi = mid;
  }
  Tables t;
  t.r = hi;
  close_ziggurat(t.r, x);
  const double v = t.r * density(t.r) + std::sqrt(std::numbers::pi / 2.0) * std::erfc(t.r / std::sqrt(2.0));
  const double base_width = v / density(t.r);
  t.width[0] = base_width / kTwo52;
  t.inside[0] = static_cast<uint64_t>(std::floor(t.r / base_width * kTwo52));
  t.height[0] = 1.0;
  for (int i = 1; i < kLayers; ++i) {
    t.width[i] = x[i] / kTwo52;
    // Rounding down only sends a few more points to the (exact) wedge test.
    t.inside[i] = i == 1 ? 0 : static_cast<uint64_t>(std::floor(x[i - 1] / x[i] * kTwo52));
    t.height[i] = density(x[i]);
  }
  return t;
}

const Tables &tables() {
  static const Tables t = build_tables();
  return t;
}

// The rest of a draw whose first word `bits` fell outside its layer's certain region (about 1%
// of draws): the wedge or the tail test, then further words until one is accepted. Kept out of
// line so that the common path below is a few instructions that inline into the batch loop.
[[gnu::noinline]] double draw_rare(const Tables &t, Rng &rng, uint64_t bits);

// One draw from the tables (hoisted out of loops by the batch form).
inline double draw(const Tables &t, Rng &rng) {
  const uint64_t bits = rng.next_u64();
  const int layer = static_cast<int>(bits & 0xffU);
  const uint64_t abscissa = (bits >> 9) & ((uint64_t{1} << 52) - 1);
  if (abscissa < t.inside[layer]) {
    const double x = static_cast<double>(abscissa) * t.width[layer];
    return ((bits >> 8) & 1U) != 0 ? -x : x;
  }
  return draw_rare(t, rng, bits);
}

double draw_rare(const Tables &t, Rng &rng, uint64_t bits) {
  for (;;) {
    const int layer = static_cast<int>(bits & 0xffU);
    const bool negative = ((bits >> 8) & 1U) != 0;
    const uint64_t abscissa = (bits >> 9) & ((uint64_t{1} << 52) - 1);
    const double x = static_cast<double>(abscissa) * t.width[layer];
    if (abscissa < t.inside[layer]) return negative ? -x : x;
    if (layer == 0) {
      // Marsaglia's tail: for x = E1 / r, accept r + x when 2 E2 > x^2 (E1, E2 standard
      // exponentials, untruncated); exact for the normal density conditioned on |z| > r.
      for (;;) {
        const double xx = exponential(rng) / t.r;
        const double yy = exponential(rng);
        if (yy + yy > xx * xx) return negative ? -(t.r + xx) : t.r + xx;
      }
    }
    const double y = t.height[layer] + (t.height[layer - 1] - t.height[layer]) * uniform01(rng);
    if (y < density(x)) return negative ? -x : x;
    bits = rng.next_u64();
  }
}

}  // namespace

double ziggurat_layer_width(int layer) { return tables().width[layer]; }
uint64_t ziggurat_base_limit() { return tables().inside[0]; }
double ziggurat_tail_start() { return tables().r; }

double standard_normal(Rng &rng) { return draw(tables(), rng); }

void standard_normals(Rng &rng, double *out, int64_t n) {
  const Tables &t = tables();
  for (int64_t i = 0; i < n; ++i) out[i] = draw(t, rng);
}

}  // namespace dpcov::random
