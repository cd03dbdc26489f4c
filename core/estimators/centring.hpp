// The mean and centred covariance from a second moment of rows [c, x] with a constant column
// (proofs/centring.md): post-processing of one release.
#pragma once

#include <cstdint>
#include <vector>

#include "../matrix.hpp"

namespace dpcov::estimators {

struct Centred {
  double count = 0.0;          // n_hat: the public n, or S_cc / c^2 from the release
  std::vector<double> mean;    // d entries, the columns other than the constant one, in order
  Matrix covariance;           // d x d, exactly symmetric
};

// `m` is (d + 1) x (d + 1), finite and symmetric; `constant_column` in [0, d]; `constant` finite
// and != 0; `n` >= 1 (public) or 0 (estimate from the release). Throws Status::Precondition when
// the estimated count is below 1.
// Checks the arguments of centre_second_moment for an order-`dim` matrix: dim >= 2,
// constant_column in [0, dim), constant finite and != 0, n >= 0. Throws Status::Dimension or
// Status::InvalidArgument.
void check_centring(int64_t dim, int64_t constant_column, double constant, int64_t n);

Centred centre_second_moment(ConstMatrixView m, int64_t constant_column, double constant,
                             int64_t n);

}  // namespace dpcov::estimators
