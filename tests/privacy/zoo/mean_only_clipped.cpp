#include "mean_only_clipped.hpp"

#include <algorithm>
#include <cmath>

#include "core/privacy/analytic_gaussian.hpp"

namespace dpcov::audit::zoo {

namespace {

constexpr int64_t kDim = 2, kRows = 10;
constexpr double kBound = 1.0;

Matrix clipped(const Matrix &rows) {
  Matrix out = rows;
  for (int64_t r = 0; r < rows.rows(); ++r) {
    double norm2 = 0.0;
    for (int64_t j = 0; j < kDim; ++j) norm2 += rows(r, j) * rows(r, j);
    if (norm2 > kBound * kBound)
      for (int64_t j = 0; j < kDim; ++j) out(r, j) *= kBound / std::sqrt(norm2);
  }
  return out;
}

Matrix scatter(const Matrix &rows, Variant variant) {
  const Matrix clipped_rows = clipped(rows);
  const Matrix &summed = variant == Variant::Broken ? rows : clipped_rows;
  double mean[kDim] = {};
  for (int64_t r = 0; r < kRows; ++r)
    for (int64_t j = 0; j < kDim; ++j) mean[j] += clipped_rows(r, j) / static_cast<double>(kRows);
  Matrix centred(kRows, kDim);
  for (int64_t r = 0; r < kRows; ++r)
    for (int64_t j = 0; j < kDim; ++j) centred(r, j) = summed(r, j) - mean[j];
  return raw_gram(centred);
}

}  // namespace

ZooCase mean_only_clipped(Variant variant, double epsilon, double delta) {
  Matrix rows(kRows, kDim);
  for (int64_t r = 1; r < kRows; ++r) rows(r, r % kDim) = r % 3 == 0 ? -0.5 : 0.5;
  Matrix rows_prime = rows;
  rows_prime(0, 0) = 10.0;
  const double sensitivity = (std::sqrt(2.0) + 4.0) * kBound * kBound;
  const double sigma = privacy::analytic_gaussian_sigma(epsilon, delta, sensitivity);
  ZooCase c;
  c.name = variant == Variant::Broken ? "covariance_mean_only_clipped" : "covariance_rows_clipped";
  c.target = gaussian_statistic_target(c.name, epsilon, delta, sigma, sigma);
  c.pair = {scatter(rows, variant), scatter(rows_prime, variant), kRows, kRows};
  return c;
}

}  // namespace dpcov::audit::zoo
