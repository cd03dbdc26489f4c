// Prints the exact Analyze Gauss's discrete Gaussian variance
// (core/privacy/discrete_gaussian_smoothing.hpp) for proofs/check/discrete_gaussian_smoothing.py,
// which recomputes it with mpmath. Reads one case per line:
//   <Delta^2> <epsilon> <delta> <coordinates m>
// and writes s2 in decimal, or "refused" where the library refuses.
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

#include "core/error.hpp"
#include "core/privacy/discrete_gaussian_smoothing.hpp"

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    double delta_squared = 0.0, epsilon = 0.0, delta = 0.0;
    uint64_t m = 0;
    if (!(in >> delta_squared >> epsilon >> delta >> m)) continue;
    using namespace dpcov::privacy;
    try {
      const uint64_t s2 =
          discrete_gaussian_variance_approx_dp(delta_squared, discrete_gaussian_unit_sigma(epsilon, delta, m));
      if (s2 == 0)
        std::printf("refused\n");
      else
        std::printf("%llu\n", static_cast<unsigned long long>(s2));
    } catch (const dpcov::Error &) {
      std::printf("refused\n");
    }
  }
  return 0;
}
