#include "blas.hpp"

#include <cblas.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>

#include "../error.hpp"
#include "blas_threads.hpp"
#include "power_of_two.hpp"

namespace dpcov::linalg {

namespace {

// Every size reaching this file has been checked against check::kBlasIntMax by the caller.
blasint bi(int64_t v) { return static_cast<blasint>(v); }
lapack_int li(int64_t v) { return static_cast<lapack_int>(v); }

CBLAS_TRANSPOSE cb(Trans t) { return t == Trans::Yes ? CblasTrans : CblasNoTrans; }

}  // namespace

void syrk_upper(ConstMatrixView a, double beta, double *c, int64_t ldc) {
  if (a.rows == 0) {
    if (beta != 1.0)
      for (int64_t j = 0; j < a.cols; ++j)
        for (int64_t i = 0; i <= j; ++i) c[i + j * ldc] *= beta;
    return;
  }
  // A row-major n x d matrix is, read column-major, the d x n matrix A^T: then A^T A = (A^T)(A^T)^T.
  if (a.layout == Layout::RowMajor)
    cblas_dsyrk(CblasColMajor, CblasUpper, CblasNoTrans, bi(a.cols), bi(a.rows), 1.0, a.data,
                bi(a.ld), beta, c, bi(ldc));
  else
    cblas_dsyrk(CblasColMajor, CblasUpper, CblasTrans, bi(a.cols), bi(a.rows), 1.0, a.data,
                bi(a.ld), beta, c, bi(ldc));
}

int blas_threads() { return openblas_get_num_threads(); }

double nrm2(int64_t n, const double *x, int64_t stride) {
  return cblas_dnrm2(bi(n), x, bi(stride));
}

void gemm(Trans ta, Trans tb, double alpha, const Matrix &a, const Matrix &b, double beta,
          Matrix &c) {
  const int64_t m = ta == Trans::No ? a.rows() : a.cols();
  const int64_t k = ta == Trans::No ? a.cols() : a.rows();
  const int64_t n = tb == Trans::No ? b.cols() : b.rows();
  if (c.rows() != m || c.cols() != n || (tb == Trans::No ? b.rows() : b.cols()) != k)
    fail(Status::Internal, "gemm: inconsistent shapes");
  if (m == 0 || n == 0) return;
  cblas_dgemm(CblasColMajor, cb(ta), cb(tb), bi(m), bi(n), bi(k), alpha, a.data(),
              bi(std::max<int64_t>(1, a.rows())), b.data(), bi(std::max<int64_t>(1, b.rows())),
              beta, c.data(), bi(std::max<int64_t>(1, c.rows())));
}

void symv_upper(int64_t n, double alpha, const double *a, int64_t ld, const double *x, double beta,
                double *y) {
  cblas_dsymv(CblasColMajor, CblasUpper, bi(n), alpha, a, bi(ld), x, 1, beta, y, 1);
}

void gemv(Trans trans, int64_t m, int64_t n, double alpha, const double *a, int64_t ld,
          const double *x, double beta, double *y) {
  cblas_dgemv(CblasColMajor, cb(trans), bi(m), bi(n), alpha, a, bi(ld), x, 1, beta, y, 1);
}

void syr_upper(int64_t n, double alpha, const double *x, double *a, int64_t ld) {
  cblas_dsyr(CblasColMajor, CblasUpper, bi(n), alpha, x, 1, a, bi(ld));
}

void syr2_upper(int64_t n, double alpha, const double *x, const double *y, double *a, int64_t ld) {
  cblas_dsyr2(CblasColMajor, CblasUpper, bi(n), alpha, x, 1, y, 1, a, bi(ld));
}

bool cholesky_upper_in_place(int64_t n, double *a, int64_t ld) {
  const lapack_int info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'U', li(n), a, li(ld));
  if (info < 0) fail(Status::Internal, "dpotrf argument ", -info, " invalid");
  return info == 0;
}

bool invert_upper_triangular(int64_t n, double *u, int64_t ld) {
  const lapack_int info = LAPACKE_dtrtri_work(LAPACK_COL_MAJOR, 'U', 'N', li(n), u, li(ld));
  if (info < 0) fail(Status::Internal, "dtrtri argument ", -info, " invalid");
  return info == 0;
}

