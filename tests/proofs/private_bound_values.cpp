// Prints the private bound's exponent factor and selection log-probabilities (core/mechanisms/
// private_bound.hpp) for proofs/check/private_bound.py, which recomputes them with mpmath. Reads
// one case per line:
//   <eps> <target_clipped> <h_0> ... <h_K>
// and writes the factor then the K log-probabilities, as exact hexadecimal doubles.
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "core/mechanisms/private_bound.hpp"

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    double eps = 0.0;
    uint64_t target = 0;
    if (!(in >> eps >> target)) continue;
    std::vector<uint64_t> histogram;
    for (uint64_t count = 0; in >> count;) histogram.push_back(count);
    using namespace dpcov::mechanisms;
    const double factor = private_bound_exponent_factor(eps);
    std::printf("%a", factor);
    for (double l : private_bound_log_probabilities(histogram, target, factor)) std::printf(" %a", l);
    std::printf("\n");
  }
  return 0;
}
