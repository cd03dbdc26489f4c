// Reference implementations and data generators shared by the tests. Deliberately naive: the
// code under test is compared against these.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "core/data/gram.hpp"
#include "core/matrix.hpp"

namespace dpcov::test {

// An n x d matrix in a chosen layout with `pad` unused doubles after each row (row-major) or
// column (column-major), so that leading dimensions larger than the minimum are exercised.
class Rows {
 public:
  Rows(int64_t n, int64_t d, Layout layout, int64_t pad)
      : n_(n), d_(d), layout_(layout), ld_((layout == Layout::RowMajor ? d : n) + pad),
        data_(static_cast<size_t>(ld_ * (layout == Layout::RowMajor ? n : d)), -777.0) {
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < d; ++j) at(i, j) = 0.0;
  }
  double &at(int64_t i, int64_t j) {
    return data_[static_cast<size_t>(layout_ == Layout::RowMajor ? i * ld_ + j : i + j * ld_)];
  }
  ConstMatrixView view() const { return {data_.data(), n_, d_, ld_, layout_}; }
  int64_t ld() const { return ld_; }
  const double *data() const { return data_.data(); }

 private:
  int64_t n_, d_;
  Layout layout_;
  int64_t ld_;
  std::vector<double> data_;
};

// Rows with iid N(0, sigma^2) entries from a fixed seed.
inline Rows random_rows(int64_t n, int64_t d, Layout layout, int64_t pad, double sigma,
                        uint64_t seed) {
  Rows r(n, d, layout, pad);
  std::mt19937_64 gen(seed);
  std::normal_distribution<double> normal(0.0, sigma);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < d; ++j) r.at(i, j) = normal(gen);
  return r;
}

// sum_i b(a_i) b(a_i)^T by a triple loop, b the bounding rule of the policy (Reject is treated as
// "no row is over the bound").
inline Matrix naive_bounded_gram(ConstMatrixView a, double bound, BoundPolicy policy) {
  Matrix g(a.cols, a.cols);
  for (int64_t r = 0; r < a.rows; ++r) {
    double norm = 0.0;
    for (int64_t j = 0; j < a.cols; ++j) norm += a(r, j) * a(r, j);
    norm = std::sqrt(norm);
    double scale = 1.0;
    if (norm > bound) {
      if (policy == BoundPolicy::Drop) continue;
      scale = bound / norm;
    }
    for (int64_t i = 0; i < a.cols; ++i)
      for (int64_t j = 0; j < a.cols; ++j) g(i, j) += (scale * a(r, i)) * (scale * a(r, j));
  }
  return g;
}

}  // namespace dpcov::test
