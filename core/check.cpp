#include "check.hpp"

#include <cmath>

namespace dpcov::check {

void not_null(const void *pointer, const char *name) {
  if (pointer == nullptr) fail(DPCOV_E_NULL_POINTER, name, " must not be NULL");
}

void dimension(int64_t value, const char *name) {
  if (value < 1) fail(DPCOV_E_DIMENSION, name, " must be >= 1, got ", value);
  if (value > kBlasIntMax / value)
    fail(DPCOV_E_TOO_LARGE, name, " = ", value, " is too large: ", name, "^2 must fit a 32-bit ",
         "BLAS integer");
}

void finite(double value, const char *name) {
  if (!std::isfinite(value)) fail(DPCOV_E_NON_FINITE, name, " must be finite, got ", value);
}

void positive_finite(double value, const char *name) {
  if (!(std::isfinite(value) && value > 0.0))
    fail(std::isnan(value) || std::isinf(value) ? DPCOV_E_NON_FINITE : DPCOV_E_INVALID_ARGUMENT,
         name, " must be finite and > 0, got ", value);
}

void epsilon(double eps) { positive_finite(eps, "epsilon"); }

void delta(double delta) {
  if (!(delta > 0.0 && delta < 1.0))
    fail(std::isnan(delta) ? DPCOV_E_NON_FINITE : DPCOV_E_INVALID_ARGUMENT,
         "delta must be in (0, 1), got ", delta);
}

Layout layout(int32_t value, const char *name) {
  if (value != DPCOV_ROW_MAJOR && value != DPCOV_COL_MAJOR)
    fail(DPCOV_E_LAYOUT, name, " must be DPCOV_ROW_MAJOR (101) or DPCOV_COL_MAJOR (102), got ",
         value);
  return static_cast<Layout>(value);
}

namespace {

// Shared by matrix() and output_matrix(): everything but the constness of the data.
void matrix_shape(int32_t layout_value, int64_t rows, int64_t cols, const void *data, int64_t ld,
                  const char *name, bool allow_empty) {
  const Layout lay = layout(layout_value, concat(name, " layout").c_str());
  if (rows < 0 || (rows == 0 && !allow_empty))
    fail(DPCOV_E_DIMENSION, name, " must have ", allow_empty ? ">= 0" : ">= 1", " rows, got ",
         rows);
  if (cols < 1) fail(DPCOV_E_DIMENSION, name, " must have >= 1 columns, got ", cols);
  if (rows == 0) return;
  not_null(data, name);
  const int64_t min_ld = lay == Layout::RowMajor ? cols : rows;
  if (ld < min_ld)
    fail(DPCOV_E_LAYOUT, "leading dimension of ", name, " must be >= ", min_ld, " for ",
         lay == Layout::RowMajor ? "row" : "column", "-major ", rows, " x ", cols, ", got ", ld);
  if (ld > kBlasIntMax || cols > kBlasIntMax)
    fail(DPCOV_E_TOO_LARGE, name, ": leading dimension ", ld, " and columns ", cols,
         " must fit a 32-bit BLAS integer");
  // The offset of the last element must be representable.
  const int64_t outer = lay == Layout::RowMajor ? rows : cols;
  if (outer - 1 > (INT64_MAX - min_ld) / ld)
    fail(DPCOV_E_TOO_LARGE, name, " is too large to address");
}

}  // namespace

ConstMatrixView matrix(int32_t layout_value, int64_t rows, int64_t cols, const double *data,
                       int64_t ld, const char *name, bool allow_empty) {
  matrix_shape(layout_value, rows, cols, data, ld, name, allow_empty);
  return {data, rows, cols, ld, static_cast<Layout>(layout_value)};
}

MatrixView output_matrix(int32_t layout_value, int64_t rows, int64_t cols, double *data,
                         int64_t ld, const char *name) {
  matrix_shape(layout_value, rows, cols, data, ld, name, false);
  return {data, rows, cols, ld, static_cast<Layout>(layout_value)};
}

void all_finite(ConstMatrixView m, const char *name) {
  for (int64_t i = 0; i < m.rows; ++i)
    for (int64_t j = 0; j < m.cols; ++j)
      if (!std::isfinite(m(i, j)))
        fail(DPCOV_E_NON_FINITE, name, " has a non-finite value ", m(i, j), " at row ", i,
             ", column ", j, " (0-based)");
}

void symmetric(ConstMatrixView m, const char *name) {
  if (m.rows != m.cols)
    fail(DPCOV_E_DIMENSION, name, " must be square, got ", m.rows, " x ", m.cols);
  for (int64_t j = 0; j < m.cols; ++j)
    for (int64_t i = 0; i < j; ++i)
      if (m(i, j) != m(j, i))
        fail(DPCOV_E_INVALID_ARGUMENT, name, " must be symmetric; (", i, ", ", j, ") = ", m(i, j),
             " but (", j, ", ", i, ") = ", m(j, i));
}

}  // namespace dpcov::check
