// Typed wrappers over CBLAS and LAPACKE. This pair of files is the only place in the kernel that
// calls them; everything else works with Matrix and the views of matrix.hpp. All matrices here are
// column-major unless a view says otherwise, and every size has already been checked to fit a
// 32-bit BLAS integer (check::dimension, check::matrix).
#pragma once

#include <cstdint>
#include <vector>

#include "../matrix.hpp"

namespace dpcov::linalg {

enum class Trans { No, Yes };
enum class Side { Left, Right };

// C := A^T A + beta C on the upper triangle of the d x d column-major C (leading dimension ldc),
// where A is the n x d view `a` (any layout). The strictly lower triangle of C is not referenced.
void syrk_upper(ConstMatrixView a, double beta, double *c, int64_t ldc);

// Euclidean norm of n doubles spaced `stride` apart, without overflow or underflow (BLAS dnrm2).
double nrm2(int64_t n, const double *x, int64_t stride);

// C := alpha op(A) op(B) + beta C.
void gemm(Trans ta, Trans tb, double alpha, const Matrix &a, const Matrix &b, double beta,
          Matrix &c);
Matrix multiply(const Matrix &a, const Matrix &b, Trans ta = Trans::No, Trans tb = Trans::No);

// Eigen-decomposition of a symmetric matrix (upper triangle read): values ascending, vectors as
// the columns of `vectors` (orthonormal). Throws Status::Numerical if LAPACK does not converge.
struct SymmetricEigen {
  std::vector<double> values;
  Matrix vectors;
};
SymmetricEigen eigh(const Matrix &a);
// Eigenvalues only, ascending.
std::vector<double> eigvalsh(const Matrix &a);
// The symmetric tridiagonal matrix with this diagonal (k values) and off-diagonal (k - 1):
// eigenvalues ascending and eigenvectors (LAPACK dstev). Throws Status::Numerical if LAPACK does
// not converge.
SymmetricEigen tridiagonal_eigen(std::vector<double> diagonal, std::vector<double> off_diagonal);

// Cholesky factor L (lower, A = L L^T, strictly upper part zeroed) of a symmetric matrix given by
// its lower triangle. Returns false, leaving `l` unspecified, if A is not positive definite;
// throws Status::Numerical if its lower triangle has a non-finite entry.
bool cholesky(const Matrix &a, Matrix &l);

// sum_i log L_ii^2 = log det A for a Cholesky factor L of A.
double log_det_from_cholesky(const Matrix &l);

// Inverse of a symmetric positive definite matrix, in full. Throws Status::NotPositiveDefinite.
Matrix spd_inverse(const Matrix &a);

// B := alpha op(T) B (side Left) or alpha B op(T) (side Right), T lower triangular.
void trmm_lower(Side side, Trans trans, double alpha, const Matrix &t, Matrix &b);
// Solves op(T) X = alpha B (Left) or X op(T) = alpha B (Right) for X, T lower triangular; X
// overwrites B.
void trsm_lower(Side side, Trans trans, double alpha, const Matrix &t, Matrix &b);

// Level-2 kernels on column-major views (leading dimension `ld`), for algorithms that update a
// q x q block in place step by step (iterative eigenvector sampling).
// y := alpha A x + beta y, A symmetric given by its upper triangle.
void symv_upper(int64_t n, double alpha, const double *a, int64_t ld, const double *x, double beta,
                double *y);
// y := alpha op(A) x + beta y for the m x n column-major A.
void gemv(Trans trans, int64_t m, int64_t n, double alpha, const double *a, int64_t ld,
          const double *x, double beta, double *y);
// A := A + alpha x x^T on the upper triangle.
void syr_upper(int64_t n, double alpha, const double *x, double *a, int64_t ld);
// A := A + alpha (x y^T + y x^T) on the upper triangle.
void syr2_upper(int64_t n, double alpha, const double *x, const double *y, double *a, int64_t ld);
// In place, the Cholesky factor U (A = U^T U) of the symmetric matrix given by the upper triangle
// of the n x n block `a` (strictly lower part not referenced nor cleared). Returns false if the
// block is not positive definite (its contents are then unspecified). Finite input is the
// caller's obligation: no scan for NaN.
bool cholesky_upper_in_place(int64_t n, double *a, int64_t ld);
// In place, U^{-1} for the n x n upper triangular U (non-unit diagonal; LAPACK dtrtri); false if
// U is singular.
bool invert_upper_triangular(int64_t n, double *u, int64_t ld);
// x := U^{-1} x for the n x n upper triangular U (non-unit diagonal).
void solve_upper(int64_t n, const double *u, int64_t ld, double *x);

// The Householder reflection H = I - tau v v^T (v[0] = 1) with H x = beta e_0 (LAPACK dlarfg):
// x[0] becomes beta and x[1..n-1] the tail of v; returns tau (0 when x's tail is 0: H = I).
double householder_reflector(int64_t n, double *x);
// The first k columns of Q = H_0 H_1 ... H_{k-1} for k reflectors stored as householder_reflector
// leaves them, reflector j's tail below the diagonal of column j of the m x k block `a` (LAPACK
// dorgqr); Q overwrites `a`. tau holds the k factors.
void householder_product(int64_t m, int64_t k, double *a, int64_t ld, const double *tau);

// Copies the upper triangle onto the lower one so that the matrix is exactly symmetric.
void symmetrize_from_upper(Matrix &a);

// Singular values of a general matrix, descending (LAPACK dgesdd without vectors). Throws
// Status::Numerical if LAPACK does not converge.
std::vector<double> singular_values(const Matrix &a);

// C := alpha A B + beta C on views: A (m x k) and B (k x n) in either layout, C (m x n)
// column-major. A row-major view is passed to BLAS as the transpose of its column-major reading,
// so neither input is copied. Every dimension and leading dimension must fit a BLAS integer.
void gemm_views(double alpha, ConstMatrixView a, ConstMatrixView b, double beta, MatrixView c);

}  // namespace dpcov::linalg
