#include "metrics.hpp"

#include <algorithm>
#include <cmath>

#include "../error.hpp"
#include "../linalg/blas.hpp"

namespace dpcov::estimators {

namespace {

void same_shape(ConstMatrixView a, ConstMatrixView b) {
  if (a.rows != b.rows || a.cols != b.cols)
    fail(Status::Dimension, "the two matrices must have the same shape, got ", a.rows, " x ",
         a.cols, " and ", b.rows, " x ", b.cols);
}

// Divides `error` by `norm_b` when relative, refusing a zero reference.
double scaled(double error, double norm_b, bool relative) {
  if (!relative) return error;
  if (norm_b == 0.0)
    fail(Status::InvalidArgument,
         "a relative error needs a nonzero reference; the reference is 0");
  return error / norm_b;
}

}  // namespace

double frobenius_error(ConstMatrixView a, ConstMatrixView b, bool relative) {
  same_shape(a, b);
  Matrix diff(a.rows, a.cols);
  Matrix ref(b.rows, b.cols);
  for (int64_t j = 0; j < a.cols; ++j)
    for (int64_t i = 0; i < a.rows; ++i) {
      diff(i, j) = a(i, j) - b(i, j);
      ref(i, j) = b(i, j);
    }
  const int64_t n = a.rows * a.cols;
  return scaled(linalg::nrm2(n, diff.data(), 1), linalg::nrm2(n, ref.data(), 1), relative);
}

double spectral_error(ConstMatrixView a, ConstMatrixView b, bool relative) {
  same_shape(a, b);
  Matrix diff(a.rows, a.cols);
  for (int64_t j = 0; j < a.cols; ++j)
    for (int64_t i = 0; i < a.rows; ++i) diff(i, j) = a(i, j) - b(i, j);
  const double error = linalg::singular_values(diff).front();
  return relative ? scaled(error, linalg::singular_values(Matrix::from(b)).front(), true) : error;
}

double vector_error(const double *a, const double *b, int64_t n, bool relative) {
  std::vector<double> diff(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) diff[static_cast<size_t>(i)] = a[i] - b[i];
  return scaled(linalg::nrm2(n, diff.data(), 1), linalg::nrm2(n, b, 1), relative);
}

SupportRecovery support_recovery(ConstMatrixView estimate, ConstMatrixView truth,
                                 double threshold) {
  same_shape(estimate, truth);
  if (estimate.rows != estimate.cols)
    fail(Status::Dimension, "precision matrices must be square, got ", estimate.rows, " x ",
         estimate.cols);
  if (!(threshold >= 0.0) || std::isinf(threshold))
    fail(std::isnan(threshold) ? Status::NonFinite : Status::InvalidArgument,
         "threshold must be finite and >= 0, got ", threshold);
  SupportRecovery s;
  for (int64_t j = 0; j < estimate.cols; ++j)
    for (int64_t i = 0; i < j; ++i) {
      const bool found = std::fabs(estimate(i, j)) > threshold;
      const bool real = std::fabs(truth(i, j)) > threshold;
      s.true_positives += found && real;
      s.false_positives += found && !real;
      s.false_negatives += !found && real;
      s.true_negatives += !found && !real;
    }
  if (s.true_positives + s.false_positives > 0)
    s.precision = static_cast<double>(s.true_positives) /
                  static_cast<double>(s.true_positives + s.false_positives);
  if (s.true_positives + s.false_negatives > 0)
    s.recall = static_cast<double>(s.true_positives) /
               static_cast<double>(s.true_positives + s.false_negatives);
  return s;
}

}  // namespace dpcov::estimators
