#include "row_bound.hpp"

#include <limits>

#include "../error.hpp"
#include "../linalg/blas.hpp"

namespace dpcov::data {

void row_sums_of_squares(ConstMatrixView a, int64_t first, int64_t count, double *out) {
  // Independent partial sums along a row-major row, and a sweep down each column (one
  // accumulator per row) for column-major data: both vectorise.
  if (a.layout == Layout::RowMajor) {
    for (int64_t i = 0; i < count; ++i) {
      const double *r = a.row(first + i);
      double s[4] = {0.0, 0.0, 0.0, 0.0};
      int64_t j = 0;
      for (; j + 4 <= a.cols; j += 4)
        for (int k = 0; k < 4; ++k) s[k] += r[j + k] * r[j + k];
      for (; j < a.cols; ++j) s[0] += r[j] * r[j];
      out[i] = (s[0] + s[1]) + (s[2] + s[3]);
    }
    return;
  }
  for (int64_t i = 0; i < count; ++i) out[i] = 0.0;
  for (int64_t j = 0; j < a.cols; ++j) {
    const double *c = a.data + first + j * a.ld;
    for (int64_t i = 0; i < count; ++i) out[i] += c[i] * c[i];
  }
}

double row_norm(ConstMatrixView a, int64_t i, double sum_of_squares) {
  if (std::isfinite(sum_of_squares) && sum_of_squares > 1e-280) return std::sqrt(sum_of_squares);
  const double *r = a.row(i);
  const int64_t step = a.col_stride();
  for (int64_t j = 0; j < a.cols; ++j)
    if (!std::isfinite(r[j * step]))
      fail(DPCOV_E_NON_FINITE, "row ", i, ", column ", j, " (0-based) is ", r[j * step],
           "; rows must be finite");
  return linalg::nrm2(a.cols, r, step);
}

double row_factor(ConstMatrixView a, int64_t i, double sum_of_squares, double bound,
                  BoundPolicy policy) {
  const double norm = row_norm(a, i, sum_of_squares);
  if (norm <= bound) return 1.0;
  if (policy == BoundPolicy::Reject)
    fail(DPCOV_E_NORM_BOUND, "row ", i, " (0-based) has norm ", norm, " > bound ", bound);
  if (policy == BoundPolicy::Drop) return 0.0;
  return (bound / norm) * (1.0 - 4.0 * std::numeric_limits<double>::epsilon());
}

}  // namespace dpcov::data
