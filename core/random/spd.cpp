#include "spd.hpp"

#include "../check.hpp"
#include "../linalg/blas.hpp"

namespace dpcov::random {

void check_symmetric_parameter(const Matrix &m, const char *name) {
  if (m.rows() != m.cols())
    fail(Status::Dimension, name, " must be square, got ", m.rows(), " x ", m.cols());
  check::dimension(m.rows(), name);
  check::all_finite(m.view(), name);
  check::symmetric(m.view(), name);
}

Matrix checked_cholesky(const Matrix &m, const char *name) {
  check_symmetric_parameter(m, name);
  Matrix l;
  if (!linalg::cholesky(m, l)) fail(Status::NotPositiveDefinite, name, " is not positive definite");
  return l;
}

Matrix cholesky_or_empty(const Matrix &m) {
  Matrix l;
  if (!linalg::cholesky(m, l)) return Matrix();
  return l;
}

}  // namespace dpcov::random
