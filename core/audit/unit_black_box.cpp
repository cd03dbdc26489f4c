#include "unit_black_box.hpp"

#include <algorithm>

#include "black_box.hpp"

namespace dpcov::audit {

AuditReport audit_units_black_box(const Target &target, const PairStatistics &pair,
                                  const Settings &settings) {
  constexpr Statistic kStatistics[] = {Statistic::TopEigenvalue,
                                       Statistic::TopEigenvectorAlignment};
  AuditReport report;
  report.name = target.name;
  report.epsilon = target.epsilon;
  report.delta = target.delta;
  report.noise = target.noise.family;
  uint64_t stream = 0;
  for (const Statistic statistic : kStatistics) {
    BlackBoxSettings s;
    s.trials = settings.trials;
    s.pilot = std::max<int64_t>(200, settings.trials / 10);
    s.alpha = settings.alpha / static_cast<double>(std::size(kStatistics));
    // Each statistic's draws from its own seed: two independent audits, Bonferroni over both.
    s.seed = settings.seed + stream++;
    s.statistic = statistic;
    const BlackBoxReport b = run_black_box_audit(target, pair, s);
    report.samples += b.samples;
    report.forward.samples += b.samples;
    report.forward.delta.lower = std::max(report.forward.delta.lower, b.delta_lower);
    report.detectable_delta = std::min(report.detectable_delta, b.detectable_delta);
    report.alpha_per_test = b.alpha_per_bound;
    if (b.violation) report.findings |= kDeltaExceeded;
  }
  report.forward.findings = report.findings;
  report.forward.detectable_delta = report.detectable_delta;
  return report;
}

}  // namespace dpcov::audit
