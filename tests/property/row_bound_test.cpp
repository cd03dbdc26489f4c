// Row bounding over the whole finite range (data::row_factor and the block path data::row_factors
// that the Gram accumulator takes): rows with entries of every binary exponent from -1074 to 1023,
// mixed signs, a few huge entries among small ones, zeros and subnormals, bounds of every
// magnitude down to 2^-960. Each row's norm is recomputed in long double (no over- or underflow for a sum of
// squares of doubles) and:
//  - Clip: the factor is finite and in [0, 1]; a clipped row f x (as scale_rows forms it, f < 1)
//    and every row kept whole (f = 1) has exact norm <= B (computed in exact integer arithmetic);
//    a row within the bound keeps factor 1; a row over it lands on the sphere (its norm
//    within 1e-12 B of B, up to the subnormal rounding of f and of f x_j), so it is never mapped to
//    zero while B / ||x|| is above the subnormals (found by an audit: a finite row whose norm
//    overflowed a double got factor 0 and was dropped);
//  - Drop: 1 within, 0 over; Reject: 1 within, DPCOV_E_NORM_BOUND over;
//  - the block path agrees with row_factor row by row;
//  - rows normalised to exactly B (x / ||x|| B, then moved by up to 8 ulps either way), whose
//    computed norm is B or within a few ulps of it: under every policy and on both paths, a row
//    kept or clipped has exact norm <= B;
//  - the quick test of rows at the bound answers as the exact check wherever it decides.
#include <boost/multiprecision/cpp_int.hpp>
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <vector>

#include "core/data/row_bound.hpp"
#include "core/error.hpp"

