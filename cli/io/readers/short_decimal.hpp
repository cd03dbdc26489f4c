// A parser for the short plain decimals most CSV writers emit with a set precision ("-0.386831762",
// "12.5", "3"): at most 19 digits, no exponent. Such a number is m / 10^k with m < 2^53 and
// k <= 22 in all but rare cases, and then one IEEE division of two exactly represented doubles
// rounds the exact quotient correctly (Clinger 1990, the fast path fast_float takes too), so the
// result is bit for bit fast_float's. Eight fraction digits at a time are converted without a
// branch per digit, which is where fast_float's general parse loses time on such numbers.
#pragma once

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
  // Each byte is a digit iff its high nibble is 3 and adding 6 leaves it 3.
  if (((w & 0xF0F0F0F0F0F0F0F0) | (((w + 0x0606060606060606) & 0xF0F0F0F0F0F0F0F0) >> 4)) !=
      0x3333333333333333)
    return false;
  // Little-endian bytes: pairs, then fours, then the eight-digit value (Lemire's SWAR method).
  w -= 0x3030303030303030;
  w = w * 10 + (w >> 8);
  w = (((w & 0x000000FF000000FF) * 0x000F424000000064) +
       (((w >> 16) & 0x000000FF000000FF) * 0x0000271000000001)) >>
      32;
  m = m * 100000000 + w;
  return true;
}

}  // namespace short_decimal_detail

// Parses "[-]digits[.digits]" at `p` (at least one digit, at most 19, not followed by an exponent,
// at most 2^53 once the point is dropped) into `value` and
// returns the end of the number; returns null, leaving `value` alone, for anything else, which
// the caller hands to fast_float. Only little-endian hosts take the eight-digit step. Always
// inlined: called out of line, the parsing loop keeps its running sum in memory across calls.
[[gnu::always_inline]] inline const char *parse_short_decimal(const char *p, const char *end, double &value) {
  using namespace short_decimal_detail;
  const bool negative = p < end && *p == '-';
  const char *q = p + (negative ? 1 : 0);
  const char *const first = q;
  uint64_t m = 0;
  while (q < end && is_digit(*q)) m = 10 * m + static_cast<unsigned>(*q++ - '0');
  auto digits = q - first;
  auto fraction = decltype(digits){0};
  if (q < end && *q == '.') {
    const char *const point = ++q;
    if constexpr (std::endian::native == std::endian::little)
      if (end - q >= 8 && digits <= 11 && eight_digits(q, m)) q += 8;
    while (q < end && is_digit(*q)) m = 10 * m + static_cast<unsigned>(*q++ - '0');
    fraction = q - point;
    digits += fraction;
  }
  // fraction <= digits <= 19 keeps the power of ten exact and inside the table.
  if (digits == 0 || digits > 19 || m > (uint64_t{1} << 53)) return nullptr;
  if (q < end && (*q == 'e' || *q == 'E')) return nullptr;
  const double magnitude = static_cast<double>(m) / kPowersOfTen[fraction];
  value = negative ? -magnitude : magnitude;
  return q;
}

}  // namespace dpcov::cli
