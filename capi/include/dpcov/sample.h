/**
 * @file dpcov/sample.h
 * @brief Samplers and log-densities of the distributions dpcov's mechanisms draw from.
 *
 * Every sampler takes the generator explicitly (dpcov/rng.h) and advances it only when it
 * succeeds: on failure, outputs and generator are exactly as they were. Matrices follow the
 * conventions of dpcov/common.h (layout, leading dimension); input matrices that must be
 * symmetric must be so exactly (a(i, j) == a(j, i) as doubles), and symmetric outputs are written
 * in full and exactly symmetric. Results do not depend on the layout used.
 *
 * The continuous samplers compute in double precision: they are exact up to the rounding of the
 * values they return ("idealized numerics", Mironov, CCS 2012). Exact definitions, methods and
 * the statistical tests each sampler passes: docs/random.md and shared constants, section 9.
 *
 * Thread-safety: the functions are reentrant; a generator must not be used by two threads at
 * once. Log-density functions take no generator and are thread-safe.
 */
#ifndef DPCOV_SAMPLE_H
#define DPCOV_SAMPLE_H

#include "dpcov/common.h"
#include "dpcov/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * @p n draws uniform on the open interval (0, 1), 53-bit resolution: (k + 1/2) 2^-53.
 * @param rng  the generator; advanced only on success.
 * @param n    number of draws, >= 0 (0: nothing is written and @p out may be NULL).
 * @param out  at least @p n doubles; untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION (n < 0).
 */
DPCOV_API dpcov_status dpcov_sample_uniform01(dpcov_rng *rng, int64_t n, double *out);

/**
 * @p n standard normal draws (ziggurat, Marsaglia-Tsang 2000, with Marsaglia's exact tail).
 * @param rng  the generator; advanced only on success.
 * @param n    number of draws, >= 0 (0: nothing is written and @p out may be NULL).
 * @param out  at least @p n doubles; untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION (n < 0).
 */
DPCOV_API dpcov_status dpcov_sample_standard_normal(dpcov_rng *rng, int64_t n, double *out);

/**
 * @p n exponential draws with rate 1 (mean 1), by inversion.
 * @param rng  the generator; advanced only on success.
 * @param n    number of draws, >= 0 (0: nothing is written and @p out may be NULL).
 * @param out  at least @p n doubles; untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION (n < 0).
 */
DPCOV_API dpcov_status dpcov_sample_exponential(dpcov_rng *rng, int64_t n, double *out);

/**
 * @p n Laplace draws, density exp(-|x| / scale) / (2 scale).
 * @param rng    the generator; advanced only on success.
 * @param scale  finite, > 0.
 * @param n      number of draws, >= 0 (0: nothing is written and @p out may be NULL).
 * @param out    at least @p n doubles; untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION (n < 0),
 *         ::DPCOV_E_INVALID_ARGUMENT (scale <= 0), ::DPCOV_E_NON_FINITE (scale NaN or infinite),
 *         ::DPCOV_E_NUMERICAL (a draw overflows, at a scale near the largest double; the draws
 *         made are consumed).
 */
DPCOV_API dpcov_status dpcov_sample_laplace(dpcov_rng *rng, double scale, int64_t n, double *out);

/**
 * @p n Gamma(shape, 1) draws (Marsaglia-Tsang 2000; shape < 1 by the G(a+1) U^{1/a} boost).
 * For very small shapes draws below the smallest double are returned as 0.
 * @param rng    the generator; advanced only on success.
 * @param shape  finite, > 0.
 * @param n      number of draws, >= 0 (0: nothing is written and @p out may be NULL).
 * @param out    at least @p n doubles; untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION (n < 0),
 *         ::DPCOV_E_INVALID_ARGUMENT (shape <= 0), ::DPCOV_E_NON_FINITE,
 *         ::DPCOV_E_NUMERICAL (a draw overflows; the draws made are consumed).
 */
DPCOV_API dpcov_status dpcov_sample_gamma(dpcov_rng *rng, double shape, int64_t n, double *out);

/**
 * @p n chi-square draws with real @p dof degrees of freedom (2 Gamma(dof / 2)).
 * @param rng  the generator; advanced only on success.
 * @param dof  finite, > 0.
 * @param n    number of draws, >= 0 (0: nothing is written and @p out may be NULL).
 * @param out  at least @p n doubles; untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION (n < 0),
 *         ::DPCOV_E_INVALID_ARGUMENT (dof <= 0), ::DPCOV_E_NON_FINITE,
 *         ::DPCOV_E_NUMERICAL (a draw overflows; the draws made are consumed).
 */
