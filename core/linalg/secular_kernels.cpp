#include "secular_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace dpcov::linalg::detail {

namespace {

// Interleaved partial sums: independent chains of additions (and SIMD lanes) instead of one chain
// as long as the sum. Any order of summation satisfies the rounding bound the root finder uses.
constexpr int64_t kLanes = 4;

// The reciprocals of a pair of distances from one division: r = 1 / (a b), 1/a = b r, 1/b = a r.
// The pass is bound by the divider (one division per pole takes 2 cycles at any vector width on
// recent x86 cores); pairing halves the divisions for two multiplications, which run on other
// ports. Three roundings instead of one per reciprocal (1.5 eps instead of 0.5 eps), and only
// while a b is far from underflow and overflow: every |delta_j| within [2^-500, 2^500].
constexpr double kSmallestDistance = 0x1p-500, kLargestDistance = 0x1p500;

double lane_total(const double *lanes) { return (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]); }

// One division per pole: where the distances' products could under- or overflow, and the tails.
[[gnu::always_inline]] inline PoleSums divided(const double *__restrict w,
                                               const double *__restrict lambda, double origin,
                                               double shift, double *__restrict delta,
                                               int64_t begin, int64_t end) {
  double value[kLanes] = {}, slope[kLanes] = {};
  int64_t j = begin;
  for (; j + kLanes <= end; j += kLanes)
    for (int64_t l = 0; l < kLanes; ++l) {
      delta[j + l] = (lambda[j + l] - origin) - shift;
      const double inv = 1.0 / delta[j + l];
      const double t = w[j + l] * inv;
      value[l] += t;
      slope[l] += t * inv;
    }
  for (; j < end; ++j) {
    delta[j] = (lambda[j] - origin) - shift;
    const double inv = 1.0 / delta[j];
    const double t = w[j] * inv;
    value[0] += t;
    slope[0] += t * inv;
  }
  return {lane_total(value), lane_total(slope)};
}

// Poles j and j + kLanes share a division; the loops are shaped so that GCC vectorises them
// (lane l of every array is one SIMD lane).
[[gnu::always_inline]] inline PoleSums paired(const double *__restrict w,
                                              const double *__restrict lambda, double origin,
                                              double shift, double *__restrict delta,
                                              int64_t begin, int64_t end) {
  double value[kLanes] = {}, slope[kLanes] = {};
  int64_t j = begin;
  for (; j + 2 * kLanes <= end; j += 2 * kLanes) {
    double a[kLanes], b[kLanes];
    for (int64_t l = 0; l < kLanes; ++l) {
      a[l] = (lambda[j + l] - origin) - shift;
      b[l] = (lambda[j + kLanes + l] - origin) - shift;
      delta[j + l] = a[l];
      delta[j + kLanes + l] = b[l];
    }
    for (int64_t l = 0; l < kLanes; ++l) {
      const double r = 1.0 / (a[l] * b[l]);
      const double inv_a = b[l] * r, inv_b = a[l] * r;
      const double ta = w[j + l] * inv_a, tb = w[j + kLanes + l] * inv_b;
      value[l] += ta;
      slope[l] += ta * inv_a;
      value[l] += tb;
      slope[l] += tb * inv_b;
    }
  }
  const PoleSums tail = divided(w, lambda, origin, shift, delta, j, end);
  return {lane_total(value) + tail.value, lane_total(slope) + tail.slope};
}

// Whether every distance over [begin, end) lies within the range the paired reciprocals accept.
// The poles decrease, so the distances do too (rounding is monotone); where they keep one sign
// (the root finder's ranges do: the poles above the root's interval, and those below), the
// smallest and largest |delta_j| are those at the ends. Otherwise, or out of range, divide.
[[gnu::always_inline]] inline bool pairable(const double *lambda, double origin, double shift,
                                            int64_t begin, int64_t end) {
  if (end - begin < 2 * kLanes) return false;
  const double first = (lambda[begin] - origin) - shift, last = (lambda[end - 1] - origin) - shift;
  if (first > 0.0 && last > 0.0) return last >= kSmallestDistance && first <= kLargestDistance;
  if (first < 0.0 && last < 0.0) return first <= -kSmallestDistance && last >= -kLargestDistance;
  return false;
}

