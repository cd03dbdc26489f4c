// Prints the library's adaptive budget split of IEV (core/privacy/iev_budget.hpp, Amin et al.
// 2019 Cor. 1) for proofs/check/iev.py, which recomputes it with mpmath. Reads one case per line:
//   <tau> <eps_vectors> <lambda_hat_1> ... <lambda_hat_k>
// and writes the k shares on one line, 17 significant digits (exact round trip).
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "core/privacy/iev_budget.hpp"

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    double tau = 0.0, eps = 0.0, x = 0.0;
    if (!(in >> tau >> eps)) continue;
    std::vector<double> lambda_hat;
    while (in >> x) lambda_hat.push_back(x);
    const std::vector<double> shares = dpcov::privacy::iev_adaptive_step_epsilons(lambda_hat, tau, eps);
    for (size_t i = 0; i < shares.size(); ++i) std::printf(i == 0 ? "%.17g" : " %.17g", shares[i]);
    std::printf("\n");
  }
  return 0;
}