DPCOV_API dpcov_status dpcov_sample_chi_square(dpcov_rng *rng, double dof, int64_t n,
                                               double *out);

/**
 * @p n points uniform on the unit sphere S^{dim-1}, one per row of the @p n x @p dim matrix
 * @p out.
 * @param rng     the generator; advanced only on success.
 * @param dim     number of coordinates, >= 1.
 * @param n       number of points, >= 1.
 * @param layout  ::DPCOV_ROW_MAJOR or ::DPCOV_COL_MAJOR, for @p out.
 * @param out     receives the points; untouched on failure.
 * @param ld_out  leading dimension of @p out (>= dim row-major, >= n column-major).
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_TOO_LARGE.
 */
DPCOV_API dpcov_status dpcov_sample_uniform_sphere(dpcov_rng *rng, int64_t dim, int64_t n,
                                                   int32_t layout, double *out, int64_t ld_out);

/**
 * One Wishart draw W ~ W_dim(dof, scale), density
 * |W|^{(dof-d-1)/2} exp(-tr(scale^{-1} W) / 2) / (2^{dof d/2} |scale|^{dof/2} Gamma_d(dof/2)),
 * by the Bartlett decomposition: cost O(dim^3) whatever @p dof is.
 * @param rng       the generator; advanced only on success.
 * @param dof       degrees of freedom, real, finite, > dim - 1.
 * @param layout    layout of @p scale and @p out.
 * @param dim       d, >= 1.
 * @param scale     d x d, finite, exactly symmetric, positive definite.
 * @param ld_scale  leading dimension of @p scale, >= d.
 * @param out       receives W, d x d, in full and exactly symmetric.
 * @param ld_out    leading dimension of @p out, >= d.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NON_FINITE (dof or scale), ::DPCOV_E_INVALID_ARGUMENT
 *         (scale not symmetric), ::DPCOV_E_NOT_POSITIVE_DEFINITE, ::DPCOV_E_PRECONDITION
 *         (dof <= dim - 1), ::DPCOV_E_NUMERICAL (an entry overflows; the draws made are consumed).
 */
DPCOV_API dpcov_status dpcov_sample_wishart(dpcov_rng *rng, double dof, int32_t layout,
                                            int64_t dim, const double *scale, int64_t ld_scale,
                                            double *out, int64_t ld_out);

/**
 * One inverse Wishart draw X ~ W^{-1}_dim(psi, dof), i.e. X^{-1} ~ W_dim(dof, psi^{-1}); density
 * |psi|^{dof/2} |X|^{-(dof+d+1)/2} exp(-tr(psi X^{-1}) / 2) / (2^{dof d/2} Gamma_d(dof/2)).
 * E X = psi / (dof - d - 1) when dof > d + 1.
 * @param rng     the generator; advanced only on success.
 * @param dof     degrees of freedom m, real, finite, > dim - 1.
 * @param layout  layout of @p psi and @p out.
 * @param dim     d, >= 1.
 * @param psi     d x d, finite, exactly symmetric, positive definite.
 * @param ld_psi  leading dimension of @p psi, >= d.
 * @param out     receives X, d x d, in full and exactly symmetric; untouched on failure.
 * @param ld_out  leading dimension of @p out, >= d.
 * @return as dpcov_sample_wishart(), plus ::DPCOV_E_NUMERICAL if a Bartlett diagonal underflows
 *         (only for dof - dim + 1 below about 1e-2).
 */
DPCOV_API dpcov_status dpcov_sample_inverse_wishart(dpcov_rng *rng, double dof, int32_t layout,
                                                    int64_t dim, const double *psi,
                                                    int64_t ld_psi, double *out, int64_t ld_out);

