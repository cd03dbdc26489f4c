#include "identity_shift.hpp"

#include <cmath>

#include "../check.hpp"
#include "../linalg/blas.hpp"

namespace dpcov::postprocess {

namespace {

void check_probability(double nu) {
  if (!(nu > 0.0 && nu < 1.0))
    fail(std::isnan(nu) ? Status::NonFinite : Status::InvalidArgument,
         "nu (failure probability) must be in (0, 1), got ", nu);
}

}  // namespace

Matrix add_identity(const Matrix &y, double c) {
  Matrix out = y;
  for (int64_t i = 0; i < y.rows(); ++i) out(i, i) += c;
  return out;
}

bool is_positive_definite(const Matrix &y) {
  Matrix factor;
  return linalg::cholesky(y, factor);
}

double analyze_gauss_pd_shift(double sigma, int64_t dim, double nu) {
  check::positive_finite(sigma, "sigma");
  check::dimension(dim, "dimension d");
  check_probability(nu);
  // E lambda_max(E) <= 2 sigma sqrt(d) (Sudakov-Fernique against 2 sigma <g, u>; the diagonal
  // variance sigma^2 is at most GOE's 2 sigma^2, and lambda_max is convex), and lambda_max is
  // sqrt(2) sigma-Lipschitz in the standardised upper-triangle entries, so
  // P[lambda_max > 2 sigma sqrt(d) + t] <= exp(-t^2 / (4 sigma^2)). E and -E have the same law.
  return sigma * (2.0 * std::sqrt(static_cast<double>(dim)) + 2.0 * std::sqrt(std::log(1.0 / nu)));
}

Matrix shift_analyze_gauss(const Matrix &y, double sigma, double nu, double &shift_added) {
  const double c = analyze_gauss_pd_shift(sigma, y.rows(), nu);
  if (is_positive_definite(y)) {
    shift_added = 0.0;
    return y;
  }
  shift_added = c;
  return add_identity(y, c);
}

Matrix subtract_wishart_mean(const Matrix &y, double dof, double scale) {
  check::positive_finite(dof, "dof");
  check::positive_finite(scale, "scale");
  return add_identity(y, -dof * scale);
}

double davidson_szarek_shift(double dof, int64_t dim, double scale, double nu) {
  check::dimension(dim, "dimension d");
  check::positive_finite(dof, "dof");
  if (!(dof > static_cast<double>(dim) - 1.0))
    fail(Status::InvalidArgument, "dof must be > d - 1 = ", dim - 1, ", got ", dof);
  check::positive_finite(scale, "scale");
  check_probability(nu);
  const double root = std::sqrt(dof) - std::sqrt(static_cast<double>(dim)) -
                      std::sqrt(2.0 * std::log(2.0 / nu));
  return root > 0.0 ? scale * root * root : 0.0;
}

Matrix shift_wishart(const Matrix &y, double dof, double scale, double nu,
                     double &shift_subtracted) {
  const double lower = davidson_szarek_shift(dof, y.rows(), scale, nu);
  for (const double shift : {dof * scale, lower}) {
    Matrix candidate = add_identity(y, -shift);
    if (shift > 0.0 && is_positive_definite(candidate)) {
      shift_subtracted = shift;
      return candidate;
    }
  }
  shift_subtracted = 0.0;
  return y;
}

}  // namespace dpcov::postprocess
