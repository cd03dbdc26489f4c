#include "exponential.hpp"

#include <cmath>
#include <numbers>

#include "../check.hpp"
#include "uniform.hpp"

namespace dpcov::random {

namespace {

// 52 ln 2: -ln of the width 2^-52 of the lowest cell.
constexpr double kLowestCellShift = 52.0 * 0.6931471805599453;

}  // namespace

double exponential_from_word(uint64_t first_word, Rng &rng) {
  double shift = 0.0;
  for (uint64_t word = first_word;; word = rng.next_u64()) {
    if ((word >> 12) != 0) return shift - std::log(uniform01_from_bits(word));
    shift += kLowestCellShift;
  }
}

double exponential(Rng &rng) { return exponential_from_word(rng.next_u64(), rng); }

double laplace_from_word(uint64_t first_word, Rng &rng, double scale) {
  check::positive_finite(scale, "Laplace scale");
  const double magnitude = scale * exponential_from_word(first_word, rng);
  return (first_word & 1U) != 0 ? -magnitude : magnitude;
}

double laplace(Rng &rng, double scale) { return laplace_from_word(rng.next_u64(), rng, scale); }

double laplace_log_normaliser(double scale) {
  check::positive_finite(scale, "Laplace scale");
  return std::numbers::ln2 + std::log(scale);
}

}  // namespace dpcov::random
