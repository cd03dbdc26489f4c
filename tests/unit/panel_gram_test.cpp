// The panel kernel of wide rows (core/linalg/panel_gram.hpp) against the scaled copy and a naive
// triple loop, and the Gram accumulator through it: rows at the bound, clipped, dropped, huge,
// subnormal and non-finite, in both layouts.
#include "core/linalg/panel_gram.hpp"

#include <cblas.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/data/gram.hpp"
#include "core/data/gram_stripes.hpp"
#include "core/data/row_bound.hpp"
#include "core/error.hpp"
#include "support/blas_threads.hpp"
#include "support/naive.hpp"

namespace dpcov {
namespace {

using test::BlasThreads;
using test::random_rows;
using test::Rows;

bool kernel_available() { return __builtin_cpu_supports("avx512f"); }

class OneBlasThread : public BlasThreads {
 public:
  OneBlasThread() : BlasThreads(1) {}
};

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Factors of every kind the bounding writes: 1, 0 (dropped), clip factors, a subnormal one.
std::vector<double> mixed_factors(int64_t n) {
  std::vector<double> f(static_cast<size_t>(n));
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t kind = i % 4;
    f[static_cast<size_t>(i)] = kind == 0 ? 1.0 : kind == 1 ? unit(gen) : kind == 2 ? 0.0 : 1e-310;
  }
  return f;
}

class PanelLayout : public ::testing::TestWithParam<std::tuple<Layout, int64_t>> {};

// The packed rows are the scaled copy (data::scale_rows) bit for bit, so a clipped row in the
// panels is the row whose norm proofs/row_bound.md bounds; the columns past d are zero. Huge,
// subnormal and negative-zero entries included, panels larger than the block.
TEST_P(PanelLayout, PackedRowsAreTheScaledCopyBitForBit) {
  if (!kernel_available()) GTEST_SKIP() << "no AVX-512F";
  const auto [layout, d] = GetParam();
  const int64_t n = 37;
  auto data = random_rows(n, d, layout, 3, 1.0, static_cast<uint64_t>(d));
  data.at(1, 0) = 1e300;
  data.at(2, d - 1) = 4.9e-320;
  data.at(3, 5) = -0.0;
  data.at(5, d - 1) = -1e-300;
  const auto factors = mixed_factors(n);
  std::vector<double> scaled(static_cast<size_t>(n * d));
  const ConstMatrixView want = data::scale_rows(data.view(), factors.data(), scaled.data());
  linalg::Panels panels(n + 5, d);
  for (const double *f : {factors.data(), static_cast<const double *>(nullptr)}) {
    linalg::pack_rows(data.view(), f, panels);
    const int64_t padded = 8 * ((d + 7) / 8);
    for (int64_t r = 0; r < n; ++r)
      for (int64_t j = 0; j < padded; ++j) {
        const double got = panels.data()[(j / 8) * panels.stride() + r * 8 + j % 8];
        const double expect = j >= d ? 0.0 : f ? want(r, j) : data.view()(r, j);
        ASSERT_TRUE(same_bits(got, expect)) << "row " << r << ", column " << j;
      }
  }
}

// The upper triangle of C gains sum_r y_r y_r^T as a naive loop forms it, to a few ulps of the
// largest entry; the strictly lower triangle and C's padding rows are not written.
TEST_P(PanelLayout, AddsTheUpperTriangleAndWritesNothingElse) {
  if (!kernel_available()) GTEST_SKIP() << "no AVX-512F";
  const auto [layout, d] = GetParam();
  const int64_t n = 301, ldc = d + 2;
  const auto data = random_rows(n, d, layout, 1, 1.0, static_cast<uint64_t>(d) + 100);
  const auto factors = mixed_factors(n);
  std::vector<double> scaled(static_cast<size_t>(n * d));
  const ConstMatrixView y = data::scale_rows(data.view(), factors.data(), scaled.data());
  std::vector<double> c(static_cast<size_t>(ldc * d), -5.0), naive(c);
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      double s = 0.0;
      for (int64_t r = 0; r < n; ++r) s += y(r, i) * y(r, j);
      naive[static_cast<size_t>(i + j * ldc)] += s;
    }
  linalg::Panels panels(n, d);
  linalg::pack_rows(data.view(), factors.data(), panels);
  linalg::panel_gram_upper(panels, n, d, c.data(), ldc);
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i < ldc; ++i) {
      const size_t at = static_cast<size_t>(i + j * ldc);
      if (i <= j)
        EXPECT_NEAR(c[at], naive[at], 1e-13 * static_cast<double>(n)) << i << ", " << j;
      else
        EXPECT_EQ(c[at], -5.0) << "written at (" << i << ", " << j << ")";
    }
}

