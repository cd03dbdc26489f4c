// Every audit of the C ABI takes its level alpha anywhere in (0, 1): it returns DPCOV_OK with
// finite statistics, or refuses with DPCOV_E_INVALID_ARGUMENT naming alpha (a level whose share
// per test rounds to 0), before any draw. The CoinPress per-step audit (dpcov_audit_rows_exact at
// t >= 2) failed with DPCOV_E_NUMERICAL (delta_lower NaN) after all its draws at alpha = 1e-310:
// ln(2 / alpha) overflowed and the empirical-Bernstein width times a zero variance was NaN; at
// alpha = 5e-324 it named chi_square_quantile's p = 0.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

// alpha at both ends of (0, 1) and log-uniform in between (fixed seed).
std::vector<double> alphas() {
  std::vector<double> out = {DBL_TRUE_MIN, 3 * DBL_TRUE_MIN, 1e-320, 1e-310, DBL_MIN, 1e-300,
                             1e-100, 1e-6, 0.5, 0.9999999999999999};
  std::mt19937_64 gen(20261124);
  std::uniform_real_distribution<double> exponent(std::log(DBL_TRUE_MIN), 0.0);
  for (int i = 0; i < 6; ++i) out.push_back(std::min(std::exp(exponent(gen)), 0.9999999999999999));
  return out;
}

bool finite(std::initializer_list<double> values) {
  for (double v : values)
    if (!std::isfinite(v)) return false;
  return true;
}

// One audit call at `alpha`: its status, and whether its statistics are finite.
struct Outcome {
  dpcov_status status;
  bool finite;
};

void expect_finite_or_refused(const std::string &what,
                              const std::function<Outcome(double)> &audit) {
  for (double alpha : alphas()) {
    const Outcome o = audit(alpha);
    char level[32];
    std::snprintf(level, sizeof level, "%.17g", alpha);
    const std::string where = what + " at alpha = " + level + " (" +
                              dpcov_status_string(o.status) + ": " +
                              dpcov_last_error_message() + ")";
    if (o.status == DPCOV_OK) {
      EXPECT_TRUE(o.finite) << where;
    } else {
      EXPECT_EQ(o.status, DPCOV_E_INVALID_ARGUMENT) << where;
      EXPECT_NE(std::strstr(dpcov_last_error_message(), "alpha"), nullptr) << where;
    }
  }
}

Outcome rows_exact(int32_t mechanism, int64_t steps, int64_t pairs, double alpha) {
  dpcov_rows_exact_audit_result r{};
  r.struct_size = sizeof r;
  int64_t worst = -1;
  const dpcov_status s =
      pairs == 1 ? dpcov_audit_rows_exact(mechanism, steps, 1.0, 1e-6, 2, alpha, 7, &r)
                 : dpcov_audit_rows_exact_pairs(mechanism, steps, 1.0, 1e-6, 2, alpha, 7, pairs,
                                                &r, &worst);
  return {s, finite({r.rho_lower, r.delta_estimate, r.delta_lower, r.gaussian_delta_lower,
                     r.conformance_distance, r.conformance_threshold, r.alpha_per_test})};
}

TEST(CapiAuditAlpha, RowsExactAuditsAreFiniteOrRefuseAlphaAtEveryLevel) {
  for (int32_t mechanism : {DPCOV_AUDIT_ROWS_DLY_GAUSS, DPCOV_AUDIT_ROWS_DLY_SEPARATE})
    expect_finite_or_refused("rows_exact " + std::to_string(mechanism),
                             [&](double a) { return rows_exact(mechanism, 1, 1, a); });
  for (int64_t steps : {1, 2, 3})
    expect_finite_or_refused("rows_exact coinpress t = " + std::to_string(steps),
                             [&](double a) { return rows_exact(DPCOV_AUDIT_ROWS_COINPRESS, steps, 1, a); });
  expect_finite_or_refused("rows_exact_pairs coinpress t = 2, 64 pairs",
                           [](double a) { return rows_exact(DPCOV_AUDIT_ROWS_COINPRESS, 2, 64, a); });
}

TEST(CapiAuditAlpha, CoinpressMeanAuditIsFiniteOrRefusesAlphaAtEveryLevel) {
  for (int64_t steps : {1, 3})
    expect_finite_or_refused("coinpress_mean t = " + std::to_string(steps), [&](double alpha) {
      dpcov_coinpress_mean_params p;
      EXPECT_EQ(dpcov_coinpress_mean_params_default(&p), DPCOV_OK);
      p.radius = 10.0;
      p.steps = steps;
      dpcov_coinpress_mean_audit_result r{};
      r.struct_size = sizeof r;
      const dpcov_status s = dpcov_audit_coinpress_mean(3, 1000, &p, 2, alpha, 7, &r);
      return Outcome{s, finite({r.rho_lower, r.delta_estimate, r.delta_lower,
                                r.conformance_distance, r.conformance_threshold,
                                r.alpha_per_test})};
    });
}

TEST(CapiAuditAlpha, MechanismAuditIsFiniteOrRefusesAlphaAtEveryLevel) {
  // max_loss may be +infinity by contract (a pure mechanism's loss); every other statistic is
  // finite.
  for (int32_t mechanism : {DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_MECHANISM_LAPLACE_SYM})
    expect_finite_or_refused("audit_run " + std::to_string(mechanism), [&](double alpha) {
      dpcov_audit_params p;
      EXPECT_EQ(dpcov_audit_params_default(&p), DPCOV_OK);
      p.trials = 20;
      p.first_checkpoint = 20;
      p.alpha = alpha;
      dpcov_audit_result r{};
      r.struct_size = sizeof r;
      const double delta = mechanism == DPCOV_MECHANISM_LAPLACE_SYM ? 0.0 : 1e-6;
      const dpcov_status s = dpcov_audit_run(mechanism, 2, 10, 1.0, 1.0, delta, nullptr, &p, &r);
      return Outcome{s, finite({r.exceed_estimate, r.exceed_lower, r.exceed_upper,
                                r.delta_estimate, r.delta_lower, r.delta_upper, r.pair_distance,
                                r.gaussian_sigma_upper, r.gaussian_delta_lower,
                                r.conformance_distance, r.conformance_threshold,
                                r.alpha_per_test})};
    });
}

}  // namespace
