#include "column_bounds.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "../error.hpp"

namespace dpcov::data {

ColumnScale column_scale(double lower, double upper, int64_t column) {
  if (!std::isfinite(lower) || !std::isfinite(upper))
    fail(Status::NonFinite, "column ", column, " (0-based) has bounds [", lower, ", ", upper,
         "]; bounds must be finite");
  // Halves first: (upper - lower) / 2 would overflow for bounds near +-DBL_MAX.
  const double half_width = upper / 2 - lower / 2;
  if (!(lower < upper))
    fail(Status::InvalidArgument, "column ", column, " (0-based) has bounds [", lower, ", ",
         upper, "]; each column needs lower < upper (a constant column carries no information)");
  // Finite bounds give a finite half width; a subnormal one would lose the map's precision.
  if (half_width < std::numeric_limits<double>::min())
    fail(Status::InvalidArgument, "column ", column, " (0-based) has bounds [", lower, ", ",
         upper, "]; half their width, ", half_width, ", is below the smallest normal double ",
         std::numeric_limits<double>::min());
  return {lower / 2 + upper / 2, half_width};
}

int64_t scale_rows_to_box(ConstMatrixView a, const ColumnScale *scales, MatrixView out) {
  int64_t clamped = 0;
  for (int64_t i = 0; i < a.rows; ++i) {
    out(i, 0) = 1.0;
    for (int64_t j = 0; j < a.cols; ++j) {
      const double x = a(i, j);
      if (!std::isfinite(x))
        fail_row(Status::NonFinite, i, "row ", i, ", column ", j,
                 " (0-based) is not finite; rows must be finite");
      const double z = (x - scales[j].centre) / scales[j].half_width;
      // The clamp, not the arithmetic above, is what puts every entry in [-1, 1]: the norm bound
      // of the scaled rows rests on it alone (proofs/column_bounds.md).
      const double boxed = std::clamp(z, -1.0, 1.0);
      clamped += static_cast<int64_t>(boxed != z);
      out(i, j + 1) = boxed;
    }
  }
  return clamped;
}

namespace {

// Row i of T (to_user) or of T^-1, as a coefficient on the entries of [1, z] (or [1, x]):
// T has T(0, 0) = 1, T(j, 0) = centre, T(j, j) = half_width; T^-1 has T^-1(j, 0) =
// -centre / half_width, T^-1(j, j) = 1 / half_width.
struct AffineRow {
  double constant;  // coefficient on the leading 1
  double own;       // coefficient on the row's own column
};

AffineRow affine_row(const ColumnScale *scales, int64_t i, bool to_user) {
  if (i == 0) return {0.0, 1.0};
  const ColumnScale &s = scales[i - 1];
  if (to_user) return {s.centre, s.half_width};
  return {-s.centre / s.half_width, 1.0 / s.half_width};
}

}  // namespace

void transform_second_moment(const ColumnScale *scales, ConstMatrixView in, MatrixView out,
                             bool to_user) {
  // (T S T^T)(i, j) = sum_{k, l} T(i, k) S(k, l) T(j, l), and row i of T has at most two non-zero
  // entries: column 0 and column i. Computed on the upper triangle and mirrored, so the result is
  // exactly symmetric.
  const int64_t m = in.rows;
  for (int64_t j = 0; j < m; ++j) {
    const AffineRow tj = affine_row(scales, j, to_user);
    for (int64_t i = 0; i <= j; ++i) {
      const AffineRow ti = affine_row(scales, i, to_user);
      // Row i of T is ti.constant e_0 + ti.own e_i (for i = 0: e_0 alone).
      const double s00 = in(0, 0), s0j = in(0, j), si0 = in(i, 0), sij = in(i, j);
      double v = ti.own * tj.own * sij;
      if (j != 0) v += ti.own * tj.constant * si0;
      if (i != 0) v += ti.constant * tj.own * s0j;
      if (i != 0 && j != 0) v += ti.constant * tj.constant * s00;
      out(i, j) = v;
      out(j, i) = v;
    }
  }
}

}  // namespace dpcov::data