INSTANTIATE_TEST_SUITE_P(
    WidthsAndLayouts, PanelLayout,
    ::testing::Combine(::testing::Values(Layout::RowMajor, Layout::ColMajor),
                       ::testing::Values(int64_t{17}, int64_t{24}, int64_t{25}, int64_t{100},
                                         int64_t{131})));

// The fused pass gives the norm pass's sums of squares bit for bit (each width mod 4, huge and
// subnormal entries: the clip decisions are the same), and the panels pack_rows() writes, before
// and after scale_packed_rows().
TEST(PanelGram, FusedPassHasTheNormPassSumsAndTheScaledCopy) {
  if (!kernel_available()) GTEST_SKIP() << "no AVX-512F";
  for (const int64_t d : {17, 18, 19, 20, 24, 31, 100, 131}) {
    SCOPED_TRACE("d = " + std::to_string(d));
    const int64_t n = 29;
    auto data = random_rows(n, d, Layout::RowMajor, 3, 1.0, static_cast<uint64_t>(d) + 7);
    data.at(1, d - 1) = 1e300;
    data.at(2, d - 2) = 4.9e-320;
    data.at(4, 0) = 1e-160;
    for (int64_t j = 0; j < d; ++j) data.at(6, j) = 1e-200 * static_cast<double>(j + 1);
    std::vector<double> want_sums(static_cast<size_t>(n)), sums(static_cast<size_t>(n));
    data::row_sums_of_squares(data.view(), 0, n, want_sums.data());
    const auto factors = mixed_factors(n);
    linalg::Panels want(n, d), got(n, d);
    linalg::pack_rows(data.view(), nullptr, want);
    linalg::pack_rows_and_sums(data.view(), got, sums.data());
    const size_t size = static_cast<size_t>(want.stride() * ((d + 7) / 8));
    for (int64_t r = 0; r < n; ++r) ASSERT_TRUE(same_bits(sums[r], want_sums[r])) << "row " << r;
    for (size_t k = 0; k < size; ++k) ASSERT_TRUE(same_bits(got.data()[k], want.data()[k])) << k;
    linalg::pack_rows(data.view(), factors.data(), want);
    linalg::scale_packed_rows(got, n, factors.data());
    for (size_t k = 0; k < size; ++k) ASSERT_TRUE(same_bits(got.data()[k], want.data()[k])) << k;
  }
}