// One range's sums, paired where pairable.
[[gnu::always_inline]] inline PoleSums range_sums(const double *w, const double *lambda,
                                                  double origin, double shift, double *delta,
                                                  int64_t begin, int64_t end) {
  if (!pairable(lambda, origin, shift, begin, end))
    return divided(w, lambda, origin, shift, delta, begin, end);
  return paired(w, lambda, origin, shift, delta, begin, end);
}

// Four doubles as one vector (two SSE2 registers in the baseline build, one in the AVX2 build),
// loaded and stored unaligned; element-wise arithmetic on it is IEEE arithmetic on each lane.
using Vec4 = double __attribute__((vector_size(4 * sizeof(double)), aligned(sizeof(double)),
                                   may_alias));

[[gnu::always_inline]] inline double vector_total(Vec4 v) { return (v[0] + v[1]) + (v[2] + v[3]); }

// One range of one root in the two-root pass.
struct RootRange {
  Vec4 origin, shift;
  double *delta;
  int64_t begin, blocks;
  Vec4 value, slope;
};

// One block of paired() for one root, with its four lanes in one vector: the same operations on
// each lane in the same order.
[[gnu::always_inline]] inline void paired_block(const double *__restrict w,
                                                const double *__restrict lambda, RootRange &x,
                                                int64_t block) {
  const Vec4 one = {1.0, 1.0, 1.0, 1.0};
  const int64_t j = x.begin + block * 2 * kLanes;
  const Vec4 a = (*reinterpret_cast<const Vec4 *>(lambda + j) - x.origin) - x.shift;
  const Vec4 b = (*reinterpret_cast<const Vec4 *>(lambda + j + kLanes) - x.origin) - x.shift;
  *reinterpret_cast<Vec4 *>(x.delta + j) = a;
  *reinterpret_cast<Vec4 *>(x.delta + j + kLanes) = b;
  const Vec4 r = one / (a * b);
  const Vec4 inv_a = b * r, inv_b = a * r;
  const Vec4 ta = *reinterpret_cast<const Vec4 *>(w + j) * inv_a;
  const Vec4 tb = *reinterpret_cast<const Vec4 *>(w + j + kLanes) * inv_b;
  x.value = (x.value + ta) + tb;
  x.slope = (x.slope + ta * inv_a) + tb * inv_b;
}

// range_sums for two roots' ranges: where both pair, their blocks in one loop (two independent
// chains of additions), then each root's remaining blocks and its tail, as paired() sums them.
[[gnu::always_inline]] inline void two_ranges(const double *w, const double *lambda,
                                              double origin_a, double shift_a, double *delta_a,
                                              int64_t begin_a, int64_t end_a, double origin_b,
                                              double shift_b, double *delta_b, int64_t begin_b,
                                              int64_t end_b, PoleSums &out_a, PoleSums &out_b) {
  if (!pairable(lambda, origin_a, shift_a, begin_a, end_a) ||
      !pairable(lambda, origin_b, shift_b, begin_b, end_b)) {
    out_a = range_sums(w, lambda, origin_a, shift_a, delta_a, begin_a, end_a);
    out_b = range_sums(w, lambda, origin_b, shift_b, delta_b, begin_b, end_b);
    return;
  }
  RootRange x{Vec4{} + origin_a, Vec4{} + shift_a, delta_a, begin_a,
              (end_a - begin_a) / (2 * kLanes), Vec4{}, Vec4{}};
  RootRange y{Vec4{} + origin_b, Vec4{} + shift_b, delta_b, begin_b,
              (end_b - begin_b) / (2 * kLanes), Vec4{}, Vec4{}};
  const int64_t both = std::min(x.blocks, y.blocks);
  for (int64_t block = 0; block < both; ++block) {
    paired_block(w, lambda, x, block);
    paired_block(w, lambda, y, block);
  }
  for (int64_t block = both; block < x.blocks; ++block) paired_block(w, lambda, x, block);
  for (int64_t block = both; block < y.blocks; ++block) paired_block(w, lambda, y, block);
  const PoleSums tail_a =
      divided(w, lambda, origin_a, shift_a, delta_a, begin_a + x.blocks * 2 * kLanes, end_a);
  const PoleSums tail_b =
      divided(w, lambda, origin_b, shift_b, delta_b, begin_b + y.blocks * 2 * kLanes, end_b);
  out_a = {vector_total(x.value) + tail_a.value, vector_total(x.slope) + tail_a.slope};
  out_b = {vector_total(y.value) + tail_b.value, vector_total(y.slope) + tail_b.slope};
}

