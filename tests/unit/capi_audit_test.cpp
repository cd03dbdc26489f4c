// The privacy auditor's C entry points (dpcov/audit.h) through the shared library: defaults, a
// generated-pair audit of a correct and of a broken mechanism, a caller-given pair in both
// layouts, and every bad argument (status, message, result untouched).
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

dpcov_audit_result fresh_result() {
  dpcov_audit_result r;
  std::memset(&r, 0xAB, sizeof r);
  r.struct_size = sizeof r;
  return r;
}

bool untouched(const dpcov_audit_result &r) {
  dpcov_audit_result expected = fresh_result();
  return std::memcmp(&r, &expected, sizeof r) == 0;
}

dpcov_audit_params quick_params() {
  dpcov_audit_params p;
  dpcov_audit_params_default(&p);
  p.trials = 400;
  p.first_checkpoint = 100;
  return p;
}

TEST(CapiAudit, DefaultsAreDocumented) {
  dpcov_audit_params p;
  ASSERT_EQ(dpcov_audit_params_default(&p), DPCOV_OK);
  EXPECT_EQ(p.struct_size, sizeof p);
  EXPECT_EQ(p.trials, 2000);
  EXPECT_EQ(p.first_checkpoint, 100);
  EXPECT_EQ(p.alpha, 1e-6);
  EXPECT_EQ(p.dataset, DPCOV_AUDIT_DATA_RANDOM_ROWS);
  EXPECT_EQ(p.neighbour_kind, DPCOV_AUDIT_NEIGHBOUR_RANDOM);
  EXPECT_EQ(dpcov_audit_params_default(nullptr), DPCOV_E_NULL_POINTER);
}

TEST(CapiAudit, CorrectAnalyzeGaussShowsNoViolation) {
  dpcov_audit_params p = quick_params();
  p.neighbour_kind = DPCOV_AUDIT_NEIGHBOUR_MAX_L2_CHANGE;
  dpcov_audit_result r = fresh_result();
  ASSERT_EQ(dpcov_audit_run(DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 20, 1.0, 1.0, 1e-6, nullptr, &p, &r),
            DPCOV_OK)
      << dpcov_last_error_message();
  EXPECT_EQ(r.verdict, DPCOV_AUDIT_NO_VIOLATION_FOUND);
  EXPECT_EQ(r.findings, 0);
  EXPECT_EQ(r.noise, DPCOV_AUDIT_NOISE_GAUSSIAN);
  EXPECT_EQ(r.samples, 800);
  EXPECT_EQ(r.epsilon, 1.0);
  EXPECT_EQ(r.delta, 1e-6);
  EXPECT_NEAR(r.pair_distance, std::sqrt(2.0), 1e-9);
  EXPECT_LE(r.delta_lower, r.delta_estimate);
  EXPECT_LE(r.delta_estimate, r.delta_upper);
  EXPECT_LE(r.exceed_lower, r.exceed_upper);
  EXPECT_LT(r.conformance_distance, r.conformance_threshold);
  EXPECT_GT(r.alpha_per_test, 0.0);
}

// A Laplace scale above DBL_MAX / 2 (B = 1e-3, epsilon = 1.9e-314): ln(2 b) overflowed, every
// draw's log-density was -infinity and the audit returned OK with a sampler mismatch on a correct
// sampler. Now each audit ends either without a finding or, when a draw overflows to infinity,
// with DPCOV_E_NON_FINITE and the result untouched.
TEST(CapiAudit, LaplaceAtAScaleNearTheLargestDoubleIsNotFlagged) {
  int completed = 0;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    dpcov_audit_params p = quick_params();
    p.trials = 2;  // 4 draws, each overflowing with probability 0.19
    p.first_checkpoint = 2;
    p.seed = seed;
    dpcov_audit_result r = fresh_result();
    const dpcov_status status = dpcov_audit_run(DPCOV_MECHANISM_LAPLACE_SYM, 1, 2, 0x1.0624dd2f1a9fdp-10,
                                                0x0.00000e046920ep-1022, 0.0, nullptr, &p, &r);
    if (status == DPCOV_OK) {
      ++completed;
      EXPECT_EQ(r.findings, 0) << "seed " << seed;
      EXPECT_TRUE(std::isfinite(r.max_loss)) << "seed " << seed;
    } else {
      EXPECT_EQ(status, DPCOV_E_NON_FINITE) << dpcov_last_error_message();
      EXPECT_TRUE(untouched(r));
    }
  }
  EXPECT_GT(completed, 0);  // about 17 of the 40 seeds draw no overflowing value
}

TEST(CapiAudit, JiangWishartIsFlagged) {
  dpcov_mechanism_params m;
  dpcov_mechanism_params_default(&m);
  m.audit_only_not_private = 1;
  dpcov_audit_params p = quick_params();
  p.neighbour_kind = DPCOV_AUDIT_NEIGHBOUR_LEAST_EIGENVECTOR;
  dpcov_audit_result r = fresh_result();
  ASSERT_EQ(dpcov_audit_run(DPCOV_MECHANISM_WISHART_JIANG, 3, 20, 1.0, 1.0, 0.0, &m, &p, &r),
            DPCOV_OK)
      << dpcov_last_error_message();
  EXPECT_EQ(r.verdict, DPCOV_AUDIT_VIOLATION);
  EXPECT_TRUE(r.findings & DPCOV_AUDIT_FINDING_LOSS_ABOVE_EPSILON);
  EXPECT_GE(r.infinite_losses, 1);
  EXPECT_EQ(r.max_loss, kInf);
}

TEST(CapiAudit, InverseGaussTakesItsBoundFromTheGeneratedPair) {
  dpcov_audit_params p = quick_params();
  p.dataset = DPCOV_AUDIT_DATA_SPHERE_ROWS;
  p.neighbour_kind = DPCOV_AUDIT_NEIGHBOUR_LEAST_EIGENVECTOR;
  dpcov_audit_result r = fresh_result();
  ASSERT_EQ(dpcov_audit_run(DPCOV_MECHANISM_INVERSE_GAUSS, 3, 30, 1.0, 1.0, 1e-6, nullptr, &p, &r),
            DPCOV_OK)
      << dpcov_last_error_message();
  EXPECT_EQ(r.verdict, DPCOV_AUDIT_NO_VIOLATION_FOUND);
  // Rank-deficient data has no such bound.
  p.dataset = DPCOV_AUDIT_DATA_RANK_DEFICIENT;
  dpcov_audit_result s = fresh_result();
  EXPECT_EQ(dpcov_audit_run(DPCOV_MECHANISM_INVERSE_GAUSS, 3, 30, 1.0, 1.0, 1e-6, nullptr, &p, &s),
            DPCOV_E_PRECONDITION);
  EXPECT_TRUE(untouched(s));
}