// Packing at a row offset (how the accumulator packs pending rows into their cache block's
// panels as they come) writes those rows as packing them alone does and leaves the others; a copy
// of the panels holds the same bytes at an aligned address of its own.
TEST(PanelGram, PackingAtAnOffsetWritesTheRowsOfAPackingAlone) {
  if (!kernel_available()) GTEST_SKIP() << "no AVX-512F";
  for (const Layout layout : {Layout::RowMajor, Layout::ColMajor})
    for (const int64_t d : {17, 24, 100}) {
      SCOPED_TRACE("d = " + std::to_string(d));
      const int64_t n = 40, first = 13, count = 19;
      const auto data = random_rows(n, d, layout, 1, 1.0, static_cast<uint64_t>(d) + 3);
      const auto factors = mixed_factors(n);
      const ConstMatrixView rows = data.view().row_block(first, count);
      linalg::Panels alone(count, d), at(n, d);
      linalg::pack_rows(rows, factors.data() + first, alone);
      linalg::pack_rows(data.view(), nullptr, at);
      const linalg::Panels before = at;
      if (layout == Layout::RowMajor) {
        std::vector<double> sums(static_cast<size_t>(count));
        linalg::pack_rows_and_sums(rows, at, sums.data(), first);
        linalg::scale_packed_rows(at, count, factors.data() + first, first);
      } else {
        linalg::pack_rows(rows, factors.data() + first, at, first);
      }
      ASSERT_EQ(reinterpret_cast<uintptr_t>(before.data()) % 64, 0u);
      ASSERT_NE(before.data(), at.data());
      for (int64_t p = 0; p < (d + 7) / 8; ++p)
        for (int64_t r = 0; r < n; ++r)
          for (int64_t k = 0; k < 8; ++k) {
            const double got = at.data()[p * at.stride() + r * 8 + k];
            const double want = r >= first && r < first + count
                                    ? alone.data()[p * alone.stride() + (r - first) * 8 + k]
                                    : before.data()[p * before.stride() + r * 8 + k];
            ASSERT_TRUE(same_bits(got, want)) << "panel " << p << ", row " << r << ", lane " << k;
          }
    }
}

// Rows normalised to B, rows of norm exactly B (B e_1 and (1.5, 2) at B = 2.5), rows over B,
// huge (1e300) and subnormal rows, zero rows, through the accumulator on the panel kernel, in
// both layouts: the counts of the naive rule's clipped rows, the same matrix to rounding, and
// each clipped row alone adds a trace (its squared norm) of at most B^2.
TEST(PanelGram, AccumulatorBoundsEveryKindOfRowAsTheNaiveRule) {
  if (!kernel_available()) GTEST_SKIP() << "no AVX-512F";
  const int64_t n = 700, d = 100;
  const double bound = 2.5;
  std::vector<Rows> layouts;
  for (const Layout layout : {Layout::RowMajor, Layout::ColMajor}) {
    auto data = random_rows(n, d, layout, 2, 0.3, 11);
    for (int64_t i = 0; i < n; i += 3) {
      double s = 0.0;
      for (int64_t j = 0; j < d; ++j) s += data.at(i, j) * data.at(i, j);
      for (int64_t j = 0; j < d; ++j) data.at(i, j) *= bound / std::sqrt(s);
    }
    for (int64_t j = 0; j < d; ++j) {
      data.at(10, j) = j == 0 ? bound : 0.0;
      data.at(11, j) = j == 0 ? 1.5 : j == 1 ? 2.0 : 0.0;
      data.at(13, j) = 1e300 * (j % 2 ? 1.0 : -1.0);
      data.at(14, j) = 4.9e-320 * static_cast<double>(j);
      data.at(16, j) = 0.0;
    }
    layouts.push_back(std::move(data));
  }
  for (const Rows &data : layouts) {
    GramAccumulator on_panels(d);
    ASSERT_TRUE(linalg::panel_gram_applies(d));
    const GramCounts panel_counts = on_panels.add_rows(data.view(), bound, BoundPolicy::Clip);
    // The reference: the rows bounded by the norm pass and the factors in one block, and their
    // Gram matrix by a triple loop.
    const ConstMatrixView a = data.view();
    std::vector<double> sums(static_cast<size_t>(n)), factors(static_cast<size_t>(n));
    std::vector<double> bounded(static_cast<size_t>(n * d));
    data::row_sums_of_squares(a, 0, n, sums.data());
    GramCounts want_counts;
    ASSERT_TRUE(data::row_factors(a, 0, n, sums.data(), bound, BoundPolicy::Clip, factors.data(),
                                  want_counts));
    const ConstMatrixView y = data::scale_rows(a, factors.data(), bounded.data());
    Matrix w(d, d);
    for (int64_t j = 0; j < d; ++j)
      for (int64_t i = 0; i < d; ++i)
        for (int64_t r = 0; r < n; ++r) w(i, j) += y(r, i) * y(r, j);
    EXPECT_EQ(panel_counts.clipped, want_counts.clipped);
    EXPECT_GT(panel_counts.clipped, n / 3);
    EXPECT_EQ(panel_counts.rows, n);
    const Matrix g = on_panels.matrix();
    for (int64_t j = 0; j < d; ++j)
      for (int64_t i = 0; i < d; ++i) EXPECT_NEAR(g(i, j), w(i, j), 1e-13 * w(j, j) + 1e-300);
  }

  const OneBlasThread one;
  for (const Rows &data : layouts)
    for (const int64_t i : {int64_t{10}, int64_t{11}, int64_t{12}, int64_t{13}, int64_t{14}}) {
      GramAccumulator alone(d);
      const GramCounts c = alone.add_rows(data.view().row_block(i, 1), bound, BoundPolicy::Clip);
      // Row 12, normalised to B, may be a rounding over it and clipped; the others are decided.
      if (i != 12) {
        EXPECT_EQ(c.clipped, i == 13 ? 1 : 0) << "row " << i;
      }
      double trace = 0.0;
      for (int64_t j = 0; j < d; ++j) trace += alone.matrix()(j, j);
      // The trace's own rounding (d squares and sums) is the only room allowed.
      EXPECT_LE(trace, bound * bound * (1.0 + 4.0 * static_cast<double>(d) * 0x1p-53)) << "row " << i;
    }
}

