// Argument validation shared by the C ABI and the kernel. Each check throws dpcov::Error with the
// status code and a message that names the argument and the value it got.
#pragma once

#include <cstddef>
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
// The largest epsilon a caller may give, 2^40 (docs/epsilon-cap.md); equal to the C ABI's
// DPCOV_MAX_EPSILON, which capi/ pins.
inline constexpr double kMaxEpsilon = 0x1p40;

// The most draws a caller may ask of a simulation (a bootstrap, a Monte Carlo band): it bounds its
// time and memory. Equal to the C ABI's DPCOV_MAX_SIMULATION_DRAWS, which capi/ pins.
inline constexpr int64_t kMaxSimulationDraws = 10000000;

// Finite, > 0 and at most kMaxEpsilon: the one check every epsilon a caller gives passes.
void epsilon(double eps);
void delta(double delta);
Layout layout(int32_t value, const char *name);

// The one size discipline for caller memory. A caller's array of `count` elements of
// `element_size` bytes, starting at `data`, spans count * element_size bytes; that product is
// computed with overflow-checked multiplication and must be at most PTRDIFF_MAX, and the array
// must not wrap around the end of the address space (data + bytes representable). Otherwise fails
// with Status::TooLarge. Returns the extent in bytes. count 0 is an empty array (data unused).
size_t extent_bytes(const void *data, int64_t count, size_t element_size, const char *name);
// Extent of a strided array: `outer` runs of `inner` elements, consecutive runs `ld` elements
// apart, i.e. (outer - 1) * ld + inner elements, with the same checks as extent_bytes().
size_t strided_extent_bytes(const void *data, int64_t outer, int64_t inner, int64_t ld,
                            size_t element_size, const char *name);
// A caller's vector of n doubles (n >= 0; data may be null only when n == 0).
void vector(int64_t n, const void *data, size_t element_size, const char *name);

// Validates (layout, rows, cols, data, ld) as a matrix argument and returns its view. rows may be
// 0 only when allow_empty is set (then data may be null). Checks pointer, layout, leading
// dimension, that every index fits a BLAS integer, and the extent in bytes through
// strided_extent_bytes(); does not look at the values.
ConstMatrixView matrix(int32_t layout, int64_t rows, int64_t cols, const double *data, int64_t ld,
                       const char *name, bool allow_empty = false);
MatrixView output_matrix(int32_t layout, int64_t rows, int64_t cols, double *data, int64_t ld,
                         const char *name);

// Every element finite; the message gives the first offending (row, column).
void all_finite(ConstMatrixView m, const char *name);
// Results leaving the C ABI: every value finite, else Status::Numerical naming the output. Called
// on each output before any is written, so that no entry point returns DPCOV_OK with a non-finite
// value and a failure leaves every output untouched.
void finite_result(double value, const char *name);
void finite_result(const double *values, size_t count, const char *name);
void finite_result(ConstMatrixView m, const char *name);
// Square and symmetric to the last bit (a(i, j) == a(j, i)), as the public contracts require.
void symmetric(ConstMatrixView m, const char *name);
// A finite symmetric `gram` that n = `rows` rows of norm <= `bound` can have summed: diagonal >= 0
// (else Status::InvalidArgument), trace <= n B^2 and every |g_ij| <= n B^2 (by Cauchy-Schwarz
// |g_ij| <= sqrt(g_ii g_jj) <= trace), each up to a relative slack for rounding; else
// Status::NormBound. An entry beyond n B^2 would reach the mechanisms' arithmetic, which assumes
// it cannot, and overflow there.
void gram_within_bound(ConstMatrixView gram, int64_t rows, double bound);

}  // namespace dpcov::check
