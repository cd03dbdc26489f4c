// Prints the zCDP Gaussian noise scale and the sparse vector epsilon derived from a zCDP budget
// (core/privacy/zcdp.hpp, core/privacy/dong_liang_yi.hpp) for proofs/check/zcdp_sigma.py, which
// recomputes them with mpmath over the whole range of the doubles. Reads one case per line:
//   <rho> <sensitivity>
// and writes zcdp_gaussian_sigma(rho, sensitivity) and dly_svt_epsilon(rho) as exact hexadecimal
// doubles, or "error <status>" for a call that fails.
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

#include "core/error.hpp"
#include "core/privacy/dong_liang_yi.hpp"
#include "core/privacy/zcdp.hpp"

namespace {

void print(double (*f)(double, double), double a, double b) {
  try {
    std::printf(" %a", f(a, b));
  } catch (const dpcov::Error &e) {
    std::printf(" error%d", static_cast<int>(e.status()));
  }
}

}  // namespace

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    double rho = 0.0, sensitivity = 0.0;
    if (!(in >> rho >> sensitivity)) continue;
    using namespace dpcov::privacy;
    print([](double r, double s) { return zcdp_gaussian_sigma(r, s); }, rho, sensitivity);
    print([](double r, double) { return dly_svt_epsilon(r); }, rho, 0.0);
    std::printf("\n");
  }
  return 0;
}
