// `release --add-constant`'s norm bound (cli/options/constant_column_option.hpp, the library's): the norm
// bound of the rows [B, x] is never below sqrt(2) B, checked exactly in integers over random B
// across the accepted range, and is at most three ulps above it. The rows themselves are the
// library's (tests/unit/row_bounding_test.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

#include "options/constant_column_option.hpp"

namespace dpcov::cli {
namespace {

// Mantissa products (below 2^107) held exactly.
__extension__ typedef __int128 Wide;

// True when r^2 >= 2 b^2 exactly (r, b finite and > 0, r within a factor 4 of b), compared on
// the integer mantissas: r = R 2^(er - 53), b = M 2^(eb - 53).
bool at_least_sqrt2_times(double r, double b) {
  int er = 0, eb = 0;
  const auto R = static_cast<Wide>(std::ldexp(std::frexp(r, &er), 53));
  const auto M = static_cast<Wide>(std::ldexp(std::frexp(b, &eb), 53));
  // r^2 >= 2 b^2  <=>  R^2 2^(2 er) >= M^2 2^(2 eb + 1).
  const int shift = 2 * (er - eb) - 1;
  EXPECT_TRUE(shift >= -1 && shift <= 1) << r << " " << b;
  if (shift >= 0) return (R * R) << shift >= M * M;
  return R * R >= (M * M) << 1;
}

TEST(ConstantColumn, NormBoundIsNeverBelowSqrt2TimesBAndAtMostThreeUlpsAbove) {
  std::mt19937_64 gen(16);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::uniform_int_distribution<int> exponent(-960, 510);
  std::vector<double> points = {1.0, 2.0, 0.5, 3.0, 1e9, 1e-6, 0x1p-960, 1e150,
                                std::sqrt(std::numeric_limits<double>::max())};
  for (int i = 0; i < 20000; ++i) points.push_back(std::ldexp(mantissa(gen), exponent(gen)));
  for (double b : points) {
    const double r = constant_column_norm_bound(b);
    ASSERT_TRUE(std::isfinite(r)) << b;
    ASSERT_TRUE(at_least_sqrt2_times(r, b)) << b;
    const double three_below = std::nextafter(std::nextafter(std::nextafter(r, 0.0), 0.0), 0.0);
    ASSERT_FALSE(at_least_sqrt2_times(three_below, b)) << b;
  }
  EXPECT_EQ(constant_column_norm_bound(std::numeric_limits<double>::max()),
            std::numeric_limits<double>::infinity());
}

}  // namespace
}  // namespace dpcov::cli
