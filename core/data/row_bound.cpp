#include "row_bound.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "../error.hpp"

// Per-CPU clones of the hot loops where the compiler supports them (GCC and Clang on x86-64).
// Not under the sanitizers: the clones' resolver runs while the library is being relocated,
// before a sanitizer's runtime is ready, and its instrumented code crashes there or, with
// Clang, picks the AVX-512 clone on a CPU without AVX-512 (an illegal instruction). GCC names
// its sanitizers with __SANITIZE_*__, Clang through __has_feature.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define DPCOV_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define DPCOV_SANITIZED 1
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(DPCOV_SANITIZED)
#define DPCOV_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define DPCOV_VECTOR_CLONES
#endif

// No multiply-add contracted into a fused one anywhere in this file, the AVX2 and AVX-512
// clones included: the sums of squares are the same bits on every CPU, rounded as
// proofs/row_bound.md counts (each square, then each addition), and provably_within()'s
// error-free transformations stay exact (a TwoSum of hi and a contracted x * x is not).
#if defined(__clang__)
#pragma clang fp contract(off)
#else
#pragma GCC optimize("fp-contract=off")
#endif

namespace dpcov::data {

void check_row_bound(double bound, const char *name) {
  if (std::isnan(bound) || std::isinf(bound))
    fail(Status::NonFinite, name, " must be finite, got ", bound);
  if (!(bound >= kSmallestRowBound))
    fail(Status::InvalidArgument, name, " must be >= 2^-960 (about 1.03e-289) and finite, got ",
         bound, ": below 2^-960 clipping a row to the bound is not proven to keep it within ",
         "(proofs/row_bound.md)");
}

namespace {

// Sums of squares of rows as four interleaved partial sums (s[k] takes the terms j = k mod 4,
// the first also the last cols mod 4), combined as (s0 + s1) + (s2 + s3): the order
// proofs/row_bound.md bounds. One row's four sums form a chain of cols / 4 dependent additions;
// four rows at once fill the vector unit in parallel.
//
// Four doubles as one value: a vector register where the target has one, two SSE2 registers
// otherwise; lane k of an accumulator is the partial sum s[k].
typedef double Lanes4 __attribute__((vector_size(32)));

inline double combined(const Lanes4 &s) { return (s[0] + s[1]) + (s[2] + s[3]); }

inline double interleaved_sum(const double *r, int64_t cols) {
  Lanes4 s = {};
  int64_t j = 0;
  for (; j + 4 <= cols; j += 4) {
    Lanes4 x;
    std::memcpy(&x, r + j, sizeof x);
    s += x * x;
  }
  for (; j < cols; ++j) s[0] += r[j] * r[j];
  return combined(s);
}

// Four rows, each with its own accumulator (named, so that they stay in registers).
inline void interleaved_sums4(const double *r0, const double *r1, const double *r2,
                              const double *r3, int64_t cols, double *out) {
  Lanes4 s0 = {}, s1 = {}, s2 = {}, s3 = {};
  int64_t j = 0;
  for (; j + 4 <= cols; j += 4) {
    Lanes4 x0, x1, x2, x3;
    std::memcpy(&x0, r0 + j, sizeof x0);
    std::memcpy(&x1, r1 + j, sizeof x1);
    std::memcpy(&x2, r2 + j, sizeof x2);
    std::memcpy(&x3, r3 + j, sizeof x3);
    s0 += x0 * x0;
    s1 += x1 * x1;
    s2 += x2 * x2;
    s3 += x3 * x3;
  }
  for (; j < cols; ++j) {
    s0[0] += r0[j] * r0[j];
    s1[0] += r1[j] * r1[j];
    s2[0] += r2[j] * r2[j];
    s3[0] += r3[j] * r3[j];
  }
  out[0] = combined(s0);
  out[1] = combined(s1);
  out[2] = combined(s2);
  out[3] = combined(s3);
}

}  // namespace

// Compiled for AVX-512 and AVX2 as well as the baseline: four rows' partial sums in four vector
// registers keep the norm pass of a block a small fraction of its dsyrk.
DPCOV_VECTOR_CLONES void row_sums_of_squares(ConstMatrixView a, int64_t first, int64_t count,
                                             double *out) {
  // Independent partial sums along a row-major row, and a sweep down each column (one
  // accumulator per row) for column-major data: both vectorise.
  if (a.layout == Layout::RowMajor) {
    int64_t i = 0;
    for (; i + 4 <= count; i += 4)
      interleaved_sums4(a.row(first + i), a.row(first + i + 1), a.row(first + i + 2),
                        a.row(first + i + 3), a.cols, out + i);
    for (; i < count; ++i) out[i] = interleaved_sum(a.row(first + i), a.cols);
    return;
  }
  // Column-major rows get the row-major order too (lane j mod 4 for whole groups of four, lane 0
  // for the rest, combined alike), so that a row's sum of squares, and with it the clip factor
  // and the Gram matrix, has the same bits in both layouts. Each lane is an array of kLaneRows
  // rows swept down the columns.
  constexpr int64_t kLaneRows = 256;
  const int64_t grouped = a.cols / 4 * 4;
  for (int64_t start = 0; start < count; start += kLaneRows) {
    const int64_t rows = std::min(kLaneRows, count - start);
    double lanes[4][kLaneRows] = {};
    for (int64_t j = 0; j < a.cols; ++j) {
      double *s = lanes[j < grouped ? j % 4 : 0];
      const double *c = a.data + first + start + j * a.ld;
      for (int64_t i = 0; i < rows; ++i) s[i] += c[i] * c[i];
    }
    for (int64_t i = 0; i < rows; ++i)
      out[start + i] = (lanes[0][i] + lanes[1][i]) + (lanes[2][i] + lanes[3][i]);
  }
}

// Each square is p + e exactly (fma) and each partial sum hi + err exactly (TwoSum) while every
// nonzero |x_j| and B are in [2^-450, 2^500] (no error term underflows, no sum overflows), so the
// double-double (hi, lo) is the sum of squares up to lo's own rounding, at most 8 (d + 2)^2 u^2 hi
// (2d terms each at most 2u hi, summed). Decides "within" where the difference from B^2 is below
// minus 64 times that, or where no step rounded at all (then the difference is exact).
// proofs/row_bound.md. The fma is a call into the C library (no clone's target includes FMA),
// one per entry: within_at_bound() comes here only for the rows quick_at_bound() leaves open.
bool provably_within(ConstMatrixView a, int64_t i, double bound) {
  constexpr double kLow = 0x1p-450, kHigh = 0x1p500;
  if (!(bound >= kLow && bound <= kHigh)) return false;
  const double *r = a.row(i);
  const int64_t step = a.col_stride();
  double hi = 0.0, lo = 0.0;
  bool exact = true;
  for (int64_t j = 0; j < a.cols; ++j) {
    const double x = r[j * step];
    if (x == 0.0) continue;
    if (!(std::fabs(x) >= kLow && std::fabs(x) <= kHigh)) return false;
    const double p = x * x;
    const double e = std::fma(x, x, -p);
    const double sum = hi + p;
    const double back = sum - hi;
    const double err = (hi - (sum - back)) + (p - back);
    hi = sum;
    lo += err + e;
    exact = exact && err == 0.0 && e == 0.0;
  }
  const double b2 = bound * bound;
  const double b2_err = std::fma(bound, bound, -b2);
  // Sterbenz: hi - b2 is exact when hi is within a factor 2 of b2.
  if (!(hi >= b2 / 2.0 && hi <= 2.0 * b2)) return false;
  const double difference = (hi - b2) + (lo - b2_err);
  if (exact && b2_err == 0.0) return difference <= 0.0;
  const double d2 = static_cast<double>(a.cols + 2) * static_cast<double>(a.cols + 2);
  return difference < -(d2 * 0x1p-100 * hi);
}

namespace {

// Eight doubles as one value (one AVX-512 register, two AVX2 or four SSE2 ones), and their bits:
// the quick test's eight independent chains of additions.
typedef double Lanes8 __attribute__((vector_size(64)));
typedef uint64_t Bits8 __attribute__((vector_size(64)));

// x x = p + e exactly, without an fma (Dekker's product, Veltkamp's split by 2^27 + 1), for
// doubles or lane by lane: exact while x x neither over- nor underflows, which |x| in
// [2^-450, 2^500] guarantees (proofs/row_bound.md, "Quick decision").
template <class T>
inline void exact_square(const T &x, T &p, T &e) {
  const T c = x * 134217729.0;
  const T high = c - (c - x);
  const T low = x - high;
  p = x * x;
  e = low * low - (((p - high * high) - low * high) - high * low);
}

// a + b = s + err exactly (Knuth's TwoSum), for doubles or lane by lane, barring overflow. s may
// be a or b: both are copied first.
template <class T>
inline void two_sum(const T &a_in, const T &b_in, T &s, T &err) {
  const T a = a_in, b = b_in;
  s = a + b;
  const T back = s - a;
  err = (a - (s - back)) + (b - back);
}

// Eight running sums of squares, hi + lo, and per lane whether an entry fell outside
// [2^-450, 2^500) (its top bit: nonzero with a biased exponent outside [573, 1522]). Integer
// arithmetic rather than comparisons, which AVX-512F alone cannot turn back into lanes.
struct LaneSquares {
  Lanes8 hi = {}, lo = {};
  Bits8 outside = {};