[[gnu::always_inline]] inline void two_roots_kernel(const double *w, const double *lambda,
                                                    int64_t m, double origin_a, double shift_a,
                                                    double *delta_a, int64_t split_a,
                                                    double origin_b, double shift_b,
                                                    double *delta_b, int64_t split_b,
                                                    SplitPoleSums *out) {
  two_ranges(w, lambda, origin_a, shift_a, delta_a, 0, split_a, origin_b, shift_b, delta_b, 0,
             split_b, out[0].above, out[1].above);
  two_ranges(w, lambda, origin_a, shift_a, delta_a, split_a, m, origin_b, shift_b, delta_b,
             split_b, m, out[0].below, out[1].below);
}

[[gnu::always_inline]] inline void column_kernel(const double *__restrict poles,
                                                 const double *__restrict loewner, double origin,
                                                 double shift, int64_t m, double *__restrict col) {
  const Vec4 origin4 = {origin, origin, origin, origin}, shift4 = {shift, shift, shift, shift};
  Vec4 squares = {};
  int64_t i = 0;
  for (; i + kLanes <= m; i += kLanes) {
    const Vec4 v = *reinterpret_cast<const Vec4 *>(loewner + i) /
                   ((*reinterpret_cast<const Vec4 *>(poles + i) - origin4) - shift4);
    *reinterpret_cast<Vec4 *>(col + i) = v;
    squares += v * v;
  }
  double lanes[kLanes];
  std::memcpy(lanes, &squares, sizeof lanes);
  for (; i < m; ++i) {
    const double v = loewner[i] / ((poles[i] - origin) - shift);
    col[i] = v;
    lanes[0] += v * v;
  }
  const double scale = 1.0 / std::sqrt(lane_total(lanes));
  const Vec4 scale4 = {scale, scale, scale, scale};
  i = 0;
  for (; i + kLanes <= m; i += kLanes)
    *reinterpret_cast<Vec4 *>(col + i) = *reinterpret_cast<const Vec4 *>(col + i) * scale4;
  for (; i < m; ++i) col[i] *= scale;
}

[[gnu::always_inline]] inline void loewner_kernel(double *__restrict num, double *__restrict den,
                                                  const double *__restrict delta_k, double pole,
                                                  const double *__restrict lambda, int64_t begin,
                                                  int64_t end) {
  const Vec4 pole4 = {pole, pole, pole, pole};
  int64_t j = begin;
  for (; j + kLanes <= end; j += kLanes) {
    Vec4 &n = *reinterpret_cast<Vec4 *>(num + j);
    Vec4 &d = *reinterpret_cast<Vec4 *>(den + j);
    n = n * -*reinterpret_cast<const Vec4 *>(delta_k + j);
    d = d * (pole4 - *reinterpret_cast<const Vec4 *>(lambda + j));
  }
  for (; j < end; ++j) {
    num[j] *= -delta_k[j];
    den[j] *= pole - lambda[j];
  }
}

}  // namespace

SplitPoleSums pole_sums_portable(const double *w, const double *lambda, double origin,
                                 double shift, double *delta, int64_t split, int64_t m) {
  return {range_sums(w, lambda, origin, shift, delta, 0, split),
          range_sums(w, lambda, origin, shift, delta, split, m)};
}

// Elsewhere than x86 the "AVX2 build" is the portable one, and has_avx2() is false.
#if defined(__x86_64__) || defined(__i386__)
#define DPCOV_TARGET_AVX2 [[gnu::target("avx2")]]
#else
#define DPCOV_TARGET_AVX2
#endif