void solve_upper(int64_t n, const double *u, int64_t ld, double *x) {
  cblas_dtrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, bi(n), u, bi(ld), x, 1);
}

double householder_reflector(int64_t n, double *x) {
  double tau = 0.0;
  const lapack_int info = LAPACKE_dlarfg_work(li(n), x, x + 1, 1, &tau);
  if (info != 0) fail(Status::Internal, "dlarfg info ", info);
  return tau;
}

void householder_product(int64_t m, int64_t k, double *a, int64_t ld, const double *tau) {
  if (k == 0) return;
  double query = 0.0;
  lapack_int info =
      LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, li(m), li(k), li(k), a, li(ld), tau, &query, -1);
  if (info != 0) fail(Status::Internal, "dorgqr workspace query info ", info);
  std::vector<double> work(static_cast<size_t>(std::max(1.0, query)));
  info = LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, li(m), li(k), li(k), a, li(ld), tau, work.data(),
                             li(static_cast<int64_t>(work.size())));
  if (info != 0) fail(Status::Internal, "dorgqr info ", info);
}

Matrix multiply(const Matrix &a, const Matrix &b, Trans ta, Trans tb) {
  Matrix c(ta == Trans::No ? a.rows() : a.cols(), tb == Trans::No ? b.cols() : b.rows());
  gemm(ta, tb, 1.0, a, b, 0.0, c);
  return c;
}

namespace {

SymmetricEigen eig_impl(const Matrix &a, bool want_vectors) {
  const int64_t n = a.rows();
  // Scaled by a power of two (exact) so that the largest entry is of order 1: dsyevr's MRRR
  // bisection loops without end on some matrices with entries near the ends of the double range.
  double largest = 0.0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) largest = std::max(largest, std::fabs(a(i, j)));
  int exponent = 0;
  if (largest > 0.0 && std::isfinite(largest)) std::frexp(largest, &exponent);
  Matrix work = a;
  if (exponent != 0)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i) work(i, j) = scale_by_power_of_two(work(i, j), -exponent);
  SymmetricEigen out;
  out.values.assign(static_cast<size_t>(n), 0.0);
  if (want_vectors) out.vectors = Matrix(n, n);
  std::vector<lapack_int> support(static_cast<size_t>(2 * n));
  lapack_int found = 0;
  const lapack_int info = LAPACKE_dsyevr(
      LAPACK_COL_MAJOR, want_vectors ? 'V' : 'N', 'A', 'U', li(n), work.data(), li(n), 0.0, 0.0,
      0, 0, 0.0, &found, out.values.data(), want_vectors ? out.vectors.data() : nullptr, li(n),
      support.data());
  if (info != 0 || found != n)
    fail(Status::Numerical, "symmetric eigen-decomposition failed (LAPACK dsyevr info ", info,
         ")");
  for (double &value : out.values) value = scale_by_power_of_two(value, exponent);
  return out;
}

}  // namespace

SymmetricEigen eigh(const Matrix &a) { return eig_impl(a, true); }

std::vector<double> eigvalsh(const Matrix &a) { return eig_impl(a, false).values; }

SymmetricEigen tridiagonal_eigen(std::vector<double> diagonal, std::vector<double> off_diagonal) {
  const int64_t k = static_cast<int64_t>(diagonal.size());
  if (k == 0 || static_cast<int64_t>(off_diagonal.size()) + 1 < k)
    fail(Status::Internal, "tridiagonal_eigen: ", k, " diagonal and ", off_diagonal.size(),
         " off-diagonal values");
  SymmetricEigen out;
  out.vectors = Matrix(k, k);
  const lapack_int info = LAPACKE_dstev(LAPACK_COL_MAJOR, 'V', li(k), diagonal.data(),
                                        off_diagonal.data(), out.vectors.data(), li(k));
  if (info != 0) fail(Status::Numerical, "tridiagonal eigen-decomposition failed (LAPACK dstev info ", info, ")");
  out.values = std::move(diagonal);
  return out;
}