/**
 * @p n draws from the angular central Gaussian ACG(omega) on S^{dim-1} (u = z / |z|,
 * z ~ N(0, omega^{-1})), one per row of the @p n x @p dim matrix @p out (same layout as @p omega).
 * @param rng       the generator; advanced only on success.
 * @param layout    layout of @p omega and @p out.
 * @param dim       number of coordinates q, >= 1.
 * @param omega     q x q, finite, exactly symmetric, positive definite.
 * @param ld_omega  leading dimension of @p omega, >= q.
 * @param n         number of points, >= 1.
 * @param out       receives the n x q matrix of points; untouched on failure.
 * @param ld_out    leading dimension of @p out (>= q row-major, >= n column-major).
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NON_FINITE, ::DPCOV_E_INVALID_ARGUMENT (not symmetric),
 *         ::DPCOV_E_NOT_POSITIVE_DEFINITE.
 */
DPCOV_API dpcov_status dpcov_sample_acg(dpcov_rng *rng, int32_t layout, int64_t dim,
                                        const double *omega, int64_t ld_omega, int64_t n,
                                        double *out, int64_t ld_out);

/**
 * @p n draws from the Bingham distribution on S^{dim-1}, density proportional to exp(-x^T a x),
 * one per row of the @p n x @p dim matrix @p out (same layout as @p a), by the
 * Kent-Ganeiber-Mardia rejection sampler with the angular central Gaussian envelope (J. Comput.
 * Graph. Stat. 27(2), 2018; acceptance test exp(-x'Ax) (x'Omega x)^{q/2} / M, the correct
 * orientation, see proofs/constants.md section 10.1). Adding c I to @p a does not change the
 * distribution. At most 10^6 proposals per draw.
 * @param rng        the generator; advanced only on success.
 * @param layout     layout of @p a and @p out.
 * @param dim        number of coordinates q, >= 1.
 * @param a          q x q, finite, exactly symmetric (any sign).
 * @param lda        leading dimension of @p a, >= q.
 * @param n          number of draws, >= 1.
 * @param out        receives the n x q matrix of draws; untouched on failure.
 * @param ld_out     leading dimension of @p out (>= q row-major, >= n column-major).
 * @param[out] tries receives the total number of proposals used for the @p n draws (>= n; the
 *                   rejections are tries - n); may be NULL if not wanted.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NON_FINITE, ::DPCOV_E_INVALID_ARGUMENT (not symmetric),
 *         ::DPCOV_E_NUMERICAL (eigen-decomposition failed), ::DPCOV_E_NO_CONVERGENCE (a draw
 *         hit the proposal cap).
 */
DPCOV_API dpcov_status dpcov_sample_bingham(dpcov_rng *rng, int32_t layout, int64_t dim,
                                            const double *a, int64_t lda, int64_t n, double *out,
                                            int64_t ld_out, int64_t *tries);

/**
 * A dim x dim symmetric matrix with iid N(0, sigma^2) entries on the upper triangle (diagonal
 * included, d(d+1)/2 draws, column by column) mirrored to the lower one.
 * @param rng     the generator; advanced only on success.
 * @param sigma   finite, > 0.
 * @param layout  layout of @p out.
 * @param dim     d, >= 1.
 * @param out     receives the matrix, in full; untouched on failure.
 * @param ld      leading dimension of @p out, >= d.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_TOO_LARGE, ::DPCOV_E_INVALID_ARGUMENT (sigma <= 0), ::DPCOV_E_NON_FINITE,
 *         ::DPCOV_E_NUMERICAL (an entry overflows, at a scale near the largest double; the draws
 *         made are consumed).
 */
DPCOV_API dpcov_status dpcov_sample_symmetric_gaussian_noise(dpcov_rng *rng, double sigma,
                                                             int32_t layout, int64_t dim,
                                                             double *out, int64_t ld);

/**
 * As dpcov_sample_symmetric_gaussian_noise() with Laplace(scale) entries, density
 * exp(-|x| / scale) / (2 scale).
 * @param rng     the generator; advanced only on success.
 * @param scale   finite, > 0.
 * @param layout  layout of @p out.
 * @param dim     d, >= 1.
 * @param out     receives the matrix, in full; untouched on failure.
 * @param ld      leading dimension of @p out, >= d.
 * @return as dpcov_sample_symmetric_gaussian_noise().
 */
DPCOV_API dpcov_status dpcov_sample_symmetric_laplace_noise(dpcov_rng *rng, double scale,
                                                            int32_t layout, int64_t dim,
                                                            double *out, int64_t ld);

