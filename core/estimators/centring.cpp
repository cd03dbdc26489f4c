#include "centring.hpp"

#include <cmath>

#include "../check.hpp"
#include "../error.hpp"

namespace dpcov::estimators {

void check_centring(int64_t dim, int64_t constant_column, double constant, int64_t n) {
  if (dim < 2) fail(Status::Dimension, "dim must be >= 2 (a constant column and data), got ", dim);
  if (constant_column < 0 || constant_column >= dim)
    fail(Status::InvalidArgument, "constant_column must be in [0, ", dim, "), got ",
         constant_column);
  check::finite(constant, "constant");
  if (constant == 0.0) fail(Status::InvalidArgument, "constant must be != 0");
  // S_cc = n c^2 is out of range for every n: a constant this large was never a release's.
  if (!(std::fabs(constant) <= 0x1p511))
    fail(Status::InvalidArgument, "the constant c = ", constant, " is above 2^511 = 6.7e153 in "
         "magnitude: the release's S_cc = n c^2 overflows for every n");
  if (n < 0) fail(Status::InvalidArgument, "n must be >= 1, or 0 to estimate it, got ", n);
}

Centred centre_second_moment(ConstMatrixView m, int64_t constant_column, double constant,
                             int64_t n) {
  const int64_t d = m.rows - 1;
  const int64_t c = constant_column;
  // The other columns, in their order.
  std::vector<int64_t> other;
  for (int64_t j = 0; j <= d; ++j)
    if (j != c) other.push_back(j);
  Centred out;
  out.count = n > 0 ? static_cast<double>(n) : m(c, c) / (constant * constant);
  // A released count below one row: the noise swamps n, and a mean divided by it is meaningless
  // (and may flip sign). Refused rather than reported.
  if (!(out.count >= 1.0))
    fail(Status::Precondition, "the released count S_cc / c^2 = ", out.count,
         " is below 1: the privacy noise swamps the number of rows; give the public n, or a "
         "larger epsilon");
  out.mean.resize(static_cast<size_t>(d));
  for (int64_t i = 0; i < d; ++i)
    out.mean[static_cast<size_t>(i)] = m(c, other[static_cast<size_t>(i)]) / constant / out.count;
  out.covariance = Matrix(d, d);
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      const double v = m(other[static_cast<size_t>(i)], other[static_cast<size_t>(j)]) / out.count -
                       out.mean[static_cast<size_t>(i)] * out.mean[static_cast<size_t>(j)];
      out.covariance(i, j) = v;
      out.covariance(j, i) = v;
    }
  return out;
}

}  // namespace dpcov::estimators