bool cholesky(const Matrix &a, Matrix &l) {
  const int64_t n = a.rows();
  // A non-finite entry comes from an overflow upstream: LAPACKE would report a NaN as an invalid
  // argument, and an infinity would reach dpotrf. Neither is "not positive definite".
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = j; i < n; ++i)
      if (!std::isfinite(a(i, j)))
        fail(Status::Numerical, "Cholesky factorization of a matrix whose entry (", i, ", ", j,
             ") is not finite: an overflow upstream");
  l = a;
  const lapack_int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', li(n), l.data(), li(n));
  if (info < 0) fail(Status::Internal, "dpotrf argument ", -info, " invalid");
  if (info > 0) return false;
  for (int64_t j = 1; j < n; ++j)
    for (int64_t i = 0; i < j; ++i) l(i, j) = 0.0;
  return true;
}

double log_det_from_cholesky(const Matrix &l) {
  double sum = 0.0;
  for (int64_t i = 0; i < l.rows(); ++i) sum += std::log(l(i, i));
  return 2.0 * sum;
}

Matrix spd_inverse(const Matrix &a) {
  Matrix l;
  if (!cholesky(a, l)) fail(Status::NotPositiveDefinite, "matrix is not positive definite");
  const lapack_int info = LAPACKE_dpotri(LAPACK_COL_MAJOR, 'L', li(l.rows()), l.data(),
                                         li(l.rows()));
  if (info != 0) fail(Status::Numerical, "SPD inverse failed (LAPACK dpotri info ", info, ")");
  // dpotri fills the lower triangle; mirror it.
  for (int64_t j = 0; j < l.cols(); ++j)
    for (int64_t i = 0; i < j; ++i) l(i, j) = l(j, i);
  return l;
}

void trmm_lower(Side side, Trans trans, double alpha, const Matrix &t, Matrix &b) {
  if (b.rows() == 0 || b.cols() == 0) return;
  cblas_dtrmm(CblasColMajor, side == Side::Left ? CblasLeft : CblasRight, CblasLower, cb(trans),
              CblasNonUnit, bi(b.rows()), bi(b.cols()), alpha, t.data(), bi(t.rows()), b.data(),
              bi(b.rows()));
}

void trsm_lower(Side side, Trans trans, double alpha, const Matrix &t, Matrix &b) {
  if (b.rows() == 0 || b.cols() == 0) return;
  cblas_dtrsm(CblasColMajor, side == Side::Left ? CblasLeft : CblasRight, CblasLower, cb(trans),
              CblasNonUnit, bi(b.rows()), bi(b.cols()), alpha, t.data(), bi(t.rows()), b.data(),
              bi(b.rows()));
}

void symmetrize_from_upper(Matrix &a) {
  for (int64_t j = 0; j < a.cols(); ++j)
    for (int64_t i = 0; i < j; ++i) a(j, i) = a(i, j);
}

std::vector<double> singular_values(const Matrix &a) {
  const int64_t m = a.rows();
  const int64_t n = a.cols();
  std::vector<double> s(static_cast<size_t>(std::min(m, n)));
  if (s.empty()) return s;
  Matrix work = a;
  const lapack_int info = LAPACKE_dgesdd(LAPACK_COL_MAJOR, 'N', li(m), li(n), work.data(), li(m),
                                         s.data(), nullptr, 1, nullptr, 1);
  if (info != 0)
    fail(Status::Numerical, "singular value decomposition failed (LAPACK dgesdd info ", info, ")");
  return s;
}

void gemm_views(double alpha, ConstMatrixView a, ConstMatrixView b, double beta, MatrixView c) {
  if (a.cols != b.rows || c.rows != a.rows || c.cols != b.cols || c.layout != Layout::ColMajor)
    fail(Status::Internal, "gemm_views: inconsistent shapes or a row-major output");
  if (c.rows == 0 || c.cols == 0) return;
  const auto op = [](ConstMatrixView v) {
    return v.layout == Layout::ColMajor ? CblasNoTrans : CblasTrans;
  };
  cblas_dgemm(CblasColMajor, op(a), op(b), bi(c.rows), bi(c.cols), bi(a.cols), alpha, a.data,
              bi(std::max<int64_t>(1, a.ld)), b.data, bi(std::max<int64_t>(1, b.ld)), beta,
              c.data, bi(std::max<int64_t>(1, c.ld)));
}

}  // namespace dpcov::linalg
