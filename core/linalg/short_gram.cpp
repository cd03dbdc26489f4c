#include "short_gram.hpp"

#include <array>
#include <utility>

#include "../error.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define DPCOV_SHORT_GRAM_AVX512 1
#endif

namespace dpcov::linalg {

#ifdef DPCOV_SHORT_GRAM_AVX512
namespace {

using Kernel = void (*)(const double *, int64_t, int64_t, const double *, double *);

// Row r of the block is x = a[r * ld .. r * ld + D), held in one or two 8-wide registers (the
// columns past D masked to zero), and y = f_r x. The upper triangle of G gains y y^T through
// register-resident accumulators, each entry (i, j) in one lane of one of them:
//   row[j],  j < min(D, 8): y_j times the low half, entries (j, 0..7) (lanes k >= j kept);
//   col[k],  8 <= k < D:    y_k times the low half, entries (0..7, k), all eight kept;
//   high[j], 8 <= j < D:    y_j times the high half, entries (j, 8..15) (lanes k >= j kept).
// min(D, 8) + 2 (D - 8) multiply-adds per row: 12 at D = 10, where a row of G per register for both
// halves took 18, for the same sums (each entry is the same chain of fused multiply-adds over the
// rows, y_i y_j being y_j y_i); at most 24 accumulators (D = 16) of AVX-512's 32 registers.
// The accumulators are loaded from `chains` (ShortGramChains: row[j] at lane group j, col[k] at
// 8 + k, high[k] at 16 + k) and stored back, so that a chain continued in a later call is the
// chain one call over all the rows forms.
template <int D, bool Scaled>
__attribute__((target("avx512f"))) void kernel(const double *a, int64_t rows, int64_t ld,
                                                const double *factors, double *chains) {
  constexpr int kRows = D < 8 ? D : 8;
  constexpr int kHigh = D > 8 ? D - 8 : 0;
  constexpr int kSlots = kHigh > 0 ? kHigh : 1;
  constexpr unsigned kLow = D >= 8 ? 0xFFu : (1u << D) - 1u;
  constexpr unsigned kHighMask = D > 8 ? (1u << (D - 8)) - 1u : 0u;
  __m512d row[kRows], col[kSlots], high[kSlots];
#pragma GCC unroll 8
  for (int j = 0; j < kRows; ++j) row[j] = _mm512_load_pd(chains + 8 * j);
#pragma GCC unroll 8
  for (int k = 0; k < kSlots; ++k) {
    col[k] = _mm512_load_pd(chains + 8 * (8 + k));
    high[k] = _mm512_load_pd(chains + 8 * (16 + k));
  }

  // Scaled rows are written to a buffer of kBatch rows (in the core's first-level cache) in one
  // pass, and the products then read their entries from it as from the caller's rows: a row's
  // broadcasts would otherwise wait on the stores of the same row.
  constexpr int64_t kBatch = 32;
  alignas(64) double scaled[kBatch * 16];
  for (int64_t start = 0; start < rows; start += kBatch) {
    const int64_t count = rows - start < kBatch ? rows - start : kBatch;
    const double *y0 = a + start * ld;
    int64_t step = ld;
    if constexpr (Scaled) {
      for (int64_t r = 0; r < count; ++r) {
        const double *x = a + (start + r) * ld;
        const __m512d fv = _mm512_set1_pd(factors[start + r]);
        _mm512_store_pd(scaled + 16 * r,
                        _mm512_mul_pd(_mm512_maskz_loadu_pd(static_cast<__mmask8>(kLow), x), fv));
        if constexpr (kHigh > 0)
          _mm512_store_pd(scaled + 16 * r + 8,
                          _mm512_mul_pd(_mm512_maskz_loadu_pd(static_cast<__mmask8>(kHighMask), x + 8), fv));
      }
      y0 = scaled;
      step = 16;
    }
    for (int64_t r = 0; r < count; ++r) {
      const double *y = y0 + r * step;
      const __m512d low = _mm512_maskz_loadu_pd(static_cast<__mmask8>(kLow), y);
      const __m512d hi = kHigh > 0 ? _mm512_maskz_loadu_pd(static_cast<__mmask8>(kHighMask), y + 8)
                                   : _mm512_setzero_pd();
#pragma GCC unroll 8
      for (int j = 0; j < kRows; ++j) row[j] = _mm512_fmadd_pd(_mm512_set1_pd(y[j]), low, row[j]);
#pragma GCC unroll 8
      for (int k = 0; k < kHigh; ++k) {
        const __m512d yk = _mm512_set1_pd(y[8 + k]);
        col[k] = _mm512_fmadd_pd(yk, low, col[k]);
        high[k] = _mm512_fmadd_pd(yk, hi, high[k]);
      }
    }
  }

#pragma GCC unroll 8
  for (int j = 0; j < kRows; ++j) _mm512_store_pd(chains + 8 * j, row[j]);
#pragma GCC unroll 8
  for (int k = 0; k < kSlots; ++k) {
    _mm512_store_pd(chains + 8 * (8 + k), col[k]);
    _mm512_store_pd(chains + 8 * (16 + k), high[k]);
  }
}

// Adds the chains' sums to the upper triangle of C, each entry's from its lane.
void finish(const double *chains, int64_t dim, double *c, int64_t ldc) {
  const int64_t rows = dim < 8 ? dim : 8, high = dim > 8 ? dim - 8 : 0;
  for (int64_t j = 0; j < rows; ++j)
    for (int64_t k = j; k < rows; ++k) c[j + k * ldc] += chains[8 * j + k];
  for (int64_t k = 0; k < high; ++k) {
    for (int64_t i = 0; i < 8; ++i) c[i + (8 + k) * ldc] += chains[8 * (8 + k) + i];
    for (int64_t m = k; m < high; ++m) c[8 + k + (8 + m) * ldc] += chains[8 * (16 + k) + m];
  }
}

// The eight lanes' sum by swapping halves, quarters and neighbours (_mm512_reduce_add_pd does the
// same, but trips GCC 12's -Wmaybe-uninitialized inside its header).
__attribute__((target("avx512f"))) inline double sum_of_lanes(__m512d v) {
  // The masked forms with every lane selected: the unmasked ones trip the same warning.
  v = _mm512_add_pd(v, _mm512_mask_shuffle_f64x2(v, 0xFF, v, v, 0x4E));
  v = _mm512_add_pd(v, _mm512_mask_shuffle_f64x2(v, 0xFF, v, v, 0xB1));
  v = _mm512_add_pd(v, _mm512_mask_permute_pd(v, 0xFF, v, 0x55));
  return _mm512_cvtsd_f64(v);
}

// Row x's eight lanes of squares: x_k^2, then + x_{k+8}^2 for the columns past 8.
template <int D>
__attribute__((target("avx512f"))) inline __m512d squares_of(const double *x) {
  constexpr unsigned kLow = D >= 8 ? 0xFFu : (1u << D) - 1u;
  constexpr unsigned kHigh = D > 8 ? (1u << (D - 8)) - 1u : 0u;
  const __m512d low = _mm512_maskz_loadu_pd(static_cast<__mmask8>(kLow), x);
  __m512d squares = _mm512_mul_pd(low, low);
  if constexpr (D > 8) {
    const __m512d high = _mm512_maskz_loadu_pd(static_cast<__mmask8>(kHigh), x + 8);
    squares = _mm512_fmadd_pd(high, high, squares);
  }
  return squares;
}

// Each row's squares summed as sum_of_lanes() does, ((s0 + s4) + (s2 + s6)) + ((s1 + s5) +
// (s3 + s7)), the same bits; eight rows at a time with their lanes interleaved, so that a step
// of the tree adds for two to eight rows at once (15 shuffles and 7 additions for eight rows,
// where one row at a time takes 24 and 24).
template <int D>
__attribute__((target("avx512f"))) void sums_kernel(const double *a, int64_t rows, int64_t ld,
                                                     double *out) {
  const __m512i order = _mm512_set_epi64(7, 5, 3, 1, 6, 4, 2, 0);
  int64_t r = 0;
  for (; r + 8 <= rows; r += 8) {
    __m512d s[8];
#pragma GCC unroll 8
    for (int k = 0; k < 8; ++k) s[k] = squares_of<D>(a + (r + k) * ld);
    // Rows 2p and 2p + 1: [s0 + s4, .., s3 + s7] of each.
    __m512d t[4];
#pragma GCC unroll 4
    for (int p = 0; p < 4; ++p)
      t[p] = _mm512_add_pd(_mm512_mask_shuffle_f64x2(s[2 * p], 0xFF, s[2 * p], s[2 * p + 1], 0x44),
                           _mm512_mask_shuffle_f64x2(s[2 * p], 0xFF, s[2 * p], s[2 * p + 1], 0xEE));
    // Rows 4q .. 4q + 3: [t0 + t2, t1 + t3] of each.
    __m512d u[2];
#pragma GCC unroll 2
    for (int q = 0; q < 2; ++q)
      u[q] = _mm512_add_pd(_mm512_mask_shuffle_f64x2(t[2 * q], 0xFF, t[2 * q], t[2 * q + 1], 0x88),
                           _mm512_mask_shuffle_f64x2(t[2 * q], 0xFF, t[2 * q], t[2 * q + 1], 0xDD));
    // Rows 0, 4, 1, 5, 2, 6, 3, 7: u0 + u1 of each; then in row order.
    const __m512d v = _mm512_add_pd(_mm512_mask_unpacklo_pd(u[0], 0xFF, u[0], u[1]),
                                    _mm512_mask_unpackhi_pd(u[0], 0xFF, u[0], u[1]));
    _mm512_storeu_pd(out + r, _mm512_mask_permutexvar_pd(v, 0xFF, order, v));
  }
  for (; r < rows; ++r) out[r] = sum_of_lanes(squares_of<D>(a + r * ld));
}

using SumsKernel = void (*)(const double *, int64_t, int64_t, double *);

template <size_t... D>
constexpr std::array<SumsKernel, sizeof...(D)> sums_kernels(std::index_sequence<D...>) {
  return {&sums_kernel<static_cast<int>(D) + 1>...};
}

constexpr auto kSums = sums_kernels(std::make_index_sequence<kShortRowMaxColumns>());

template <bool Scaled, size_t... D>
constexpr std::array<Kernel, sizeof...(D)> kernels(std::index_sequence<D...>) {
  return {&kernel<static_cast<int>(D) + 1, Scaled>...};
}

constexpr auto kPlain = kernels<false>(std::make_index_sequence<kShortRowMaxColumns>());
constexpr auto kScaled = kernels<true>(std::make_index_sequence<kShortRowMaxColumns>());

}  // namespace

bool short_gram_applies(ConstMatrixView a) {
  static const bool avx512 = __builtin_cpu_supports("avx512f");
  return avx512 && a.layout == Layout::RowMajor && a.cols >= 1 && a.cols <= kShortRowMaxColumns;
}

void short_row_sums_of_squares(ConstMatrixView a, int64_t first, int64_t count, double *out) {
  if (!short_gram_applies(a))
    fail(Status::Internal, "short_row_sums_of_squares called on rows it does not take");
  kSums[static_cast<size_t>(a.cols - 1)](a.row(first), count, a.ld, out);
}

void short_gram_chain(ConstMatrixView a, const double *factors, ShortGramChains &chains) {
  if (!short_gram_applies(a))
    fail(Status::Internal, "short_gram_chain called on rows it does not take");
  const auto &table = factors ? kScaled : kPlain;
  table[static_cast<size_t>(a.cols - 1)](a.data, a.rows, a.ld, factors, chains.lanes.data());
}

void short_gram_finish(const ShortGramChains &chains, int64_t cols, double *c, int64_t ldc) {
  finish(chains.lanes.data(), cols, c, ldc);
}

void short_gram_upper(ConstMatrixView a, const double *factors, double *c, int64_t ldc) {
  ShortGramChains chains;
  short_gram_chain(a, factors, chains);
  short_gram_finish(chains, a.cols, c, ldc);
}

#else

bool short_gram_applies(ConstMatrixView) { return false; }

void short_row_sums_of_squares(ConstMatrixView, int64_t, int64_t, double *) {
  fail(Status::Internal, "short_row_sums_of_squares is not available on this CPU");
}

void short_gram_chain(ConstMatrixView, const double *, ShortGramChains &) {
  fail(Status::Internal, "short_gram_chain is not available on this CPU");
}

void short_gram_finish(const ShortGramChains &, int64_t, double *, int64_t) {
  fail(Status::Internal, "short_gram_finish is not available on this CPU");
}

void short_gram_upper(ConstMatrixView, const double *, double *, int64_t) {
  fail(Status::Internal, "short_gram_upper is not available on this CPU");
}

#endif

}  // namespace dpcov::linalg
