// The panel kernel of wide rows (core/linalg/panel_gram.hpp) against the scaled copy and a naive
// triple loop, and the Gram accumulator through it: rows at the bound, clipped, dropped, huge,
// subnormal and non-finite, in both layouts.
#include "core/linalg/panel_gram.hpp"

#include <cblas.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/data/gram.hpp"
#include "core/data/row_bound.hpp"
#include "core/error.hpp"
#include "support/naive.hpp"

namespace dpcov {
namespace {

using test::random_rows;
using test::Rows;

bool kernel_available() { return __builtin_cpu_supports("avx512f"); }

// OpenBLAS on one thread for the test's duration, where the accumulator takes the panel kernel.
class OneBlasThread {
 public:
  OneBlasThread() : before_(openblas_get_num_threads()) { openblas_set_num_threads(1); }
  ~OneBlasThread() { openblas_set_num_threads(before_); }
  OneBlasThread(const OneBlasThread &) = delete;
  OneBlasThread &operator=(const OneBlasThread &) = delete;

 private:
  int before_;
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

// Rows normalised to B, rows of norm exactly B (B e_1 and (1.5, 2) at B = 2.5), rows over B,
// huge (1e300) and subnormal rows, zero rows, through the accumulator on the panel kernel, in
// both layouts: the same counts as the dsyrk path (OpenBLAS on two threads), the same matrix to
// rounding, and each clipped row alone adds a trace (its squared norm) of at most B^2.
TEST(PanelGram, AccumulatorBoundsEveryKindOfRowAsTheDsyrkPath) {
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
    GramAccumulator on_panels(d), on_dsyrk(d);
    GramCounts panel_counts, dsyrk_counts;
    {
      const OneBlasThread one;
      ASSERT_TRUE(linalg::panel_gram_applies(d));
      panel_counts = on_panels.add_rows(data.view(), bound, BoundPolicy::Clip);
    }
    const int before = openblas_get_num_threads();
    openblas_set_num_threads(2);
    dsyrk_counts = on_dsyrk.add_rows(data.view(), bound, BoundPolicy::Clip);
    openblas_set_num_threads(before);
    EXPECT_EQ(panel_counts.clipped, dsyrk_counts.clipped);
    EXPECT_GT(panel_counts.clipped, n / 3);
    EXPECT_EQ(panel_counts.rows, n);
    const Matrix g = on_panels.matrix(), w = on_dsyrk.matrix();
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

}  // namespace
}  // namespace dpcov
