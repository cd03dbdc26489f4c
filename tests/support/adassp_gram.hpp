// The Gram matrix the AdaSSP C ABI tests fit, for those tests.
#pragma once

#include <cmath>
#include <vector>

namespace dpcov::test {

// G of 200 rows [1, x1, x2, y] with y = 0.5 x1 - 0.25 x2 (no noise), ||(1, x)|| <= sqrt(1.5),
// |y| <= 1: column 0 is the intercept. Symmetric by construction.
inline std::vector<double> adassp_gram4() {
  std::vector<double> g(16, 0.0);
  for (int i = 0; i < 200; ++i) {
    const double x1 = std::sin(0.37 * i) * 0.7;
    const double x2 = std::cos(0.91 * i) * 0.5;
    const double row[4] = {1.0, x1, x2, 0.5 * x1 - 0.25 * x2};
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) g[a * 4 + b] += row[a] * row[b];
  }
  return g;
}

}  // namespace dpcov::test