// A caller-given replace-one pair (B e1 -> B e2 in row 0) gives the same result in both layouts.
TEST(CapiAudit, GivenPairAuditIsLayoutInvariant) {
  const int64_t n = 4, d = 2;
  std::vector<double> rows{1, 0, 0.5, 0.5, -0.3, 0.2, 0.1, 0.9};  // row-major
  std::vector<double> prime = rows;
  prime[0] = 0;
  prime[1] = 1;
  auto col_major = [&](const std::vector<double> &m) {
    std::vector<double> out(m.size());
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < d; ++j) out[static_cast<size_t>(i + j * n)] = m[static_cast<size_t>(i * d + j)];
    return out;
  };
  const dpcov_audit_params p = quick_params();
  dpcov_audit_result a = fresh_result(), b = fresh_result();
  ASSERT_EQ(dpcov_audit_run_pair(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_ROW_MAJOR, d, rows.data(), n,
                                 d, prime.data(), n, d, 1.0, 1.0, 1e-6, nullptr, &p, &a),
            DPCOV_OK)
      << dpcov_last_error_message();
  const std::vector<double> rows_c = col_major(rows), prime_c = col_major(prime);
  ASSERT_EQ(dpcov_audit_run_pair(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_COL_MAJOR, d, rows_c.data(),
                                 n, n, prime_c.data(), n, n, 1.0, 1.0, 1e-6, nullptr, &p, &b),
            DPCOV_OK);
  EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0);
  EXPECT_NEAR(a.pair_distance, std::sqrt(2.0), 1e-12);
}

TEST(CapiAudit, BadArgumentsLeaveTheResultUntouched) {
  const dpcov_audit_params good = quick_params();
  auto run = [&](int32_t mechanism, int64_t dim, int64_t n, double bound, double eps,
                 double delta, const dpcov_audit_params *p, dpcov_audit_result *r) {
    return dpcov_audit_run(mechanism, dim, n, bound, eps, delta, nullptr, p, r);
  };
  struct Bad {
    dpcov_status status;
    int32_t mechanism;
    int64_t dim, n;
    double bound, eps, delta;
  };
  const Bad cases[] = {
      {DPCOV_E_INVALID_ARGUMENT, 99, 3, 10, 1.0, 1.0, 1e-6},
      {DPCOV_E_DIMENSION, DPCOV_MECHANISM_ANALYZE_GAUSS, 0, 10, 1.0, 1.0, 1e-6},
      {DPCOV_E_DIMENSION, DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 0, 1.0, 1.0, 1e-6},
      {DPCOV_E_INVALID_ARGUMENT, DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 10, -1.0, 1.0, 1e-6},
      {DPCOV_E_NON_FINITE, DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 10, kNaN, 1.0, 1e-6},
      {DPCOV_E_NON_FINITE, DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 10, 1.0, kInf, 1e-6},
      {DPCOV_E_INVALID_ARGUMENT, DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 10, 1.0, 0.0, 1e-6},
      {DPCOV_E_INVALID_ARGUMENT, DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 10, 1.0, 1.0, 1.5},
      {DPCOV_E_NOT_PRIVATE, DPCOV_MECHANISM_WISHART_JIANG, 3, 10, 1.0, 1.0, 0.0},
  };
  for (const Bad &c : cases) {
    dpcov_audit_result r = fresh_result();
    EXPECT_EQ(run(c.mechanism, c.dim, c.n, c.bound, c.eps, c.delta, &good, &r), c.status)
        << dpcov_last_error_message();
    EXPECT_TRUE(untouched(r));
    EXPECT_FALSE(std::string(dpcov_last_error_message()).empty());
  }
  dpcov_audit_result r = fresh_result();
  EXPECT_EQ(run(DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 10, 1.0, 1.0, 1e-6, &good, nullptr),
            DPCOV_E_NULL_POINTER);
  dpcov_audit_result small = fresh_result();
  small.struct_size = 8;
  EXPECT_EQ(run(DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 10, 1.0, 1.0, 1e-6, &good, &small),
            DPCOV_E_INVALID_ARGUMENT);
  for (int field = 0; field < 6; ++field) {
    dpcov_audit_params p = good;
    switch (field) {
      case 0: p.trials = 1; break;
      case 1: p.first_checkpoint = p.trials + 1; break;
      case 2: p.alpha = kNaN; break;
      case 3: p.dataset = 17; break;
      case 4: p.neighbour_kind = -1; break;
      case 5: p.struct_size = 4; break;
    }
    EXPECT_EQ(run(DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 10, 1.0, 1.0, 1e-6, &p, &r),
              DPCOV_E_INVALID_ARGUMENT)
        << "field " << field;
    EXPECT_TRUE(untouched(r));
  }
}

