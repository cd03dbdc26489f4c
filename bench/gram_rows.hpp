// The rows and bounds of the Gram benchmarks (bench/gram_bench.cpp, bench/gram_ab.cpp): n x d
// row-major entries N(0, 1/d^2) from seed 42, and a bound that puts a given share of them over it.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace dpcov::bench {

inline std::vector<double> gram_rows(int64_t n, int64_t d) {
  std::vector<double> a(static_cast<size_t>(n * d));
  std::mt19937_64 gen(42);
  std::normal_distribution<double> normal(0.0, 1.0 / static_cast<double>(d));
  for (double &x : a) x = normal(gen);
  return a;
}

// A bound that puts `percent_over` percent of the rows over it (0: none, 100: all).
inline double bound_for(const std::vector<double> &a, int64_t n, int64_t d, int64_t percent_over) {
  std::vector<double> norms(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    double s = 0.0;
    for (int64_t j = 0; j < d; ++j) s += a[static_cast<size_t>(i * d + j)] * a[static_cast<size_t>(i * d + j)];
    norms[static_cast<size_t>(i)] = std::sqrt(s);
  }
  std::sort(norms.begin(), norms.end());
  if (percent_over <= 0) return 2.0 * norms.back();
  if (percent_over >= 100) return 0.5 * norms.front();
  return norms[static_cast<size_t>(n * (100 - percent_over) / 100)];
}

}  // namespace dpcov::bench
