// Prints the scan's noise scales and selection log-probabilities (core/mechanisms/
// private_bound_scan.hpp) for proofs/check/private_bound_scan.py, which recomputes them with
// mpmath. Reads one case per line:
//   scales <eps>                                  -> s_T t_T s_Q t_Q (the two scales t / s)
//   probs <s_T> <t_T> <s_Q> <t_Q> <m> <h_0> ... <h_K> -> the K log-probabilities, hexadecimal
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "core/mechanisms/private_bound_scan.hpp"

namespace dm = dpcov::mechanisms;

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string kind;
    in >> kind;
    if (kind == "scales") {
      double eps = 0.0;
      in >> eps;
      const auto t = dm::private_bound_scan_threshold_scale(eps);
      const auto q = dm::private_bound_scan_query_scale(eps);
      std::printf("%llu %llu %llu %llu\n", static_cast<unsigned long long>(t.s),
                  static_cast<unsigned long long>(t.t), static_cast<unsigned long long>(q.s),
                  static_cast<unsigned long long>(q.t));
    } else if (kind == "probs") {
      dm::DiscreteLaplaceScale t, q;
      uint64_t m = 0;
      in >> t.s >> t.t >> q.s >> q.t >> m;
      std::vector<uint64_t> histogram;
      for (uint64_t count = 0; in >> count;) histogram.push_back(count);
      const char *sep = "";
      for (double l : dm::private_bound_scan_log_probabilities(histogram, m, t, q)) {
        std::printf("%s%a", sep, l);
        sep = " ";
      }
      std::printf("\n");
    }
  }
  return 0;
}