// A non-finite entry anywhere refuses the chunk through the panel path too, and leaves the
// accumulator as it was; dropped rows add nothing.
TEST(PanelGram, NonFiniteRowsRefuseAndDroppedRowsAddNothing) {
  if (!kernel_available()) GTEST_SKIP() << "no AVX-512F";
  const OneBlasThread one;
  const int64_t n = 300, d = 40;
  for (const Layout layout : {Layout::RowMajor, Layout::ColMajor}) {
    auto data = random_rows(n, d, layout, 0, 0.2, 3);
    GramAccumulator acc(d);
    acc.add_rows(data.view(), 1.0, BoundPolicy::Clip);
    const Matrix before = acc.matrix();
    data.at(250, 33) = std::nan("");
    EXPECT_THROW(acc.add_rows(data.view(), 1.0, BoundPolicy::Clip), Error);
    const Matrix after = acc.matrix();
    for (int64_t j = 0; j < d; ++j)
      for (int64_t i = 0; i < d; ++i) ASSERT_TRUE(same_bits(after(i, j), before(i, j)));
    data.at(250, 33) = 0.0;

    GramAccumulator dropped(d), kept(d);
    const GramCounts c = dropped.add_rows(data.view(), 1.0, BoundPolicy::Drop);
    ASSERT_GT(c.dropped, 0);
    const Matrix g = dropped.matrix();
    const Matrix w = test::naive_bounded_gram(data.view(), 1.0, BoundPolicy::Drop);
    for (int64_t j = 0; j < d; ++j)
      for (int64_t i = 0; i < d; ++i) EXPECT_NEAR(g(i, j), w(i, j), 1e-13 * w(j, j));
  }
}


void expect_same_bits(const Matrix &got, const Matrix &want) {
  for (int64_t j = 0; j < want.cols(); ++j)
    for (int64_t i = 0; i < want.rows(); ++i)
      ASSERT_TRUE(same_bits(got(i, j), want(i, j))) << "at (" << i << ", " << j << ")";
}

struct Accumulated {
  Matrix gram;
  GramCounts counts;
};

// One chunk through a fresh accumulator, with OpenBLAS on `threads` threads.
Accumulated accumulate(ConstMatrixView a, double bound, BoundPolicy policy, int threads) {
  const BlasThreads on(threads);
  GramAccumulator acc(a.cols);
  const GramCounts counts = acc.add_rows(a, bound, policy);
  return {acc.matrix(), counts};
}

