// Per-unit contribution bounding in the kernel (core/data/unit_rows.hpp, exact_unit_gram.cpp):
// at most k rows kept per unit, all of them when the unit has at most k; the kept subset uniform
// over the unit's k-subsets (a chi-square test at a fixed seed); a unit id that goes back refused
// naming the row, before any draw or change; merges of disjoint id ranges accepted and of
// overlapping ones (a split unit) refused; and the exact accumulator holds every unit's integer
// trace to the grid's bound even for units of rows all on the bound, and the same integers as a
// row-by-row reference however the units fall into its blocks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <random>

#include "core/data/exact_gram.hpp"
#include "core/data/unit_rows.hpp"
#include "core/error.hpp"
#include "core/random/rng.hpp"

namespace dpcov::data {
namespace {

// Row r holds (r, -r): the kept rows say which rows were chosen.
Matrix numbered_rows(int64_t n) {
  Matrix rows(n, 2);
  for (int64_t r = 0; r < n; ++r) {
    rows(r, 0) = static_cast<double>(r);
    rows(r, 1) = -static_cast<double>(r);
  }
  return rows;
}

TEST(UnitSampler, KeepsAtMostKRowsOfEachUnitAndCountsTheRest) {
  const Matrix rows = numbered_rows(10);
  const std::vector<int64_t> ids = {1, 1, 1, 1, 1, 2, 2, 5, 5, 5};
  UnitSampler sampler(2, 2);
  random::Rng rng = random::Rng::from_seed(1);
  UnitBatch batch;
  sampler.add(rows.view(), ids.data(), rng, batch);
  EXPECT_TRUE(sampler.open());
  sampler.finish(batch);
  EXPECT_EQ(batch.ends, (std::vector<int64_t>{2, 4, 6}));
  EXPECT_EQ(sampler.units(), 3);
  EXPECT_EQ(sampler.truncated(), 3 + 0 + 1);
  // Unit 2 has exactly k rows: both kept, in order.
  EXPECT_EQ(batch.rows[4], 5.0);
  EXPECT_EQ(batch.rows[6], 6.0);
  // Unit 1's kept rows are two distinct rows among 0..4.
  EXPECT_NE(batch.rows[0], batch.rows[2]);
  EXPECT_LE(std::max(batch.rows[0], batch.rows[2]), 4.0);
}

TEST(UnitSampler, UnitsSpanChunks) {
  const Matrix rows = numbered_rows(6);
  const std::vector<int64_t> ids = {7, 7, 7, 7, 7, 7};
  UnitSampler sampler(10, 2);
  random::Rng rng = random::Rng::from_seed(2);
  UnitBatch batch;
  sampler.add(rows.view().row_block(0, 4), ids.data(), rng, batch);
  sampler.add(rows.view().row_block(4, 2), ids.data() + 4, rng, batch);
  EXPECT_TRUE(batch.ends.empty());
  sampler.finish(batch);
  EXPECT_EQ(batch.ends, (std::vector<int64_t>{6}));
  EXPECT_EQ(sampler.truncated(), 0);
}

// Units of 5 rows with k = 2: each of the 10 pairs has probability 1/10. 20000 units give counts
// of mean 2000; the chi-square statistic over 10 cells has 9 degrees of freedom, and its 1 - 1e-6
// quantile is 46.1 (scipy.stats.chi2.ppf(1 - 1e-6, 9)): false-failure rate 1e-6 at this seed. A
// sampler that kept the first k rows would put every count in one cell (statistic 180000).
TEST(UnitSampler, KeptSubsetIsUniform) {
  const int64_t units = 20000, size = 5;
  const Matrix rows = numbered_rows(size);
  std::vector<int64_t> ids(size);
  UnitSampler sampler(2, 2);
  random::Rng rng = random::Rng::from_seed(3);
  std::map<std::pair<int, int>, int64_t> counts;
  for (int64_t u = 0; u < units; ++u) {
    std::fill(ids.begin(), ids.end(), u);
    UnitBatch batch;
    sampler.add(rows.view(), ids.data(), rng, batch);
    sampler.finish(batch);
    const int a = static_cast<int>(batch.rows[0]), b = static_cast<int>(batch.rows[2]);
    ++counts[{std::min(a, b), std::max(a, b)}];
  }
  ASSERT_EQ(counts.size(), 10u);
  double chi2 = 0.0;
  for (const auto &[pair, c] : counts) {
    const double diff = static_cast<double>(c) - 2000.0;
    chi2 += diff * diff / 2000.0;
  }
  EXPECT_LT(chi2, 46.1);
}

TEST(UnitSampler, RefusesAUnitIdThatGoesBackNamingTheRowAndChangesNothing) {
  const Matrix rows = numbered_rows(4);
  UnitSampler sampler(1, 2);
  random::Rng rng = random::Rng::from_seed(4);
  UnitBatch batch;
  const std::vector<int64_t> first = {1, 1, 2, 2};
  sampler.add(rows.view(), first.data(), rng, batch);
  const random::Rng before = rng;
  const std::vector<int64_t> back = {2, 3, 1, 4};
  try {
    sampler.add(rows.view(), back.data(), rng, batch);
    FAIL() << "accepted";
  } catch (const Error &e) {
    EXPECT_EQ(e.status(), Status::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("row 2 (0-based) of this call has a unit id smaller "
                                         "than the previous row's"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(rng.next_u64(), random::Rng(before).next_u64());
  EXPECT_EQ(sampler.units(), 1);
  EXPECT_TRUE(sampler.open());
  // A closed unit cannot come back after finish().
  sampler.finish(batch);
  const std::vector<int64_t> again = {2};
  EXPECT_THROW(sampler.add(rows.view().row_block(0, 1), again.data(), rng, batch), Error);
}

TEST(UnitSampler, RefusesNonFiniteRowsNamingThem) {
  Matrix rows = numbered_rows(3);
  rows(2, 1) = NAN;
  const std::vector<int64_t> ids = {1, 2, 3};
  UnitSampler sampler(1, 2);
  random::Rng rng = random::Rng::from_seed(5);
  UnitBatch batch;
  try {
    sampler.add(rows.view(), ids.data(), rng, batch);
    FAIL() << "accepted";
  } catch (const RowError &e) {
    EXPECT_EQ(e.status(), Status::NonFinite);
    EXPECT_EQ(e.row(), 2);
  }
  EXPECT_TRUE(sampler.empty());
}

TEST(UnitSampler, MergesDisjointRangesAndRefusesASplitUnit) {
  const Matrix rows = numbered_rows(4);
  random::Rng rng = random::Rng::from_seed(6);
  UnitBatch batch;
  UnitSampler a(2, 2), b(2, 2), c(2, 2);
  const std::vector<int64_t> low = {1, 1, 2, 3}, high = {3, 4, 5, 6}, top = {7, 7, 8, 9};
  a.add(rows.view(), low.data(), rng, batch);
  b.add(rows.view(), high.data(), rng, batch);
  c.add(rows.view(), top.data(), rng, batch);
  try {
    a.merge(b);
    FAIL() << "merged open units";
  } catch (const Error &e) {
    EXPECT_EQ(e.status(), Status::Precondition);
  }
  a.finish(batch);
  b.finish(batch);
  c.finish(batch);
  try {
    a.merge(b);  // unit 3 in both
    FAIL() << "merged a split unit";
  } catch (const Error &e) {
    EXPECT_EQ(e.status(), Status::Incompatible);
    // The refusal reaches worker logs: it says what went wrong and names no unit id.
    const std::string message = e.what();
    EXPECT_NE(message.find("overlap"), std::string::npos) << message;
    EXPECT_NE(message.find("split"), std::string::npos) << message;
    EXPECT_EQ(message.find_first_of("0123456789"), std::string::npos) << message;
  }
  EXPECT_EQ(a.units(), 3);
  // A partition between two already merged ones: disjoint from each, merged in any order.
  UnitSampler outer = c, middle(2, 2);
  outer.merge(a);
  const std::vector<int64_t> between = {4, 5, 5, 6};
  middle.add(rows.view(), between.data(), rng, batch);
  middle.finish(batch);
  outer.merge(middle);
  EXPECT_EQ(outer.units(), 9);
  EXPECT_EQ(outer.first_id(), 1);
  EXPECT_EQ(outer.last_id(), 9);
  // Rows after a merge need ids above every unit seen.
  const std::vector<int64_t> inside = {8};
  EXPECT_THROW(outer.add(rows.view().row_block(0, 1), inside.data(), rng, batch), Error);
  a.merge(c);
  EXPECT_EQ(a.units(), 6);
  EXPECT_EQ(a.first_id(), 1);
  EXPECT_EQ(a.last_id(), 9);
  EXPECT_THROW(a.merge(a), Error);
  UnitSampler other_k(3, 2);
  EXPECT_THROW(other_k.merge(b), Error);
}

TEST(UnitSampler, RefusesKOutsideItsRange) {
  EXPECT_THROW(UnitSampler(0, 2), Error);
  EXPECT_THROW(UnitSampler(-3, 2), Error);
  EXPECT_THROW(UnitSampler((int64_t{1} << 20) + 1, 2), Error);
  EXPECT_THROW(UnitSampler(1, 0), Error);
}

// k rows of a unit within the row bound whose coordinates all round up: rounded to nearest, the
// unit's integer trace passes the grid's r2 (the rounding of every row adds up); the accumulator
// rounds the unit toward zero instead and holds it within.
TEST(ExactUnitGram, EveryUnitsIntegerTraceStaysWithinTheGridsBound) {
  // B = 1, k = 16: B_u = 4, bits 4, so y = x 2^4 / 4 = 4 x; r2 = (16 + 1 + 1)^2 = 324.
  const int64_t d = 3, k = 16;
  const ExactGridSpec grid{d, 4.0, 4, 18 * 18};
  ExactGramAccumulator acc(grid, BoundPolicy::Clip);
  Matrix rows(k, d);
  // x = (0.6275, 0.6275, 0.3775), norm 0.965: y = (2.51, 2.51, 1.51) rounds to (3, 3, 2), 22
  // per row and 352 > 324 per unit; toward zero (2, 2, 1), 9 per row, 144 per unit.
  for (int64_t r = 0; r < k; ++r) {
    rows(r, 0) = rows(r, 1) = 0.6275;
    rows(r, 2) = 0.3775;
  }
  acc.add_units(rows.view(), {k});
  ExactInt trace = 0;
  for (int64_t j = 0; j < d; ++j) trace += acc.upper()[static_cast<size_t>(j * (j + 1) / 2 + j)];
  EXPECT_EQ(trace, 144);
  EXPECT_EQ(acc.counts().rows, k);
  // The same rows as 16 units of one row each stay rounded to nearest: 16 * 22.
  ExactGramAccumulator singles(grid, BoundPolicy::Clip);
  std::vector<int64_t> ends(k);
  for (int64_t r = 0; r < k; ++r) ends[static_cast<size_t>(r)] = r + 1;
  singles.add_units(rows.view(), ends);
  trace = 0;
  for (int64_t j = 0; j < d; ++j)
    trace += singles.upper()[static_cast<size_t>(j * (j + 1) / 2 + j)];
  EXPECT_EQ(trace, 16 * 22);
}

// The reference: each unit rounded to nearest, toward zero when its integer trace exceeds r2,
// then halved until within, and every row's outer product added in 128-bit integers.
std::vector<ExactInt> reference_unit_gram(const Matrix &rows, const std::vector<int64_t> &ends,
                                          const ExactGridSpec &grid) {
  const int64_t d = grid.dim;
  const double to_grid = std::ldexp(1.0, grid.bits) / grid.bound;
  std::vector<ExactInt> upper(static_cast<size_t>(d * (d + 1) / 2), 0);
  std::vector<int64_t> z;
  int64_t first = 0;
  for (const int64_t end : ends) {
    double scale = 1.0;
    bool toward_zero = false;
    for (;;) {
      ExactInt trace = 0;
      z.assign(static_cast<size_t>((end - first) * d), 0);
      for (int64_t i = first; i < end; ++i)
        for (int64_t j = 0; j < d; ++j) {
          const double y = rows(i, j) * scale * to_grid;
          const auto v = static_cast<int64_t>(toward_zero ? std::trunc(y) : std::nearbyint(y));
          z[static_cast<size_t>((i - first) * d + j)] = v;
          trace += static_cast<ExactInt>(v) * v;
        }
      if (trace <= grid.norm2_bound) break;
      if (toward_zero) scale *= 0.5;
      toward_zero = true;
    }
    for (int64_t r = 0; r < end - first; ++r) {
      size_t k = 0;
      for (int64_t j = 0; j < d; ++j)
        for (int64_t i = 0; i <= j; ++i)
          upper[k++] += static_cast<ExactInt>(z[static_cast<size_t>(r * d + i)]) *
                        z[static_cast<size_t>(r * d + j)];
    }
    first = end;
  }
  return upper;
}

// More units than one exact block holds (4096), units of 1 to 9 rows and one longer than a dsyrk
// block, at scales from well within r2 to past it (rounded toward zero, or halved): the blocked
// dsyrk sum equals the reference's integers, in one call or in chunks of whole units.
TEST(ExactUnitGram, BlockedSumEqualsTheRowByRowReference) {
  const int64_t d = 40;
  const ExactGridSpec grid{d, 1.0, 10, 1030 * 1030};
  std::mt19937_64 gen(20261129);
  std::uniform_int_distribution<int64_t> size(1, 9);
  std::uniform_real_distribution<double> scale(0.0, 0.2), entry(-1.0, 1.0);
  std::vector<int64_t> ends;
  int64_t rows_total = 0;
  for (int64_t u = 0; u < 5000; ++u) ends.push_back(rows_total += u == 2500 ? 2000 : size(gen));
  Matrix rows(rows_total, d);
  int64_t first = 0;
  for (const int64_t end : ends) {
    const double s = scale(gen);
    for (int64_t i = first; i < end; ++i)
      for (int64_t j = 0; j < d; ++j) rows(i, j) = s * entry(gen);
    first = end;
  }
  const std::vector<ExactInt> want = reference_unit_gram(rows, ends, grid);
  ExactGramAccumulator whole(grid, BoundPolicy::Clip), chunked(grid, BoundPolicy::Clip);
  whole.add_units(rows.view(), ends);
  EXPECT_TRUE(whole.upper() == want);
  // In chunks of 700 units: the same integers.
  for (size_t u = 0; u < ends.size(); u += 700) {
    const int64_t from = u == 0 ? 0 : ends[u - 1];
    const size_t last = std::min(ends.size(), u + 700);
    std::vector<int64_t> local;
    for (size_t v = u; v < last; ++v) local.push_back(ends[v] - from);
    chunked.add_units(std::as_const(rows).view().row_block(from, ends[last - 1] - from), local);
  }
  EXPECT_TRUE(chunked.upper() == want);
  EXPECT_EQ(chunked.counts().rows, rows_total);
}

TEST(ExactUnitGram, OneRowUnitsWithinTheBoundAreTheRowsGram) {
  const ExactGridSpec grid{2, 1.0, 10, (1024 + 2) * (1024 + 2)};
  ExactGramAccumulator by_units(grid, BoundPolicy::Clip), by_rows(grid, BoundPolicy::Clip);
  Matrix rows(3, 2);
  rows(0, 0) = 0.3; rows(0, 1) = -0.2;
  rows(1, 0) = 0.01; rows(1, 1) = 0.5;
  rows(2, 0) = -0.7; rows(2, 1) = 0.1;
  by_units.add_units(rows.view(), {1, 2, 3});
  by_rows.add_rows(rows.view());
  EXPECT_EQ(by_units.upper(), by_rows.upper());
  EXPECT_THROW(by_units.add_units(rows.view(), {1, 3, 2}), Error);
  EXPECT_THROW(by_units.add_units(rows.view(), {1, 2}), Error);
  EXPECT_EQ(by_units.counts().rows, 3);
}

}  // namespace
}  // namespace dpcov::data
