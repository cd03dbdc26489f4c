// The short-decimal parser against fast_float, its reference: wherever it accepts a number it
// must stop where fast_float stops and give the same double, bit for bit (and strtod's). The CSV
// reader, which tries it first and fast_float after, gives strtod's double for every number.
#include <gtest/gtest.h>

#include <fast_float/fast_float.h>

#include <algorithm>
#include <bit>
#include <unistd.h>

#include <charconv>
#include <cstdio>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "io/readers/byte_source.hpp"
#include "io/readers/csv_reader.hpp"
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
  const std::string accepted(text.data(), stop);
  EXPECT_EQ(std::bit_cast<uint64_t>(value),
            std::bit_cast<uint64_t>(std::strtod(accepted.c_str(), nullptr)))
      << text;
  return stop;
}

int digit_count(const std::string &text) {
  return static_cast<int>(
      std::count_if(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }));
}

// Shortest round-trip text of x without an exponent (printf's %.17g digits or fewer), as pandas
// and make_csv write numbers of moderate size.
std::string shortest(double x) {
  char text[400];
  const auto printed = std::to_chars(text, text + sizeof text, x, std::chars_format::fixed);
  return {text, printed.ptr};
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

TEST(ShortDecimal, ShortestRoundTripNumbersOfUpToNineteenDigitsAreAcceptedAndExact) {
  // Gaussian numbers over seven decades: 15 to 19 digits, most above 2^53 once the point is
  // dropped, where the parser takes fast_float's Eisel-Lemire step instead of a division. Those
  // with more than 19 digits (leading zeros included: below 10^-2) are left to fast_float.
  std::mt19937_64 engine(20261130);
  std::normal_distribution<double> normal;
  int accepted = 0;
  for (int k = 0; k < 300000; ++k) {
    const std::string number = shortest(normal(engine) * std::pow(10.0, k % 7 - 3));
    const bool nineteen = digit_count(number) <= 19;
    EXPECT_EQ(check_against_fast_float(number + ",") != nullptr, nineteen) << number;
    accepted += nineteen ? 1 : 0;
  }
  EXPECT_GT(accepted, 300000 * 3 / 4);
}

TEST(ShortDecimal, SeventeenToNineteenDigitsAndTiesAgreeWithFastFloat) {
  for (const std::string text :
       {"9007199254740993", "9007199254740995", "-9007199254740993.0", "1234567890123456789.",
        "0.30000000000000004", "9999999999999999999", "0.9999999999999999999",
        "1.000000000000000111", "1.000000000000000222", "0.1000000000000000055511151231257827",
        "-0.38683176162103994", "18446744073709551.6", "4.9406564584124654"}) {
    EXPECT_EQ(check_against_fast_float(text) == nullptr, digit_count(text) > 19) << text;
  }
}

TEST(ShortDecimal, DeclinesWhatOnlyFastFloatReads) {
  // Exponents (subnormals and huge numbers among them), signs fast_float refuses, NaN and
  // infinity (which the reader then refuses), more than 19 digits.
  for (const std::string text :
       {"1e5", "1.5E-3", "4.9e-324", "2.2250738585072014e-308", "1.7976931348623157e308", "-",
        ".", "-.", "+1", "nan", "-nan", "inf", "-infinity", "", "12345678901234567890",
        "1.00000000000000000001", "0.000000000000000000001"})
    EXPECT_EQ(check_against_fast_float(text), nullptr) << text;
}

TEST(ShortDecimal, TheReaderGivesStrtodsDoubleForEveryNumberOfBothFormats) {
  // A CSV of shortest round-trip numbers and one of %.9g numbers (as numpy.savetxt and R write
  // them), each with edge cases mixed in: every value read equals strtod's, bit for bit, along
  // both the short parser and fast_float (which takes exponents and long numbers).
  const std::vector<std::string> edges = {
      "4.9e-324", "-2.2250738585072009e-308", "1.7976931348623157e308", "9007199254740993",
      "0.000000000000000000000123456789", "-0", "123456789012345678901234", "5.", ".5"};
  char path[] = "/tmp/dpcov-short-decimal-XXXXXX";
  const int fd = ::mkstemp(path);
  ASSERT_GE(fd, 0);
  ::close(fd);
  for (const bool nine_digits : {false, true}) {
    std::mt19937_64 engine(nine_digits ? 9 : 17);
    std::normal_distribution<double> normal;
    std::vector<std::string> fields;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    for (int row = 0; row < 20000; ++row) {
      for (int j = 0; j < 5; ++j) {
        const double x = normal(engine) * std::pow(10.0, (row + j) % 9 - 4);
        char text[400];
        const auto printed =
            nine_digits ? std::to_chars(text, text + sizeof text, x, std::chars_format::general, 9)
                        : std::to_chars(text, text + sizeof text, x);
        fields.emplace_back(row % 997 == 0 ? edges[(row / 997 + j) % edges.size()]
                                           : std::string(text, printed.ptr));
        out << (j ? "," : "") << fields.back();
      }
      out << '\n';
    }
    out.close();
    CsvReader reader(std::make_unique<ByteSource>(path), {});
    Chunk chunk;
    size_t k = 0;
    while (reader.next_chunk(chunk))
      for (int64_t i = 0; i < chunk.rows * chunk.dim; ++i, ++k)
        ASSERT_EQ(std::bit_cast<uint64_t>(chunk.values[static_cast<size_t>(i)]),
                  std::bit_cast<uint64_t>(std::strtod(fields[k].c_str(), nullptr)))
            << fields[k];
    EXPECT_EQ(k, fields.size());
  }
  std::remove(path);
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
