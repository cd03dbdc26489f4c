// Argument validation shared by the C ABI and the kernel. Each check throws dpcov::Error with the
// status code and a message that names the argument and the value it got.
#pragma once

#include <cstdint>

#include "error.hpp"
#include "matrix.hpp"

namespace dpcov::check {

// Largest value of the 32-bit integers used by the BLAS/LAPACK this library links.
inline constexpr int64_t kBlasIntMax = 2147483647;

void not_null(const void *pointer, const char *name);
// 1 <= value, and value * value fits a BLAS integer (so a d x d matrix can be passed to BLAS).
void dimension(int64_t value, const char *name);
void finite(double value, const char *name);
void positive_finite(double value, const char *name);
void epsilon(double eps);
void delta(double delta);
Layout layout(int32_t value, const char *name);

// Validates (layout, rows, cols, data, ld) as a matrix argument and returns its view. rows may be
// 0 only when allow_empty is set (then data may be null). Checks pointer, layout, leading
// dimension and that every index fits a BLAS integer; does not look at the values.
ConstMatrixView matrix(int32_t layout, int64_t rows, int64_t cols, const double *data, int64_t ld,
                       const char *name, bool allow_empty = false);
MatrixView output_matrix(int32_t layout, int64_t rows, int64_t cols, double *data, int64_t ld,
                         const char *name);

// Every element finite; the message gives the first offending (row, column).
void all_finite(ConstMatrixView m, const char *name);
// Square and symmetric to the last bit (a(i, j) == a(j, i)), as the public contracts require.
void symmetric(ConstMatrixView m, const char *name);

}  // namespace dpcov::check
