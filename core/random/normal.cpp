#include "normal.hpp"

#include <algorithm>
#include <bit>
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

// The generator's words one at a time: the source of a single draw.
struct GeneratorWords {
  Rng &rng;
  uint64_t operator()() { return rng.next_u64(); }
};

// The words of a batch of draws: those drawn ahead into a buffer first, then the generator's
// next ones. A batch of n draws reads at least n words, so drawing min(n, buffer size) words
// ahead reads no word that the n draws in turn would not have read, and the draws see the words
// in the generator's order: the values are those of n calls of standard_normal().
class WordsAhead {
 public:
  WordsAhead(const uint64_t *begin, const uint64_t *end, Rng &rng)
      : next_(begin), end_(end), rng_(rng) {}
  const uint64_t *next() const { return next_; }
  uint64_t operator()() { return next_ < end_ ? *next_++ : rng_.next_u64(); }

 private:
  const uint64_t *next_;
  const uint64_t *end_;
  Rng &rng_;
};

// x with its sign flipped when `negative`, without a branch on that random bit (a branch on it
// is mispredicted half the time): the same value as `negative ? -x : x`, -0.0 included.
inline double with_sign(double x, bool negative) {
  return std::bit_cast<double>(std::bit_cast<uint64_t>(x) ^ (uint64_t{negative} << 63));
}

// The common path of a draw from its first word: true with the value in x when the abscissa lies
// in its layer's certain region (about 99% of draws).
inline bool draw_inside(const Tables &t, uint64_t bits, double &x) {
  const int layer = static_cast<int>(bits & 0xffU);
  const uint64_t abscissa = (bits >> 9) & ((uint64_t{1} << 52) - 1);
  x = with_sign(static_cast<double>(abscissa) * t.width[layer], ((bits >> 8) & 1U) != 0);
  return abscissa < t.inside[layer];
}

// The rest of a draw whose first word `bits` fell outside its layer's certain region (about 1%
// of draws): the wedge or the tail test, then further words until one is accepted. Kept out of
// line so that the common path above is a few instructions that inline into the batch loop.
template <class Words>
[[gnu::noinline]] double draw_rare(const Tables &t, Words &words, uint64_t bits) {
  for (;;) {
    const int layer = static_cast<int>(bits & 0xffU);
    const bool negative = ((bits >> 8) & 1U) != 0;
    const uint64_t abscissa = (bits >> 9) & ((uint64_t{1} << 52) - 1);
    const double x = static_cast<double>(abscissa) * t.width[layer];
    if (abscissa < t.inside[layer]) return with_sign(x, negative);
    if (layer == 0) {
      // Marsaglia's tail: for x = E1 / r, accept r + x when 2 E2 > x^2 (E1, E2 standard
      // exponentials, untruncated); exact for the normal density conditioned on |z| > r.
      for (;;) {
        const double xx = exponential_from_words(words(), words) / t.r;
        const double yy = exponential_from_words(words(), words);
        if (yy + yy > xx * xx) return negative ? -(t.r + xx) : t.r + xx;
      }
    }
    const double y =
        t.height[layer] + (t.height[layer - 1] - t.height[layer]) * uniform01_from_bits(words());
    if (y < density(x)) return negative ? -x : x;
    bits = words();
  }
}

// Words drawn ahead per block: enough to amortise the engine's load and store (a Bingham
// proposal at q <= 256 is one block), small enough to stay on the stack.
constexpr int64_t kWordsAhead = 256;

}  // namespace

double ziggurat_layer_width(int layer) { return tables().width[layer]; }
uint64_t ziggurat_base_limit() { return tables().inside[0]; }
double ziggurat_tail_start() { return tables().r; }

double standard_normal(Rng &rng) {
  const Tables &t = tables();
  const uint64_t bits = rng.next_u64();
  double x;
  if (draw_inside(t, bits, x)) return x;
  GeneratorWords words{rng};
  return draw_rare(t, words, bits);
}

void standard_normals(Rng &rng, double *out, int64_t n) {
  const Tables &t = tables();
  uint64_t ahead[kWordsAhead];
  for (int64_t i = 0; i < n;) {
    const int64_t count = std::min(kWordsAhead, n - i);
    rng.fill_u64(ahead, static_cast<size_t>(count));
    // Each draw reads at least one buffered word, so at most `count` draws happen here. The
    // position is a local pointer (a register); only a rare draw goes through WordsAhead.
    for (const uint64_t *next = ahead, *end = ahead + count; next < end;) {
      const uint64_t bits = *next++;
      double x;
      if (!draw_inside(t, bits, x)) {
        WordsAhead words(next, end, rng);
        x = draw_rare(t, words, bits);
        next = words.next();
      }
      out[i++] = x;
    }
  }
}

}  // namespace dpcov::random