TEST(CapiAudit, GivenPairIsValidated) {
  std::vector<double> rows{1, 0, 0, 1}, far{0.5, 0.5, 0.5, -0.5}, big{2, 0, 0, 1};
  const dpcov_audit_params p = quick_params();
  auto run = [&](int32_t layout, const double *a, int64_t n, int64_t lda, const double *b,
                 int64_t n_prime, dpcov_audit_result *r) {
    return dpcov_audit_run_pair(DPCOV_MECHANISM_ANALYZE_GAUSS, layout, 2, a, n, lda, b, n_prime,
                                lda, 1.0, 1.0, 1e-6, nullptr, &p, r);
  };
  dpcov_audit_result r = fresh_result();
  EXPECT_EQ(run(DPCOV_ROW_MAJOR, rows.data(), 2, 2, far.data(), 2, &r), DPCOV_E_INCOMPATIBLE);
  EXPECT_EQ(run(DPCOV_ROW_MAJOR, rows.data(), 2, 2, rows.data(), 1, &r), DPCOV_E_INCOMPATIBLE);
  EXPECT_EQ(run(DPCOV_ROW_MAJOR, rows.data(), 2, 2, big.data(), 2, &r), DPCOV_E_NORM_BOUND);
  EXPECT_EQ(run(DPCOV_ROW_MAJOR, nullptr, 2, 2, rows.data(), 2, &r), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(run(DPCOV_ROW_MAJOR, rows.data(), 2, 1, rows.data(), 2, &r), DPCOV_E_LAYOUT);
  EXPECT_EQ(run(7, rows.data(), 2, 2, rows.data(), 2, &r), DPCOV_E_LAYOUT);
  std::vector<double> nan_rows{kNaN, 0, 0, 1};
  EXPECT_EQ(run(DPCOV_ROW_MAJOR, nan_rows.data(), 2, 2, rows.data(), 2, &r), DPCOV_E_NON_FINITE);
  EXPECT_EQ(run(DPCOV_ROW_MAJOR, rows.data(), 0, 2, rows.data(), 2, &r), DPCOV_E_DIMENSION);
  EXPECT_TRUE(untouched(r));
}


// dpcov_audit_rows_black_box: a correct release of each mechanism on the rows is not flagged, the
// claim is the (epsilon, delta) of its rho, and every bad argument leaves the result untouched.
dpcov_black_box_result fresh_black_box() {
  dpcov_black_box_result r;
  std::memset(&r, 0xAB, sizeof r);
  r.struct_size = sizeof r;
  return r;
}

TEST(CapiAudit, RowsBlackBoxOfCorrectReleasesFindsNoViolation) {
  double epsilon = 0.0;
  ASSERT_EQ(dpcov_zcdp_epsilon(0.02, 1e-6, &epsilon), DPCOV_OK);
  for (int32_t m = DPCOV_AUDIT_ROWS_DLY_GAUSS; m <= DPCOV_AUDIT_ROWS_COINPRESS; ++m) {
    dpcov_black_box_result r = fresh_black_box();
    const double scale = m == DPCOV_AUDIT_ROWS_COINPRESS ? 9.0 : 1.0;
    ASSERT_EQ(dpcov_audit_rows_black_box(m, 3, 20, 0.02, 1e-6, scale,
                                         DPCOV_BLACK_BOX_TOP_EIGENVECTOR_ALIGNMENT, 200, 1e-6, 5,
                                         &r),
              DPCOV_OK)
        << dpcov_last_error_message();
    EXPECT_EQ(r.verdict, DPCOV_AUDIT_NO_VIOLATION_FOUND) << m << " " << r.delta_lower;
    EXPECT_EQ(r.epsilon, epsilon);
    EXPECT_EQ(r.delta, 1e-6);
    EXPECT_EQ(r.samples, 2 * (200 + 40));
    EXPECT_GT(r.alpha_per_bound, 0.0);
    EXPECT_LT(r.alpha_per_bound, 1e-6);
  }
}

TEST(CapiAudit, RowsBlackBoxBadArgumentsLeaveTheResultUntouched) {
  struct Bad {
    dpcov_status status;
    int32_t mechanism;
    int64_t dim, n;
    double rho, delta, scale;
    int32_t statistic;
    int64_t trials;
    double alpha;
  };
  const int32_t dly = DPCOV_AUDIT_ROWS_DLY_ADAPTIVE, cp = DPCOV_AUDIT_ROWS_COINPRESS;
  const int32_t top = DPCOV_BLACK_BOX_TOP_EIGENVALUE;
  const Bad cases[] = {
      {DPCOV_E_INVALID_ARGUMENT, 5, 3, 20, 0.1, 1e-6, 1.0, top, 100, 1e-6},
      {DPCOV_E_INVALID_ARGUMENT, -1, 3, 20, 0.1, 1e-6, 1.0, top, 100, 1e-6},
      {DPCOV_E_INVALID_ARGUMENT, dly, 3, 20, 0.1, 1e-6, 1.0, 3, 100, 1e-6},
      {DPCOV_E_INVALID_ARGUMENT, dly, 3, 20, 0.1, 1e-6, 1.0, top, 9, 1e-6},
      {DPCOV_E_INVALID_ARGUMENT, dly, 3, 20, 0.1, 1e-6, 1.0, top, 100, 0.0},
      {DPCOV_E_INVALID_ARGUMENT, dly, 3, 20, 0.1, 1e-6, 1.0, top, 100, kNaN},
      {DPCOV_E_DIMENSION, dly, 0, 20, 0.1, 1e-6, 1.0, top, 100, 1e-6},
      {DPCOV_E_INVALID_ARGUMENT, dly, 3, 0, 0.1, 1e-6, 1.0, top, 100, 1e-6},
      {DPCOV_E_INVALID_ARGUMENT, dly, 3, 20, 0.0, 1e-6, 1.0, top, 100, 1e-6},
      {DPCOV_E_NON_FINITE, dly, 3, 20, kNaN, 1e-6, 1.0, top, 100, 1e-6},
      {DPCOV_E_INVALID_ARGUMENT, dly, 3, 20, 0.1, 0.0, 1.0, top, 100, 1e-6},
      {DPCOV_E_NON_FINITE, dly, 3, 20, 0.1, 1e-6, kInf, top, 100, 1e-6},
      {DPCOV_E_INVALID_ARGUMENT, cp, 3, 20, 0.1, 1e-6, 0.5, top, 100, 1e-6},
  };
  for (const Bad &c : cases) {
    dpcov_black_box_result r = fresh_black_box();
    EXPECT_EQ(dpcov_audit_rows_black_box(c.mechanism, c.dim, c.n, c.rho, c.delta, c.scale,
                                         c.statistic, c.trials, c.alpha, 0, &r),
              c.status)
        << c.mechanism << " " << dpcov_last_error_message();
    dpcov_black_box_result expected = fresh_black_box();
    EXPECT_EQ(std::memcmp(&r, &expected, sizeof r), 0);
    EXPECT_FALSE(std::string(dpcov_last_error_message()).empty());
  }
  EXPECT_EQ(dpcov_audit_rows_black_box(dly, 3, 20, 0.1, 1e-6, 1.0, top, 100, 1e-6, 0, nullptr),
            DPCOV_E_NULL_POINTER);
  dpcov_black_box_result small = fresh_black_box();
  small.struct_size = 8;
  EXPECT_EQ(dpcov_audit_rows_black_box(dly, 3, 20, 0.1, 1e-6, 1.0, top, 100, 1e-6, 0, &small),
            DPCOV_E_INVALID_ARGUMENT);
}

// dpcov_audit_coinpress_mean: the library's release is not flagged, the claim is its plan's, and
// every bad argument leaves the result untouched.
dpcov_coinpress_mean_audit_result fresh_mean_audit() {
  dpcov_coinpress_mean_audit_result r;
  std::memset(&r, 0xAB, sizeof r);
  r.struct_size = sizeof r;
  return r;
}

dpcov_coinpress_mean_params mean_params(double radius) {
  dpcov_coinpress_mean_params p;
  dpcov_coinpress_mean_params_default(&p);
  p.radius = radius;
  return p;
}

TEST(CapiAudit, CoinpressMeanAuditOfTheReleaseFindsNoViolation) {
  const dpcov_coinpress_mean_params p = mean_params(5.0);
  dpcov_coinpress_mean_audit_result r = fresh_mean_audit();
  ASSERT_EQ(dpcov_audit_coinpress_mean(3, 20, &p, 500, 1e-6, 4, &r), DPCOV_OK)
      << dpcov_last_error_message();
  dpcov_coinpress_mean_receipt plan{};
  plan.struct_size = sizeof plan;
  ASSERT_EQ(dpcov_coinpress_mean_plan(20, 3, &p, &plan), DPCOV_OK);
  EXPECT_EQ(r.verdict, DPCOV_AUDIT_NO_VIOLATION_FOUND);
  EXPECT_EQ(r.findings, 0);
  EXPECT_EQ(r.samples, 1000);
  EXPECT_EQ(r.delta, plan.delta);
  EXPECT_EQ(r.rho, plan.rho);
  EXPECT_EQ(r.epsilon, plan.epsilon);
  EXPECT_GT(r.rho_lower, 0.0);
  EXPECT_LE(r.rho_lower, r.rho);
  EXPECT_LE(r.conformance_distance, r.conformance_threshold);
  EXPECT_EQ(r.alpha_per_test, 1e-6 / 6);
}

TEST(CapiAudit, CoinpressMeanAuditBadArgumentsLeaveTheResultUntouched) {
  const dpcov_coinpress_mean_params good = mean_params(5.0);
  const dpcov_coinpress_mean_params no_radius = mean_params(-1.0);
  const dpcov_coinpress_mean_params huge = mean_params(1e150);  // 10^6 R squared overflows
  struct Bad {
    dpcov_status status;
    int64_t dim, n;
    const dpcov_coinpress_mean_params *params;
    int64_t trials;
    double alpha;
  };
  const Bad cases[] = {
      {DPCOV_E_DIMENSION, 0, 20, &good, 100, 1e-6},
      {DPCOV_E_INVALID_ARGUMENT, 3, 0, &good, 100, 1e-6},
      {DPCOV_E_INVALID_ARGUMENT, 3, 20, &no_radius, 100, 1e-6},
      {DPCOV_E_INVALID_ARGUMENT, 3, 20, &good, 1, 1e-6},
      {DPCOV_E_INVALID_ARGUMENT, 3, 20, &good, 100, 0.0},
      {DPCOV_E_INVALID_ARGUMENT, 3, 20, &good, 100, kNaN},
      {DPCOV_E_INVALID_ARGUMENT, 3, 20, &huge, 100, 1e-6},
  };
  for (const Bad &c : cases) {
    dpcov_coinpress_mean_audit_result r = fresh_mean_audit();
    EXPECT_EQ(dpcov_audit_coinpress_mean(c.dim, c.n, c.params, c.trials, c.alpha, 0, &r),
              c.status)
        << dpcov_last_error_message();
    dpcov_coinpress_mean_audit_result expected = fresh_mean_audit();
    EXPECT_EQ(std::memcmp(&r, &expected, sizeof r), 0);
    EXPECT_FALSE(std::string(dpcov_last_error_message()).empty());
  }
  EXPECT_EQ(dpcov_audit_coinpress_mean(3, 20, &good, 100, 1e-6, 0, nullptr),
            DPCOV_E_NULL_POINTER);
  dpcov_coinpress_mean_audit_result small = fresh_mean_audit();
  small.struct_size = 8;
  EXPECT_EQ(dpcov_audit_coinpress_mean(3, 20, &good, 100, 1e-6, 0, &small),
            DPCOV_E_INVALID_ARGUMENT);
}

// Found by fuzz_audit (seed tests/fuzz/corpus/fuzz_audit/coinpress-mean-audit-subnormal-sigma):
// at a huge rho and subnormal radii the noise scale is below the resolution of the release's
// arithmetic, and the rho bound was +infinity with DPCOV_OK (and a violation reported). Such a
// rho is now refused by the cap on the epsilon it converts to (docs/epsilon-cap.md).
TEST(CapiAudit, CoinpressMeanAuditOfANoiseBelowTheArithmeticIsRefused) {
  dpcov_coinpress_mean_params p = mean_params(0x1.d4d4p-320);
  p.rho = 0x1.3096p+310;
  p.scale = 0x1.d4d4p-320;
  p.steps = 5;
  p.beta = 0x1.d4d4p-320;
  p.delta = 0x1.d4d4p-320;
  dpcov_coinpress_mean_audit_result r = fresh_mean_audit();
  EXPECT_EQ(dpcov_audit_coinpress_mean(2, 11, &p, 22, 1e-3, 3461314352283648927u, &r),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("rounding"), std::string::npos)
      << dpcov_last_error_message();
  dpcov_coinpress_mean_audit_result expected = fresh_mean_audit();
  EXPECT_EQ(std::memcmp(&r, &expected, sizeof r), 0);
}

// dpcov_audit_rows_exact: the library's releases are not flagged, the claims are their plans',
// the ids without an exact audit are refused with a message that names the black-box audit, and
// every bad argument leaves the result untouched.
dpcov_rows_exact_audit_result fresh_exact_audit() {
  dpcov_rows_exact_audit_result r;
  std::memset(&r, 0xAB, sizeof r);
  r.struct_size = sizeof r;
  return r;
}

TEST(CapiAudit, RowsExactAuditOfEachReleaseFindsNoViolation) {
  for (const int32_t mechanism :
       {DPCOV_AUDIT_ROWS_DLY_GAUSS, DPCOV_AUDIT_ROWS_DLY_SEPARATE, DPCOV_AUDIT_ROWS_COINPRESS}) {
    dpcov_rows_exact_audit_result r = fresh_exact_audit();
    ASSERT_EQ(dpcov_audit_rows_exact(mechanism, 1, 0.5, 1e-6, 200, 1e-6, 5, &r), DPCOV_OK)
        << dpcov_last_error_message();
    const double rho = mechanism == DPCOV_AUDIT_ROWS_DLY_SEPARATE ? 0.25 : 0.5;
    EXPECT_EQ(r.verdict, DPCOV_AUDIT_NO_VIOLATION_FOUND) << mechanism;
    EXPECT_EQ(r.findings, 0) << mechanism;
    EXPECT_EQ(r.samples, 400);
    EXPECT_EQ(r.n, 1000);
    EXPECT_EQ(r.rho, rho);
    EXPECT_EQ(r.delta, 1e-6);
    double epsilon = 0.0;
    ASSERT_EQ(dpcov_zcdp_epsilon(rho, 1e-6, &epsilon), DPCOV_OK);
    EXPECT_EQ(r.epsilon, epsilon);
    EXPECT_GT(r.sigma, 0.0);
    EXPECT_GE(r.rho_lower, 0.0);
    EXPECT_LE(r.rho_lower, r.rho);
    EXPECT_LE(r.conformance_distance, r.conformance_threshold);
    EXPECT_EQ(r.clamp_hits, 0);
    EXPECT_EQ(r.alpha_per_test, 1e-6 / 12);
  }
  // Smaller rho: a larger pair keeps the clamp 40 sigma away.
  dpcov_rows_exact_audit_result r = fresh_exact_audit();
  ASSERT_EQ(dpcov_audit_rows_exact(DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, 0.02, 1e-6, 20, 1e-6, 5, &r),
            DPCOV_OK);
  EXPECT_EQ(r.n, 3000);
}

// CoinPress at t = 3: the per-step audit of the library's transcript (which stays inside the
// audit) on the far-row pair of d = 3, K = 4. rho = 0.5 puts every step's sigma_i below
// gamma^2 / 400 at n = 2000. alpha = 1e-6 (1e-6 / 6 per test, 1e-6 / 18 over three pairs); 100
// draws per direction and pair (about a second).
TEST(CapiAudit, RowsExactAuditOfCoinpressAtThreeStepsFindsNoViolation) {
  dpcov_rows_exact_audit_result r = fresh_exact_audit();
  ASSERT_EQ(dpcov_audit_rows_exact(DPCOV_AUDIT_ROWS_COINPRESS, 3, 0.5, 1e-6, 100, 1e-6, 5, &r),
            DPCOV_OK)
      << dpcov_last_error_message();
  EXPECT_EQ(r.verdict, DPCOV_AUDIT_NO_VIOLATION_FOUND);
  EXPECT_EQ(r.findings, 0);
  EXPECT_EQ(r.samples, 200);
  EXPECT_EQ(r.n, 2000);
  EXPECT_EQ(r.rho, 0.5);
  double epsilon = 0.0;
  ASSERT_EQ(dpcov_zcdp_epsilon(0.5, 1e-6, &epsilon), DPCOV_OK);
  EXPECT_EQ(r.epsilon, epsilon);
  // The smallest sigma_i, that of the last step (3/4 of rho), is the plan's.
  dpcov_coinpress_params p;
  ASSERT_EQ(dpcov_coinpress_params_default(&p), DPCOV_OK);
  p.rho = 0.5;
  p.k_bound = 4.0;
  p.steps = 3;
  dpcov_coinpress_receipt plan{};
  plan.struct_size = sizeof plan;
  ASSERT_EQ(dpcov_coinpress_plan(2000, 3, &p, &plan), DPCOV_OK) << dpcov_last_error_message();
  EXPECT_EQ(r.sigma, plan.step_sigma[2]);
  // The pair is tight: at 100 draws the chi-square bound on sigma at 1e-6 / 6 puts the lower
  // bound on the spent rho near rho / 2 (measured 0.4998 rho at this seed).
  EXPECT_GT(r.rho_lower, 0.3 * r.rho);
  EXPECT_LE(r.rho_lower, r.rho);
  EXPECT_LE(r.delta_lower, r.delta_estimate);
  EXPECT_LE(r.conformance_distance, r.conformance_threshold);
  EXPECT_EQ(r.gaussian_delta_lower, 0.0);
  EXPECT_EQ(r.clamp_hits, 0);
  EXPECT_EQ(r.alpha_per_test, 1e-6 / 6);

  dpcov_rows_exact_audit_result three = fresh_exact_audit();
  int64_t worst = -7;
  ASSERT_EQ(dpcov_audit_rows_exact_pairs(DPCOV_AUDIT_ROWS_COINPRESS, 3, 0.5, 1e-6, 100, 1e-6, 5,
                                         3, &three, &worst),
            DPCOV_OK)
      << dpcov_last_error_message();
  EXPECT_EQ(three.verdict, DPCOV_AUDIT_NO_VIOLATION_FOUND);
  EXPECT_EQ(three.samples, 600);
  EXPECT_EQ(three.alpha_per_test, 1e-6 / 3 / 6);
  EXPECT_GE(worst, 0);
  EXPECT_LT(worst, 3);
  EXPECT_LE(three.rho_lower, three.rho);
  // One pair is dpcov_audit_rows_exact itself.
  dpcov_rows_exact_audit_result one = fresh_exact_audit();
  ASSERT_EQ(dpcov_audit_rows_exact_pairs(DPCOV_AUDIT_ROWS_COINPRESS, 3, 0.5, 1e-6, 100, 1e-6, 5,
                                         1, &one, &worst),
            DPCOV_OK);
  EXPECT_EQ(worst, 0);
  EXPECT_EQ(std::memcmp(&one, &r, sizeof one), 0);
}

// CoinPress with t >= 2: bad arguments leave the outputs untouched, as at t = 1.
TEST(CapiAudit, RowsExactAuditOfCoinpressStepsBadArgumentsLeaveTheOutputsUntouched) {
  struct Bad {
    dpcov_status status;
    int64_t steps;
    double rho, delta;
    int64_t trials;
    double alpha;
    int64_t pairs;
  };
  const Bad cases[] = {
      {DPCOV_E_INVALID_ARGUMENT, 17, 0.5, 1e-6, 20, 1e-6, 1},
      {DPCOV_E_INVALID_ARGUMENT, 3, 0.5, 1e-6, 1, 1e-6, 1},
      {DPCOV_E_INVALID_ARGUMENT, 3, 0.5, 1e-6, 20, 0.0, 1},
      {DPCOV_E_INVALID_ARGUMENT, 3, 0.5, 1e-6, 20, 1e-6, 0},
      {DPCOV_E_INVALID_ARGUMENT, 3, 0.5, 1e-6, 20, 1e-6, 65},
      {DPCOV_E_INVALID_ARGUMENT, 3, 1e-12, 1e-6, 20, 1e-6, 1},
      {DPCOV_E_INVALID_ARGUMENT, 3, 0.5, 1.0, 20, 1e-6, 1},
      {DPCOV_E_NON_FINITE, 3, kNaN, 1e-6, 20, 1e-6, 1},
  };
  for (const Bad &c : cases) {
    dpcov_rows_exact_audit_result r = fresh_exact_audit();
    int64_t worst = -7;
    EXPECT_EQ(dpcov_audit_rows_exact_pairs(DPCOV_AUDIT_ROWS_COINPRESS, c.steps, c.rho, c.delta,
                                           c.trials, c.alpha, 0, c.pairs, &r, &worst),
              c.status)
        << c.steps << " " << c.rho << " " << dpcov_last_error_message();
    EXPECT_FALSE(std::string(dpcov_last_error_message()).empty());
    dpcov_rows_exact_audit_result expected = fresh_exact_audit();
    EXPECT_EQ(std::memcmp(&r, &expected, sizeof r), 0);
    EXPECT_EQ(worst, -7);
  }
}

TEST(CapiAudit, RowsExactAuditRefusesTheReleasesWithoutAnExactDensity) {
  const struct {
    int32_t mechanism;
    int64_t steps;
  } cases[] = {{DPCOV_AUDIT_ROWS_DLY_ADAPTIVE, 1}, {DPCOV_AUDIT_ROWS_DLY_ADAPTIVE_PAPER, 1}};
  for (const auto &c : cases) {
    dpcov_rows_exact_audit_result r = fresh_exact_audit();
    EXPECT_EQ(dpcov_audit_rows_exact(c.mechanism, c.steps, 0.5, 1e-6, 20, 1e-6, 0, &r),
              DPCOV_E_PRECONDITION);
    EXPECT_NE(std::string(dpcov_last_error_message()).find("dpcov_audit_rows_black_box"),
              std::string::npos)
        << dpcov_last_error_message();
    dpcov_rows_exact_audit_result expected = fresh_exact_audit();
    EXPECT_EQ(std::memcmp(&r, &expected, sizeof r), 0);
  }
}

TEST(CapiAudit, RowsExactAuditBadArgumentsLeaveTheResultUntouched) {
  struct Bad {
    dpcov_status status;
    int32_t mechanism;
    int64_t steps;
    double rho, delta;
    int64_t trials;
    double alpha;
  };
  const Bad cases[] = {
      {DPCOV_E_INVALID_ARGUMENT, -1, 1, 0.5, 1e-6, 20, 1e-6},
      {DPCOV_E_INVALID_ARGUMENT, 5, 1, 0.5, 1e-6, 20, 1e-6},
      {DPCOV_E_INVALID_ARGUMENT, DPCOV_AUDIT_ROWS_DLY_GAUSS, 2, 0.5, 1e-6, 20, 1e-6},
      {DPCOV_E_INVALID_ARGUMENT, DPCOV_AUDIT_ROWS_COINPRESS, 0, 0.5, 1e-6, 20, 1e-6},
      {DPCOV_E_INVALID_ARGUMENT, DPCOV_AUDIT_ROWS_COINPRESS, 17, 0.5, 1e-6, 20, 1e-6},
      {DPCOV_E_INVALID_ARGUMENT, DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, 0.0, 1e-6, 20, 1e-6},
      {DPCOV_E_INVALID_ARGUMENT, DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, 1e-9, 1e-6, 20, 1e-6},
      {DPCOV_E_INVALID_ARGUMENT, DPCOV_AUDIT_ROWS_COINPRESS, 1, 0.5, 1.0, 20, 1e-6},
      {DPCOV_E_INVALID_ARGUMENT, DPCOV_AUDIT_ROWS_DLY_SEPARATE, 1, 0.5, 1e-6, 1, 1e-6},
      {DPCOV_E_INVALID_ARGUMENT, DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, 0.5, 1e-6, 20, 0.0},
      {DPCOV_E_INVALID_ARGUMENT, DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, 0.5, 1e-6, 20, 1.5},
      {DPCOV_E_INVALID_ARGUMENT, DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, 0.5, 1e-6, 20, kNaN},
  };
  for (const Bad &c : cases) {
    dpcov_rows_exact_audit_result r = fresh_exact_audit();
    EXPECT_EQ(dpcov_audit_rows_exact(c.mechanism, c.steps, c.rho, c.delta, c.trials, c.alpha, 0,
                                     &r),
              c.status)
        << c.mechanism << " " << c.rho << " " << dpcov_last_error_message();
    dpcov_rows_exact_audit_result expected = fresh_exact_audit();
    EXPECT_EQ(std::memcmp(&r, &expected, sizeof r), 0);
    EXPECT_FALSE(std::string(dpcov_last_error_message()).empty());
  }
  for (const double rho : {kNaN, std::numeric_limits<double>::infinity()}) {
    dpcov_rows_exact_audit_result r = fresh_exact_audit();
    EXPECT_NE(dpcov_audit_rows_exact(DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, rho, 1e-6, 20, 1e-6, 0, &r),
              DPCOV_OK);
  }
  EXPECT_EQ(dpcov_audit_rows_exact(DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, 0.5, 1e-6, 20, 1e-6, 0, nullptr),
            DPCOV_E_NULL_POINTER);
  dpcov_rows_exact_audit_result small = fresh_exact_audit();
  small.struct_size = 8;
  EXPECT_EQ(dpcov_audit_rows_exact(DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, 0.5, 1e-6, 20, 1e-6, 0, &small),
            DPCOV_E_INVALID_ARGUMENT);
}

// dpcov_audit_rows_units: units of exactly k rows at rho / k^2 against the unit-level rho, every
// family (exact, black-box, coinpress_mean) answering with n a multiple of k; bad arguments leave
// the result untouched.
TEST(CapiAudit, RowsUnitsAuditOfEachFamilyAndItsBadArguments) {
  for (const int32_t mechanism : {DPCOV_AUDIT_ROWS_DLY_GAUSS, DPCOV_AUDIT_ROWS_DLY_ADAPTIVE,
                                  DPCOV_AUDIT_ROWS_COINPRESS_MEAN}) {
    dpcov_rows_exact_audit_result r = fresh_exact_audit();
    ASSERT_EQ(dpcov_audit_rows_units(mechanism, 1, 2, 0.5, 1e-6, 0, 20, 1e-6, 3, &r), DPCOV_OK)
        << mechanism << " " << dpcov_last_error_message();
    EXPECT_EQ(r.rho, 0.5);
    EXPECT_EQ(r.n % 2, 0);
    EXPECT_GT(r.samples, 0);
  }
  struct Bad {
    int32_t mechanism;
    int64_t steps, k;
    double rho, delta;
    int32_t broken;
    int64_t trials;
    double alpha;
  };
  const Bad cases[] = {
      {-1, 1, 2, 0.5, 1e-6, 0, 20, 1e-6},
      {6, 1, 2, 0.5, 1e-6, 0, 20, 1e-6},
      {DPCOV_AUDIT_ROWS_DLY_GAUSS, 2, 2, 0.5, 1e-6, 0, 20, 1e-6},
      {DPCOV_AUDIT_ROWS_DLY_ADAPTIVE, 2, 2, 0.5, 1e-6, 0, 20, 1e-6},
      {DPCOV_AUDIT_ROWS_COINPRESS, 0, 2, 0.5, 1e-6, 0, 20, 1e-6},
      {DPCOV_AUDIT_ROWS_COINPRESS_MEAN, 17, 2, 0.5, 1e-6, 0, 20, 1e-6},
      {DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, 0, 0.5, 1e-6, 0, 20, 1e-6},
      {DPCOV_AUDIT_ROWS_DLY_ADAPTIVE, 1, (int64_t{1} << 20) + 1, 0.5, 1e-6, 0, 20, 1e-6},
      {DPCOV_AUDIT_ROWS_COINPRESS_MEAN, 1, -3, 0.5, 1e-6, 0, 20, 1e-6},
      {DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, 2, 0.5, 1e-6, 2, 20, 1e-6},
      {DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, 2, -1.0, 1e-6, 0, 20, 1e-6},
      {DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, 2, 0.5, 0.0, 0, 20, 1e-6},
      {DPCOV_AUDIT_ROWS_DLY_ADAPTIVE, 1, 2, 0.5, 1e-6, 0, 9, 1e-6},
      {DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, 2, 0.5, 1e-6, 0, 1, 1e-6},
      {DPCOV_AUDIT_ROWS_COINPRESS_MEAN, 1, 2, 0.5, 1e-6, 0, 20, 0.0},
      {DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, 2, kNaN, 1e-6, 0, 20, 1e-6},
  };
  for (const Bad &c : cases) {
    dpcov_rows_exact_audit_result r = fresh_exact_audit();
    EXPECT_NE(dpcov_audit_rows_units(c.mechanism, c.steps, c.k, c.rho, c.delta, c.broken,
                                     c.trials, c.alpha, 0, &r),
              DPCOV_OK)
        << c.mechanism << " k " << c.k;
    const dpcov_rows_exact_audit_result expected = fresh_exact_audit();
    EXPECT_EQ(std::memcmp(&r, &expected, sizeof r), 0);
    EXPECT_FALSE(std::string(dpcov_last_error_message()).empty());
  }
  EXPECT_EQ(dpcov_audit_rows_units(DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, 2, 0.5, 1e-6, 0, 20, 1e-6, 0,
                                   nullptr),
            DPCOV_E_NULL_POINTER);
  dpcov_rows_exact_audit_result small = fresh_exact_audit();
  small.struct_size = 8;
  EXPECT_EQ(dpcov_audit_rows_units(DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, 2, 0.5, 1e-6, 0, 20, 1e-6, 0,
                                   &small),
            DPCOV_E_INVALID_ARGUMENT);
}

// dpcov_audit_rows_exact_pairs: the axis pair and rotated ones, the worst reported; one pair is
// dpcov_audit_rows_exact itself; bad arguments leave both outputs untouched.
TEST(CapiAudit, RowsExactPairsAuditReportsTheWorstOfSeveralPairs) {
  for (const int32_t mechanism :
       {DPCOV_AUDIT_ROWS_DLY_GAUSS, DPCOV_AUDIT_ROWS_DLY_SEPARATE, DPCOV_AUDIT_ROWS_COINPRESS}) {
    dpcov_rows_exact_audit_result r = fresh_exact_audit();
    int64_t worst = -7;
    ASSERT_EQ(dpcov_audit_rows_exact_pairs(mechanism, 1, 0.5, 1e-6, 200, 1e-6, 5, 3, &r, &worst),
              DPCOV_OK)
        << dpcov_last_error_message();
    EXPECT_EQ(r.verdict, DPCOV_AUDIT_NO_VIOLATION_FOUND) << mechanism;
    EXPECT_EQ(r.samples, 3 * 400);
    EXPECT_EQ(r.n, 1000);
    EXPECT_EQ(r.alpha_per_test, 1e-6 / 3 / 12);
    EXPECT_GE(worst, 0);
    EXPECT_LT(worst, 3);
    EXPECT_LE(r.rho_lower, r.rho);
  }
  dpcov_rows_exact_audit_result one = fresh_exact_audit(), single = fresh_exact_audit();
  int64_t worst = -7;
  ASSERT_EQ(dpcov_audit_rows_exact_pairs(DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, 0.5, 1e-6, 200, 1e-6, 5,
                                         1, &one, &worst),
            DPCOV_OK);
  ASSERT_EQ(dpcov_audit_rows_exact(DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, 0.5, 1e-6, 200, 1e-6, 5, &single),
            DPCOV_OK);
  EXPECT_EQ(worst, 0);
  EXPECT_EQ(std::memcmp(&one, &single, sizeof one), 0);
}

TEST(CapiAudit, RowsExactPairsAuditBadArgumentsLeaveTheOutputsUntouched) {
  for (const int64_t pairs : {int64_t{0}, int64_t{-1}, int64_t{65}}) {
    dpcov_rows_exact_audit_result r = fresh_exact_audit();
    int64_t worst = -7;
    EXPECT_EQ(dpcov_audit_rows_exact_pairs(DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, 0.5, 1e-6, 20, 1e-6, 0,
                                           pairs, &r, &worst),
              DPCOV_E_INVALID_ARGUMENT)
        << pairs;
    EXPECT_NE(std::string(dpcov_last_error_message()).find("pairs"), std::string::npos);
    dpcov_rows_exact_audit_result expected = fresh_exact_audit();
    EXPECT_EQ(std::memcmp(&r, &expected, sizeof r), 0);
    EXPECT_EQ(worst, -7);
  }
  dpcov_rows_exact_audit_result r = fresh_exact_audit();
  int64_t worst = -7;
  EXPECT_EQ(dpcov_audit_rows_exact_pairs(DPCOV_AUDIT_ROWS_DLY_ADAPTIVE, 1, 0.5, 1e-6, 20, 1e-6, 0,
                                         3, &r, &worst),
            DPCOV_E_PRECONDITION);
  EXPECT_EQ(dpcov_audit_rows_exact_pairs(DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, 0.5, 1e-6, 1, 1e-6, 0, 3,
                                         &r, &worst),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_audit_rows_exact_pairs(DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, 0.5, 1e-6, 20, 1e-6, 0, 3,
                                         &r, nullptr),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_audit_rows_exact_pairs(DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, 0.5, 1e-6, 20, 1e-6, 0, 3,
                                         nullptr, &worst),
            DPCOV_E_NULL_POINTER);
  dpcov_rows_exact_audit_result expected = fresh_exact_audit();
  EXPECT_EQ(std::memcmp(&r, &expected, sizeof r), 0);
  EXPECT_EQ(worst, -7);
}

// A rho so large that the noise is within the rounding of the values it perturbs: the audit
// would flag the library's correct release (measured: the CoinPress mean at rho = 1e33, d = 2,
// n = 11), so every exact audit refuses such claims (by the cap on the epsilon a rho converts
// to, docs/epsilon-cap.md); at rho = 1e12 the noise is still far above the rounding and the
// correct releases are not flagged.
TEST(CapiAudit, ExactAuditsRefuseANoiseWithinTheRounding) {
  for (const double radius : {1.0, 1e-300}) {
    dpcov_coinpress_mean_params p = mean_params(radius);
    p.rho = 1e33;
    dpcov_coinpress_mean_audit_result r = fresh_mean_audit();
    EXPECT_EQ(dpcov_audit_coinpress_mean(2, 11, &p, 200, 1e-6, 1, &r), DPCOV_E_INVALID_ARGUMENT)
        << radius;
    p.rho = 1e12;
    r = fresh_mean_audit();
    ASSERT_EQ(dpcov_audit_coinpress_mean(2, 11, &p, 200, 1e-6, 1, &r), DPCOV_OK)
        << dpcov_last_error_message();
    EXPECT_EQ(r.verdict, DPCOV_AUDIT_NO_VIOLATION_FOUND) << radius;
  }
  for (const int32_t mechanism :
       {DPCOV_AUDIT_ROWS_DLY_GAUSS, DPCOV_AUDIT_ROWS_DLY_SEPARATE, DPCOV_AUDIT_ROWS_COINPRESS}) {
    dpcov_rows_exact_audit_result r = fresh_exact_audit();
    EXPECT_EQ(dpcov_audit_rows_exact(mechanism, 1, 1e33, 1e-6, 20, 1e-6, 5, &r),
              DPCOV_E_INVALID_ARGUMENT)
        << mechanism;
    EXPECT_NE(std::string(dpcov_last_error_message()).find("rounding"), std::string::npos)
        << dpcov_last_error_message();
    dpcov_rows_exact_audit_result expected = fresh_exact_audit();
    EXPECT_EQ(std::memcmp(&r, &expected, sizeof r), 0);
  }
}

}  // namespace

