// Prints the library's row-bound shaves (core/data/row_bound.hpp) for proofs/check/row_bound.py,
// which checks them against mpmath: writes the smallest row bound accepted (kSmallestRowBound),
// then reads one d per line and writes "<within_shave> <clip_shave>", all as hexadecimal floats
// (exact).
#include <cstdio>
#include <iostream>
#include <string>

#include "core/data/row_bound.hpp"

int main() {
  std::printf("%a\n", dpcov::data::kSmallestRowBound);
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    const long long cols = std::stoll(line);
    std::printf("%a %a\n", dpcov::data::within_shave(cols), dpcov::data::clip_shave(cols));
  }
  return 0;
}
