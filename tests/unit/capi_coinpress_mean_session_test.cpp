// The C ABI of CoinPress mean as passes over the rows (dpcov/row_passes.h): a session releases
// what dpcov_coinpress_mean_release() releases with the same generator, byte for byte from one
// partial of all rows, up to the rounding of the sums from rows split across partials carried as
// bytes; every bad argument fails before any draw with its outputs untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "dpcov.h"

namespace {

constexpr int64_t kN = 300;
constexpr int64_t kDim = 4;

// Rows around (3, -1, 0.5, 2) with some far out, so that every step projects some of them.
std::vector<double> rows() {
  const double mu[kDim] = {3.0, -1.0, 0.5, 2.0};
  std::vector<double> r;
  for (int64_t i = 0; i < kN; ++i)
    for (int64_t j = 0; j < kDim; ++j)
      r.push_back(mu[j] + std::sin(0.37 * static_cast<double>(i * kDim + j)) +
                  40.0 * (i % 53 == 0));
  return r;
}

dpcov_coinpress_mean_params params() {
  dpcov_coinpress_mean_params p;
  dpcov_coinpress_mean_params_default(&p);
  p.radius = 10.0;
  p.rho = 2.0;
  p.steps = 4;
  return p;
}

dpcov_rng *seeded(uint64_t seed) {
  dpcov_rng *rng = nullptr;
  EXPECT_EQ(dpcov_rng_create_seeded(&rng, seed, 0), DPCOV_OK);
  return rng;
}

std::vector<unsigned char> exported(const dpcov_row_partial *p) {
  size_t size = 0;
  EXPECT_EQ(dpcov_row_partial_export(p, nullptr, 0, &size), DPCOV_OK);
  std::vector<unsigned char> bytes(size);
  EXPECT_EQ(dpcov_row_partial_export(p, bytes.data(), bytes.size(), &size), DPCOV_OK);
  return bytes;
}

// One pass: rows [first, last) added in chunks of `chunk` to a partial imported from the pass's
// bytes, exported and imported back, then merged into `into`.
void add_share(dpcov_row_partial *into, const std::vector<unsigned char> &spec,
               const std::vector<double> &x, int64_t first, int64_t last, int64_t chunk) {
  dpcov_row_partial *worker = nullptr;
  ASSERT_EQ(dpcov_row_partial_import(&worker, spec.data(), spec.size()), DPCOV_OK);
  for (int64_t i = first; i < last; i += chunk) {
    const int64_t count = std::min(chunk, last - i);
    ASSERT_EQ(dpcov_row_partial_add_rows(worker, DPCOV_ROW_MAJOR, count, kDim,
                                         x.data() + i * kDim, kDim),
              DPCOV_OK);
  }
  const std::vector<unsigned char> sums = exported(worker);
  dpcov_row_partial_destroy(&worker);
  dpcov_row_partial *back = nullptr;
  ASSERT_EQ(dpcov_row_partial_import(&back, sums.data(), sums.size()), DPCOV_OK);
  ASSERT_EQ(dpcov_row_partial_merge(into, back), DPCOV_OK);
  dpcov_row_partial_destroy(&back);
}

// Runs every pass: in one call of all rows when `split` is false, else over three workers.
void run(dpcov_row_session *session, const std::vector<double> &x, bool split) {
  int32_t done = 0;
  ASSERT_EQ(dpcov_row_session_done(session, &done), DPCOV_OK);
  while (done == 0) {
    dpcov_row_partial *merged = nullptr;
    ASSERT_EQ(dpcov_row_partial_create(&merged, session), DPCOV_OK);
    if (split) {
      const std::vector<unsigned char> spec = exported(merged);
      add_share(merged, spec, x, 0, 101, 9);
      add_share(merged, spec, x, 101, 102, 1);
      add_share(merged, spec, x, 102, kN, 64);
    } else {
      ASSERT_EQ(dpcov_row_partial_add_rows(merged, DPCOV_ROW_MAJOR, kN, kDim, x.data(), kDim),
                DPCOV_OK);
    }
    ASSERT_EQ(dpcov_row_session_finish_pass(session, &merged), DPCOV_OK);
    EXPECT_EQ(merged, nullptr);
    ASSERT_EQ(dpcov_row_session_done(session, &done), DPCOV_OK);
  }
}

struct Released {
  std::vector<double> mean = std::vector<double>(kDim);
  dpcov_coinpress_mean_receipt receipt{};
};

Released in_memory(const std::vector<double> &x, const double *centre) {
  const dpcov_coinpress_mean_params p = params();
  Released r;
  r.receipt.struct_size = sizeof r.receipt;
  dpcov_rng *rng = seeded(21);
  EXPECT_EQ(dpcov_coinpress_mean_release(DPCOV_ROW_MAJOR, kN, kDim, x.data(), kDim, centre, &p,
                                         rng, r.mean.data(), &r.receipt),
            DPCOV_OK);
  dpcov_rng_destroy(&rng);
  return r;
}

Released by_session(const std::vector<double> &x, const double *centre, bool split) {
  const dpcov_coinpress_mean_params p = params();
  Released r;
  r.receipt.struct_size = sizeof r.receipt;
  dpcov_rng *rng = seeded(21);
  dpcov_row_session *session = nullptr;
  EXPECT_EQ(dpcov_coinpress_mean_session_create(&session, kN, kDim, centre, &p, &rng), DPCOV_OK);
  EXPECT_EQ(rng, nullptr);  // the session took the generator
  run(session, x, split);
  EXPECT_EQ(dpcov_coinpress_mean_session_result(session, r.mean.data(), &r.receipt), DPCOV_OK);
  dpcov_row_session_destroy(&session);
  EXPECT_EQ(session, nullptr);
  return r;
}

TEST(CapiCoinpressMeanSession, OnePartialOfAllRowsEqualsTheInMemoryReleaseByteForByte) {
  const std::vector<double> x = rows();
  const double centre[kDim] = {1.0, 0.0, 0.0, 1.0};
  for (const double *c : {static_cast<const double *>(nullptr), centre}) {
    const Released a = in_memory(x, c);
    const Released b = by_session(x, c, false);
    EXPECT_EQ(std::memcmp(&a.receipt, &b.receipt, sizeof a.receipt), 0);
    EXPECT_EQ(std::memcmp(a.mean.data(), b.mean.data(), sizeof(double) * kDim), 0);
  }
}

TEST(CapiCoinpressMeanSession, RowsSplitOverWorkersEqualTheInMemoryReleaseUpToRounding) {
  const std::vector<double> x = rows();
  const Released a = in_memory(x, nullptr);
  const Released b = by_session(x, nullptr, true);
  EXPECT_EQ(std::memcmp(&a.receipt, &b.receipt, sizeof a.receipt), 0);
  // Compensated sums of |entries| <= n R differ by a few ulps of n R; divided by n, and carried
  // through the steps' centres: far below 1e-12 at R ~ 30.
  for (int64_t j = 0; j < kDim; ++j) EXPECT_NEAR(a.mean[j], b.mean[j], 1e-12) << j;
  // The estimate is near the rows' bulk (3, -1, 0.5, 2): the passes centred each step.
  EXPECT_NEAR(b.mean[0], 3.0, 1.0);
}

TEST(CapiCoinpressMeanSession, BadArgumentsFailBeforeTakingTheGenerator) {
  dpcov_coinpress_mean_params p = params();
  dpcov_rng *rng = seeded(1);
  dpcov_row_session *canary = reinterpret_cast<dpcov_row_session *>(0x10);
  dpcov_row_session *s = canary;
  EXPECT_EQ(dpcov_coinpress_mean_session_create(nullptr, kN, kDim, nullptr, &p, &rng),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_coinpress_mean_session_create(&s, kN, kDim, nullptr, &p, nullptr),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_coinpress_mean_session_create(&s, 0, kDim, nullptr, &p, &rng),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_coinpress_mean_session_create(&s, kN, 0, nullptr, &p, &rng), DPCOV_E_DIMENSION);
  const double bad_centre[kDim] = {0.0, NAN, 0.0, 0.0};
  EXPECT_EQ(dpcov_coinpress_mean_session_create(&s, kN, kDim, bad_centre, &p, &rng),
            DPCOV_E_NON_FINITE);
  p.rho = -1.0;
  EXPECT_EQ(dpcov_coinpress_mean_session_create(&s, kN, kDim, nullptr, &p, &rng),
            DPCOV_E_INVALID_ARGUMENT);
  p = params();
  p.radius = -1.0;  // the default: the prior radius is required
  EXPECT_EQ(dpcov_coinpress_mean_session_create(&s, kN, kDim, nullptr, &p, &rng),
            DPCOV_E_INVALID_ARGUMENT);
  p = params();
  p.steps = 0;
  EXPECT_EQ(dpcov_coinpress_mean_session_create(&s, kN, kDim, nullptr, &p, &rng),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(s, canary);
  ASSERT_NE(rng, nullptr);  // not taken
  dpcov_rng_destroy(&rng);
}

TEST(CapiCoinpressMeanSession, ResultFailsUntilDoneAndForOtherSessions) {
  const dpcov_coinpress_mean_params p = params();
  dpcov_rng *rng = seeded(2);
  dpcov_row_session *s = nullptr;
  ASSERT_EQ(dpcov_coinpress_mean_session_create(&s, kN, kDim, nullptr, &p, &rng), DPCOV_OK);
  std::vector<double> mean(kDim, -7.0);
  dpcov_coinpress_mean_receipt r{};
  r.struct_size = sizeof r;
  EXPECT_EQ(dpcov_coinpress_mean_session_result(s, mean.data(), &r), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_coinpress_mean_session_result(nullptr, mean.data(), &r), DPCOV_E_NULL_POINTER);
  run(s, rows(), false);
  EXPECT_EQ(dpcov_coinpress_mean_session_result(s, nullptr, &r), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_coinpress_mean_session_result(s, mean.data(), nullptr), DPCOV_E_NULL_POINTER);
  for (double v : mean) EXPECT_EQ(v, -7.0);  // untouched on failure
  // A mean session is not a covariance session.
  std::vector<double> cov(kDim * kDim);
  dpcov_coinpress_receipt cr{};
  cr.struct_size = sizeof cr;
  EXPECT_EQ(dpcov_coinpress_session_result(s, DPCOV_ROW_MAJOR, cov.data(), kDim, &cr),
            DPCOV_E_INVALID_ARGUMENT);
  // A partial of a mean pass does not merge into a covariance pass's.
  dpcov_row_session_destroy(&s);

  dpcov_coinpress_params cp;
  dpcov_coinpress_params_default(&cp);
  cp.k_bound = 4.0;
  rng = seeded(3);
  dpcov_row_session *cov_session = nullptr;
  ASSERT_EQ(dpcov_coinpress_session_create(&cov_session, kN, kDim, &cp, &rng), DPCOV_OK);
  rng = seeded(4);
  dpcov_row_session *mean_session = nullptr;
  ASSERT_EQ(dpcov_coinpress_mean_session_create(&mean_session, kN, kDim, nullptr, &p, &rng),
            DPCOV_OK);
  dpcov_row_partial *a = nullptr, *b = nullptr;
  ASSERT_EQ(dpcov_row_partial_create(&a, cov_session), DPCOV_OK);
  ASSERT_EQ(dpcov_row_partial_create(&b, mean_session), DPCOV_OK);
  EXPECT_EQ(dpcov_row_partial_merge(a, b), DPCOV_E_INCOMPATIBLE);
  EXPECT_EQ(dpcov_row_session_finish_pass(mean_session, &a), DPCOV_E_INCOMPATIBLE);
  EXPECT_NE(a, nullptr);  // refused before any draw: not consumed
  dpcov_row_partial_destroy(&a);
  dpcov_row_partial_destroy(&b);
  dpcov_row_session_destroy(&cov_session);
  dpcov_row_session_destroy(&mean_session);
}

}  // namespace