// Entries N(0, 1), so that about half the rows are over B = sqrt(d), and every seventh row
// normalised to B (some proven within at the bound, some clipped by a factor just below 1).
Rows rows_around_the_bound(int64_t n, int64_t d, Layout layout, uint64_t seed) {
  auto data = random_rows(n, d, layout, 3, 1.0, seed);
  const double bound = std::sqrt(static_cast<double>(d));
  for (int64_t i = 0; i < n; i += 7) {
    double s = 0.0;
    for (int64_t j = 0; j < d; ++j) s += data.at(i, j) * data.at(i, j);
    for (int64_t j = 0; j < d; ++j) data.at(i, j) *= bound / std::sqrt(s);
  }
  return data;
}

// The panel kernel on 1, 2 and 3 threads of its own (OpenBLAS's count) sums every entry in the
// same order: the same bits and counts, at widths that are and are not multiples of 8, chunks of
// three or more stripes ending in a part block, rows clipped, dropped and at the bound. Before,
// two BLAS threads took dsyrk, whose last bits differ.
TEST(PanelGramThreads, TheGramHasTheSameBitsOnOneTwoAndThreeThreads) {
  if (!kernel_available()) GTEST_SKIP() << "no AVX-512F";
  for (const int64_t d : {37, 100})
    for (const Layout layout : {Layout::RowMajor, Layout::ColMajor}) {
      SCOPED_TRACE("d = " + std::to_string(d) + (layout == Layout::RowMajor ? " row" : " column") +
                   "-major");
      const int64_t n = 30001;
      const auto data = rows_around_the_bound(n, d, layout, static_cast<uint64_t>(d));
      const double bound = std::sqrt(static_cast<double>(d));
      for (const BoundPolicy policy : {BoundPolicy::Clip, BoundPolicy::Drop}) {
        const Accumulated one = accumulate(data.view(), bound, policy, 1);
        EXPECT_GT(one.counts.clipped + one.counts.dropped, n / 3);
        for (const int threads : {2, 3}) {
          {
            const BlasThreads on(threads);
            ASSERT_EQ(openblas_get_num_threads(), threads);
          }
          const Accumulated many = accumulate(data.view(), bound, policy, threads);
          EXPECT_EQ(many.counts.clipped, one.counts.clipped);
          EXPECT_EQ(many.counts.dropped, one.counts.dropped);
          expect_same_bits(many.gram, one.gram);
        }
      }
    }
}

// The same rows in either layout give the same Gram matrix bit for bit, one thread or two: the
// norm pass sums a column-major row in the row-major order, so the clip factors agree too.
// Chunks from one row (no stripes) to several stripes.
TEST(PanelGramThreads, BothLayoutsGiveTheSameBits) {
  if (!kernel_available()) GTEST_SKIP() << "no AVX-512F";
  for (const int64_t d : {17, 37, 100})
    for (const int64_t n : {1, 7, 129, 1000, 25000}) {
      SCOPED_TRACE("d = " + std::to_string(d) + ", n = " + std::to_string(n));
      const auto by_rows = rows_around_the_bound(n, d, Layout::RowMajor, 5);
      Rows by_columns(n, d, Layout::ColMajor, 2);
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < d; ++j) by_columns.at(i, j) = by_rows.view()(i, j);
      const double bound = std::sqrt(static_cast<double>(d));
      for (const int threads : {1, 2}) {
        const Accumulated r = accumulate(by_rows.view(), bound, BoundPolicy::Clip, threads);
        const Accumulated c = accumulate(by_columns.view(), bound, BoundPolicy::Clip, threads);
        EXPECT_EQ(r.counts.clipped, c.counts.clipped);
        expect_same_bits(c.gram, r.gram);
      }
    }
}

