#include "statistic.hpp"

#include "../check.hpp"

namespace dpcov::mechanisms {

namespace {

void check_square(ConstMatrixView m, int64_t dim, const char *name) {
  if (m.rows != dim || m.cols != dim)
    fail(Status::Dimension, name, " must be ", dim, " x ", dim, ", got ", m.rows, " x ", m.cols);
}

}  // namespace

void check_gram_statistic(ConstMatrixView gram, const Request &request) {
  check_square(gram, request.dim, "gram");
  check::all_finite(gram, "gram");
  check::symmetric(gram, "gram");
  check::gram_within_bound(gram, request.n, request.bound);
}

void check_released(ConstMatrixView released, int64_t dim) {
  check_square(released, dim, "released");
  check::all_finite(released, "released");
  check::symmetric(released, "released");
}

Matrix add_mirrored(ConstMatrixView base, const Matrix &noise) {
  Matrix out(base.rows, base.cols);
  for (int64_t j = 0; j < base.cols; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      out(i, j) = base(i, j) + noise(i, j);
      out(j, i) = out(i, j);
    }
  return out;
}

Matrix subtract_mirrored(ConstMatrixView released, ConstMatrixView base) {
  Matrix out(base.rows, base.cols);
  for (int64_t j = 0; j < base.cols; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      out(i, j) = released(i, j) - base(i, j);
      out(j, i) = out(i, j);
    }
  return out;
}

Matrix scaled_identity(int64_t dim, double c) {
  Matrix out(dim, dim);
  for (int64_t i = 0; i < dim; ++i) out(i, i) = c;
  return out;
}

}  // namespace dpcov::mechanisms
