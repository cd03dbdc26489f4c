// A parser for the plain decimals CSV writers emit ("-0.386831762", "12.5", "3", and shortest
// round-trip numbers such as "-0.38683176162103994"): at most 19 digits, no exponent. Such a number
// is m / 10^k with m < 10^19 and k <= 19. When m <= 2^53 one IEEE division of two exactly
// represented doubles rounds the exact quotient correctly (Clinger 1990); otherwise fast_float's
// own Eisel-Lemire step (compute_float) gives the correctly rounded double or says it cannot, and
// then the caller hands the number to fast_float whole. Either way the result is bit for bit
// fast_float's, which takes the same two steps for such numbers after a slower general scan.
//
// The scan reads the sign without a branch (random data has as many negative numbers as positive
// ones, so a branch on it would be mispredicted every other field) and converts fraction
// digits eight at a time (Lemire's SWAR method).
#pragma once

#include <fast_float/fast_float.h>

#include <bit>
#include <cstdint>
#include <cstring>

namespace dpcov::cli {

namespace short_decimal_detail {

// Every power up to 10^22 is a double exactly.
inline constexpr double kPowersOfTen[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,
                                          1e7,  1e8,  1e9,  1e10, 1e11, 1e12, 1e13,
                                          1e14, 1e15, 1e16, 1e17, 1e18, 1e19};

inline bool is_digit(char c) {
  return static_cast<unsigned char>(c - '0') < 10;
}

// Appends the eight digits at `p` to `m` and returns true if the eight bytes are all digits.
[[gnu::always_inline]] inline bool eight_digits(const char *p, uint64_t &m) {
  uint64_t w = 0;
  std::memcpy(&w, p, 8);
  // A byte's high bit ends up set if it is below '0' (the subtraction wraps) or above '9' (the
  // addition reaches 0x80).
  if ((((w + 0x4646464646464646) | (w - 0x3030303030303030)) & 0x8080808080808080) != 0)
    return false;
  // Little-endian bytes: pairs, then fours, then the eight-digit value.
  w -= 0x3030303030303030;
  w = w * 10 + (w >> 8);
  w = (((w & 0x000000FF000000FF) * 0x000F424000000064) +
       (((w >> 16) & 0x000000FF000000FF) * 0x0000271000000001)) >>
      32;
  m = m * 100000000 + w;
  return true;
}

// m / 10^fraction, negated if asked, as fast_float rounds it; false if fast_float must decide
// (Eisel-Lemire cannot round this m, rare and close to a halfway point). Requires m < 10^19 and
// fraction <= 19, which keep every step exact or correctly rounded.
[[gnu::always_inline]] inline bool decimal_to_double(uint64_t m, int64_t fraction, bool negative,
                                                     double &value) {
  if (m <= (uint64_t{1} << 53)) {
    const double magnitude = static_cast<double>(m) / kPowersOfTen[fraction];
    value = std::bit_cast<double>(std::bit_cast<uint64_t>(magnitude) |
                                  (static_cast<uint64_t>(negative) << 63));
    return true;
  }
  const fast_float::adjusted_mantissa am =
      fast_float::compute_float<fast_float::binary_format<double>>(-fraction, m);
  if (am.power2 < 0) return false;
  fast_float::to_float(negative, am, value);
  return true;
}

}  // namespace short_decimal_detail

// Parses "[-]digits[.digits]" at `p` (at least one digit, at most 19, not followed by an exponent)
// into `value` and returns the end of the number; returns null, leaving `value` alone, for
// anything else, which the caller hands to fast_float. Only little-endian hosts take the
// eight-digit steps. Always inlined: called out of line, the parsing loop keeps its running sum
// in memory across calls.
[[gnu::always_inline]] inline const char *parse_short_decimal(const char *p, const char *end,
                                                              double &value) {
  using namespace short_decimal_detail;
  // The sign is read without a branch: random data has as many negative numbers as positive.
  const bool negative = p < end && *p == '-';
  const char *q = p + negative;
  const char *const first = q;
  uint64_t m = 0;
  while (q < end && is_digit(*q)) m = 10 * m + static_cast<unsigned>(*q++ - '0');
  auto digits = q - first;
  auto fraction = decltype(digits){0};
  if (q < end && *q == '.') {
    const char *const point = ++q;
    // Two eight-digit steps cover the fractions of shortest round-trip numbers (up to 17
    // digits); the digit counts keep m below 10^19 after them.
    if constexpr (std::endian::native == std::endian::little) {
      if (end - q >= 8 && digits <= 11 && eight_digits(q, m)) {
        q += 8;
        if (end - q >= 8 && digits <= 3 && eight_digits(q, m)) q += 8;
      }
    }
    while (q < end && is_digit(*q)) m = 10 * m + static_cast<unsigned>(*q++ - '0');
    fraction = q - point;
    digits += fraction;
  }
  // digits <= 19 also means that m did not overflow.
  if (digits == 0 || digits > 19 || (q < end && (*q == 'e' || *q == 'E'))) return nullptr;
  return decimal_to_double(m, fraction, negative, value) ? q : nullptr;
}

}  // namespace dpcov::cli
