// The synthetic data of Dong, Liang, Yi (NeurIPS 2022; the authors' functions.py,
// gen_synthetic_data_fix): X = Z U (Z standard normal n x d, U uniform [0, 1] d x d), centred,
// then each row rescaled to a Zipf bucket norm. Fig. 2 (s = 3, N = 4): the first 83.1% of rows to
// norm 1/8, then 10.4% to 1/4, 3.1% to 1/2 and 1.3% to 1; Fig. 1 (N = 1): every row to norm 1.
// Used by bench/dly_grid, bench/dly_shapes and bench/side_by_side.
#pragma once

#include <cmath>
#include <cstdint>

#include "../core/linalg/blas.hpp"
#include "../core/matrix.hpp"
#include "../core/random/normal.hpp"
#include "../core/random/uniform.hpp"

namespace dpcov::bench {

// X = Z U (Z standard normal n x d, U uniform [0, 1] d x d) with its column means removed.
inline Matrix centred_zu_rows(int64_t n, int64_t d, random::Rng &rng) {
  Matrix z(n, d);
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i < n; ++i) z(i, j) = random::standard_normal(rng);
  Matrix u(d, d);
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i < d; ++i) u(i, j) = random::uniform01(rng);
  Matrix x = linalg::multiply(z, u);
  for (int64_t j = 0; j < d; ++j) {
    double mean = 0.0;
    for (int64_t i = 0; i < n; ++i) mean += x(i, j);
    mean /= static_cast<double>(n);
    for (int64_t i = 0; i < n; ++i) x(i, j) -= mean;
  }
  return x;
}

// Scales rows [begin, end) of x to norm `target`.
inline void scale_rows(Matrix &x, int64_t begin, int64_t end, double target) {
  for (int64_t i = begin; i < end; ++i) {
    double sum = 0.0;
    for (int64_t j = 0; j < x.cols(); ++j) sum += x(i, j) * x(i, j);
    const double factor = target / std::sqrt(sum);
    for (int64_t j = 0; j < x.cols(); ++j) x(i, j) *= factor;
  }
}

// The authors' Fig. 2 data (N = 4 buckets).
inline Matrix zipf_rows(int64_t n, int64_t d, random::Rng &rng) {
  Matrix x = centred_zu_rows(n, d, rng);
  const double weights[4] = {1.0, 1.0 / 8, 1.0 / 27, 1.0 / 64};
  const double total = weights[0] + weights[1] + weights[2] + weights[3];
  int64_t edges[5] = {0, 0, 0, 0, n};
  double cumulative = 0.0;
  for (int k = 0; k < 3; ++k) {
    cumulative += weights[k] / total;
    edges[k + 1] = static_cast<int64_t>(static_cast<double>(n) * cumulative);
  }
  for (int k = 0; k < 4; ++k) scale_rows(x, edges[k], edges[k + 1], std::ldexp(1.0, k - 3));
  return x;
}

// The authors' Fig. 1 data (test_d_N1.py: N = 1 bucket, every row of norm 1, trace 1).
inline Matrix unit_rows(int64_t n, int64_t d, random::Rng &rng) {
  Matrix x = centred_zu_rows(n, d, rng);
  scale_rows(x, 0, n, 1.0);
  return x;
}

// X^T X / n, exactly symmetric.
inline Matrix second_moment(const Matrix &x) {
  const int64_t d = x.cols();
  Matrix cov(d, d);
  linalg::syrk_upper(x.view(), 0.0, cov.data(), d);
  linalg::symmetrize_from_upper(cov);
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i < d; ++i) cov(i, j) /= static_cast<double>(x.rows());
  return cov;
}

inline double frobenius_distance(const Matrix &a, const Matrix &b) {
  double sum = 0.0;
  for (int64_t j = 0; j < a.cols(); ++j)
    for (int64_t i = 0; i < a.rows(); ++i) sum += (a(i, j) - b(i, j)) * (a(i, j) - b(i, j));
  return std::sqrt(sum);
}

}  // namespace dpcov::bench