// A chunk with bad rows in two stripes is refused with the lower row's message, as one thread
// meets it first, whatever the threads; the accumulator keeps what it held.
TEST(PanelGramThreads, TheLowestBadRowIsReportedWhateverTheThreads) {
  if (!kernel_available()) GTEST_SKIP() << "no AVX-512F";
  const int64_t n = 30000, d = 100;
  auto data = rows_around_the_bound(n, d, Layout::RowMajor, 9);
  data.at(25000, 3) = std::nan("");
  data.at(9000, 40) = std::numeric_limits<double>::infinity();
  for (const int threads : {1, 2, 3}) {
    const BlasThreads on(threads);
    GramAccumulator acc(d);
    acc.add_rows(data.view().row_block(0, 100), 100.0, BoundPolicy::Clip);
    const Matrix before = acc.matrix();
    for (int repeat = 0; repeat < 5; ++repeat) {
      try {
        acc.add_rows(data.view(), 100.0, BoundPolicy::Clip);
        ADD_FAILURE() << "a non-finite row was accepted";
      } catch (const Error &e) {
        EXPECT_EQ(e.status(), Status::NonFinite);
        EXPECT_NE(std::string(e.what()).find("row 9000"), std::string::npos) << e.what();
      }
    }
    EXPECT_EQ(acc.counts().rows, 100);
    expect_same_bits(acc.matrix(), before);
  }
}

// The stripes cover the chunk in whole blocks, in order; the runner adds them in stripe order
// whatever the thread count (more threads than stripes included), and rethrows the lowest
// failing stripe's exception.
TEST(GramStripes, StripesAreAddedInOrderAndTheLowestFailureWins) {
  const int64_t rows = 10007, block = 97, dim = 3;
  const int64_t stripes = data::stripe_count(rows, block, dim);
  ASSERT_EQ(stripes, 8);
  EXPECT_EQ(data::stripe_count(2 * 8 * block - 1, block, dim), 1);
  EXPECT_EQ(data::stripe_count(1000, 10, 200), 5);
  EXPECT_EQ(data::stripe_begin(0, stripes, rows, block), 0);
  EXPECT_EQ(data::stripe_begin(stripes, stripes, rows, block), rows);
  for (int64_t s = 1; s < stripes; ++s) {
    const int64_t begin = data::stripe_begin(s, stripes, rows, block);
    EXPECT_EQ(begin % block, 0);
    EXPECT_GT(begin, data::stripe_begin(s - 1, stripes, rows, block));
  }
  // Entry (0, 0) sums 1/(r + 1) over the stripe's rows, in an order whose rounding shows.
  const data::StripeWork work = [](int64_t begin, int64_t end, double *c, GramCounts &counts) {
    for (int64_t r = begin; r < end; ++r) c[0] += 1.0 / static_cast<double>(r + 1);
    c[1 + dim] = static_cast<double>(end - begin);
    counts.clipped += 1;
  };
  std::vector<double> want;
  for (const int threads : {1, 2, 3, 8, 64}) {
    std::vector<double> chunk(static_cast<size_t>(dim * dim), 0.0);
    GramCounts added;
    data::add_striped(stripes, rows, block, dim, threads, work, chunk.data(), added);
    EXPECT_EQ(added.clipped, stripes);
    EXPECT_EQ(chunk[1 + dim], static_cast<double>(rows));
    if (want.empty()) want = chunk;
    for (size_t k = 0; k < chunk.size(); ++k) ASSERT_TRUE(same_bits(chunk[k], want[k])) << k;
  }
  const data::StripeWork failing = [&](int64_t begin, int64_t end, double *c, GramCounts &counts) {
    for (const int64_t bad : {int64_t{3}, int64_t{6}})
      if (begin == data::stripe_begin(bad, stripes, rows, block))
        throw std::runtime_error("stripe " + std::to_string(bad));
    work(begin, end, c, counts);
  };
  for (const int threads : {1, 2, 3, 8})
    for (int repeat = 0; repeat < 20; ++repeat) {
      std::vector<double> chunk(static_cast<size_t>(dim * dim), 0.0);
      GramCounts added;
      try {
        data::add_striped(stripes, rows, block, dim, threads, failing, chunk.data(), added);
        ADD_FAILURE() << "no exception";
      } catch (const std::runtime_error &e) {
        EXPECT_STREQ(e.what(), "stripe 3");
      }
    }
}

