// Prints the directed-rounding helpers of core/privacy/upward.hpp for proofs/check/upward.py,
// which checks them with exact rational arithmetic (and mpmath for the logarithms). Reads one case
// per line, "<a> <b>" (hexadecimal or decimal doubles), and writes, as exact hexadecimal doubles:
// mul_up(a, b) mul_down(a, b) div_up(a, b) div_down(a, b) add_up(a, b) add_down(a, b)
// sqrt_up(a) sqrt_down(a) half_down(a) ceil_quotient_up(a, b) log_up(a) log_inverse_up(a)
// expm1_up(b).
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

#include "core/privacy/upward.hpp"

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string a_text, b_text;
    if (!(in >> a_text >> b_text)) continue;
    const double a = std::strtod(a_text.c_str(), nullptr), b = std::strtod(b_text.c_str(), nullptr);
    using namespace dpcov::privacy::upward;
    std::printf("%a %a %a %a %a %a %a %a %a %a %a %a %a\n", mul_up(a, b), mul_down(a, b),
                div_up(a, b), div_down(a, b), add_up(a, b), add_down(a, b), sqrt_up(a),
                sqrt_down(a), half_down(a), ceil_quotient_up(a, b), log_up(a), log_inverse_up(a),
                expm1_up(b));
  }
  return 0;
}
