// Prints the library's moments of the noise in Dong-Liang-Yi Adaptive's spectrum-spread estimate
// (core/privacy/dong_liang_yi.hpp, dly_spread_noise) for proofs/check/dly_spread.py, which
// recomputes them with mpmath. Reads one d per line and writes "<mean> <sd>" in units of sigma^2,
// 17 significant digits (exact round trip).
#include <cstdio>
#include <iostream>
#include <string>

#include "core/privacy/dong_liang_yi.hpp"

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    const dpcov::privacy::DlySpreadNoise noise = dpcov::privacy::dly_spread_noise(std::stoll(line));
    std::printf("%.17g %.17g\n", noise.mean, noise.sd);
  }
  return 0;
}
