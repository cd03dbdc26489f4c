// Prints the standard privacy-audit table (core/audit/standard_audit.hpp): every mechanism at
// (eps, delta) in {(0.5, 1e-6), (1, 1e-6)} and d in {3, 10}, each on its adversarial neighbouring
// pair, with the number of draws each verdict used.
//
// Usage: audit_table [trials per direction (default 20000)] [seed (default 2026)]
#include <cstdio>
#include <cstdlib>

#include "core/audit/standard_audit.hpp"
#include "core/error.hpp"

int main(int argc, char **argv) {
  dpcov::audit::StandardAuditSettings settings;
  if (argc > 1) settings.trials = std::strtoll(argv[1], nullptr, 10);
  if (argc > 2) settings.seed = std::strtoull(argv[2], nullptr, 10);
  if (settings.trials < 10) {
    std::fprintf(stderr, "trials must be >= 10\n");
    return 2;
  }
  std::printf("dpcov privacy audit: n = %lld rows, B = 1, trials = %lld per direction (exact) or "
              "per dataset (black box), alpha = %g per audit, seed = %llu\n",
              static_cast<long long>(settings.n), static_cast<long long>(settings.trials),
              settings.alpha, static_cast<unsigned long long>(settings.seed));
  std::printf("An audit can only find violations; \"no violation found\" is not a proof of privacy.\n\n");
  const auto rows = dpcov::audit::run_standard_audit(settings);
  std::fputs(dpcov::audit::format_standard_audit(rows).c_str(), stdout);
  return 0;
}
