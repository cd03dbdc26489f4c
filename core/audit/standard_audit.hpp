// The standard audit table: every Gram-input mechanism of the dispatch at the settings of the
// closing note of issue 7 ((eps, delta) in {(0.5, 1e-6), (1, 1e-6)}, d in {3, 10}), each on the
// adversarial pair its calibration is tightest for, by the exact-density audit where the mechanism
// has a density and by the black-box audit otherwise (IEV, KT). Shared by the long test suite and
// the bench/audit_table program.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "black_box.hpp"
#include "loss_audit.hpp"

namespace dpcov::audit {

struct StandardAuditSettings {
  int64_t trials = 20000;  // exact audit: draws per direction; black box: per dataset
  int64_t n = 50;          // rows of D
  double alpha = 1e-6;     // per audit
  uint64_t seed = 2026;
  std::vector<double> epsilons{0.5, 1.0};
  double delta = 1e-6;
  std::vector<int64_t> dims{3, 10};
};

struct StandardAuditRow {
  std::string mechanism;
  double epsilon = 0.0;
  double delta = 0.0;   // requested; the claim audited is in the reports (0 for pure claims)
  int64_t dim = 0;
  std::string pair;     // neighbour kind (and dataset kind)
  std::string method;   // "exact" or "black-box:<statistic>"
  std::string refused;  // non-empty: the mechanism refused these settings (the status message)
  bool not_dp = false;  // a known-broken audit target
  AuditReport exact;
  BlackBoxReport black_box;
  bool violation() const { return method == "exact" ? exact.violation() : black_box.violation; }
  int64_t samples() const { return method == "exact" ? exact.samples : black_box.samples; }
};

std::vector<StandardAuditRow> run_standard_audit(const StandardAuditSettings &settings);

// One line per row: mechanism, claimed (eps, delta), d, pair, method, draws used, delta(eps)
// estimate with its bounds, P(L > eps) bounds, max L, Gaussian-pair bound, conformance, verdict
// ("no violation found" / "violation").
std::string format_standard_audit(const std::vector<StandardAuditRow> &rows);

}  // namespace dpcov::audit
