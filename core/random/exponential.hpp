// Exponential and Laplace variates.
#pragma once

#include <cmath>
#include <cstdint>

#include "rng.hpp"
#include "uniform.hpp"

namespace dpcov::random {

// Exponential with rate 1 whose tail is not truncated. U uniform on (0, 1) is located in one of
// 2^52 cells of width 2^-52 (the top 52 bits of `first_word`); in cell k >= 1 the variate is
// -ln((2k + 1) 2^-53), minus the log of the cell's midpoint. In the lowest cell, U 2^52 is again
// uniform on (0, 1), so -ln U = 52 ln 2 + Exp(1) exactly (memorylessness): the sampler adds 52 ln 2
// and draws again from `rng`. Every value is finite and > 0, and values above any bound occur
// with positive probability (the old -ln U on a fixed grid stopped at 53 ln 2 = 36.7).
double exponential_from_word(uint64_t first_word, Rng &rng);
double exponential(Rng &rng);

// 52 ln 2: -ln of the width 2^-52 of the lowest cell.
inline constexpr double kExponentialLowestCellShift = 52.0 * 0.6931471805599453;

// exponential_from_word() with its further words (needed with probability 2^-52) from
// next_word(), for callers that hold words drawn ahead of the generator's position.
template <class NextWord>
double exponential_from_words(uint64_t first_word, NextWord &&next_word) {
  double shift = 0.0;
  for (uint64_t word = first_word;; word = next_word()) {
    if ((word >> 12) != 0) return shift - std::log(uniform01_from_bits(word));
    shift += kExponentialLowestCellShift;
  }
}

// Laplace with density exp(-|x| / b) / (2 b): an exponential (above) times b, with the sign from
// the lowest bit of the same word (independent of the top 52 bits), so the law is exactly
// symmetric and its tail unbounded. Throws Status::InvalidArgument / Status::NonFinite unless b
// is finite and > 0. Floating point still rounds each value: the support is a finite set of
// doubles per magnitude range (Mironov 2012), so the pure-epsilon guarantee holds for the
// idealized sampler only (receipts say "idealized").
double laplace_from_word(uint64_t first_word, Rng &rng, double scale);
double laplace(Rng &rng, double scale);

// ln(2 b), the log of the Laplace density's normaliser, as ln 2 + ln b: finite for every finite
// b > 0, where 2 b overflows above DBL_MAX / 2 and ln(2 b) was +infinity (every log-density
// -infinity, which the auditor read as a draw outside the sampler's support).
double laplace_log_normaliser(double scale);

}  // namespace dpcov::random
