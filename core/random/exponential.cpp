#include "exponential.hpp"

#include <cmath>
#include <numbers>

#include "../check.hpp"

namespace dpcov::random {

double exponential_from_word(uint64_t first_word, Rng &rng) {
  return exponential_from_words(first_word, [&rng] { return rng.next_u64(); });
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
