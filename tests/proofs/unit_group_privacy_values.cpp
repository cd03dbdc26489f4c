// Prints the library's group-privacy budget (core/privacy/unit_group_privacy.hpp) for
// proofs/check/unit_group_privacy.py, which checks it against mpmath: reads "<m> <eps> <delta>"
// per line (eps and delta as hexadecimal floats) and writes "<eps_r> <delta_r>" as hexadecimal
// floats (exact), or "refused" when the calculator refuses the point.
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

#include "core/error.hpp"
#include "core/privacy/unit_group_privacy.hpp"

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    std::istringstream in(line);
    long long m = 0;
    std::string eps, delta;
    in >> m >> eps >> delta;
    try {
      const dpcov::privacy::RowBudget b = dpcov::privacy::group_privacy_row_budget(
          m, std::strtod(eps.c_str(), nullptr), std::strtod(delta.c_str(), nullptr));
      std::printf("%a %a\n", b.epsilon, b.delta);
    } catch (const dpcov::Error &) {
      std::printf("refused\n");
    }
  }
  return 0;
}
