// The kernel's row bounding (core/data/row_bounding.hpp), the one place every surface bounds
// rows: the norm bound under clip / reject / drop, the constant column [c, x], public column
// bounds [1, z], the label bound, rows near the largest double, rows of norm exactly B, refusals
// that carry the row index as data, and the drop rule under replace-one.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "core/data/row_bounding.hpp"
#include "core/error.hpp"

namespace dpcov::data {
namespace {

using privacy::Neighbour;

ConstMatrixView rows_of(const std::vector<double> &v, int64_t cols) {
  return {v.data(), static_cast<int64_t>(v.size()) / cols, cols, cols, Layout::RowMajor};
}

RowBounding norm_bounding(int64_t cols, double bound, BoundPolicy policy,
                          Neighbour neighbour = Neighbour::AddRemove) {
  return RowBounding(cols, bound, policy, 0.0, nullptr, nullptr, 0.0, neighbour);
}

// Exact-enough norm of a bounded row in long double (no over- or underflow for these values).
long double norm_of(const double *x, int64_t d) {
  long double s = 0;
  for (int64_t j = 0; j < d; ++j) s += static_cast<long double>(x[j]) * x[j];
  return std::sqrt(s);
}

TEST(RowBounding, ClipScalesRowsOverTheBoundOntoItAndCountsThem) {
  const std::vector<double> raw = {0.3, 0.4, 3.0, 4.0, -6.0, 8.0};
  std::vector<double> out;
  GramCounts counts;
  const RowBounding b = norm_bounding(2, 1.0, BoundPolicy::Clip);
  ASSERT_EQ(b.bound_rows(rows_of(raw, 2), out, counts), 3);
  EXPECT_EQ(out[0], 0.3);
  EXPECT_EQ(out[1], 0.4);
  for (int i = 1; i < 3; ++i) {
    EXPECT_LE(norm_of(&out[2 * i], 2), 1.0L);
    EXPECT_NEAR(static_cast<double>(norm_of(&out[2 * i], 2)), 1.0, 1e-14);
  }
  EXPECT_EQ(counts.clipped, 2);
  EXPECT_EQ(counts.dropped, 0);
  EXPECT_EQ(b.norm_bound(), 1.0);
}

TEST(RowBounding, RejectRefusesWithTheRowIndexAndNormAsData) {
  const std::vector<double> raw = {0.3, 0.4, 0.1, 0.1, 3.0, 4.0};
  std::vector<double> out;
  GramCounts counts;
  try {
    norm_bounding(2, 1.0, BoundPolicy::Reject).bound_rows(rows_of(raw, 2), out, counts);
    FAIL() << "no refusal";
  } catch (const RowError &e) {
    EXPECT_EQ(e.status(), dpcov::Status::NormBound);
    EXPECT_EQ(e.row(), 2);
    EXPECT_EQ(std::ldexp(e.measure().rest, e.measure().exponent), 5.0);
    EXPECT_FALSE(e.measure().label);
  }
}

TEST(RowBounding, NonFiniteEntriesAreRefusedNamingTheirRow) {
  const std::vector<double> raw = {0.3, 0.4, 0.1, NAN};
  std::vector<double> out;
  GramCounts counts;
  for (const BoundPolicy p : {BoundPolicy::Clip, BoundPolicy::Reject, BoundPolicy::Drop}) {
    try {
      norm_bounding(2, 1.0, p).bound_rows(rows_of(raw, 2), out, counts);
      FAIL() << "no refusal";
    } catch (const RowError &e) {
      EXPECT_EQ(e.status(), dpcov::Status::NonFinite);
      EXPECT_EQ(e.row(), 1);
    }
  }
}

TEST(RowBounding, DropLeavesRowsOutAndIsRefusedUnderReplaceOneWhateverTheRows) {
  const std::vector<double> raw = {0.3, 0.4, 3.0, 4.0, 0.1, 0.1};
  std::vector<double> out;
  GramCounts counts;
  ASSERT_EQ(norm_bounding(2, 1.0, BoundPolicy::Drop).bound_rows(rows_of(raw, 2), out, counts), 2);
  EXPECT_EQ(out[2], 0.1);
  EXPECT_EQ(counts.dropped, 1);
  EXPECT_EQ(counts.clipped, 0);
  // Refused when the request is made, before any row is seen.
  try {
    norm_bounding(2, 1.0, BoundPolicy::Drop, Neighbour::ReplaceOne);
    FAIL() << "drop accepted under replace-one";
  } catch (const Error &e) {
    EXPECT_EQ(e.status(), dpcov::Status::Precondition);
  }
  EXPECT_THROW(check_drop_policy(true, Neighbour::ReplaceOne), Error);
  EXPECT_NO_THROW(check_drop_policy(true, Neighbour::AddRemove));
  EXPECT_NO_THROW(check_drop_policy(false, Neighbour::ReplaceOne));
}

TEST(RowBounding, RowsNearTheLargestDoubleAreClippedInTheirOwnDirection) {
  const std::vector<double> raw = {DBL_MAX, DBL_MAX, -DBL_MAX / 2, DBL_MAX / 4};
  for (const double constant : {0.0, 2.0}) {
    std::vector<double> out;
    GramCounts counts;
    const RowBounding b(2, 2.0, BoundPolicy::Clip, constant, nullptr, nullptr, 0.0,
                        Neighbour::ReplaceOne);
    ASSERT_EQ(b.bound_rows(rows_of(raw, 2), out, counts), 2);
    EXPECT_EQ(counts.clipped, 2);
    const int64_t w = b.out_cols(), off = constant != 0.0 ? 1 : 0;
    for (int i = 0; i < 2; ++i) {
      const double *x = &out[static_cast<size_t>(i * w + off)];
      EXPECT_LE(norm_of(x, 2), 2.0L);
      EXPECT_NEAR(static_cast<double>(norm_of(x, 2)), 2.0, 1e-13);
      // Same direction as the raw row.
      EXPECT_NEAR(x[0] / x[1], raw[2 * i] / raw[2 * i + 1], 1e-13);
    }
  }
}

// Rows of norm exactly B (here (B, 0) and (0, -B)) are never refused, never dropped and never
// leave the bound: on the sphere up to rounding, they are kept within B by a factor a few ulps
// below 1 (proofs/row_bound.md, "Rows kept whole"); with a constant column, [B, x'] is kept whole
// by the accumulator and not counted.
TEST(RowBounding, RowsOfNormExactlyBStayWithinBAndAreNeverRefusedOrDropped) {
  for (const double scale : {0x1p-900, 1.0, 0x1p500}) {
    const std::vector<double> raw = {scale, 0.0, 0.0, -scale};
    for (const BoundPolicy p : {BoundPolicy::Clip, BoundPolicy::Reject, BoundPolicy::Drop}) {
      std::vector<double> out;
      GramCounts counts;
      const RowBounding b = norm_bounding(2, scale, p);
      ASSERT_EQ(b.bound_rows(rows_of(raw, 2), out, counts), 2);
      EXPECT_EQ(counts.dropped, 0);
      EXPECT_LE(out[0], scale);
      EXPECT_GE(out[0], scale * (1 - 32 * DBL_EPSILON));
      EXPECT_GE(out[3], -scale);
      EXPECT_LE(out[3], -scale * (1 - 32 * DBL_EPSILON));
    }
    std::vector<double> out;
    GramCounts counts;
    const RowBounding c(2, scale, BoundPolicy::Reject, scale, nullptr, nullptr, 0.0,
                        Neighbour::ReplaceOne);
    ASSERT_EQ(c.bound_rows(rows_of(raw, 2), out, counts), 2);
    EXPECT_EQ(counts.clipped, 0);
    GramAccumulator acc(3);
    const GramCounts added = acc.add_rows(rows_of(out, 3), c.norm_bound(), BoundPolicy::Clip);
    EXPECT_EQ(added.clipped, 0);
    EXPECT_EQ(out[0], scale);
  }
}

TEST(RowBounding, ConstantColumnKeepsXAFewUlpsWithinBAndItsConstantWhole) {
  const double B = 2.0;
  const std::vector<double> raw = {1.2, 1.6, 0.5, 0.5, 30.0, 40.0};
  std::vector<double> out;
  GramCounts counts;
  const RowBounding b(2, B, BoundPolicy::Clip, B, nullptr, nullptr, 0.0, Neighbour::ReplaceOne);
  ASSERT_EQ(b.out_cols(), 3);
  EXPECT_EQ(b.norm_bound(), std::nextafter(B * std::numbers::sqrt2, INFINITY));
  ASSERT_EQ(b.bound_rows(rows_of(raw, 2), out, counts), 3);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(out[static_cast<size_t>(3 * i)], B);
    EXPECT_LE(norm_of(&out[static_cast<size_t>(3 * i + 1)], 2), B * (1 - 26 * DBL_EPSILON));
  }
  // The row of norm exactly B moves by a few ulps and is not counted; the row of norm 50 is.
  EXPECT_NEAR(out[1], 1.2, 30 * DBL_EPSILON * 2);
  EXPECT_EQ(out[4], 0.5);
  EXPECT_EQ(counts.clipped, 1);
  EXPECT_GT(std::sqrt(2.0L) * B, 0);
  EXPECT_GE(static_cast<long double>(b.norm_bound()), std::sqrt(2.0L) * B);
}

// Rows [B, x'] stay within sqrt(2) B rounded up when the accumulator sums their squares naively
// (so it clips none of them again), for norms far below, at and far above B.
TEST(RowBounding, ConstantColumnRowsStayWithinTheirBoundWhenSummedNaively) {
  std::mt19937_64 gen(17);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> log_scale(-8.0, 8.0);
  for (int64_t d : {1, 2, 3, 10, 64, 500}) {
    for (int trial = 0; trial < 2000; ++trial) {
      const double b = std::pow(10.0, log_scale(gen));
      const double r = constant_column_norm_bound(b, b);
      std::vector<double> x(static_cast<size_t>(d));
      const double target = b * (trial % 3 == 0 ? 1.0 : std::pow(10.0, log_scale(gen) / 4));
      double sum = 0.0;
      for (double &v : x) {
        v = normal(gen);
        sum += v * v;
      }
      for (double &v : x) v *= target / std::sqrt(sum);
      sum = 0.0;
      for (double v : x) sum += v * v;
      const double factor = constant_column_factor({std::sqrt(sum), 0}, b, d);
      ASSERT_LE(factor, 1.0);
      double row = b * b;
      for (double v : x) row += (v * factor) * (v * factor);
      ASSERT_LE(row, r * r) << "d " << d << ", B " << b << ", norm " << target;
      if (target <= b * 0.5) {
        ASSERT_EQ(factor, 1.0);
      }
    }
  }
}

// A finite row whose norm overflows a double is scaled onto the bound in its own direction,
// never to zero.
TEST(RowBounding, ConstantColumnRowsWhoseNormOverflowsAreScaledOntoTheBound) {
  const double big = DBL_MAX;
  for (double b : {1.0, 1e-3, 1e10, 1e150}) {
    const std::vector<double> x = {big, -big, 1.0, -0.5 * big};
    const ScaledNorm norm = scaled_norm(rows_of(x, 4), 0);
    EXPECT_TRUE(std::isinf(norm.value()));
    const double factor = constant_column_factor(norm, b, 4);
    ASSERT_GT(factor, 0.0) << b;
    EXPECT_LE(norm_of(x.data(), 4) * factor, static_cast<long double>(b));
    EXPECT_GE(norm_of(x.data(), 4) * factor, static_cast<long double>(b) * (1 - 1e-10L));
  }
}

TEST(RowBounding, ColumnBoundsGiveRowsOneZInTheBoxAndCountClampedValues) {
  const std::vector<double> lower = {0.0, -10.0}, upper = {2.0, 10.0};
  const RowBounding b(2, 0.0, BoundPolicy::Clip, 0.0, lower.data(), upper.data(), 0.0,
                      Neighbour::ReplaceOne);
  const std::vector<double> raw = {1.0, 5.0, 3.0, -20.0};
  std::vector<double> out;
  GramCounts counts;
  ASSERT_EQ(b.bound_rows(rows_of(raw, 2), out, counts), 2);
  const std::vector<double> expected = {1.0, 0.0, 0.5, 1.0, 1.0, -1.0};
  EXPECT_EQ(out, expected);
  EXPECT_EQ(counts.clamped, 2);
  EXPECT_GE(b.norm_bound(), std::sqrt(3.0));
  // Column bounds take no constant, label or other policy.
  EXPECT_THROW(RowBounding(2, 0.0, BoundPolicy::Reject, 0.0, lower.data(), upper.data(), 0.0,
                           Neighbour::ReplaceOne),
               Error);
  EXPECT_THROW(RowBounding(2, 0.0, BoundPolicy::Clip, 0.0, lower.data(), nullptr, 0.0,
                           Neighbour::ReplaceOne),
               Error);
}

TEST(RowBounding, LabelHasItsOwnBoundUnderEveryPolicy) {
  // Rows [x, y] with ||x|| <= 1 and |y| <= 2; the regression's rows [1, x, y].
  const std::vector<double> raw = {0.3, 0.4, 1.5, 0.3, 0.4, -5.0, 3.0, 4.0, 0.5};
  std::vector<double> out;
  GramCounts counts;
  const RowBounding clip(3, 1.0, BoundPolicy::Clip, 1.0, nullptr, nullptr, 2.0,
                         Neighbour::ReplaceOne);
  ASSERT_EQ(clip.out_cols(), 4);
  ASSERT_EQ(clip.bound_rows(rows_of(raw, 3), out, counts), 3);
  EXPECT_EQ(out[3], 1.5);
  EXPECT_EQ(out[7], -2.0);
  EXPECT_EQ(out[11], 0.5);
  EXPECT_EQ(out[8], 1.0);
  EXPECT_EQ(counts.clipped, 2);
  // Every bounded row within the public norm bound, which has room above sqrt(1 + 1 + 4).
  for (int i = 0; i < 3; ++i) EXPECT_LE(norm_of(&out[static_cast<size_t>(4 * i)], 4), clip.norm_bound());
  EXPECT_GE(clip.norm_bound(), std::sqrt(6.0));
  EXPECT_LE(clip.norm_bound(), std::sqrt(6.0) * (1 + 1e-12));

  try {
    RowBounding(3, 1.0, BoundPolicy::Reject, 0.0, nullptr, nullptr, 2.0, Neighbour::ReplaceOne)
        .bound_rows(rows_of(raw, 3), out, counts);
    FAIL() << "no refusal";
  } catch (const RowError &e) {
    EXPECT_EQ(e.row(), 1);
    EXPECT_TRUE(e.measure().label);
    EXPECT_EQ(e.measure().rest, 5.0);
  }
  GramCounts dropped;
  EXPECT_EQ(RowBounding(3, 1.0, BoundPolicy::Drop, 0.0, nullptr, nullptr, 2.0, Neighbour::AddRemove)
                .bound_rows(rows_of(raw, 3), out, dropped),
            1);
  EXPECT_EQ(dropped.dropped, 2);
}

TEST(RowBounding, BadRequestsAreRefused) {
  const auto make = [](double bound, double constant, double label) {
    return RowBounding(2, bound, BoundPolicy::Clip, constant, nullptr, nullptr, label,
                       Neighbour::ReplaceOne);
  };
  EXPECT_THROW(make(0.0, 0.0, 0.0), Error);
  EXPECT_THROW(make(NAN, 0.0, 0.0), Error);
  EXPECT_THROW(make(1.0, -1.0, 0.0), Error);
  EXPECT_THROW(make(1.0, INFINITY, 0.0), Error);
  EXPECT_THROW(make(1.0, 0.0, -2.0), Error);
  EXPECT_THROW(make(DBL_MAX, DBL_MAX, 0.0), Error);  // sqrt(2) B overflows
  EXPECT_THROW(RowBounding(1, 1.0, BoundPolicy::Clip, 0.0, nullptr, nullptr, 1.0,
                           Neighbour::ReplaceOne),
               Error);  // a label and no feature
  EXPECT_THROW(RowBounding(2, 1.0, static_cast<BoundPolicy>(7), 0.0, nullptr, nullptr, 0.0,
                           Neighbour::ReplaceOne),
               Error);
}

TEST(GramAccumulator, AChunkUnderTheDropPolicyIsRememberedEvenWithNothingDropped) {
  GramAccumulator acc(2);
  const std::vector<double> raw = {0.3, 0.4};
  acc.add_rows(rows_of(raw, 2), 1.0, BoundPolicy::Drop);
  EXPECT_EQ(acc.counts().dropped, 0);
  EXPECT_TRUE(acc.counts().drop_policy);
  GramAccumulator other(2);
  other.merge(acc);
  EXPECT_TRUE(other.counts().drop_policy);
}

}  // namespace
}  // namespace dpcov::data
