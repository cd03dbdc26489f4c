#include "check.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace dpcov::check {

void not_null(const void *pointer, const char *name) {
  if (pointer == nullptr) fail(Status::NullPointer, name, " must not be NULL");
}

void dimension(int64_t value, const char *name) {
  if (value < 1) fail(Status::Dimension, name, " must be >= 1, got ", value);
  if (value > kBlasIntMax / value)
    fail(Status::TooLarge, name, " = ", value, " is too large: ", name, "^2 must fit a 32-bit ",
         "BLAS integer");
}

void finite(double value, const char *name) {
  if (!std::isfinite(value)) fail(Status::NonFinite, name, " must be finite, got ", value);
}

void positive_finite(double value, const char *name) {
  if (!(std::isfinite(value) && value > 0.0))
    fail(std::isnan(value) || std::isinf(value) ? Status::NonFinite : Status::InvalidArgument,
         name, " must be finite and > 0, got ", value);
}

void epsilon(double eps) {
  positive_finite(eps, "epsilon");
  if (!(eps <= kMaxEpsilon))
    fail(Status::InvalidArgument, "epsilon must be at most DPCOV_MAX_EPSILON = 2^40 (",
         kMaxEpsilon, "), got ", eps,
         ": beyond it the noise is below the rounding of the statistic (docs/epsilon-cap.md)");
}

void delta(double delta) {
  if (!(delta > 0.0 && delta < 1.0))
    fail(std::isnan(delta) ? Status::NonFinite : Status::InvalidArgument,
         "delta must be in (0, 1), got ", delta);
}

Layout layout(int32_t value, const char *name) {
  if (value != static_cast<int32_t>(Layout::RowMajor) &&
      value != static_cast<int32_t>(Layout::ColMajor))
    fail(Status::Layout, name, " must be DPCOV_ROW_MAJOR (101) or DPCOV_COL_MAJOR (102), got ",
         value);
  return static_cast<Layout>(value);
}

size_t extent_bytes(const void *data, int64_t count, size_t element_size, const char *name) {
  if (count < 0) fail(Status::Dimension, name, " must have >= 0 elements, got ", count);
  size_t bytes = 0;
  if (__builtin_mul_overflow(static_cast<uint64_t>(count), element_size, &bytes) ||
      bytes > static_cast<size_t>(PTRDIFF_MAX))
    fail(Status::TooLarge, name, ": ", count, " elements of ", element_size,
         " bytes exceed the largest addressable array (PTRDIFF_MAX bytes)");
  uintptr_t end = 0;
  if (__builtin_add_overflow(reinterpret_cast<uintptr_t>(data), bytes, &end))
    fail(Status::TooLarge, name, ": ", count, " elements of ", element_size,
         " bytes starting at this address wrap around the address space");
  return bytes;
}

size_t strided_extent_bytes(const void *data, int64_t outer, int64_t inner, int64_t ld,
                            size_t element_size, const char *name) {
  if (outer < 0 || inner < 0 || ld < 0)
    fail(Status::Dimension, name, ": sizes must be >= 0, got ", outer, " runs of ", inner,
         " with stride ", ld);
  if (outer == 0 || inner == 0) return 0;
  int64_t span = 0;
  int64_t elements = 0;
  if (__builtin_mul_overflow(outer - 1, ld, &span) ||
      __builtin_add_overflow(span, inner, &elements))
    fail(Status::TooLarge, name, ": (", outer, " - 1) x ", ld, " + ", inner,
         " elements overflow a 64-bit integer");
  return extent_bytes(data, elements, element_size, name);
}

void vector(int64_t n, const void *data, size_t element_size, const char *name) {
  if (n < 0) fail(Status::Dimension, name, " must have >= 0 elements, got ", n);
  if (n == 0) return;
  not_null(data, name);
  extent_bytes(data, n, element_size, name);
}

