/**
 * @file dpcov/common.h
 * @brief Conventions shared by every dpcov entry point: export macro, status codes, error messages,
 *        matrix layouts, version query.
 *
 * Every fallible function returns a ::dpcov_status (0 on success, a negative code on failure) and
 * writes its results through out-parameters. On failure no output is written and no handle changes
 * state; dpcov_last_error_message() then describes what went wrong. No function aborts, exits or lets
 * a C++ exception escape.
 *
 * Matrices are passed as (layout, rows, cols, pointer, leading dimension), exactly as in LAPACKE:
 * layout ::DPCOV_ROW_MAJOR (101) or ::DPCOV_COL_MAJOR (102); for row-major the leading dimension is
 * at least `cols`, for column-major at least `rows`. Sizes are `int64_t` and must also fit the
 * 32-bit integers of the underlying BLAS/LAPACK (::DPCOV_E_TOO_LARGE otherwise). Symmetric outputs
 * are written in full and are exactly symmetric.
 *
 * Size limits, in bytes, for every array the caller passes (input or output): a matrix spans
 * ((outer - 1) * ld + inner) elements, where outer/inner are rows/cols for row-major and cols/rows
 * for column-major; a vector of n elements spans n. That count times the element size
 * (8 for double and int64_t) is computed with overflow-checked arithmetic and must be at most
 * PTRDIFF_MAX bytes, and the array must not wrap around the end of the address space
 * (pointer + bytes representable); otherwise the call fails with ::DPCOV_E_TOO_LARGE before reading
 * or writing anything. In addition, a matrix's `cols` and `ld` and a square matrix's `dim`^2 must be
 * at most 2^31 - 1 (the BLAS integer). The caller's buffer must hold the extent it declares: the
 * library cannot detect a buffer shorter than its declared size.
 *
 * Finite or failed: no function returns ::DPCOV_OK with a NaN or infinite value in any output
 * (matrices, vectors, scalars, receipt constants), except where its documentation names the case
 * (a t-value of an exact fit, clip_upper = +infinity); where a result would not be finite it
 * fails with ::DPCOV_E_NUMERICAL instead, outputs untouched. A mechanism's plan and its release
 * run the same checks first and so fail alike: a receipt constant c must satisfy
 * c * 2^20 < DBL_MAX (and so must n B^2 and dof * scale), the headroom within which a release
 * cannot overflow.
 *
 * The library never keeps a pointer passed by the caller after the call returns.
 *
 * Structs that begin with `size_t struct_size` (set it to `sizeof` the struct) only ever grow at the
 * end: the library accepts any struct_size from the struct's first released size up, reads an input
 * struct and writes an output struct only up to the caller's struct_size, and refuses a smaller one
 * with ::DPCOV_E_INVALID_ARGUMENT (docs/abi-policy.md).
 */
#ifndef DPCOV_COMMON_H
#define DPCOV_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "dpcov/version.h"

#if defined(__GNUC__)
/** Marks the library's exported functions (default visibility in a hidden-visibility build). */
#define DPCOV_API __attribute__((visibility("default")))
#else
/** Marks the library's exported functions (nothing to mark without GCC's visibility). */
#define DPCOV_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The most simulated worlds a function draws (10^7): the bootstrap worlds of
 * dpcov_ols_bootstrap_intervals() and dpcov_adassp_bootstrap_intervals(), the noise draws of
 * dpcov_pca_subspace_error_bound() and dpcov_pca_centred_subspace_error_bound(). Their time is
 * that count times a world's, and the bootstrap keeps every world's coefficients; a larger count
 * is refused with ::DPCOV_E_INVALID_ARGUMENT before anything is drawn.
 */
#define DPCOV_MAX_SIMULATION_DRAWS 10000000

/**
 * The simulated worlds (bootstrap worlds, or kept posterior sweeps) the noise-aware intervals of
 * every surface draw when the user names no number (`dpcov regress --bootstrap`, Python's
 * `n_bootstrap` and `num_bootstrap`): the same default, so that one seed gives one interval on
 * each. 999 keeps the 2.5% and 97.5% order statistics on whole ranks (25th and 975th).
 */
#define DPCOV_INTERVAL_DRAWS 999

