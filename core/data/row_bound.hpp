// Row validation and norm bounding shared by the accumulators (Gram, sketch): every accumulator
// bounds rows by the same code, so a row counts as clipped, dropped or rejected identically
// whichever statistic is formed from it.
#pragma once

#include <cmath>
#include <cstdint>

#include "../matrix.hpp"
#include "gram.hpp"

namespace dpcov::data {

// Sums of squares of rows [first, first + count) of `a` into out[0..count), vectorisable for both
// layouts.
void row_sums_of_squares(ConstMatrixView a, int64_t first, int64_t count, double *out);

// True if a row whose plain sum of squares is `sum_of_squares` is certainly finite and within
// `bound` (compared squared: no square root on the common path). False means "look closer with
// row_factor()", not "over the bound".
inline bool surely_within_bound(double sum_of_squares, double bound) {
  return std::isfinite(sum_of_squares) && sum_of_squares > 1e-280 &&
         sum_of_squares <= bound * bound;
}

// Euclidean norm of row i from its plain sum of squares, which is accurate enough for the bound
// test unless it over- or underflowed; then the row is either non-finite (DPCOV_E_NON_FINITE
// naming the entry) or is measured again by the scaled dnrm2.
double row_norm(ConstMatrixView a, int64_t i, double sum_of_squares);

// The factor that bounds row i, given its plain sum of squares: 1 if its norm is <= bound; under
// BoundPolicy::Clip a factor < 1 bringing its computed norm to at most the bound (B / norm shaved
// by a few ulps, so that rounding cannot lift the clipped norm above B, which is what the privacy
// proofs rely on); under BoundPolicy::Drop 0. Under BoundPolicy::Reject a row over the bound
// throws DPCOV_E_NORM_BOUND; a non-finite row throws DPCOV_E_NON_FINITE under every policy.
double row_factor(ConstMatrixView a, int64_t i, double sum_of_squares, double bound,
                  BoundPolicy policy);

// Neumaier's compensated addition of x into the pair (s, c), whose value is s + c.
inline void neumaier_add(double &s, double &c, double x) {
  const double t = s + x;
  c += std::fabs(s) >= std::fabs(x) ? (s - t) + x : (x - t) + s;
  s = t;
}

}  // namespace dpcov::data
