// dpcov_audit_standard_rows (dpcov/audit.h): the n the standard audit runs a mechanism at, which
// `dpcov audit` uses without --rows instead of naming ols_jl. ols_jl's is the rows where its
// private test is undecided (lambda_min(G) of rows on the sphere 5% above the test's threshold);
// a mechanism whose law does not depend on where n sits gets the caller's fallback; every bad
// argument gets its status with the output untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "dpcov.h"

namespace {

dpcov_mechanism_params with_projection(int64_t r) {
  dpcov_mechanism_params p;
  dpcov_mechanism_params_default(&p);
  p.projection_rows = r;
  return p;
}

TEST(CapiAuditStandardRows, OlsJlIsAuditedWhereItsTestIsUndecided) {
  for (const int64_t d : {2, 3, 6}) {
    for (const double bound : {0.5, 1.0, 3.0}) {
      const dpcov_mechanism_params p = with_projection(std::max<int64_t>(20, 2 * d));
      dpcov_receipt plan{};
      plan.struct_size = sizeof plan;
      ASSERT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_OLS_JL, d, 50, bound, 1.0, 1e-6, &p, &plan),
                DPCOV_OK);
      const double expected = std::ceil(1.05 * static_cast<double>(d) *
                                        (plan.threshold_w2 + plan.test_shift) / (bound * bound));
      int64_t rows = 0;
      ASSERT_EQ(dpcov_audit_standard_rows(DPCOV_MECHANISM_OLS_JL, d, bound, 1.0, 1e-6, &p, 50,
                                          &rows),
                DPCOV_OK)
          << dpcov_last_error_message();
      EXPECT_EQ(rows, static_cast<int64_t>(expected)) << d << " " << bound;
      EXPECT_GT(rows, 50);
    }
  }
}

TEST(CapiAuditStandardRows, AMechanismWithoutRowsOfItsOwnGetsTheFallback) {
  for (const int32_t id : {DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_MECHANISM_LAPLACE_SYM,
                           DPCOV_MECHANISM_WISHART_ADDITIVE, DPCOV_MECHANISM_INVERSE_GAUSS}) {
    int64_t rows = 0;
    ASSERT_EQ(dpcov_audit_standard_rows(id, 3, 1.0, 0.5, 1e-6, nullptr, 77, &rows), DPCOV_OK)
        << dpcov_mechanism_name(id) << ": " << dpcov_last_error_message();
    EXPECT_EQ(rows, 77);
  }
}

TEST(CapiAuditStandardRows, BadArgumentsLeaveTheOutputUntouchedAndSayWhy) {
  const dpcov_mechanism_params p = with_projection(20);
  struct Case {
    int32_t id;
    int64_t dim;
    double bound, epsilon;
    int64_t fallback;
    dpcov_status status;
    const char *says;
  };
  const Case cases[] = {
      {999, 3, 1.0, 1.0, 50, DPCOV_E_INVALID_ARGUMENT, "mechanism"},
      {DPCOV_MECHANISM_DLY, 3, 1.0, 1.0, 50, DPCOV_E_INVALID_ARGUMENT, "dly"},
      {DPCOV_MECHANISM_OLS_JL, 0, 1.0, 1.0, 50, DPCOV_E_DIMENSION, "dimension"},
      {DPCOV_MECHANISM_OLS_JL, 3, -1.0, 1.0, 50, DPCOV_E_INVALID_ARGUMENT, "bound"},
      {DPCOV_MECHANISM_OLS_JL, 3, 1.0, 0.0, 50, DPCOV_E_INVALID_ARGUMENT, "epsilon"},
      {DPCOV_MECHANISM_OLS_JL, 3, 1.0, 1.0, 0, DPCOV_E_INVALID_ARGUMENT, "fallback"},
      // Inverse Gauss takes its lambda_min bound from the audited pair, its arguments are checked.
      {DPCOV_MECHANISM_INVERSE_GAUSS, -2, 1.0, 1.0, 50, DPCOV_E_DIMENSION, "dimension"},
      // Threshold rows beyond int64_t: the threshold grows as 1/epsilon.
      {DPCOV_MECHANISM_OLS_JL, 3, 1.0, 1e-30, 50, DPCOV_E_TOO_LARGE, "64-bit"},
  };
  for (const Case &c : cases) {
    int64_t rows = -7;
    const dpcov_mechanism_params *params = c.id == DPCOV_MECHANISM_OLS_JL ? &p : nullptr;
    EXPECT_EQ(dpcov_audit_standard_rows(c.id, c.dim, c.bound, c.epsilon, 1e-6, params, c.fallback,
                                        &rows),
              c.status)
        << c.id << " " << c.dim << " " << c.bound;
    EXPECT_EQ(rows, -7);
    EXPECT_NE(std::string(dpcov_last_error_message()).find(c.says), std::string::npos)
        << dpcov_last_error_message();
  }
  EXPECT_EQ(dpcov_audit_standard_rows(DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 1.0, 1.0, 1e-6, nullptr,
                                      50, nullptr),
            DPCOV_E_NULL_POINTER);
}

}  // namespace
