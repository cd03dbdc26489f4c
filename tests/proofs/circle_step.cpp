// Prints the auditor's Bingham law on the circle (core/audit/distributions.hpp) for
// proofs/check/iev_circle_step.py, which recomputes it with mpmath. Reads one case per line:
//   <a1> <a2> <psi>
// and writes ln Z(diag(a1, a2)) and F(psi) for c = (a1 - a2)/2, 17 significant digits.
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

#include "core/audit/distributions.hpp"

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    double a1 = 0.0, a2 = 0.0, psi = 0.0;
    if (!(in >> a1 >> a2 >> psi)) continue;
    std::printf("%.17g %.17g\n", dpcov::audit::bingham_circle_log_normaliser(a1, a2),
                dpcov::audit::bingham_circle_angle_cdf(0.5 * (a1 - a2), psi));
  }
  return 0;
}
