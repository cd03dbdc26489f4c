// The exact integer Gram accumulator (core/data/exact_gram.hpp): against a naive integer
// reference across several blocks, blocks summed in double over at most the exactness limit of
// rows, a refused chunk leaves the state as it was (also when blocks of it were processed before
// the refusal), a rounded row over the grid's bound is halved until within, wide rows (the panel
// kernel's) have the naive integers in both layouts, bad grids and the
// drop policy are refused, and a release from an accumulator fed in chunks is the release from
// the same rows at once, bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/data/exact_gram.hpp"
#include "core/data/row_bound.hpp"
#include "core/error.hpp"
#include "core/mechanisms/exact_additive.hpp"
#include "core/random/rng.hpp"
#include "dpcov.h"

namespace dpcov::data {
namespace {

// Rows with entries uniform in [-0.5, 0.5), norm <= 1 for d <= 4.
Matrix random_rows(int64_t n, int64_t d, uint64_t seed) {
  random::Rng rng = random::Rng::from_seed(seed);
  Matrix rows(n, d);
  for (int64_t r = 0; r < n; ++r)
    for (int64_t j = 0; j < d; ++j)
      rows(r, j) = static_cast<double>(rng.next_u64() >> 11) * 0x1.0p-53 - 0.5;
  return rows;
}

// The packed upper triangle of sum_r round(x_r 2^bits) round(x_r 2^bits)^T for B = 1, in int64.
std::vector<int64_t> naive_gram(const Matrix &rows, int bits) {
  const int64_t n = rows.rows(), d = rows.cols();
  std::vector<int64_t> g(static_cast<size_t>(d * (d + 1) / 2), 0);
  for (int64_t r = 0; r < n; ++r) {
    size_t k = 0;
    for (int64_t j = 0; j < d; ++j)
      for (int64_t i = 0; i <= j; ++i)
        g[k++] += static_cast<int64_t>(std::nearbyint(std::ldexp(rows(r, i), bits))) *
                  static_cast<int64_t>(std::nearbyint(std::ldexp(rows(r, j), bits)));
  }
  return g;
}

ExactGridSpec grid_of(int64_t d) {
  const int64_t r = (int64_t{1} << 12) + 3;
  return {d, 1.0, 12, r * r};
}

TEST(ExactGram, EqualsTheNaiveIntegerGramAcrossBlocks) {
  // 9000 rows: three blocks of at most kExactBlockRows in one call.
  const Matrix rows = random_rows(9000, 3, 11);
  ExactGramAccumulator acc(grid_of(3), BoundPolicy::Clip);
  const GramCounts added = acc.add_rows(rows.view());
  EXPECT_EQ(added.rows, 9000);
  EXPECT_EQ(added.clipped, 0);
  const std::vector<int64_t> naive = naive_gram(rows, 12);
  ASSERT_EQ(acc.upper().size(), naive.size());
  for (size_t k = 0; k < naive.size(); ++k) EXPECT_EQ(static_cast<int64_t>(acc.upper()[k]), naive[k]);
}

TEST(ExactGram, AConstantColumnHoldsItsGridValueInEveryRow) {
  // Rows [c, x] within the bound at a grid whose rounding moves c: entry (0, 0) is n z0^2 with
  // z0 unit = exact_grid_value(c), the value centring and the intercept divide by.
  const int bits = 7;
  const double bound = 1.7, c = 1.1;
  const int64_t r = (int64_t{1} << bits) + 3;
  Matrix rows = random_rows(500, 3, 5);
  for (int64_t i = 0; i < rows.rows(); ++i) rows(i, 0) = c;
  ExactGramAccumulator acc({3, bound, bits, r * r}, BoundPolicy::Reject);
  acc.add_rows(rows.view());
  const double held = exact_grid_value(c, bound, bits);
  EXPECT_NE(held, c);
  const double z0 = held / std::ldexp(bound, -bits);  // exact: a power-of-two scaling
  EXPECT_EQ(z0, std::nearbyint(z0));
  EXPECT_EQ(static_cast<double>(acc.upper()[0]), 500.0 * z0 * z0);
}

TEST(ExactGram, SumsInDoubleOverNoMoreThanTheExactnessLimitOfRows) {
  // Blocks of d = 16 hold 2048 rows, so two blocks' Grams add up in double before conversion.
  // Each row's z_1 = 2^20 - 1 adds the odd (2^20 - 1)^2 ~ 2^40 to G_11: over kExactBlockRows
  // rows that stays below 2^52, but a double sum over 2 kExactBlockRows + 1 rows would pass 2^53
  // and round. The grid's r2 = (2^20 + 3)^2 satisfies kExactBlockRows r2 < 2^53.
  const int64_t n = 2 * kExactBlockRows + 1, d = 16, z = (int64_t{1} << 20) - 1;
  Matrix rows(n, d, 0.0);
  for (int64_t r = 0; r < n; ++r) rows(r, 0) = std::ldexp(static_cast<double>(z), -20);
  const int64_t r2 = ((int64_t{1} << 20) + 3) * ((int64_t{1} << 20) + 3);
  ExactGramAccumulator acc({d, 1.0, 20, r2}, BoundPolicy::Clip);
  acc.add_rows(rows.view());
  EXPECT_TRUE(acc.upper()[0] == static_cast<ExactInt>(n) * z * z);
  for (size_t k = 1; k < acc.upper().size(); ++k) EXPECT_TRUE(acc.upper()[k] == 0) << k;
}

TEST(ExactGram, ARefusedChunkLeavesTheStateAsItWas) {
  const Matrix first = random_rows(100, 3, 1);
  for (const BoundPolicy policy : {BoundPolicy::Clip, BoundPolicy::Reject}) {
    ExactGramAccumulator acc(grid_of(3), policy);
    acc.add_rows(first.view());
    const std::vector<ExactInt> before = acc.upper();
    const GramCounts counts = acc.counts();
    // The bad row is in the last block, after two whole blocks were summed.
    Matrix bad = random_rows(9000, 3, 2);
    bad(8999, 1) = policy == BoundPolicy::Clip ? NAN : 2.0;
    try {
      acc.add_rows(bad.view());
      FAIL() << "accepted a bad chunk";
    } catch (const Error &e) {
      EXPECT_EQ(e.status(),
                policy == BoundPolicy::Clip ? dpcov::Status::NonFinite : dpcov::Status::NormBound);
      // The chunk's own row, 0-based, for the caller to locate it.
      EXPECT_NE(std::string(e.what()).find("row 8999"), std::string::npos) << e.what();
    }
    EXPECT_EQ(acc.upper(), before);
    EXPECT_EQ(acc.counts().rows, counts.rows);
    EXPECT_EQ(acc.counts().clipped, counts.clipped);
  }
}

TEST(ExactGram, ClipsRowsOverTheBoundAndCountsThem) {
  Matrix rows(2, 2);
  rows(0, 0) = 3.0;  // norm 3 > B = 1: clipped to about (1, 0), rounded to (4096, 0)
  rows(1, 1) = 0.5;
  ExactGramAccumulator acc(grid_of(2), BoundPolicy::Clip);
  EXPECT_EQ(acc.add_rows(rows.view()).clipped, 1);
  EXPECT_EQ(static_cast<int64_t>(acc.upper()[0]), 4096 * 4096);
  EXPECT_EQ(static_cast<int64_t>(acc.upper()[2]), 2048 * 2048);
}

TEST(ExactGram, HalvesARoundedRowOverTheGridsBoundUntilWithin) {
  // A grid whose r2 = 16 is below what a row of norm B rounds to at 4 bits, (16, 0) of squared
  // norm 256: halved twice, to (4, 0). The plan's grids never need this (proofs/exact_additive.md).
  Matrix rows(1, 2);
  rows(0, 0) = 1.0;
  for (const Layout layout : {Layout::ColMajor, Layout::RowMajor}) {
    ExactGramAccumulator acc({2, 1.0, 4, 16}, BoundPolicy::Clip);
    const std::vector<double> row_major = {1.0, 0.0};
    acc.add_rows(layout == Layout::ColMajor ? rows.view()
                                            : ConstMatrixView{row_major.data(), 1, 2, 2, layout});
    EXPECT_EQ(static_cast<int64_t>(acc.upper()[0]), 16);
    EXPECT_EQ(static_cast<int64_t>(acc.upper()[1]), 0);
    EXPECT_EQ(static_cast<int64_t>(acc.upper()[2]), 0);
  }
}

// Rows of `d` uniform entries scaled to norms around 0.9 B, every seventh row tripled (clipped).
Matrix wide_rows(int64_t n, int64_t d, uint64_t seed) {
  Matrix rows = random_rows(n, d, seed);
  const double scale = 0.9 / std::sqrt(static_cast<double>(d) / 12.0);
  for (int64_t r = 0; r < n; ++r)
    for (int64_t j = 0; j < d; ++j) rows(r, j) *= r % 7 == 0 ? 3.0 * scale : scale;
  return rows;
}

// The packed upper triangle of sum_r z_r z_r^T by the accumulator's rule, one row at a time: the
// bounding factor f of data::row_factors(), z = round((x f) 2^bits / B) for B = 1, and x halved
// while ||z||^2 > r2. Counts the halved rows into `halved`.
std::vector<ExactInt> naive_rule_gram(const Matrix &rows, int bits, int64_t r2, int64_t &halved) {
  const int64_t n = rows.rows(), d = rows.cols();
  std::vector<double> sums(static_cast<size_t>(n)), factors(static_cast<size_t>(n), 1.0);
  GramCounts counts;
  row_sums_of_squares(rows.view(), 0, n, sums.data());
  if (!row_factors(rows.view(), 0, n, sums.data(), 1.0, BoundPolicy::Clip, factors.data(), counts))
    std::fill(factors.begin(), factors.end(), 1.0);
  std::vector<ExactInt> g(static_cast<size_t>(d * (d + 1) / 2), 0);
  std::vector<int64_t> z(static_cast<size_t>(d));
  halved = 0;
  for (int64_t r = 0; r < n; ++r) {
    const double f = factors[static_cast<size_t>(r)];
    for (double scale = 1.0;; scale *= 0.5) {
      int64_t z2 = 0;
      for (int64_t j = 0; j < d; ++j) {
        const double x = scale == 1.0 ? rows(r, j) * f : rows(r, j) * scale * f;
        z[static_cast<size_t>(j)] = static_cast<int64_t>(std::nearbyint(std::ldexp(x, bits)));
        z2 += z[static_cast<size_t>(j)] * z[static_cast<size_t>(j)];
      }
      if (z2 <= r2) break;
      if (scale == 1.0) ++halved;
    }
    size_t k = 0;
    for (int64_t j = 0; j < d; ++j)
      for (int64_t i = 0; i <= j; ++i)
        g[k++] += static_cast<ExactInt>(z[static_cast<size_t>(i)] * z[static_cast<size_t>(j)]);
  }
  return g;
}

TEST(ExactGram, WideRowsHaveTheNaiveIntegersInBothLayouts) {
  // Above 16 columns the rows go through the panel kernel where the CPU has AVX-512F: rows
  // clipped, several blocks and more than kExactBlockRows rows, in both layouts, against the rule
  // applied one row at a time; at an r2 above the plans' (no row halved) and at an r2 below what
  // rows near B round to (rows halved).
  const int bits = 12;
  const int64_t n = kExactBlockRows + 500;
  for (const int64_t d : {17, 40, 100}) {
    const Matrix rows = wide_rows(n, d, 20 + static_cast<uint64_t>(d));
    std::vector<double> row_major(static_cast<size_t>(n * d));
    for (int64_t r = 0; r < n; ++r)
      for (int64_t j = 0; j < d; ++j) row_major[static_cast<size_t>(r * d + j)] = rows(r, j);
    const int64_t plan_r = (int64_t{1} << bits) + d;  // >= the plans' 2^bits + ceil(sqrt(d) / 2) + 1
    for (const int64_t r2 : {plan_r * plan_r, int64_t{3600} * 3600}) {
      int64_t halved = 0;
      const std::vector<ExactInt> naive = naive_rule_gram(rows, bits, r2, halved);
      EXPECT_EQ(halved > 0, r2 < plan_r * plan_r) << d;
      for (const Layout layout : {Layout::ColMajor, Layout::RowMajor}) {
        ExactGramAccumulator acc({d, 1.0, bits, r2}, BoundPolicy::Clip);
        const GramCounts added =
            acc.add_rows(layout == Layout::ColMajor
                             ? rows.view()
                             : ConstMatrixView{row_major.data(), n, d, d, Layout::RowMajor});
        EXPECT_GE(added.clipped, (n + 6) / 7) << d;
        ASSERT_EQ(acc.upper().size(), naive.size());
        size_t wrong = 0;
        for (size_t k = 0; k < naive.size(); ++k) wrong += acc.upper()[k] != naive[k] ? 1 : 0;
        EXPECT_EQ(wrong, 0U) << "d = " << d << ", r2 = " << r2 << ", layout "
                             << static_cast<int>(layout);
      }
    }
  }
}

TEST(ExactGram, RefusesBadGridsTheDropPolicyAndOtherGridsOnMerge) {
  const auto status_of = [](auto &&call) -> int32_t {
    try {
      call();
    } catch (const Error &e) {
      return static_cast<dpcov_status>(e.status());
    }
    return DPCOV_OK;
  };
  EXPECT_EQ(status_of([] { ExactGramAccumulator({0, 1.0, 12, 100}, BoundPolicy::Clip); }),
            DPCOV_E_DIMENSION);
  EXPECT_EQ(status_of([] { ExactGramAccumulator({2, NAN, 12, 100}, BoundPolicy::Clip); }),
            DPCOV_E_NON_FINITE);
  EXPECT_EQ(status_of([] { ExactGramAccumulator({2, 0.0, 12, 100}, BoundPolicy::Clip); }),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status_of([] { ExactGramAccumulator({2, 1.0, 0, 100}, BoundPolicy::Clip); }),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status_of([] { ExactGramAccumulator({2, 1.0, 12, 0}, BoundPolicy::Clip); }),
            DPCOV_E_INVALID_ARGUMENT);
  // kExactBlockRows r2 must stay below 2^53.
  EXPECT_EQ(status_of([] { ExactGramAccumulator({2, 1.0, 12, int64_t{1} << 41}, BoundPolicy::Clip); }),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status_of([] { ExactGramAccumulator(grid_of(2), BoundPolicy::Drop); }),
            DPCOV_E_INVALID_ARGUMENT);
  ExactGramAccumulator a(grid_of(2), BoundPolicy::Clip);
  const Matrix rows = random_rows(5, 3, 3);
  EXPECT_EQ(status_of([&] { a.add_rows(rows.view()); }), DPCOV_E_DIMENSION);
  EXPECT_EQ(status_of([&] { a.merge(a); }), DPCOV_E_INVALID_ARGUMENT);
  ExactGridSpec other = grid_of(2);
  other.bits = 11;
  EXPECT_EQ(status_of([&] { a.merge(ExactGramAccumulator(other, BoundPolicy::Clip)); }),
            DPCOV_E_INCOMPATIBLE);
  EXPECT_EQ(a.counts().rows, 0);
}

TEST(ExactGram, AReleaseFromChunksIsTheReleaseFromTheRowsBitForBit) {
  using namespace mechanisms;
  const Matrix rows = random_rows(5000, 4, 7);
  for (const MechanismId m : {MechanismId::AnalyzeGauss, MechanismId::LaplaceSym}) {
    Request request{4, 5000, 2.0, 1.0, m == MechanismId::AnalyzeGauss ? 1e-6 : 0.0, {}};
    random::Rng one = random::Rng::from_seed(3), two = random::Rng::from_seed(3);
    const Release whole = release_exact_additive(m, rows.view(), request, one);
    ExactGrid grid;
    plan_exact_additive(m, request, &grid);
    ExactGramAccumulator left(grid_spec(request, grid), BoundPolicy::Clip);
    ExactGramAccumulator right(grid_spec(request, grid), BoundPolicy::Clip);
    left.add_rows(rows.view().row_block(0, 1234));
    right.add_rows(rows.view().row_block(1234, 3000));
    right.add_rows(rows.view().row_block(4234, 766));
    left.merge(right);
    const Release streamed = release_exact_gram(m, left, request, two);
    for (int64_t j = 0; j < 4; ++j)
      for (int64_t i = 0; i < 4; ++i) EXPECT_EQ(streamed.matrix(i, j), whole.matrix(i, j));
    // The request's n is the accumulator's row count, and its grid the accumulator's.
    request.n = 4999;
    EXPECT_THROW(release_exact_gram(m, left, request, two), Error);
    request.n = 5000;
    request.bound = 3.0;
    EXPECT_THROW(release_exact_gram(m, left, request, two), Error);
  }
}

}  // namespace
}  // namespace dpcov::data
