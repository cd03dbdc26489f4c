#include "eigenvalue_clip.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "../error.hpp"
#include "../linalg/blas.hpp"

namespace dpcov::postprocess {

Matrix clip_eigenvalues(const Matrix &y, double lower, double upper) {
  if (std::isnan(lower) || std::isnan(upper) || lower > upper)
    fail(Status::InvalidArgument, "eigenvalue bounds must satisfy lower <= upper, got [", lower,
         ", ", upper, "]");
  const linalg::SymmetricEigen eig = linalg::eigh(y);
  const int64_t d = y.rows();
  // V diag(clamped), then (V diag(clamped)) V^T.
  Matrix scaled = eig.vectors;
  for (int64_t j = 0; j < d; ++j) {
    const double value = std::clamp(eig.values[static_cast<size_t>(j)], lower, upper);
    for (int64_t i = 0; i < d; ++i) scaled(i, j) *= value;
  }
  Matrix out = linalg::multiply(scaled, eig.vectors, linalg::Trans::No, linalg::Trans::Yes);
  linalg::symmetrize_from_upper(out);
  return out;
}

Matrix project_psd(const Matrix &y) {
  return clip_eigenvalues(y, 0.0, std::numeric_limits<double>::infinity());
}

}  // namespace dpcov::postprocess
