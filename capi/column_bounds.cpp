// dpcov/column_bounds.h over the kernel's scaling step (core/data/column_bounds.hpp).
#include "dpcov/column_bounds.h"

#include <vector>

#include "../core/check.hpp"
#include "../core/data/column_bounds.hpp"
#include "../core/data/box_norm_bound.hpp"
#include "guard.hpp"

namespace {

// d data columns, so that the scaled rows' d + 1 entries still make a valid dimension.
void check_columns(int64_t cols) {
  dpcov::check::dimension(cols, "cols");
  dpcov::check::dimension(cols + 1, "cols + 1");
}

std::vector<dpcov::data::ColumnScale> checked_scales(int64_t cols, const double *lower,
                                                     const double *upper) {
  check_columns(cols);
  dpcov::check::vector(cols, lower, sizeof(double), "lower");
  dpcov::check::vector(cols, upper, sizeof(double), "upper");
  std::vector<dpcov::data::ColumnScale> scales(static_cast<size_t>(cols));
  for (int64_t j = 0; j < cols; ++j)
    scales[static_cast<size_t>(j)] = dpcov::data::column_scale(lower[j], upper[j], j);
  return scales;
}

}  // namespace

extern "C" {

DPCOV_API dpcov_status dpcov_column_bounds_norm_bound(int64_t cols, double *bound) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(bound, "bound");
    check_columns(cols);
    *bound = dpcov::data::box_norm_bound(cols + 1);
  });
}

DPCOV_API dpcov_status dpcov_column_bounds_scale_rows(int32_t layout, int64_t rows, int64_t cols,
                                                      const double *a, int64_t lda,
                                                      const double *lower, const double *upper,
                                                      double *out, int64_t ldout,
                                                      int64_t *clamped) {
  return dpcov::capi::guarded([&] {
    const auto scales = checked_scales(cols, lower, upper);
    const dpcov::ConstMatrixView in =
        dpcov::check::matrix(layout, rows, cols, a, lda, "a", /*allow_empty=*/true);
    if (rows == 0) {
      if (clamped != nullptr) *clamped = 0;
      return;
    }
    const dpcov::MatrixView scaled =
        dpcov::check::output_matrix(layout, rows, cols + 1, out, ldout, "out");
    // Every value is checked before the first is written: on failure `out` is untouched.
    dpcov::check::all_finite(in, "a");
    const int64_t count = dpcov::data::scale_rows_to_box(in, scales.data(), scaled);
    if (clamped != nullptr) *clamped = count;
  });
}

DPCOV_API dpcov_status dpcov_column_bounds_transform(int64_t cols, const double *lower,
                                                     const double *upper, int32_t units,
                                                     int32_t layout, const double *in,
                                                     int64_t ldin, double *out, int64_t ldout) {
  return dpcov::capi::guarded([&] {
    const auto scales = checked_scales(cols, lower, upper);
    if (units != DPCOV_UNITS_USER && units != DPCOV_UNITS_SCALED)
      dpcov::fail(dpcov::Status::InvalidArgument, "units must be DPCOV_UNITS_USER (0) or ",
                  "DPCOV_UNITS_SCALED (1), got ", units);
    const int64_t m = cols + 1;
    const dpcov::ConstMatrixView source = dpcov::check::matrix(layout, m, m, in, ldin, "in");
    dpcov::check::all_finite(source, "in");
    dpcov::check::symmetric(source, "in");
    const dpcov::MatrixView target = dpcov::check::output_matrix(layout, m, m, out, ldout, "out");
    // Into a copy first: `out` may be `in`, and stays untouched if a mapped entry overflows.
    dpcov::Matrix mapped(m, m);
    dpcov::data::transform_second_moment(scales.data(), source, mapped.view(),
                                         units == DPCOV_UNITS_USER);
    dpcov::check::finite_result(mapped.view(), "the mapped matrix");
    for (int64_t j = 0; j < m; ++j)
      for (int64_t i = 0; i < m; ++i) target(i, j) = mapped(i, j);
  });
}

}  // extern "C"