// The power of an audit: the smallest delta(eps) its draws flag, smaller with more draws; a
// caller compiled before the field existed (struct_size ending at alpha_per_test) gets no byte of
// it. Black-box: the smallest P_D(S) flagged on an event the other dataset never hits.
TEST(CapiAudit, ResultsStateThePowerOfTheirDraws) {
  dpcov_audit_params p = quick_params();
  p.neighbour_kind = DPCOV_AUDIT_NEIGHBOUR_MAX_L2_CHANGE;
  double power[2] = {0.0, 0.0};
  for (int k = 0; k < 2; ++k) {
    p.trials = k == 0 ? 400 : 4000;
    dpcov_audit_result r = fresh_result();
    ASSERT_EQ(dpcov_audit_run(DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 20, 1.0, 1.0, 1e-6, nullptr, &p, &r),
              DPCOV_OK)
        << dpcov_last_error_message();
    power[k] = r.detectable_delta;
    EXPECT_GT(power[k], r.delta);
    EXPECT_LT(power[k], 1.0);
  }
  EXPECT_LT(power[1], power[0] / 5.0);  // about 1 / trials once the variance term is small

  dpcov_audit_result old = fresh_result();
  old.struct_size = offsetof(dpcov_audit_result, detectable_delta);
  ASSERT_EQ(dpcov_audit_run(DPCOV_MECHANISM_LAPLACE_SYM, 3, 20, 1.0, 1.0, 0.0, nullptr, &p, &old),
            DPCOV_OK);
  unsigned char sentinel[sizeof old.detectable_delta];
  std::memset(sentinel, 0xAB, sizeof sentinel);
  EXPECT_EQ(std::memcmp(&old.detectable_delta, sentinel, sizeof sentinel), 0);

  dpcov_black_box_result b = fresh_black_box();
  ASSERT_EQ(dpcov_audit_rows_black_box(DPCOV_AUDIT_ROWS_DLY_GAUSS, 3, 20, 0.02, 1e-6, 1.0,
                                       DPCOV_BLACK_BOX_TOP_EIGENVALUE, 2000, 1e-6, 5, &b),
            DPCOV_OK)
      << dpcov_last_error_message();
  EXPECT_GT(b.detectable_delta, 0.0);
  EXPECT_LT(b.detectable_delta, 0.05);

  // The per-release exact audits: the Gaussian release on rows and CoinPress's mean transcript.
  dpcov_rows_exact_audit_result e = fresh_exact_audit();
  ASSERT_EQ(dpcov_audit_rows_exact(DPCOV_AUDIT_ROWS_DLY_GAUSS, 1, 0.5, 1e-6, 2000, 1e-6, 5, &e),
            DPCOV_OK)
      << dpcov_last_error_message();
  EXPECT_GT(e.detectable_delta, e.delta);
  EXPECT_LT(e.detectable_delta, 0.1);
  const dpcov_coinpress_mean_params mp = mean_params(5.0);
  dpcov_coinpress_mean_audit_result m = fresh_mean_audit();
  ASSERT_EQ(dpcov_audit_coinpress_mean(3, 20, &mp, 2000, 1e-6, 4, &m), DPCOV_OK)
      << dpcov_last_error_message();
  EXPECT_GT(m.detectable_delta, m.delta);
  EXPECT_LT(m.detectable_delta, 0.1);
}
