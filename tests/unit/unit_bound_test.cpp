// The unit-level constants (core/privacy/unit_bound.hpp, proofs/unit_gram_sensitivity.md) pinned
// at 10^5 random points: B_u^2 >= k B^2 compared exactly in 128-bit integers, B_u within a few
// ulps of sqrt(k) B (1 + 2^-30), k = 1 giving B (1 + 2^-30), the sensitivities those of
// gram_sensitivity.hpp at B_u, and every argument outside its range refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "core/error.hpp"
#include "core/privacy/gram_sensitivity.hpp"
#include "core/privacy/unit_bound.hpp"
#include "core/random/rng.hpp"

namespace dpcov::privacy {
namespace {

__extension__ typedef unsigned __int128 U128;

// x = m 2^e with m an integer below 2^53.
void split(double x, U128 &m, int &e) {
  int exponent = 0;
  const double fraction = std::frexp(x, &exponent);
  m = static_cast<U128>(std::ldexp(fraction, 53));
  e = exponent - 53;
}

// Whether b^2 >= k B^2 in exact arithmetic, for b >= B (so the shift below is >= 0 and, as
// b / B < 2^11 for k <= 2^20, at most 22: mb^2 2^22 < 2^128, k mB^2 < 2^126).
bool square_covers(double b, int64_t k, double bound) {
  U128 mb = 0, mB = 0;
  int eb = 0, eB = 0;
  split(b, mb, eb);
  split(bound, mB, eB);
  const int shift = 2 * (eb - eB);
  if (shift < 0 || shift > 22) ADD_FAILURE() << "shift " << shift;
  return (mb * mb << shift) >= static_cast<U128>(k) * mB * mB;
}

TEST(UnitContributionBound, SquareCoversKTimesRowBoundSquaredExactly) {
  random::Rng rng = random::Rng::from_seed(34);
  for (int t = 0; t < 100000; ++t) {
    const int64_t k = 1 + static_cast<int64_t>(rng.next_u64() % kMaxRowsPerUnit);
    const int exponent = static_cast<int>(rng.next_u64() % 1200) - 900;
    const double bound = std::ldexp(1.0 + static_cast<double>(rng.next_u64() >> 12) * 0x1p-52,
                                    exponent);
    const double b = unit_contribution_bound(k, bound);
    ASSERT_TRUE(square_covers(b, k, bound)) << "k " << k << " B " << bound;
    // Tight: within a few ulps of sqrt(k) B (1 + 2^-30), and never below it.
    const long double exact = std::sqrt(static_cast<long double>(k)) *
                              static_cast<long double>(bound) * (1.0L + 0x1p-30L);
    const long double ratio = static_cast<long double>(b) / exact;
    ASSERT_GE(ratio, 1.0L - 0x1p-60L) << "k " << k << " B " << bound;
    ASSERT_LE(ratio, 1.0L + 0x1p-50L) << "k " << k << " B " << bound;
  }
}

TEST(UnitContributionBound, OneRowPerUnitIsTheRowBoundWithItsRoom) {
  EXPECT_EQ(unit_contribution_bound(1, 1.0), 1.0 + 0x1p-30);
  EXPECT_EQ(unit_contribution_bound(4, 1.0), 2.0 * (1.0 + 0x1p-30));
  EXPECT_EQ(unit_contribution_bound(4, 0.5), 1.0 + 0x1p-30);
}

TEST(UnitGramSensitivity, IsTheRowLevelSensitivityAtTheUnitBound) {
  random::Rng rng = random::Rng::from_seed(35);
  for (int t = 0; t < 1000; ++t) {
    const int64_t k = 1 + static_cast<int64_t>(rng.next_u64() % 64);
    const int64_t d = 1 + static_cast<int64_t>(rng.next_u64() % 100);
    const double bound = std::ldexp(1.0 + static_cast<double>(rng.next_u64() >> 12) * 0x1p-52,
                                    static_cast<int>(rng.next_u64() % 40) - 20);
    const double bu = unit_contribution_bound(k, bound);
    for (const Neighbour n : {Neighbour::ReplaceOne, Neighbour::AddRemove}) {
      const double l2 = unit_gram_l2_sensitivity(n, k, bound);
      const double l1 = unit_gram_upper_triangle_l1_sensitivity(n, d, k, bound);
      ASSERT_EQ(l2, gram_l2_sensitivity(n, bu));
      ASSERT_EQ(l1, gram_upper_triangle_l1_sensitivity(n, d, bu));
      // Never below the exact unit-level values: k B^2 (times sqrt 2 under replace), and
      // (d + 1) k B^2 (halved under add/remove).
      const long double kb2 = static_cast<long double>(k) * bound * bound;
      const bool replace = n == Neighbour::ReplaceOne;
      ASSERT_GE(static_cast<long double>(l2), (replace ? std::sqrt(2.0L) : 1.0L) * kb2);
      ASSERT_GE(static_cast<long double>(l1),
                static_cast<long double>(d + 1) * kb2 / (replace ? 1.0L : 2.0L));
    }
  }
}

TEST(UnitContributionBound, RefusesKOutsideItsRangeAndBadBounds) {
  for (const int64_t k : {int64_t{0}, int64_t{-1}, kMaxRowsPerUnit + 1, INT64_MAX}) {
    try {
      unit_contribution_bound(k, 1.0);
      ADD_FAILURE() << "k " << k << " accepted";
    } catch (const Error &e) {
      EXPECT_EQ(e.status(), Status::InvalidArgument);
      EXPECT_NE(std::string(e.what()).find("max_rows_per_unit"), std::string::npos);
    }
  }
  EXPECT_THROW(unit_contribution_bound(2, 0.0), Error);
  EXPECT_THROW(unit_contribution_bound(2, -1.0), Error);
  EXPECT_THROW(unit_contribution_bound(2, NAN), Error);
  EXPECT_THROW(unit_contribution_bound(2, INFINITY), Error);
  EXPECT_THROW(unit_contribution_bound(kMaxRowsPerUnit, 1e307), Error);  // overflows
}

}  // namespace
}  // namespace dpcov::privacy