// The blocks of one call on one set of threads: a lagging thread makes blocks finish out of order
// (here block 0's first stripe waits, up to a second, until the other threads have done all of
// block 1), yet every block reaches `done` in block order with the bits of one thread, its
// stripes added in stripe order. The lowest failing (block, stripe) is rethrown, and no block
// from it on reaches `done`.
TEST(GramStripes, BlocksReachDoneInOrderWhateverFinishesFirst) {
  const int64_t blocks = 5, rows = 10007, block = 97, dim = 3;
  const int64_t stripes = data::stripe_count(rows, block, dim);
  std::atomic<int64_t> block_one_done{0};
  std::atomic<bool> lag{false};
  // Entry (0, 0) sums 1/(r + 1 + b rows) over the stripe's rows: its rounding shows the order.
  const data::BlockStripeWork work = [&](int64_t b, int64_t begin, int64_t end, double *c,
                                         GramCounts &counts) {
    if (lag && b == 0 && begin == 0) {
      const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
      while (block_one_done < stripes && std::chrono::steady_clock::now() < until)
        std::this_thread::yield();
    }
    for (int64_t r = begin; r < end; ++r) c[0] += 1.0 / static_cast<double>(r + 1 + b * rows);
    c[1 + dim] = static_cast<double>(b);
    counts.clipped += 1;
    if (b == 1) ++block_one_done;
  };
  std::vector<int64_t> order;
  std::vector<double> sums;
  const data::BlockDone done = [&](int64_t b, const double *gram) {
    order.push_back(b);
    sums.push_back(gram[0]);
    EXPECT_EQ(gram[1 + dim], static_cast<double>(b * stripes));  // each stripe wrote b
  };
  GramCounts one_counts;
  data::add_striped_blocks(blocks, stripes, rows, block, dim, 1, work, done, one_counts);
  const std::vector<double> want = sums;
  ASSERT_EQ(order, (std::vector<int64_t>{0, 1, 2, 3, 4}));
  lag = true;
  for (const int threads : {2, 3, 8}) {
    order.clear();
    sums.clear();
    block_one_done = 0;
    GramCounts added;
    data::add_striped_blocks(blocks, stripes, rows, block, dim, threads, work, done, added);
    EXPECT_EQ(order, (std::vector<int64_t>{0, 1, 2, 3, 4})) << threads << " threads";
    EXPECT_EQ(added.clipped, blocks * stripes);
    for (size_t k = 0; k < want.size(); ++k) ASSERT_TRUE(same_bits(sums[k], want[k])) << k;
  }
  lag = false;
  const data::BlockStripeWork failing = [&](int64_t b, int64_t begin, int64_t end, double *c,
                                            GramCounts &counts) {
    if ((b == 2 && begin == data::stripe_begin(1, stripes, rows, block)) || (b == 3 && begin == 0))
      throw std::runtime_error("block " + std::to_string(b));
    work(b, begin, end, c, counts);
  };
  for (const int threads : {1, 2, 3, 8})
    for (int repeat = 0; repeat < 20; ++repeat) {
      order.clear();
      GramCounts added;
      try {
        data::add_striped_blocks(blocks, stripes, rows, block, dim, threads, failing, done, added);
        ADD_FAILURE() << "no exception";
      } catch (const std::runtime_error &e) {
        EXPECT_STREQ(e.what(), "block 2");
      }
      EXPECT_LE(order.size(), 2u);
      for (size_t k = 0; k < order.size(); ++k) EXPECT_EQ(order[k], static_cast<int64_t>(k));
    }
}

}  // namespace
}  // namespace dpcov
