// Row validation and norm bounding shared by the accumulators (Gram, sketch): every accumulator
// bounds rows by the same code, so a row counts as clipped, dropped or rejected identically
// whichever statistic is formed from it.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "../matrix.hpp"
#include "gram.hpp"

namespace dpcov::data {

// Sums of squares of rows [first, first + count) of `a` into out[0..count), vectorisable for both
// layouts.
void row_sums_of_squares(ConstMatrixView a, int64_t first, int64_t count, double *out);

// Below this a plain sum of squares may have underflowed: such rows are measured again by dnrm2.
inline constexpr double kTinySumOfSquares = 1e-280;

// The smallest bound on rows' norms the library accepts, 2^-960 (about 1.03e-289): the proof that
// every row kept whole or clipped has exact norm <= B (proofs/row_bound.md) holds from there up.
// Below it a clipped row's entries land in the subnormals, where each rounds by up to 2^-1075,
// more than the relative shave covers: at B = 3 2^-1070 the row (2^-60, 2^-60) was clipped to
// (34, 34) 2^-1074, of norm 48.08 2^-1074 > B = 48 2^-1074.
inline constexpr double kSmallestRowBound = 0x1p-960;

// The one check of every bound on rows' norms that enters the library (accumulators, mechanisms'
// B, radii): finite and >= kSmallestRowBound, else Status::NonFinite (NaN, infinity) or
// Status::InvalidArgument naming the accepted range and `name`.
void check_row_bound(double bound, const char *name);

// The factor 1 - (d + 16) 2^-53 (exact) by which the bound is shaved before a row of d entries is
// tested against it: a row whose computed norm is <= B within_shave(d) (or whose computed sum of
// squares is <= that limit squared, rounded) has exact norm <= B, whatever the order of its sum of
// squares. It covers the same rounding of the sum, of its square root and of the limit as
// clip_shave() (proofs/row_bound.md, "Rows kept whole"). Rows between the limit and B, e.g. rows
// normalised to exactly B, are clipped by a factor just below 1.
inline double within_shave(int64_t cols) {
  return 1.0 - (static_cast<double>(cols) + 16.0) * 0x1p-53;
}

// The limit that a row's computed sum of squares is compared with: (B within_shave(d))^2, rounded
// (+infinity or 0 when it over- or underflows; surely_within() handles both).
inline double within_limit_squared(double bound, int64_t cols) {
  const double limit = bound * within_shave(cols);
  return limit * limit;
}

// True if a row whose plain sum of squares is `sum_of_squares` is certainly finite and of exact
// norm within the bound whose within_limit_squared() is `limit_squared` (compared squared: no
// square root on the common path). False means "look closer with row_factor()", not "over the
// bound". A sum that overflowed is not within even when the limit overflowed too (inf <= inf).
inline bool surely_within(double sum_of_squares, double limit_squared) {
  return sum_of_squares > kTinySumOfSquares && sum_of_squares <= limit_squared &&
         sum_of_squares <= std::numeric_limits<double>::max();
}

// The norm of a finite row as rest 2^exponent, computed without over- or underflow: 2^exponent is
// the power of two just above max |x_j| (multiplying by 2^-exponent is exact but for entries that
// fall into the subnormals, whose squares are below 2^-1074 of the sum anyway), so rest is in
// [0.5, sqrt(d)). A zero row gives rest 0. value() is +infinity above the largest double; rest
// and exponent stay finite, so that a message can still give the magnitude.
struct ScaledNorm {
  double rest = 0.0;
  int exponent = 0;
  double value() const { return std::ldexp(rest, exponent); }
};

// Row i's scaled norm; Status::NonFinite (a RowError naming row i and the entry) on NaN/Inf.
ScaledNorm scaled_norm(ConstMatrixView a, int64_t i);

// Row i's norm from its plain sum of squares (exponent 0) unless that over- or underflowed, then
// scaled_norm().
ScaledNorm measured_norm(ConstMatrixView a, int64_t i, double sum_of_squares);

// Euclidean norm of row i from its plain sum of squares, which is accurate enough for the bound
// test unless it over- or underflowed; then the row is either non-finite (Status::NonFinite
// naming the entry) or is measured again with its entries scaled by a power of two (as LAPACK's
// dnrm2 does). +infinity means a finite row whose norm is above the largest double.
double row_norm(ConstMatrixView a, int64_t i, double sum_of_squares);

// A factor in [0, DBL_MIN) may have been rounded up by up to one subnormal ulp (2^-1074) beyond
// what the relative shave covers: one ulp down puts it back below B / norm (0 stays 0).
inline double shave_subnormal(double factor) {
  constexpr double kSmallestSubnormal = std::numeric_limits<double>::denorm_min();
  const double down = factor - kSmallestSubnormal;
  return factor >= std::numeric_limits<double>::min() ? factor : (down > 0.0 ? down : 0.0);
}

// The factor 1 - (d + 16) 2^-53 (exact) by which the clip factor of a row of d entries is shaved:
// it covers the rounding of a sum of d squares in any order, of its square root, of the factor
// and of the products f x_j, so that the clipped row's norm is <= B for every d
// (proofs/row_bound.md).
inline double clip_shave(int64_t cols) {
  return 1.0 - (static_cast<double>(cols) + 16.0) * 0x1p-53;
}

// The clip factor of a row of norm `norm` > bound: B / norm times `shave` (clip_shave() of the
// row's length), so that rounding cannot lift the clipped norm above B, which is what the privacy
// proofs rely on (proofs/row_bound.md). Subnormal factors are shaved by one more subnormal ulp.
inline double clip_factor(double norm, double bound, double shave) {
  return shave_subnormal((bound / norm) * shave);
}

// Whether row i, computed as between the limit and B, has exact norm <= B after all (a row of
// norm exactly B, e.g. B e_1, or (3, 4) with B = 5): the quick test quick_at_bound(), and
// provably_within() for the rows it leaves undecided, which is provably_within()'s answer for
// every row (proofs/row_bound.md, "On the bound exactly" and "Quick decision").
bool within_at_bound(ConstMatrixView a, int64_t i, double bound);

// The exact check of row i against B: true only where its exact norm is <= B (false, the safe
// side, where the arithmetic cannot tell, or an entry or B lies outside [2^-450, 2^500]).
bool provably_within(ConstMatrixView a, int64_t i, double bound);

// What the quick test tells of a row: provably_within() would answer true (Within) or false
// (Over), or the row's sum of squares is too close to B^2 to know without it (Undecided).
// quick_at_bound_rows() tests rows [first, first + count), count <= kQuickRows, of a
// column-major `a` together.
enum class AtBound { Within, Over, Undecided };
AtBound quick_at_bound(ConstMatrixView a, int64_t i, double bound);
inline constexpr int64_t kQuickRows = 64;
void quick_at_bound_rows(ConstMatrixView a, int64_t first, int64_t count, double bound,
                         AtBound *out);

// The factor that bounds row i, given its plain sum of squares: 1 if surely_within() (or, for a
// row whose sum over- or underflowed, its scaled norm is <= B within_shave(d)); under
// BoundPolicy::Clip the clip factor B / norm (shaved as clip_factor(); for a row whose sum of
// squares overflows, computed from the scaled row, so a finite row of norm above the largest
// double is clipped in its own direction, never dropped); under BoundPolicy::Drop 0. Under
// BoundPolicy::Reject a row over the bound throws Status::NormBound; a non-finite row throws
// Status::NonFinite under every policy.
double row_factor(ConstMatrixView a, int64_t i, double sum_of_squares, double bound,
                  BoundPolicy policy);

// The factors bounding rows [first, first + count) of `a`, whose plain sums of squares are
// sums[0..count), into factors[0..count) (row_factor() of each row), adding the clipped and
// dropped rows to `counts`. Returns false, writing nothing, when every row is within the bound.
// Blocks of finite rows under BoundPolicy::Clip take a branch-free loop that vectorises; the rest
// go row by row.
bool row_factors(ConstMatrixView a, int64_t first, int64_t count, const double *sums, double bound,
                 BoundPolicy policy, double *factors, GramCounts &counts);

// Writes row i of `a` times factors[i] into `out` (a.rows x a.cols, same layout as `a`, packed:
// leading dimension a.cols for row-major, a.rows for column-major) and returns the view of it. A
// factor of 0 (a dropped row) writes zeros, which add nothing to a Gram matrix.
ConstMatrixView scale_rows(ConstMatrixView a, const double *factors, double *out);

// Neumaier's compensated addition of x into the pair (s, c), whose value is s + c.
inline void neumaier_add(double &s, double &c, double x) {
  const double t = s + x;
  c += std::fabs(s) >= std::fabs(x) ? (s - t) + x : (x - t) + s;
  s = t;
}

}  // namespace dpcov::data
