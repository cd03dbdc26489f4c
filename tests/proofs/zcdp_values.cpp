// Prints the ledger's zCDP constants (core/privacy/zcdp.hpp) for proofs/check/ledger.py, which
// recomputes them with mpmath. Reads one case per line:
//   <sensitivity> <sigma> <epsilon> <rho> <delta>
// and writes rho_gaussian, rho_pure(epsilon), zcdp_epsilon_bun_steinke(rho, delta),
// rho_cap(epsilon, delta)
// as exact hexadecimal doubles.
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

#include "core/privacy/zcdp.hpp"

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    double sensitivity = 0.0, sigma = 0.0, epsilon = 0.0, rho = 0.0, delta = 0.0;
    if (!(in >> sensitivity >> sigma >> epsilon >> rho >> delta)) continue;
    using namespace dpcov::privacy;
    std::printf("%a %a %a %a\n", zcdp_rho_gaussian(sensitivity, sigma), zcdp_rho_pure(epsilon),
                zcdp_epsilon_bun_steinke(rho, delta), zcdp_rho_cap(epsilon, delta));
  }
  return 0;
}
