// The short-decimal parser against fast_float, its reference: wherever it accepts a number it
// must stop where fast_float stops and give the same double, bit for bit.
#include <gtest/gtest.h>

#include <fast_float/fast_float.h>

#include <bit>
#include <charconv>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "io/readers/short_decimal.hpp"

namespace dpcov::cli {
namespace {

// Null if the parser declined; otherwise checks it against fast_float and returns its end.
const char *check_against_fast_float(const std::string &text) {
  const char *const end = text.data() + text.size();
  double value = 0.0;
  const char *const stop = parse_short_decimal(text.data(), end, value);
  if (stop == nullptr) return nullptr;
  double reference = 0.0;
  const auto result = fast_float::from_chars(text.data(), end, reference);
  EXPECT_EQ(result.ec, std::errc()) << text;
  EXPECT_EQ(stop, result.ptr) << text;
  EXPECT_EQ(std::bit_cast<uint64_t>(value), std::bit_cast<uint64_t>(reference)) << text;
  return stop;
}

TEST(ShortDecimal, PrintedWithNineSignificantDigitsEveryNumberIsAcceptedAndExact) {
  std::mt19937_64 engine(20261129);
  std::normal_distribution<double> normal;
  char text[40];
  for (int k = 0; k < 200000; ++k) {
    const double x = normal(engine) * (k % 2 ? 1.0 : 1000.0);
    const auto printed = std::to_chars(text, text + sizeof text, x, std::chars_format::general, 9);
    const std::string number(text, printed.ptr);
    if (number.find('e') != std::string::npos) continue;  // left to fast_float
    ASSERT_NE(check_against_fast_float(number + ",1"), nullptr) << number;
  }
}

TEST(ShortDecimal, RandomDigitStringsAgreeWithFastFloatWhereAccepted) {
  // Runs of digits, points, signs, exponents and delimiters, lengths 1 to 30: each accepted
  // string is compared, and both accepted and declined strings occur often.
  std::mt19937_64 engine(36);
  const std::string alphabet = "0123456789012345678901234567890123456789..-eE+,\n x";
  int accepted = 0;
  int declined = 0;
  for (int k = 0; k < 500000; ++k) {
    std::string text(1 + engine() % 30, ' ');
    for (char &c : text) c = alphabet[engine() % alphabet.size()];
    (check_against_fast_float(text) != nullptr ? accepted : declined) += 1;
  }
  EXPECT_GT(accepted, 50000);
  EXPECT_GT(declined, 50000);
}

TEST(ShortDecimal, DeclinesWhatOnlyFastFloatReadsExactly) {
  for (const std::string text :
       {"1e5", "1.5E-3", "-", ".", "-.", "+1", "nan", "inf", "", "12345678901234567890",
        "9007199254740993", "1234567890123456789.", "0.30000000000000004",
        "1.00000000000000000001"})
    EXPECT_EQ(check_against_fast_float(text), nullptr) << text;
}

TEST(ShortDecimal, EdgesOfTheExactRangeAgreeWithFastFloat) {
  for (const std::string text :
       {"0", "-0", "-0.0", "5.", ".5", "9007199254740992", "900719925474099.2",
        "0.9007199254740992", "0.000000000000000001", "12345678.12345678",
        "-0.123456789", "0.12345678x", "7.25,8", "0000000000000000001"}) {
    EXPECT_NE(check_against_fast_float(text), nullptr) << text;
  }
  const char *const empty = "1";
  double value = 2.0;
  EXPECT_EQ(parse_short_decimal(empty, empty, value), nullptr);  // nothing to read
  EXPECT_EQ(value, 2.0);
}

}  // namespace
}  // namespace dpcov::cli