DPCOV_TARGET_AVX2 SplitPoleSums pole_sums_avx2(const double *w, const double *lambda,
                                                     double origin, double shift, double *delta,
                                                     int64_t split, int64_t m) {
  return {range_sums(w, lambda, origin, shift, delta, 0, split),
          range_sums(w, lambda, origin, shift, delta, split, m)};
}

void pole_sums_two_portable(const double *w, const double *lambda, int64_t m, double origin_a,
                            double shift_a, double *delta_a, int64_t split_a, double origin_b,
                            double shift_b, double *delta_b, int64_t split_b, SplitPoleSums *out) {
  two_roots_kernel(w, lambda, m, origin_a, shift_a, delta_a, split_a, origin_b, shift_b, delta_b,
                   split_b, out);
}

DPCOV_TARGET_AVX2 void pole_sums_two_avx2(const double *w, const double *lambda, int64_t m,
                                          double origin_a, double shift_a, double *delta_a,
                                          int64_t split_a, double origin_b, double shift_b,
                                          double *delta_b, int64_t split_b, SplitPoleSums *out) {
  two_roots_kernel(w, lambda, m, origin_a, shift_a, delta_a, split_a, origin_b, shift_b, delta_b,
                   split_b, out);
}

void eigenvector_column_portable(const double *poles, const double *loewner, double origin,
                                 double shift, int64_t m, double *col) {
  column_kernel(poles, loewner, origin, shift, m, col);
}

DPCOV_TARGET_AVX2 void eigenvector_column_avx2(const double *poles, const double *loewner,
                                               double origin, double shift, int64_t m,
                                               double *col) {
  column_kernel(poles, loewner, origin, shift, m, col);
}

void loewner_factors_portable(double *num, double *den, const double *delta_k, double pole,
                              const double *lambda, int64_t begin, int64_t end) {
  loewner_kernel(num, den, delta_k, pole, lambda, begin, end);
}

DPCOV_TARGET_AVX2 void loewner_factors_avx2(double *num, double *den, const double *delta_k,
                                            double pole, const double *lambda, int64_t begin,
                                            int64_t end) {
  loewner_kernel(num, den, delta_k, pole, lambda, begin, end);
}

bool has_avx2() {
#if defined(__x86_64__) || defined(__i386__)
  static const bool supported = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return supported;
#else
  return false;
#endif
}

SplitPoleSums pole_sums(const double *w, const double *lambda, double origin, double shift,
                        double *delta, int64_t split, int64_t m) {
  return has_avx2() ? pole_sums_avx2(w, lambda, origin, shift, delta, split, m)
                    : pole_sums_portable(w, lambda, origin, shift, delta, split, m);
}

void pole_sums_two(const double *w, const double *lambda, int64_t m, double origin_a,
                   double shift_a, double *delta_a, int64_t split_a, double origin_b,
                   double shift_b, double *delta_b, int64_t split_b, SplitPoleSums *out) {
  if (has_avx2())
    pole_sums_two_avx2(w, lambda, m, origin_a, shift_a, delta_a, split_a, origin_b, shift_b,
                       delta_b, split_b, out);
  else
    pole_sums_two_portable(w, lambda, m, origin_a, shift_a, delta_a, split_a, origin_b, shift_b,
                           delta_b, split_b, out);
}

void eigenvector_column(const double *poles, const double *loewner, double origin, double shift,
                        int64_t m, double *col) {
  if (has_avx2()) eigenvector_column_avx2(poles, loewner, origin, shift, m, col);
  else eigenvector_column_portable(poles, loewner, origin, shift, m, col);
}

void loewner_factors(double *num, double *den, const double *delta_k, double pole,
                     const double *lambda, int64_t begin, int64_t end) {
  if (has_avx2()) loewner_factors_avx2(num, den, delta_k, pole, lambda, begin, end);
  else loewner_factors_portable(num, den, delta_k, pole, lambda, begin, end);
}

}  // namespace dpcov::linalg::detail
