#include "clip_after_partition_sum.hpp"

#include <algorithm>
#include <cmath>

#include "core/privacy/analytic_gaussian.hpp"
#include "core/privacy/gram_sensitivity.hpp"

namespace dpcov::audit::zoo {

namespace {

constexpr int64_t kDim = 2, kPartition = 4, kRows = 8;
constexpr double kBound = 1.0;

Matrix partition_rows(const Matrix &rows, int64_t first) {
  Matrix part(kPartition, kDim);
  for (int64_t r = 0; r < kPartition; ++r)
    for (int64_t j = 0; j < kDim; ++j) part(r, j) = rows(first + r, j);
  return part;
}

void clip_rows(Matrix &rows) {
  for (int64_t r = 0; r < rows.rows(); ++r) {
    double norm2 = 0.0;
    for (int64_t j = 0; j < rows.cols(); ++j) norm2 += rows(r, j) * rows(r, j);
    const double factor = std::min(1.0, kBound / std::sqrt(norm2));
    if (norm2 > 0.0)
      for (int64_t j = 0; j < rows.cols(); ++j) rows(r, j) *= factor;
  }
}

Matrix pipeline_statistic(const Matrix &rows, Variant variant) {
  Matrix total(kDim, kDim);
  for (int64_t first = 0; first < kRows; first += kPartition) {
    Matrix part = partition_rows(rows, first);
    if (variant == Variant::Corrected) clip_rows(part);
    Matrix sum = raw_gram(part);
    if (variant == Variant::Broken) {
      double trace = 0.0;
      for (int64_t i = 0; i < kDim; ++i) trace += sum(i, i);
      const double cap = static_cast<double>(kPartition) * kBound * kBound;
      const double factor = trace > cap ? cap / trace : 1.0;
      for (int64_t j = 0; j < kDim; ++j)
        for (int64_t i = 0; i < kDim; ++i) sum(i, j) *= factor;
    }
    for (int64_t j = 0; j < kDim; ++j)
      for (int64_t i = 0; i < kDim; ++i) total(i, j) += sum(i, j);
  }
  return total;
}

}  // namespace

ZooCase clip_after_partition_sum(Variant variant, double epsilon, double delta) {
  Matrix rows(kRows, kDim);
  for (int64_t r = kPartition; r < kRows; ++r) rows(r, r % kDim) = 0.5;
  rows(0, 0) = 2.0;
  Matrix rows_prime = rows;
  rows_prime(0, 0) = 0.0;
  rows_prime(0, 1) = 2.0;
  const double sigma = privacy::analytic_gaussian_sigma(
      epsilon, delta, privacy::gram_l2_sensitivity(privacy::Neighbour::ReplaceOne, kBound));
  ZooCase c;
  c.name = variant == Variant::Broken ? "clip_after_partition_sum" : "clip_rows_then_sum";
  c.target = gaussian_statistic_target(c.name, epsilon, delta, sigma, sigma);
  c.pair = {pipeline_statistic(rows, variant), pipeline_statistic(rows_prime, variant), kRows,
            kRows};
  return c;
}

}  // namespace dpcov::audit::zoo
