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

using Kernel = void (*)(const double *, int64_t, int64_t, const double *, double *, int64_t);

// Row r of the block is x = a[r * ld .. r * ld + D), held in one or two 8-wide registers (the
// columns past D masked to zero). Row j of G gains y_j * y with y = f_r x: register-resident
// accumulators acc[j][h] for the 8 columns of half h. Rows j >= 8 of G need only the upper half,
// which bounds the accumulators at 24 for D = 16 (of AVX-512's 32 registers).
template <int D, bool Scaled>
__attribute__((target("avx512f"))) void kernel(const double *a, int64_t rows, int64_t ld,
                                                const double *factors, double *c, int64_t ldc) {
  constexpr int kHalves = D > 8 ? 2 : 1;
  constexpr unsigned kLow = D >= 8 ? 0xFFu : (1u << D) - 1u;
  constexpr unsigned kHigh = D > 8 ? (1u << (D - 8)) - 1u : 0u;
  __m512d acc[D][kHalves];
#pragma GCC unroll 16
  for (int j = 0; j < D; ++j)
#pragma GCC unroll 2
    for (int h = 0; h < kHalves; ++h) acc[j][h] = _mm512_setzero_pd();

  // A scaled row is stored here and its entries broadcast back from it: loads, which have ports
  // to spare, where a scalar product f * x_j per entry would take the multiply-add ports and a
  // broadcast from a register the shuffle port.
  alignas(64) double scaled[16];
  for (int64_t r = 0; r < rows; ++r) {
    const double *x = a + r * ld;
    __m512d low = _mm512_maskz_loadu_pd(static_cast<__mmask8>(kLow), x);
    __m512d high = kHalves == 2 ? _mm512_maskz_loadu_pd(static_cast<__mmask8>(kHigh), x + 8)
                                : _mm512_setzero_pd();
    const double *y = x;
    if constexpr (Scaled) {
      const __m512d fv = _mm512_set1_pd(factors[r]);
      low = _mm512_mul_pd(low, fv);
      high = _mm512_mul_pd(high, fv);
      _mm512_store_pd(scaled, low);
      if constexpr (kHalves == 2) _mm512_store_pd(scaled + 8, high);
      y = scaled;
    }
#pragma GCC unroll 16
    for (int j = 0; j < D; ++j) {
      // y_j is the vector lane above (f * x_j rounded once), so both operands are the scaled row.
      const __m512d yj = _mm512_set1_pd(y[j]);
      if (j < 8) acc[j][0] = _mm512_fmadd_pd(yj, low, acc[j][0]);
      if constexpr (kHalves == 2) acc[j][kHalves - 1] = _mm512_fmadd_pd(yj, high, acc[j][kHalves - 1]);
    }
  }

  alignas(64) double lane[16];
#pragma GCC unroll 16
  for (int j = 0; j < D; ++j) {
    if (j < 8) _mm512_store_pd(lane, acc[j][0]);
    if constexpr (kHalves == 2) _mm512_store_pd(lane + 8, acc[j][kHalves - 1]);
    for (int k = j; k < D; ++k) c[j + k * ldc] += lane[k];
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

template <int D>
__attribute__((target("avx512f"))) void sums_kernel(const double *a, int64_t rows, int64_t ld,
                                                     double *out) {
  constexpr unsigned kLow = D >= 8 ? 0xFFu : (1u << D) - 1u;
  constexpr unsigned kHigh = D > 8 ? (1u << (D - 8)) - 1u : 0u;
  for (int64_t r = 0; r < rows; ++r) {
    const double *x = a + r * ld;
    const __m512d low = _mm512_maskz_loadu_pd(static_cast<__mmask8>(kLow), x);
    __m512d squares = _mm512_mul_pd(low, low);
    if constexpr (D > 8) {
      const __m512d high = _mm512_maskz_loadu_pd(static_cast<__mmask8>(kHigh), x + 8);
      squares = _mm512_fmadd_pd(high, high, squares);
    }
    out[r] = sum_of_lanes(squares);
  }
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

void short_gram_upper(ConstMatrixView a, const double *factors, double *c, int64_t ldc) {
  if (!short_gram_applies(a))
    fail(Status::Internal, "short_gram_upper called on rows it does not take");
  const auto &table = factors ? kScaled : kPlain;
  table[static_cast<size_t>(a.cols - 1)](a.data, a.rows, a.ld, factors, c, ldc);
}

#else

bool short_gram_applies(ConstMatrixView) { return false; }

void short_row_sums_of_squares(ConstMatrixView, int64_t, int64_t, double *) {
  fail(Status::Internal, "short_row_sums_of_squares is not available on this CPU");
}

void short_gram_upper(ConstMatrixView, const double *, double *, int64_t) {
  fail(Status::Internal, "short_gram_upper is not available on this CPU");
}

#endif

}  // namespace dpcov::linalg
