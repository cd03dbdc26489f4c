// The synthetic data of Dong, Liang, Yi (NeurIPS 2022; the authors' functions.py,
// gen_synthetic_data_fix with s = 3, N = 4): X = Z U (Z standard normal n x d, U uniform [0, 1]
// d x d), centred, then each row rescaled to a Zipf bucket norm: the first 83.1% of rows to norm
// 1/8, then 10.4% to 1/4, 3.1% to 1/2 and 1.3% to 1. Used by bench/dly_grid and
// bench/side_by_side.
#pragma once

#include <cmath>
#include <cstdint>

#include "../core/linalg/blas.hpp"
#include "../core/matrix.hpp"
#include "../core/random/normal.hpp"
#include "../core/random/uniform.hpp"

namespace dpcov::bench {

inline Matrix zipf_rows(int64_t n, int64_t d, random::Rng &rng) {
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
  const double weights[4] = {1.0, 1.0 / 8, 1.0 / 27, 1.0 / 64};
  const double total = weights[0] + weights[1] + weights[2] + weights[3];
  int64_t edges[5] = {0, 0, 0, 0, n};
  double cumulative = 0.0;
  for (int k = 0; k < 3; ++k) {
    cumulative += weights[k] / total;
    edges[k + 1] = static_cast<int64_t>(static_cast<double>(n) * cumulative);
  }
  for (int k = 0; k < 4; ++k) {
    const double target = std::ldexp(1.0, k - 3);
    for (int64_t i = edges[k]; i < edges[k + 1]; ++i) {
      double sum = 0.0;
      for (int64_t j = 0; j < d; ++j) sum += x(i, j) * x(i, j);
      const double factor = target / std::sqrt(sum);
      for (int64_t j = 0; j < d; ++j) x(i, j) *= factor;
    }
  }
  return x;
}

}  // namespace dpcov::bench