/**
 * The largest epsilon any entry point accepts (2^40, about 1.1e12); a larger one is refused with
 * ::DPCOV_E_INVALID_ARGUMENT before anything is drawn, by the one check every epsilon passes
 * (a mechanism's, a private bound's, a zCDP conversion's), so the bindings and the `dpcov`
 * command refuse it too. Far enough above it a release is its statistic to the last bit, labelled
 * "(epsilon, delta)-DP": at epsilon = 1e20 the idealized Laplace noise (scale Delta / epsilon,
 * Delta >= B^2) is below an ulp of the largest entry n B^2 for any n and d < 10000, and the
 * Gaussian mechanisms' sigma (about Delta / sqrt(2 epsilon)) once n > 3e5 rows. At the cap the
 * Gaussian noise is at least an ulp of n B^2 for up to 2^31 rows, the idealized Laplace noise for
 * at least 2^12 rows; the exact numerics (integer noise, dpcov/exact.h) carry their guarantee at
 * any epsilon up to the cap.
 * docs/epsilon-cap.md gives the derivation.
 */
#define DPCOV_MAX_EPSILON 1099511627776.0

/** Result of every fallible call: ::DPCOV_OK or one of the negative `DPCOV_E_*` codes. */
typedef int32_t dpcov_status;

/**
 * Status codes. Their numbers are part of the ABI and never change once shipped; new codes are only
 * ever appended.
 */
enum dpcov_status_code {
  DPCOV_OK = 0,                     /**< Success. */
  DPCOV_E_NULL_POINTER = -1,        /**< A required pointer argument was NULL. */
  DPCOV_E_INVALID_ARGUMENT = -2,    /**< An argument is out of its documented range. */
  DPCOV_E_DIMENSION = -3,           /**< A dimension is zero, negative or inconsistent. */
  DPCOV_E_LAYOUT = -4,              /**< Unknown layout or leading dimension too small. */
  DPCOV_E_NON_FINITE = -5,          /**< Input data or a parameter contains NaN or infinity. */
  DPCOV_E_NORM_BOUND = -6,          /**< A row exceeds the norm bound under the reject policy. */
  DPCOV_E_PRECONDITION = -7,        /**< A theorem's precondition does not hold (message says which). */
  DPCOV_E_NOT_POSITIVE_DEFINITE = -8, /**< A matrix that must be positive definite is not. */
  DPCOV_E_NOT_PRIVATE = -9,         /**< A mechanism known not to be private was called without the audit-only unlock. */
  DPCOV_E_REFUSED = -10,            /**< A propose-test-release test failed: nothing was released. */
  DPCOV_E_NO_CONVERGENCE = -11,     /**< An iteration or a rejection sampler hit its cap. */
  DPCOV_E_NUMERICAL = -12,          /**< A LAPACK routine failed or a result is not finite. */
  DPCOV_E_ENTROPY = -13,            /**< The operating system's entropy source failed. */
  DPCOV_E_TOO_LARGE = -14,          /**< A size does not fit the BLAS/LAPACK integer type or overflows. */
  DPCOV_E_INCOMPATIBLE = -15,       /**< Two objects that must match (dimension, bound, ...) do not. */
  DPCOV_E_BUFFER_TOO_SMALL = -16,   /**< An output buffer is smaller than required. */
  DPCOV_E_NOMEM = -17,              /**< Memory allocation failed. */
  DPCOV_E_INTERNAL = -18            /**< An unexpected internal error (a bug: please report it). */
};

/** Matrix storage orders; the values equal LAPACKE's `LAPACK_ROW_MAJOR` and `LAPACK_COL_MAJOR`. */
enum dpcov_layout {
  DPCOV_ROW_MAJOR = 101, /**< Element (i, j) at `a[i * ld + j]`. */
  DPCOV_COL_MAJOR = 102  /**< Element (i, j) at `a[i + j * ld]`. */
};

/**
 * Static, human-readable name of a status code ("DPCOV_E_NON_FINITE"); "DPCOV_E_UNKNOWN" for a value
 * that is not a status code. Never NULL. Thread-safe.
 */
DPCOV_API const char *dpcov_status_string(dpcov_status status);

/**
 * Detail of the most recent failed call on the calling thread, e.g. "epsilon must be finite and
 * > 0, got -1". Successful calls do not change it; "" if no call on this thread has failed. The
 * string is owned by the library and stays valid until the next failing call on the same thread.
 * Thread-safe (the message is thread-local).
 */
DPCOV_API const char *dpcov_last_error_message(void);

/** Version of the library actually loaded, as ::DPCOV_VERSION_NUMBER. Thread-safe. */
DPCOV_API int32_t dpcov_version_number(void);

/** Version of the library actually loaded, as "major.minor.patch". Never NULL. Thread-safe. */
DPCOV_API const char *dpcov_version_string(void);

#ifdef __cplusplus
}
#endif

#endif /* DPCOV_COMMON_H */
