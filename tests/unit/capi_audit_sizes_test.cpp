// Sizes an audit is given (dpcov/audit.h): trials beyond DPCOV_AUDIT_MAX_TRIALS, up to INT64_MAX,
// are refused by every audit entry point with DPCOV_E_INVALID_ARGUMENT and a message naming the
// maximum, before anything is generated or drawn (the test returns at once), the result untouched.
// Before the maximum, trials of 2^62 ran for effectively unbounded time, and the counts formed
// from it (2 (pilot + trials) samples, the checkpoints' doubling) overflowed int64_t.
// A generated pair whose n x d doubles overflow is refused with DPCOV_E_TOO_LARGE: n = 2^62 at
// d = 4 wrapped the allocation to nothing and the audit wrote the rows past it (a crash).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "dpcov.h"

namespace {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
const int64_t kTooMany[] = {int64_t{DPCOV_AUDIT_MAX_TRIALS} + 1, int64_t{1} << 62, kInt64Max};

template <class Result>
Result fresh() {
  Result r;
  std::memset(&r, 0xAB, sizeof r);
  r.struct_size = sizeof r;
  return r;
}

template <class Result>
bool untouched(const Result &r) {
  const Result expected = fresh<Result>();
  return std::memcmp(&r, &expected, sizeof r) == 0;
}

// The refusal names the maximum and the value it got.
void expect_refused(dpcov_status status, int64_t trials) {
  EXPECT_EQ(status, DPCOV_E_INVALID_ARGUMENT) << trials;
  const std::string message = dpcov_last_error_message();
  EXPECT_NE(message.find("DPCOV_AUDIT_MAX_TRIALS"), std::string::npos) << message;
  EXPECT_NE(message.find(std::to_string(trials)), std::string::npos) << message;
}

TEST(CapiAuditSizes, TheMaximumIsTenMillion) {
  EXPECT_EQ(DPCOV_AUDIT_MAX_TRIALS, 10000000);
}

TEST(CapiAuditSizes, RunAndRunPairRefuseTrialsAboveTheMaximum) {
  const double rows[] = {1, 0, 0, 1}, rows_prime[] = {1, 0, 0.6, 0.8};
  for (const int64_t trials : kTooMany) {
    dpcov_audit_params p;
    ASSERT_EQ(dpcov_audit_params_default(&p), DPCOV_OK);
    p.trials = trials;
    // The first look at the largest value the checkpoints could double past INT64_MAX.
    p.first_checkpoint = trials / 2 + 1;
    auto r = fresh<dpcov_audit_result>();
    expect_refused(dpcov_audit_run(DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 20, 1.0, 1.0, 1e-6, nullptr,
                                   &p, &r),
                   trials);
    EXPECT_TRUE(untouched(r));
    expect_refused(dpcov_audit_run_pair(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_ROW_MAJOR, 2, rows, 2,
                                        2, rows_prime, 2, 2, 1.0, 1.0, 1e-6, nullptr, &p, &r),
                   trials);
    EXPECT_TRUE(untouched(r));
  }
}

TEST(CapiAuditSizes, RowsAuditsRefuseTrialsAboveTheMaximum) {
  dpcov_coinpress_mean_params mean;
  ASSERT_EQ(dpcov_coinpress_mean_params_default(&mean), DPCOV_OK);
  mean.radius = 5.0;
  for (const int64_t trials : kTooMany) {
    auto b = fresh<dpcov_black_box_result>();
    expect_refused(dpcov_audit_rows_black_box(DPCOV_AUDIT_ROWS_DLY_GAUSS, 3, 20, 0.1, 1e-6, 1.0,
                                              DPCOV_BLACK_BOX_TOP_EIGENVALUE, trials, 1e-6, 0, &b),
                   trials);
    EXPECT_TRUE(untouched(b));
    auto m = fresh<dpcov_coinpress_mean_audit_result>();
    expect_refused(dpcov_audit_coinpress_mean(3, 20, &mean, trials, 1e-6, 0, &m), trials);
    EXPECT_TRUE(untouched(m));
    for (const int64_t steps : {int64_t{1}, int64_t{3}}) {
      const int32_t mechanism = steps == 1 ? DPCOV_AUDIT_ROWS_DLY_GAUSS : DPCOV_AUDIT_ROWS_COINPRESS;
      auto e = fresh<dpcov_rows_exact_audit_result>();
      expect_refused(dpcov_audit_rows_exact(mechanism, steps, 0.5, 1e-6, trials, 1e-6, 0, &e),
                     trials);
      EXPECT_TRUE(untouched(e));
      int64_t worst = -7;
      expect_refused(dpcov_audit_rows_exact_pairs(mechanism, steps, 0.5, 1e-6, trials, 1e-6, 0,
                                                  64, &e, &worst),
                     trials);
      EXPECT_TRUE(untouched(e));
      EXPECT_EQ(worst, -7);
    }
  }
}

TEST(CapiAuditSizes, GeneratedPairsWhoseSizeOverflowsAreRefused) {
  dpcov_audit_params p;
  ASSERT_EQ(dpcov_audit_params_default(&p), DPCOV_OK);
  p.trials = 2;
  p.first_checkpoint = 2;
  dpcov_coinpress_mean_params mean;
  ASSERT_EQ(dpcov_coinpress_mean_params_default(&mean), DPCOV_OK);
  mean.radius = 5.0;
  mean.rho = 1e-26;  // a noise above the audit's rounding floor at these n
  for (const int64_t n : {int64_t{1} << 62, kInt64Max / 3, kInt64Max}) {
    for (const int64_t d : {int64_t{4}, int64_t{46340}}) {
      auto r = fresh<dpcov_audit_result>();
      EXPECT_EQ(dpcov_audit_run(DPCOV_MECHANISM_ANALYZE_GAUSS, d, n, 1.0, 1.0, 1e-6, nullptr, &p,
                                &r),
                DPCOV_E_TOO_LARGE)
          << n << " x " << d << ": " << dpcov_last_error_message();
      EXPECT_TRUE(untouched(r));
      auto b = fresh<dpcov_black_box_result>();
      EXPECT_EQ(dpcov_audit_rows_black_box(DPCOV_AUDIT_ROWS_DLY_GAUSS, d, n, 0.1, 1e-6, 1.0,
                                           DPCOV_BLACK_BOX_TOP_EIGENVALUE, 10, 1e-6, 0, &b),
                DPCOV_E_TOO_LARGE)
          << n << " x " << d << ": " << dpcov_last_error_message();
      EXPECT_TRUE(untouched(b));
      auto m = fresh<dpcov_coinpress_mean_audit_result>();
      EXPECT_EQ(dpcov_audit_coinpress_mean(d, n, &mean, 2, 1e-6, 0, &m), DPCOV_E_TOO_LARGE)
          << n << " x " << d << ": " << dpcov_last_error_message();
      EXPECT_TRUE(untouched(m));
    }
  }
}

}  // namespace
