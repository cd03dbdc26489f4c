// Prints the ledger's advanced-composition constants (core/privacy/advanced_composition.hpp) for
// proofs/check/advanced_composition.py, which recomputes them with mpmath. Reads one case per line:
//   <k> <epsilon> <delta_slack> <epsilon_cap> <delta_cap> <epsilon_each> <delta_each>
// and writes drv_epsilon(k, epsilon, delta_slack) as an exact hexadecimal double and
// advanced_composition_max_releases(epsilon_cap, delta_cap, epsilon_each, delta_each).
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

#include "core/privacy/advanced_composition.hpp"

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    long long k = 0;
    double epsilon = 0.0, slack = 0.0, epsilon_cap = 0.0, delta_cap = 0.0, epsilon_each = 0.0,
           delta_each = 0.0;
    if (!(in >> k >> epsilon >> slack >> epsilon_cap >> delta_cap >> epsilon_each >> delta_each))
      continue;
    using namespace dpcov::privacy;
    std::printf("%a %lld\n", drv_epsilon(k, epsilon, slack),
                static_cast<long long>(
                    advanced_composition_max_releases(epsilon_cap, delta_cap, epsilon_each,
                                                      delta_each)));
  }
  return 0;
}
