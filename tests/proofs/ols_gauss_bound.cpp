// Prints the noise bound of the guaranteed Analyze Gauss OLS intervals
// (core/mechanisms/ols_analyze_gauss.hpp) for proofs/check/ols_analyze_gauss.py, which recomputes
// it with mpmath. Reads one case per line:
//   <sigma> <k> <level>
// and writes nu = analyze_gauss_ols_noise_miss(level) and eta = analyze_gauss_noise_norm_bound(
// sigma, k, nu), 17 significant digits.
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

#include "core/mechanisms/ols_analyze_gauss.hpp"

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    double sigma = 0.0, level = 0.0;
    long long k = 0;
    if (!(in >> sigma >> k >> level)) continue;
    const double nu = dpcov::mechanisms::analyze_gauss_ols_noise_miss(level);
    std::printf("%.17g %.17g\n", nu, dpcov::mechanisms::analyze_gauss_noise_norm_bound(sigma, k, nu));
  }
  return 0;
}
