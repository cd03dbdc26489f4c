// The long audit (suite 'long'): the standard audit table (core/audit/standard_audit.hpp) with
// 20000 draws per direction, every mechanism at (eps, delta) in {(0.5, 1e-6), (1, 1e-6)} and
// d in {3, 10}. Correct mechanisms must show no violation (each audit flags a correct
// implementation with probability <= 1e-6; about 40 audits: <= 4e-5 for the file), the known
// broken one (Jiang's Wishart) must be flagged, and a mechanism may refuse settings outside its
// theorem (the additive Wishart at eps = 1) but nothing else.
#include <gtest/gtest.h>

#include <cstdio>

#include "core/audit/standard_audit.hpp"
#include "core/error.hpp"

namespace dpcov::audit {
namespace {

TEST(LongAudit, EveryMechanismAtTheStandardSettings) {
  StandardAuditSettings settings;
  settings.trials = 20000;
  const std::vector<StandardAuditRow> rows = run_standard_audit(settings);
  std::fputs(format_standard_audit(rows).c_str(), stdout);
  for (const StandardAuditRow &row : rows) {
    SCOPED_TRACE(concat(row.mechanism, " eps = ", row.epsilon, " d = ", row.dim, " ", row.method));
    if (!row.refused.empty()) {
      EXPECT_EQ(row.mechanism, "wishart_additive") << row.refused;
      EXPECT_GE(row.epsilon, 1.0);
      continue;
    }
    EXPECT_EQ(row.violation(), row.not_dp);
  }
}

}  // namespace
}  // namespace dpcov::audit
