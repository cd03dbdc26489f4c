#include "wishart.hpp"

#include <cmath>
#include <numbers>

#include "../check.hpp"
#include "../linalg/blas.hpp"
#include "gamma.hpp"
#include "normal.hpp"
#include "spd.hpp"

namespace dpcov::random {

namespace {

void check_dof(double dof, int64_t d) {
  check::finite(dof, "Wishart degrees of freedom");
  if (!(dof > static_cast<double>(d - 1)))
    fail(Status::Precondition, "Wishart degrees of freedom must be > d - 1 = ", d - 1,
         " (Bartlett decomposition), got ", dof);
}

// B B^T for a column-major square B, exactly symmetric: B's storage read as row-major is B^T,
// and syrk forms (B^T)^T (B^T).
Matrix outer_square(const Matrix &b) {
  const int64_t d = b.rows();
  Matrix out(d, d);
  linalg::syrk_upper(ConstMatrixView{b.data(), d, d, d, Layout::RowMajor}, 0.0, out.data(), d);
  linalg::symmetrize_from_upper(out);
  return out;
}

// || L^{-1} R ||_F^2 for lower-triangular L and R: tr(A^{-1} B) when A = L L^T and B = R R^T.
double trace_of_solve(const Matrix &l, Matrix r) {
  linalg::trsm_lower(linalg::Side::Left, linalg::Trans::No, 1.0, l, r);
  double sum = 0.0;
  for (int64_t j = 0; j < r.cols(); ++j)
    for (int64_t i = j; i < r.rows(); ++i) sum += r(i, j) * r(i, j);
  return sum;
}

void check_point(const Matrix &w, int64_t d, const char *name) {
  if (w.rows() != d || w.cols() != d)
    fail(Status::Dimension, name, " must be ", d, " x ", d, ", got ", w.rows(), " x ", w.cols());
  check::all_finite(w.view(), name);
}

bool exactly_symmetric(const Matrix &m) {
  for (int64_t j = 0; j < m.cols(); ++j)
    for (int64_t i = 0; i < j; ++i)
      if (m(i, j) != m(j, i)) return false;
  return true;
}

}  // namespace

Matrix bartlett_factor(Rng &rng, double dof, int64_t d) {
  check::dimension(d, "Wishart dimension");
  check_dof(dof, d);
  Matrix t(d, d);
  for (int64_t j = 0; j < d; ++j) {
    t(j, j) = std::sqrt(chi_square(rng, dof - static_cast<double>(j)));
    for (int64_t i = j + 1; i < d; ++i) t(i, j) = standard_normal(rng);
  }
  return t;
}

Matrix wishart(Rng &rng, double dof, const Matrix &scale) {
  const Matrix l = checked_cholesky(scale, "Wishart scale matrix");
  Matrix b = bartlett_factor(rng, dof, scale.rows());
  linalg::trmm_lower(linalg::Side::Left, linalg::Trans::No, 1.0, l, b);
  return outer_square(b);
}

Matrix inverse_wishart(Rng &rng, double dof, const Matrix &psi) {
  Matrix b = checked_cholesky(psi, "inverse Wishart scale matrix");
  const Matrix t = bartlett_factor(rng, dof, psi.rows());
  for (int64_t i = 0; i < t.rows(); ++i)
    if (!(t(i, i) > 0.0))
      fail(Status::Numerical, "inverse Wishart: Bartlett diagonal ", i,
           " underflowed to 0 (degrees of freedom ", dof, " too close to d - 1)");
  linalg::trsm_lower(linalg::Side::Right, linalg::Trans::Yes, 1.0, t, b);
  Matrix x = outer_square(b);
  check::finite_result(x.view(), "inverse Wishart sample");  // an overflow: Status::Numerical
  return x;
}

double log_multivariate_gamma(int64_t d, double a) {
  double sum = 0.25 * static_cast<double>(d) * static_cast<double>(d - 1) *
               std::log(std::numbers::pi);
  for (int64_t j = 1; j <= d; ++j) sum += std::lgamma(a + 0.5 * static_cast<double>(1 - j));
  return sum;
}

double wishart_log_density(const Matrix &w, double dof, const Matrix &scale) {
  const Matrix lc = checked_cholesky(scale, "Wishart scale matrix");
  const int64_t d = scale.rows();
  check_dof(dof, d);
  check_point(w, d, "Wishart point");
  if (!exactly_symmetric(w)) return -INFINITY;
  const Matrix lw = cholesky_or_empty(w);
  if (lw.rows() == 0) return -INFINITY;
  const double dd = static_cast<double>(d);
  return 0.5 * (dof - dd - 1.0) * linalg::log_det_from_cholesky(lw) -
         0.5 * trace_of_solve(lc, lw) - 0.5 * dof * dd * std::numbers::ln2 -
         0.5 * dof * linalg::log_det_from_cholesky(lc) - log_multivariate_gamma(d, 0.5 * dof);
}

double inverse_wishart_log_density(const Matrix &x, double dof, const Matrix &psi) {
  const Matrix lp = checked_cholesky(psi, "inverse Wishart scale matrix");
  const int64_t d = psi.rows();
  check_dof(dof, d);
  check_point(x, d, "inverse Wishart point");
  if (!exactly_symmetric(x)) return -INFINITY;
  const Matrix lx = cholesky_or_empty(x);
  if (lx.rows() == 0) return -INFINITY;
  const double dd = static_cast<double>(d);
  return 0.5 * dof * linalg::log_det_from_cholesky(lp) -
         0.5 * (dof + dd + 1.0) * linalg::log_det_from_cholesky(lx) -
         0.5 * trace_of_solve(lx, lp) - 0.5 * dof * dd * std::numbers::ln2 -
         log_multivariate_gamma(d, 0.5 * dof);
}

}  // namespace dpcov::random