/**
 * Natural log of the W_dim(dof, scale) density at @p w; -infinity if @p w is not exactly
 * symmetric or not positive definite (outside the support).
 * @param layout    layout of @p w and @p scale.
 * @param dim       d, >= 1.
 * @param w         d x d, finite.
 * @param ld_w      leading dimension of @p w, >= d.
 * @param dof       finite, > d - 1.
 * @param scale     d x d, finite, exactly symmetric, positive definite.
 * @param ld_scale  leading dimension of @p scale, >= d.
 * @param[out] out  receives the value; untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NON_FINITE, ::DPCOV_E_INVALID_ARGUMENT (scale not
 *         symmetric), ::DPCOV_E_NOT_POSITIVE_DEFINITE (scale), ::DPCOV_E_PRECONDITION (dof).
 */
DPCOV_API dpcov_status dpcov_log_density_wishart(int32_t layout, int64_t dim, const double *w,
                                                 int64_t ld_w, double dof, const double *scale,
                                                 int64_t ld_scale, double *out);

/**
 * Natural log of the W^{-1}_dim(psi, dof) density at @p x; -infinity if @p x is not exactly
 * symmetric or not positive definite.
 * @param layout    layout of @p x and @p psi.
 * @param dim       d, >= 1.
 * @param x         d x d, finite.
 * @param ld_x      leading dimension of @p x, >= d.
 * @param dof       finite, > d - 1.
 * @param psi       d x d, finite, exactly symmetric, positive definite.
 * @param ld_psi    leading dimension of @p psi, >= d.
 * @param[out] out  receives the value; untouched on failure.
 * @return as dpcov_log_density_wishart().
 */
DPCOV_API dpcov_status dpcov_log_density_inverse_wishart(int32_t layout, int64_t dim,
                                                         const double *x, int64_t ld_x,
                                                         double dof, const double *psi,
                                                         int64_t ld_psi, double *out);

/**
 * Natural log of the ACG(omega) density at the unit vector @p u, with respect to the uniform
 * probability measure on S^{dim-1}: (1/2) ln|omega| - (dim/2) ln(u^T omega u); -infinity if
 * |u^T u - 1| > 1e-10.
 * @param layout    layout of @p omega.
 * @param dim       q, >= 1.
 * @param omega     q x q, finite, exactly symmetric, positive definite.
 * @param ld_omega  leading dimension of @p omega, >= q.
 * @param u         q finite doubles.
 * @param[out] out  receives the value.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NON_FINITE, ::DPCOV_E_INVALID_ARGUMENT,
 *         ::DPCOV_E_NOT_POSITIVE_DEFINITE.
 */
DPCOV_API dpcov_status dpcov_log_density_acg(int32_t layout, int64_t dim, const double *omega,
                                             int64_t ld_omega, const double *u, double *out);

/**
 * Natural log of the density of the d(d+1)/2 upper-triangle entries of a symmetric Gaussian
 * noise matrix: sum_{i<=j} [-x_ij^2 / (2 sigma^2) - ln(sigma sqrt(2 pi))]; -infinity if
 * @p noise is not exactly symmetric.
 * @param layout    layout of @p noise.
 * @param dim       d, >= 1.
 * @param noise     d x d, finite.
 * @param ld        leading dimension of @p noise, >= d.
 * @param sigma     finite, > 0.
 * @param[out] out  receives the value.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_DIMENSION, ::DPCOV_E_LAYOUT,
 *         ::DPCOV_E_TOO_LARGE, ::DPCOV_E_NON_FINITE, ::DPCOV_E_INVALID_ARGUMENT (sigma <= 0).
 */
DPCOV_API dpcov_status dpcov_log_density_symmetric_gaussian(int32_t layout, int64_t dim,
                                                            const double *noise, int64_t ld,
                                                            double sigma, double *out);

/**
 * As dpcov_log_density_symmetric_gaussian() for Laplace(scale) entries:
 * sum_{i<=j} [-|x_ij| / scale - ln(2 scale)].
 * @param layout    layout of @p noise.
 * @param dim       d, >= 1.
 * @param noise     d x d, finite.
 * @param ld        leading dimension of @p noise, >= d.
 * @param scale     finite, > 0.
 * @param[out] out  receives the value; untouched on failure.
 * @return as dpcov_log_density_symmetric_gaussian().
 */
DPCOV_API dpcov_status dpcov_log_density_symmetric_laplace(int32_t layout, int64_t dim,
                                                           const double *noise, int64_t ld,
                                                           double scale, double *out);

#ifdef __cplusplus
}
#endif

#endif /* DPCOV_SAMPLE_H */
