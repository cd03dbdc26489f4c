#include "panel_gram.hpp"

#include <algorithm>
#include <cstdint>

#include "../error.hpp"
#include "short_gram.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define DPCOV_PANEL_GRAM_AVX512 1
#endif

// No multiply-add contracted into a fused one: pack_rows_and_sums() reproduces the norm pass's
// sums of squares bit for bit (core/data/row_bound.cpp compiles the same way).
#if defined(__clang__)
#pragma clang fp contract(off)
#else
#pragma GCC optimize("fp-contract=off")
#endif

namespace dpcov::linalg {

namespace {

int64_t panel_count(int64_t cols) { return (cols + 7) / 8; }

}  // namespace

Panels::Panels(int64_t rows, int64_t cols) : rows_(rows), cols_(cols) {
  // Eight doubles of slack to start the panels on a cache line: the kernel's loads of a panel
  // row would otherwise straddle two lines.
  store_.assign(static_cast<size_t>(panel_count(cols) * rows * 8 + 8), 0.0);
  const auto address = reinterpret_cast<uintptr_t>(store_.data());
  data_ = store_.data() + ((64 - address % 64) % 64) / sizeof(double);
}

Panels::Panels(const Panels &other) : Panels(other.rows_, other.cols_) {
  std::copy(other.data_, other.data_ + panel_count(cols_) * rows_ * 8, data_);
}

Panels &Panels::operator=(const Panels &other) {
  if (this != &other) *this = Panels(other);
  return *this;
}

void set_packed_row(Panels &panels, int64_t r, const double *values) {
  for (int64_t j = 0; j < panels.cols(); ++j)
    panels.data()[(j / 8) * panels.stride() + r * 8 + j % 8] = values[j];
}

#ifdef DPCOV_PANEL_GRAM_AVX512
namespace {

// Rows x 8 entries of C from the block: IV panels of rows i0 .. i0 + 8 IV (vectors, lane = i)
// against panel q's 8 columns j0 .. j0 + 8 (broadcast), IV x 8 accumulators in registers (24 of
// AVX-512's 32 for IV = 3: two FMAs per cycle with the loads to spare). Then C(i, j) += for
// i <= j < cols only, so the diagonal's panel writes its upper triangle and padding none.
template <int IV>
__attribute__((target("avx512f"))) void tile(const double *ip, const double *jp, int64_t rows,
                                              int64_t stride, double *c, int64_t ldc, int64_t i0,
                                              int64_t j0, int64_t cols) {
  __m512d acc[IV][8];
#pragma GCC unroll 3
  for (int v = 0; v < IV; ++v)
#pragma GCC unroll 8
    for (int k = 0; k < 8; ++k) acc[v][k] = _mm512_setzero_pd();
  for (int64_t r = 0; r < rows; ++r) {
    __m512d x[IV];
#pragma GCC unroll 3
    for (int v = 0; v < IV; ++v) x[v] = _mm512_load_pd(ip + v * stride + r * 8);
    const double *b = jp + r * 8;
#pragma GCC unroll 8
    for (int k = 0; k < 8; ++k) {
      const __m512d bk = _mm512_set1_pd(b[k]);
#pragma GCC unroll 3
      for (int v = 0; v < IV; ++v) acc[v][k] = _mm512_fmadd_pd(x[v], bk, acc[v][k]);
    }
  }
#pragma GCC unroll 8
  for (int k = 0; k < 8; ++k) {
    const int64_t j = j0 + k;
    if (j >= cols) break;
#pragma GCC unroll 3
    for (int v = 0; v < IV; ++v) {
      const int64_t i = i0 + 8 * v;
      if (i > j) break;
      const int64_t lanes = std::min<int64_t>(8, j - i + 1);
      const auto mask = static_cast<__mmask8>((1u << lanes) - 1u);
      double *o = c + i + j * ldc;
      _mm512_mask_storeu_pd(o, mask, _mm512_add_pd(_mm512_maskz_loadu_pd(mask, o), acc[v][k]));
    }
  }
}

// Row-major rows: each row's panels by (masked) vector loads, the last zero-padded.
__attribute__((target("avx512f"))) void pack_row_major(ConstMatrixView a, const double *factors,
                                                        double *out, int64_t stride) {
  const int64_t panels = panel_count(a.cols);
  const auto last = static_cast<__mmask8>((1u << (a.cols - 8 * (panels - 1))) - 1u);
  for (int64_t r = 0; r < a.rows; ++r) {
    const double *x = a.row(r);
    const __m512d f = _mm512_set1_pd(factors ? factors[r] : 1.0);
    for (int64_t p = 0; p < panels; ++p) {
      const __mmask8 mask = p + 1 < panels ? static_cast<__mmask8>(0xFF) : last;
      // f x rounded once: the product scale_rows() forms (times 1.0 exactly when unscaled).
      _mm512_store_pd(out + p * stride + r * 8,
                      _mm512_mul_pd(f, _mm512_maskz_loadu_pd(mask, x + 8 * p)));
    }
  }
}

// The row's four interleaved partial sums of squares, lane k of `s` taking the entries j = k mod 4
// of a whole group of four; the last cols mod 4 entries then go into lane 0 one by one, and the
// lanes are combined as (s0 + s1) + (s2 + s3): data::row_sums_of_squares()'s order, each square
// and each addition rounded (no fused multiply-add: this file does not contract).
__attribute__((target("avx512f"))) void pack_row_with_sum(const double *x, int64_t cols,
                                                           double *out, int64_t stride,
                                                           double *sum) {
  const int64_t panels = panel_count(cols), groups = cols / 4;
  const auto last = static_cast<__mmask8>((1u << (cols - 8 * (panels - 1))) - 1u);
  __m256d s = _mm256_setzero_pd();
  for (int64_t p = 0; p < panels; ++p) {
    const __mmask8 mask = p + 1 < panels ? static_cast<__mmask8>(0xFF) : last;
    const __m512d v = _mm512_maskz_loadu_pd(mask, x + 8 * p);
    _mm512_store_pd(out + p * stride, v);
    // The masked forms with every lane selected: the unmasked ones trip GCC 12's
    // -Wmaybe-uninitialized inside its header.
    const __m256d low = _mm512_mask_extractf64x4_pd(_mm256_setzero_pd(), 0xF, v, 0);
    const __m256d high = _mm512_mask_extractf64x4_pd(_mm256_setzero_pd(), 0xF, v, 1);
    if (2 * p < groups) s = _mm256_add_pd(s, _mm256_mul_pd(low, low));
    if (2 * p + 1 < groups) s = _mm256_add_pd(s, _mm256_mul_pd(high, high));
  }
  alignas(32) double lane[4];
  _mm256_store_pd(lane, s);
  for (int64_t j = 4 * groups; j < cols; ++j) lane[0] += x[j] * x[j];
  *sum = (lane[0] + lane[1]) + (lane[2] + lane[3]);
}

}  // namespace

namespace {

bool kernel_takes(int64_t cols) {
  static const bool avx512 = __builtin_cpu_supports("avx512f");
  return avx512 && cols > kShortRowMaxColumns;
}

}  // namespace

bool panel_gram_applies(int64_t cols) { return kernel_takes(cols); }

void pack_rows(ConstMatrixView a, const double *factors, Panels &panels, int64_t first) {
  if (!kernel_takes(a.cols) || a.cols != panels.cols() || first < 0 ||
      a.rows > panels.rows() - first)
    fail(Status::Internal, "pack_rows called on rows it does not take");
  double *out = panels.data() + first * 8;
  const int64_t stride = panels.stride();
  if (a.layout == Layout::RowMajor) {
    pack_row_major(a, factors, out, stride);
    return;
  }
  // Column-major: column j is contiguous down the block and lands at lane j mod 8 of each row of
  // its panel. Padding columns of the last panel are written as zeros every time, since a
  // previous block may not have covered every row.
  for (int64_t j = 0; j < 8 * panel_count(a.cols); ++j) {
    double *o = out + (j / 8) * stride + j % 8;
    if (j >= a.cols) {
      for (int64_t r = 0; r < a.rows; ++r) o[r * 8] = 0.0;
      continue;
    }
    const double *x = a.data + j * a.ld;
    if (factors)
      for (int64_t r = 0; r < a.rows; ++r) o[r * 8] = factors[r] * x[r];
    else
      for (int64_t r = 0; r < a.rows; ++r) o[r * 8] = x[r];
  }
}

void pack_rows_and_sums(ConstMatrixView a, Panels &panels, double *sums, int64_t first) {
  if (!kernel_takes(a.cols) || a.layout != Layout::RowMajor || a.cols != panels.cols() ||
      first < 0 || a.rows > panels.rows() - first)
    fail(Status::Internal, "pack_rows_and_sums called on rows it does not take");
  for (int64_t r = 0; r < a.rows; ++r)
    pack_row_with_sum(a.row(r), a.cols, panels.data() + (first + r) * 8, panels.stride(), sums + r);
}

// Panel by panel, each read in order: a row's eight-column pieces lie a panel (rows x 64 bytes,
// 8 KiB for the 128-row blocks of d = 500) apart, so walking one row through all of them puts
// every piece in the same set of the first-level cache, which then keeps few of them. At
// (1e5, 500) that walk made a half-clipped call cost 5% more than an unclipped one, 1.4% now
// (bench/results/numerics.md).
__attribute__((target("avx512f"))) void scale_packed_rows(Panels &panels, int64_t rows,
                                                           const double *factors, int64_t first) {
  const int64_t stride = panels.stride(), count = panel_count(panels.cols());
  for (int64_t p = 0; p < count; ++p) {
    double *panel = panels.data() + p * stride + first * 8;
    for (int64_t r = 0; r < rows; ++r) {
      if (factors[r] == 1.0) continue;
      _mm512_store_pd(panel + r * 8,
                      _mm512_mul_pd(_mm512_set1_pd(factors[r]), _mm512_load_pd(panel + r * 8)));
    }
  }
}

__attribute__((target("avx512f"))) void round_packed_rows(Panels &panels, int64_t rows,
                                                           const double *factors, double to_grid,
                                                           double *sums) {
  const int64_t stride = panels.stride(), count = panel_count(panels.cols());
  // (y + 1.5 2^52) - 1.5 2^52 rounds y to the nearest integer, ties to even, for |y| < 2^51, as
  // data::ExactGramAccumulator rounds (this file does not contract the multiply into the add).
  const __m512d shift = _mm512_set1_pd(0x1.8p52), t = _mm512_set1_pd(to_grid);
  for (int64_t r = 0; r < rows; ++r) {
    const __m512d f = _mm512_set1_pd(factors ? factors[r] : 1.0);
    double *row = panels.data() + r * 8;
    __m512d s = _mm512_setzero_pd();
    for (int64_t p = 0; p < count; ++p) {
      const __m512d y = _mm512_mul_pd(_mm512_mul_pd(_mm512_load_pd(row + p * stride), f), t);
      const __m512d z = _mm512_sub_pd(_mm512_add_pd(y, shift), shift);
      _mm512_store_pd(row + p * stride, z);
      s = _mm512_add_pd(s, _mm512_mul_pd(z, z));
    }
    alignas(64) double lane[8];
    _mm512_store_pd(lane, s);
    sums[r] = ((lane[0] + lane[1]) + (lane[2] + lane[3])) + ((lane[4] + lane[5]) + (lane[6] + lane[7]));
  }
}

void panel_gram_upper(const Panels &panels, int64_t rows, int64_t cols, double *c, int64_t ldc) {
  if (!kernel_takes(cols) || cols != panels.cols() || rows > panels.rows())
    fail(Status::Internal, "panel_gram_upper called on rows it does not take");
  const double *in = panels.data();
  const int64_t stride = panels.stride();
  // Column panel q against row panels 0 .. q, three at a time.
  for (int64_t q = 0; q < panel_count(cols); ++q) {
    const double *jp = in + q * stride;
    int64_t p = 0;
    for (; p + 3 <= q + 1; p += 3)
      tile<3>(in + p * stride, jp, rows, stride, c, ldc, 8 * p, 8 * q, cols);
    if (q + 1 - p == 2) tile<2>(in + p * stride, jp, rows, stride, c, ldc, 8 * p, 8 * q, cols);
    if (q + 1 - p == 1) tile<1>(in + p * stride, jp, rows, stride, c, ldc, 8 * p, 8 * q, cols);
  }
}

#else

bool panel_gram_applies(int64_t) { return false; }

void pack_rows(ConstMatrixView, const double *, Panels &, int64_t) {
  fail(Status::Internal, "pack_rows is not available on this CPU");
}

void pack_rows_and_sums(ConstMatrixView, Panels &, double *, int64_t) {
  fail(Status::Internal, "pack_rows_and_sums is not available on this CPU");
}

void scale_packed_rows(Panels &, int64_t, const double *, int64_t) {
  fail(Status::Internal, "scale_packed_rows is not available on this CPU");
}

void round_packed_rows(Panels &, int64_t, const double *, double, double *) {
  fail(Status::Internal, "round_packed_rows is not available on this CPU");
}

void panel_gram_upper(const Panels &, int64_t, int64_t, double *, int64_t) {
  fail(Status::Internal, "panel_gram_upper is not available on this CPU");
}

#endif

}  // namespace dpcov::linalg