namespace {

// Shared by matrix() and output_matrix(): everything but the constness of the data.
void matrix_shape(int32_t layout_value, int64_t rows, int64_t cols, const void *data, int64_t ld,
                  const char *name, bool allow_empty) {
  const Layout lay = layout(layout_value, concat(name, " layout").c_str());
  if (rows < 0 || (rows == 0 && !allow_empty))
    fail(Status::Dimension, name, " must have ", allow_empty ? ">= 0" : ">= 1", " rows, got ",
         rows);
  if (cols < 1) fail(Status::Dimension, name, " must have >= 1 columns, got ", cols);
  if (rows == 0) return;
  not_null(data, name);
  const int64_t min_ld = lay == Layout::RowMajor ? cols : rows;
  if (ld < min_ld)
    fail(Status::Layout, "leading dimension of ", name, " must be >= ", min_ld, " for ",
         lay == Layout::RowMajor ? "row" : "column", "-major ", rows, " x ", cols, ", got ", ld);
  if (ld > kBlasIntMax || cols > kBlasIntMax)
    fail(Status::TooLarge, name, ": leading dimension ", ld, " and columns ", cols,
         " must fit a 32-bit BLAS integer");
  // The whole extent, in bytes, must be addressable.
  strided_extent_bytes(data, lay == Layout::RowMajor ? rows : cols, min_ld, ld, sizeof(double),
                       name);
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

namespace {

// Fails with `status` at the first non-finite element of m, naming it.
void matrix_finite(ConstMatrixView m, const char *name, Status status, const char *why) {
  for (int64_t i = 0; i < m.rows; ++i)
    for (int64_t j = 0; j < m.cols; ++j)
      if (!std::isfinite(m(i, j)))
        fail(status, name, " has a non-finite value at row ", i, ", column ", j, " (0-based)",
             why);
}

}  // namespace

void all_finite(ConstMatrixView m, const char *name) {
  matrix_finite(m, name, Status::NonFinite, "");
}

void finite_result(double value, const char *name) {
  if (!std::isfinite(value))
    fail(Status::Numerical, name,
         " is not finite: the computation overflowed or is undefined for this input");
}

void finite_result(const double *values, size_t count, const char *name) {
  for (size_t i = 0; i < count; ++i)
    if (!std::isfinite(values[i]))
      fail(Status::Numerical, name, "[", i,
           "] is not finite: the computation overflowed or is undefined for this input");
}

void finite_result(ConstMatrixView m, const char *name) {
  matrix_finite(m, name, Status::Numerical, ": the computation overflowed for this input");
}

void symmetric(ConstMatrixView m, const char *name) {
  if (m.rows != m.cols)
    fail(Status::Dimension, name, " must be square, got ", m.rows, " x ", m.cols);
  for (int64_t j = 0; j < m.cols; ++j)
    for (int64_t i = 0; i < j; ++i)
      if (m(i, j) != m(j, i))
        fail(Status::InvalidArgument, name, " must be symmetric; its entries (", i, ", ", j,
             ") and (", j, ", ", i, ") differ");
}

void gram_within_bound(ConstMatrixView gram, int64_t rows, double bound) {
  // G is a floating-point sum of n terms each <= B^2 (compensated in the accumulator, exact to a
  // few ulps; a state summed over machines adds the rounding of a few more sums): its rounding
  // error is far below this relative slack. In the subnormals (B below about 2^-511) each of the
  // n d products on the diagonal rounds by up to half a subnormal step, absolutely: the absolute
  // slack of n d such steps covers them (16 rows of norm just above 2^-537 summed to a trace 1.6
  // percent above n B^2).
  constexpr double kSlack = 1e-9;
  const double limit = static_cast<double>(rows) * bound * bound;
  const double subnormal_slack = static_cast<double>(rows) * static_cast<double>(gram.rows) *
                                 std::numeric_limits<double>::denorm_min();
  const double allowed = limit * (1.0 + kSlack) + subnormal_slack;
  double trace = 0.0;
  for (int64_t i = 0; i < gram.rows; ++i) {
    if (gram(i, i) < 0.0)
      fail(Status::InvalidArgument, "gram is not a Gram matrix: diagonal entry ", i, " is < 0");
    trace += gram(i, i);
  }
  if (trace > allowed)
    fail(Status::NormBound, "gram cannot come from its n rows of norm <= B = ", bound,
         ": its trace exceeds n B^2");
  for (int64_t j = 0; j < gram.cols; ++j)
    for (int64_t i = 0; i < j; ++i)
      if (std::fabs(gram(i, j)) > allowed)
        fail(Status::NormBound, "gram cannot come from its n rows of norm <= B = ", bound,
             ": its entry (", i, ", ", j, ") exceeds n B^2 in magnitude");
}

}  // namespace dpcov::check