namespace dpcov::data {
namespace {

// A finite double of any binary exponent (-1074 .. 1023), either sign, or zero.
rc::Gen<double> any_finite() {
  return rc::gen::map(
      rc::gen::tuple(rc::gen::inRange<uint64_t>(0, 2047), rc::gen::arbitrary<uint64_t>(),
                     rc::gen::arbitrary<bool>()),
      [](const std::tuple<uint64_t, uint64_t, bool> &t) {
        const uint64_t bits = (std::get<0>(t) << 52) | (std::get<1>(t) & ((uint64_t{1} << 52) - 1));
        const double x = std::bit_cast<double>(bits);
        return std::get<2>(t) ? -x : x;
      });
}

// An entry: anywhere in the finite range, near 1, huge (binary exponent 1000 .. 1023, squares
// overflow), subnormal, or zero.
rc::Gen<double> entry() {
  const double big = std::numeric_limits<double>::max();
  return rc::gen::oneOf(
      any_finite(), rc::gen::map(rc::gen::inRange(-1000000, 1000000), [](int k) { return k * 1e-6; }),
      rc::gen::map(rc::gen::tuple(rc::gen::inRange(1000, 1024), rc::gen::inRange(-1000, 1001)),
                   [big](const std::tuple<int, int> &t) {
                     return std::min(std::ldexp(1.0 + std::get<1>(t) * 1e-3, std::get<0>(t)), big) *
                            (std::get<1>(t) < 0 ? -1.0 : 1.0);
                   }),
      rc::gen::map(rc::gen::inRange<int64_t>(-(int64_t{1} << 52), int64_t{1} << 52),
                   [](int64_t k) { return static_cast<double>(k) * 0x1p-1074; }),
      rc::gen::element(0.0, big, -big));
}

// A bound: anywhere in [2^-960, DBL_MAX], or one of 1, DBL_MAX, 2^-960. Below that the rounding
// of the clipped entries f x_j in the subnormals (up to 2^-1075 each) is no longer negligible
// against B (proofs/row_bound.md).
constexpr double kSmallestBound = 0x1p-960;
rc::Gen<double> bound() {
  return rc::gen::oneOf(
      rc::gen::map(any_finite(), [](double x) { return std::max(std::fabs(x), kSmallestBound); }),
      rc::gen::element(1.0, std::numeric_limits<double>::max(), kSmallestBound, 1e-200, 1e300));
}

long double norm_ld(const std::vector<double> &x) {
  long double s = 0.0L;
  for (double v : x) s += static_cast<long double>(v) * static_cast<long double>(v);
  return std::sqrt(s);
}

// x^2 2^2252 as an exact integer: x = M 2^(e - 53) with M = frexp's mantissa times 2^53, an
// integer, and e - 53 >= -1126 for every double.
boost::multiprecision::cpp_int scaled_square(double x) {
  int e = 0;
  const double m = std::frexp(std::fabs(x), &e);
  const boost::multiprecision::cpp_int mantissa = static_cast<uint64_t>(std::ldexp(m, 53));
  return (mantissa * mantissa) << static_cast<unsigned>(2 * (e - 53) + 2252);
}

// True if the exact Euclidean norm of `y` is <= b (sums of squares compared exactly).
bool exactly_within(const std::vector<double> &y, double b) {
  boost::multiprecision::cpp_int sum = 0;
  for (double v : y)
    if (v != 0.0) sum += scaled_square(v);
  return sum <= scaled_square(b);
}

// The factor of row i of `a` under `policy`, or -1 if it was refused for its norm.
double factor_or_refused(ConstMatrixView a, int64_t i, double sum, double b, BoundPolicy policy) {
  try {
    return row_factor(a, i, sum, b, policy);
  } catch (const Error &e) {
    RC_ASSERT(e.status() == dpcov::Status::NormBound);
    return -1.0;
  }
}

// The rows of `rows` (n x d) in `layout`, and their plain sums of squares.
struct Laid {
  std::vector<double> data;
  ConstMatrixView view;
  std::vector<double> sums;
};

Laid lay_out(const std::vector<std::vector<double>> &rows, bool row_major) {
  const auto n = static_cast<int64_t>(rows.size());
  const auto d = static_cast<int64_t>(rows[0].size());
  Laid l;
  l.data.resize(static_cast<size_t>(n * d));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < d; ++j)
      l.data[static_cast<size_t>(row_major ? i * d + j : j * n + i)] =
          rows[static_cast<size_t>(i)][static_cast<size_t>(j)];
  l.view = {l.data.data(), n, d, row_major ? d : n, row_major ? Layout::RowMajor : Layout::ColMajor};
  l.sums.resize(static_cast<size_t>(n));
  row_sums_of_squares(l.view, 0, n, l.sums.data());
  return l;
}

RC_GTEST_PROP(RowBound, FactorsOverTheWholeFiniteRange, ()) {
  const int64_t d = *rc::gen::inRange<int64_t>(1, 65);
  const int64_t n = *rc::gen::inRange<int64_t>(1, 9);
  const double b = *bound();
  const bool row_major = *rc::gen::arbitrary<bool>();
  // Rows of ordinary entries, some with a few entries from anywhere.
  std::vector<std::vector<double>> rows;
  for (int64_t i = 0; i < n; ++i) {
    std::vector<double> x = *rc::gen::container<std::vector<double>>(
        static_cast<size_t>(d), rc::gen::map(rc::gen::inRange(-1000, 1001), [](int k) {
          return k * 1e-3;
        }));
    const int extreme = *rc::gen::inRange(0, 4);
    for (int k = 0; k < extreme; ++k)
      x[static_cast<size_t>(*rc::gen::inRange<int64_t>(0, d))] = *entry();
    if (*rc::gen::inRange(0, 4) == 0)
      for (double &v : x) v = *entry();
    rows.push_back(x);
  }
  const Laid laid = lay_out(rows, row_major);
  const ConstMatrixView a = laid.view;
  const std::vector<double> &sums = laid.sums;

  const long double bl = b;
  bool representable = true;  // every clip factor B / ||x|| above the subnormals
  for (int64_t i = 0; i < n; ++i) {
    const std::vector<double> &x = rows[static_cast<size_t>(i)];
    const long double norm = norm_ld(x);
    const double sum = sums[static_cast<size_t>(i)];
    // Far enough from B that the double computations of the norm decide as long double does.
    const bool over = norm > bl * (1.0L + 1e-12L);
    const bool within = norm < bl * (1.0L - 1e-12L);

    const double f = row_factor(a, i, sum, b, BoundPolicy::Clip);
    RC_ASSERT(std::isfinite(f));
    RC_ASSERT(f >= 0.0);
    RC_ASSERT(f <= 1.0);
    if (within) RC_ASSERT(f == 1.0);
    std::vector<double> y(x.size());
    for (size_t j = 0; j < x.size(); ++j) {
      y[j] = f * x[j];
      // The direction is kept: each entry scaled by the same f >= 0, no sign flipped.
      RC_ASSERT(!(y[j] > 0.0 && x[j] < 0.0) && !(y[j] < 0.0 && x[j] > 0.0));
    }
    const long double clipped = norm_ld(y);
    RC_ASSERT(exactly_within(y, b));  // clipped or kept whole
    if (over) {
      // On the sphere: f is B / ||x|| shaved by a few ulps, or a subnormal within two subnormal
      // ulps of it, and each f x_j is rounded (to within a subnormal ulp once below DBL_MIN).
      const long double slack = 1e-12L * bl + norm * 0x1p-1073L +
                                std::sqrt(static_cast<long double>(d)) * 0x1p-1074L;
      RC_ASSERT(bl - clipped <= slack);
      if (bl / norm > 0x1p-1072L)
        RC_ASSERT(f > 0.0);
      else
        representable = false;
    }

    const double dropped = row_factor(a, i, sum, b, BoundPolicy::Drop);
    if (within) RC_ASSERT(dropped == 1.0);
    if (over) RC_ASSERT(dropped == 0.0);
    const double rejected = factor_or_refused(a, i, sum, b, BoundPolicy::Reject);
    if (within) RC_ASSERT(rejected == 1.0);
    if (over) RC_ASSERT(rejected == -1.0);
  }

  // The block path the Gram accumulator takes gives each row's row_factor.
  for (const BoundPolicy policy : {BoundPolicy::Clip, BoundPolicy::Drop}) {
    std::vector<double> factors(static_cast<size_t>(n), -2.0);
    GramCounts counts;
    const bool any = row_factors(a, 0, n, sums.data(), b, policy, factors.data(), counts);
    for (int64_t i = 0; i < n; ++i) {
      const double expected = row_factor(a, i, sums[static_cast<size_t>(i)], b, policy);
      if (any)
        RC_ASSERT(factors[static_cast<size_t>(i)] == expected);
      else
        RC_ASSERT(expected == 1.0);
    }
    if (policy == BoundPolicy::Clip && representable) RC_ASSERT(counts.dropped == 0);
  }
}

// A row of d entries of mixed magnitudes (2^-30 .. 2^30) scaled to norm B as a caller would: by
// the long-double norm, then moved by k ulps (|k| <= 8) relative. Empty for a zero row.
std::vector<double> row_on_sphere(int64_t d, double b) {
  std::vector<double> x(static_cast<size_t>(d));
  for (double &v : x)
    v = std::ldexp(*rc::gen::inRange(-1000000, 1000001) * 1e-6, *rc::gen::inRange(-30, 31));
  const long double norm = norm_ld(x);
  if (norm == 0.0L) return {};
  const double unit_scale = static_cast<double>(1.0L / norm);
  const double nudge = 1.0 + *rc::gen::inRange(-8, 9) * 0x1p-52;
  for (double &v : x) v = (v * unit_scale) * b * nudge;
  return x;
}

// Nonempty with every entry finite.
bool all_finite(const std::vector<double> &x) {
  bool finite = !x.empty();
  for (double v : x) finite = finite && std::isfinite(v);
  return finite;
}

RC_GTEST_PROP(RowBound, RowsOnTheSphereEndWithin, ()) {
  const int64_t d = *rc::gen::inRange<int64_t>(1, 129);
  const int64_t n = *rc::gen::inRange<int64_t>(1, 9);
  const double b = *bound();
  const bool row_major = *rc::gen::arbitrary<bool>();
  std::vector<std::vector<double>> rows;
  while (static_cast<int64_t>(rows.size()) < n) {
    const std::vector<double> x = row_on_sphere(d, b);
    if (all_finite(x)) rows.push_back(x);
  }
  const Laid l = lay_out(rows, row_major);
  for (const BoundPolicy policy : {BoundPolicy::Clip, BoundPolicy::Drop, BoundPolicy::Reject}) {
    std::vector<double> block(static_cast<size_t>(n), 1.0);
    GramCounts counts;
    if (policy != BoundPolicy::Reject)
      row_factors(l.view, 0, n, l.sums.data(), b, policy, block.data(), counts);
    for (int64_t i = 0; i < n; ++i) {
      const double f = factor_or_refused(l.view, i, l.sums[static_cast<size_t>(i)], b, policy);
      if (policy != BoundPolicy::Reject) RC_ASSERT(block[static_cast<size_t>(i)] == f);
      if (f < 0.0) continue;  // refused
      RC_ASSERT(f <= 1.0);
      if (policy == BoundPolicy::Clip) RC_ASSERT(f > 0.0);
      std::vector<double> y = rows[static_cast<size_t>(i)];
      for (double &v : y) v *= f;
      RC_ASSERT(exactly_within(y, b));
    }
  }
}

// The quick test of rows at the bound (quick_at_bound(), and quick_at_bound_rows() for
// column-major blocks) decides only where the exact check provably_within() gives the same answer,
// and within_at_bound() is that answer, the truth (exact integer arithmetic) when it says within.
// Rows normalised to B and moved by up to 8 ulps (decided quickly); rows B e_j, an ulp either
// way or not, with an entry B 2^-k (k in [40, 60]) added elsewhere, whose sums of squares miss
// B^2 by 2^-80 to 2^-120 relative or not at all, on both sides of the quick test's margin; and
// rows (x, y) with x an ulp below B and y within 4 ulps of sqrt(B^2 - x^2), missing B^2 by about
// 2^-104 relative either way, where the exact check answers "over" unless no step rounded: a
// quick test without its margin calls half of them within.
RC_GTEST_PROP(RowBound, QuickTestAtTheBoundAnswersAsTheExactCheck, ()) {
  const int64_t d = *rc::gen::inRange<int64_t>(1, 300);
  const int64_t n = *rc::gen::inRange<int64_t>(1, 80);
  const double b = *bound();
  std::vector<std::vector<double>> rows;
  while (static_cast<int64_t>(rows.size()) < n) {
    std::vector<double> x(static_cast<size_t>(d), 0.0);
    const int kind = *rc::gen::inRange(0, 3);
    const auto j = static_cast<size_t>(*rc::gen::inRange<int64_t>(0, d));
    const size_t next = (j + 1) % static_cast<size_t>(d);
    if (kind == 0) {
      x[j] = *rc::gen::element(b, -b, std::nextafter(b, 0.0), std::nextafter(b, 2.0 * b));
      if (d > 1 && *rc::gen::arbitrary<bool>()) x[next] = std::ldexp(b, -*rc::gen::inRange(40, 61));
    } else if (kind == 1 && d > 1) {
      x[j] = std::nextafter(b, 0.0);
      double y = std::sqrt((b - x[j]) * (b + x[j]));
      for (int m = *rc::gen::inRange(-4, 5); m != 0; m += m > 0 ? -1 : 1)
        y = std::nextafter(y, m > 0 ? 2.0 * y : 0.0);
      x[next] = y;
    } else {
      x = row_on_sphere(d, b);
    }
    if (all_finite(x)) rows.push_back(x);
  }
  for (const bool row_major : {true, false}) {
    const Laid l = lay_out(rows, row_major);
    std::vector<AtBound> block(static_cast<size_t>(n));
    if (!row_major)
      for (int64_t first = 0; first < n; first += kQuickRows)
        quick_at_bound_rows(l.view, first, std::min(kQuickRows, n - first), b,
                            block.data() + first);
    for (int64_t i = 0; i < n; ++i) {
      const bool exact = provably_within(l.view, i, b);
      const AtBound quick = quick_at_bound(l.view, i, b);
      if (quick != AtBound::Undecided) RC_ASSERT((quick == AtBound::Within) == exact);
      if (!row_major) {
        const AtBound q = block[static_cast<size_t>(i)];
        if (q != AtBound::Undecided) RC_ASSERT((q == AtBound::Within) == exact);
      }
      RC_ASSERT(within_at_bound(l.view, i, b) == exact);
      if (exact) RC_ASSERT(exactly_within(rows[static_cast<size_t>(i)], b));
    }
  }
}

}  // namespace
}  // namespace dpcov::data