  void add(const Lanes8 &x) {
    Bits8 bits;
    std::memcpy(&bits, &x, sizeof bits);
    const Bits8 exponent = (bits >> 52) & 0x7ff;
    const Bits8 magnitude = bits << 1;
    outside |= ((exponent - 573) | (1522 - exponent)) & (magnitude | (0 - magnitude));
    Lanes8 p, e, s, err;
    exact_square(x, p, e);
    two_sum(hi, p, s, err);
    hi = s;
    lo += err + e;
  }
};

// The decision from a row's sum of squares hi + low, computed within 0.01 K of the exact sum
// (K = (d + 3)^2 2^-96 B^2): provably_within()'s threshold and error are below 0.1 K, so a
// difference from B^2 above K is over for both, one below -2K within for both, and only rows
// within 2K of B^2 need the exact check (proofs/row_bound.md, "Quick decision").
AtBound decide(double hi, double low, bool outside, double bound, int64_t cols) {
  constexpr double kLow = 0x1p-450, kHigh = 0x1p500;
  if (outside || !(bound >= kLow && bound <= kHigh)) return AtBound::Undecided;
  double b2 = 0.0, b2_err = 0.0;
  exact_square(bound, b2, b2_err);
  // hi - b2 is exact (Sterbenz); hi within 3/4 and 3/2 of B^2 also puts provably_within()'s hi
  // within its factor 2. NaN fails here.
  if (!(hi >= 0.75 * b2 && hi <= 1.5 * b2)) return AtBound::Undecided;
  const double difference = (hi - b2) + (low - b2_err);
  const double d3 = static_cast<double>(cols + 3);
  const double k = d3 * d3 * 0x1p-96 * b2;
  if (difference > k) return AtBound::Over;
  if (difference < -2.0 * k) return AtBound::Within;
  return AtBound::Undecided;
}

}  // namespace

// One row in eight lanes, lane k taking the entries j = k mod 8, the lanes' sums then added
// pairwise with each addition's error into the low part. Rows normalised to B miss B^2 by about
// d u B^2, far outside the 2K left to provably_within().
DPCOV_VECTOR_CLONES AtBound quick_at_bound(ConstMatrixView a, int64_t i, double bound) {
  const double *r = a.row(i);
  const int64_t step = a.col_stride();
  LaneSquares sum;
  int64_t j = 0;
  for (; step == 1 && j + 8 <= a.cols; j += 8) {
    Lanes8 x;
    std::memcpy(&x, r + j, sizeof x);
    sum.add(x);
  }
  for (; j < a.cols; j += 8) {
    double lanes[8] = {};
    for (int64_t k = 0; k < 8 && j + k < a.cols; ++k) lanes[k] = r[(j + k) * step];
    Lanes8 x;
    std::memcpy(&x, lanes, sizeof x);
    sum.add(x);
  }
  double h[8], low = 0.0;
  uint64_t outside = 0;
  for (int k = 0; k < 8; ++k) {
    h[k] = sum.hi[k];
    low += sum.lo[k];
    outside |= sum.outside[k];
  }
  for (int width = 4; width >= 1; width /= 2)
    for (int k = 0; k < width; ++k) {
      double err = 0.0;
      two_sum(h[k], h[k + width], h[k], err);
      low += err;
    }
  return decide(h[0], low, (outside >> 63) != 0, bound, a.cols);
}

// Rows [first, first + count), count <= kQuickRows, of column-major `a`, lane k of group g taking
// row first + 8 g + k: each column's entries of these rows are read as one contiguous run, where
// a row's own entries lie ld apart (and reading them row by row waits on a cache miss per entry).
DPCOV_VECTOR_CLONES void quick_at_bound_rows(ConstMatrixView a, int64_t first, int64_t count,
                                             double bound, AtBound *out) {
  LaneSquares sums[kQuickRows / 8];
  const int64_t groups = (count + 7) / 8;
  for (int64_t j = 0; j < a.cols; ++j) {
    const double *c = a.data + first + j * a.ld;
    for (int64_t g = 0; g < groups; ++g) {
      double lanes[8] = {};
      if (8 * g + 8 <= count)
        std::memcpy(lanes, c + 8 * g, sizeof lanes);
      else
        for (int64_t k = 0; 8 * g + k < count; ++k) lanes[k] = c[8 * g + k];
      Lanes8 x;
      std::memcpy(&x, lanes, sizeof x);
      sums[g].add(x);
    }
  }
  for (int64_t r = 0; r < count; ++r) {
    const LaneSquares &sum = sums[r / 8];
    out[r] = decide(sum.hi[r % 8], sum.lo[r % 8], (sum.outside[r % 8] >> 63) != 0, bound, a.cols);
  }
}

bool within_at_bound(ConstMatrixView a, int64_t i, double bound) {
  const AtBound quick = quick_at_bound(a, i, bound);
  if (quick == AtBound::Undecided) return provably_within(a, i, bound);
  return quick == AtBound::Within;
}

namespace {

// Rows with exact norm <= B have computed sums of squares below B^2 (1 + 2^-20) for any d the
// library takes: only those need within_at_bound().
bool near_bound(double sum_of_squares, double bound) {
  return sum_of_squares <= bound * bound * (1.0 + 0x1p-20);
}

// Sets back to 1 the factors of the rows of the block that near_bound() and within_at_bound()
// keep whole, and returns how many. Column-major rows are tested kQuickRows at a time
// (quick_at_bound_rows()) from the first row in question on.
int64_t keep_rows_at_bound(ConstMatrixView a, int64_t first, int64_t count, const double *sums,
                           double bound, double *factors) {
  int64_t kept = 0;
  AtBound group[kQuickRows];
  int64_t group_first = -1;
  for (int64_t i = 0; i < count; ++i) {
    if (!(factors[i] < 1.0 && near_bound(sums[i], bound))) continue;
    AtBound quick = AtBound::Undecided;
    if (a.layout == Layout::RowMajor) {
      quick = quick_at_bound(a, first + i, bound);
    } else {
      if (group_first < 0 || i >= group_first + kQuickRows) {
        group_first = i;
        quick_at_bound_rows(a, first + i, std::min(kQuickRows, count - i), bound, group);
      }
      quick = group[i - group_first];
    }
    if (quick == AtBound::Within ||
        (quick == AtBound::Undecided && provably_within(a, first + i, bound))) {
      factors[i] = 1.0;
      ++kept;
    }
  }
  return kept;
}

}  // namespace

// Compiled for AVX-512 and AVX2 as well as the baseline, chosen when the library loads: the clip
// loop's square roots and divisions are most of the clip path's cost at small d.
DPCOV_VECTOR_CLONES bool row_factors(ConstMatrixView a, int64_t first, int64_t count, const double *sums, double bound,
                 BoundPolicy policy, double *factors, GramCounts &counts) {
  // Branch-free loops (integer counts, both sides of each choice computed): a conditional costs a
  // mispredicted branch per row on data with rows on both sides of the bound. NaN fails every
  // test below.
  const double limit_squared = within_limit_squared(bound, a.cols);
  const double shave = clip_shave(a.cols);
  int64_t within = 0, over = 0;
  for (int64_t i = 0; i < count; ++i) {
    // As surely_within(). And a sum that may have underflowed is not "over" by the limit even
    // when the limit underflowed too (B below 1e-140): its square root may be too small, hence
    // its clip factor too large.
    within += static_cast<int64_t>(sums[i] > kTinySumOfSquares) *
              static_cast<int64_t>(sums[i] <= limit_squared) *
              static_cast<int64_t>(sums[i] <= std::numeric_limits<double>::max());
    over += static_cast<int64_t>(sums[i] > limit_squared) *
            static_cast<int64_t>(sums[i] > kTinySumOfSquares) *
            static_cast<int64_t>(sums[i] <= std::numeric_limits<double>::max());
  }
  if (within == count) return false;
  // Here sqrt(S) < 2^512, so B / sqrt(S) is normal for every B >= 2^-500 and clip_factor()'s
  // subnormal step is not needed in the loop (tinier bounds go row by row).
  if (policy == BoundPolicy::Clip && within + over == count && bound >= 0x1p-500) {
    int64_t clipped = 0;
    for (int64_t i = 0; i < count; ++i) {
      // Capped at 1 as in row_factor(): a row just over the limit has B / norm just above 1.
      const double clip = std::min((bound / std::sqrt(sums[i])) * shave, 1.0);
      // A bitwise select: a conditional here compiles to a branch that mispredicts on data
      // with rows on both sides of the bound.
      const uint64_t keep = uint64_t{0} - static_cast<uint64_t>(sums[i] <= limit_squared);
      const double factor = std::bit_cast<double>((std::bit_cast<uint64_t>(1.0) & keep) |
                                                  (std::bit_cast<uint64_t>(clip) & ~keep));
      clipped += static_cast<int64_t>(factor < 1.0);
      factors[i] = factor;
    }
    // Rare: rows between the limit and B, looked at exactly (every row when rows were
    // normalised to norm B). Counted first without a conditional, so that a block without such
    // rows takes no branch per row: testing each row's factor mispredicts on data with rows on
    // both sides of the bound, which cost as much as the rest of the clip path at d = 10.
    int64_t near = 0;
    for (int64_t i = 0; i < count; ++i)
      near += static_cast<int64_t>(factors[i] < 1.0) * static_cast<int64_t>(near_bound(sums[i], bound));
    if (near > 0) clipped -= keep_rows_at_bound(a, first, count, sums, bound, factors);
    counts.clipped += clipped;
    return clipped > 0;
  }
  bool any = false;
  for (int64_t i = 0; i < count; ++i) {
    factors[i] = surely_within(sums[i], limit_squared)
                     ? 1.0
                     : row_factor(a, first + i, sums[i], bound, policy);
    if (factors[i] == 1.0) continue;
    any = true;
    if (factors[i] == 0.0)
      ++counts.dropped;
    else
      ++counts.clipped;
  }
  return any;
}

DPCOV_VECTOR_CLONES ConstMatrixView scale_rows(ConstMatrixView a, const double *factors, double *out) {
  if (a.layout == Layout::RowMajor) {
    for (int64_t i = 0; i < a.rows; ++i) {
      const double *r = a.row(i);
      double *o = out + i * a.cols;
      const double f = factors[i];
      for (int64_t j = 0; j < a.cols; ++j) o[j] = f * r[j];
    }
    return {out, a.rows, a.cols, a.cols, Layout::RowMajor};
  }
  for (int64_t j = 0; j < a.cols; ++j) {
    const double *c = a.data + j * a.ld;
    double *o = out + j * a.rows;
    for (int64_t i = 0; i < a.rows; ++i) o[i] = factors[i] * c[i];
  }
  return {out, a.rows, a.cols, a.rows, Layout::ColMajor};
}

ScaledNorm scaled_norm(ConstMatrixView a, int64_t i) {
  const double *r = a.row(i);
  const int64_t step = a.col_stride();
  double largest = 0.0;
  for (int64_t j = 0; j < a.cols; ++j) {
    const double x = r[j * step];
    if (!std::isfinite(x))
      fail_row(Status::NonFinite, i, "row ", i, ", column ", j,
               " (0-based) is not finite; rows must be finite");
    largest = std::max(largest, std::fabs(x));
  }
  ScaledNorm s;
  if (largest == 0.0) return s;
  std::frexp(largest, &s.exponent);
  double sum = 0.0;
  for (int64_t j = 0; j < a.cols; ++j) {
    const double x = std::ldexp(r[j * step], -s.exponent);
    sum += x * x;
  }
  s.rest = std::sqrt(sum);
  return s;
}

ScaledNorm measured_norm(ConstMatrixView a, int64_t i, double sum_of_squares) {
  if (std::isfinite(sum_of_squares) && sum_of_squares > kTinySumOfSquares)
    return {std::sqrt(sum_of_squares), 0};
  return scaled_norm(a, i);
}

namespace {

// The clip factor B / (rest 2^exponent), shaved as clip_factor(), computed with B = m 2^e split so
// that the division is between normal numbers: the only rounding beyond clip_factor()'s is the
// final scaling when the factor is subnormal, which shave_subnormal() covers.
double scaled_clip_factor(ScaledNorm s, double bound, int64_t cols) {
  int bound_exponent = 0;
  const double mantissa = std::frexp(bound, &bound_exponent);
  return shave_subnormal(
      std::ldexp(clip_factor(s.rest, mantissa, clip_shave(cols)), bound_exponent - s.exponent));
}

}  // namespace

double row_norm(ConstMatrixView a, int64_t i, double sum_of_squares) {
  return measured_norm(a, i, sum_of_squares).value();
}

double row_factor(ConstMatrixView a, int64_t i, double sum_of_squares, double bound,
                  BoundPolicy policy) {
  double norm = 0.0;
  ScaledNorm scaled;
  const bool plain = std::isfinite(sum_of_squares) && sum_of_squares > kTinySumOfSquares;
  if (plain) {
    norm = std::sqrt(sum_of_squares);
  } else {
    scaled = scaled_norm(a, i);
    norm = std::ldexp(scaled.rest, scaled.exponent);  // +infinity above the largest double
  }
  // Within: the exact norm is <= B (proofs/row_bound.md, "Rows kept whole").
  if (plain ? surely_within(sum_of_squares, within_limit_squared(bound, a.cols))
            : norm <= bound * within_shave(a.cols))
    return 1.0;
  if (plain && near_bound(sum_of_squares, bound) && within_at_bound(a, i, bound)) return 1.0;
  // Over: the policy applies. A row between the limit and B (on the sphere up to rounding) is
  // clipped under every policy, by a factor just below 1.
  if (norm > bound && policy == BoundPolicy::Reject) {
    const RowError::Measure measure =
        plain ? RowError::Measure{norm, 0} : RowError::Measure{scaled.rest, scaled.exponent};
    if (std::isinf(norm))
      fail_row_over(i, measure, "row ", i, " (0-based) has norm above the largest double, > bound ",
                    bound);
    fail_row_over(i, measure, "row ", i, " (0-based) has norm > bound ", bound);
  }
  if (norm > bound && policy == BoundPolicy::Drop) return 0.0;
  // B / norm may round to just above 1 for a row just over the limit: capped at 1, which only
  // lowers the clipped norm (rounding is monotone).
  return std::min(plain ? clip_factor(norm, bound, clip_shave(a.cols))
                        : scaled_clip_factor(scaled, bound, a.cols),
                  1.0);
}

}  // namespace dpcov::data
