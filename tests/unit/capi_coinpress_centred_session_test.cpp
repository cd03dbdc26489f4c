// The C ABI of CoinPress centred on a CoinPress mean session's release
// (dpcov_coinpress_centred_session_create, dpcov/row_passes.h): the two sessions release what
// dpcov_coinpress_mean_release() and then dpcov_coinpress_release() on the rows centred on that
// mean release from one generator, byte for byte from one partial of all rows per pass, up to the
// rounding of the sums from rows split over partials carried as bytes (which carry the centre);
// every bad argument fails with the mean session unchanged; the generator is handed on once.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <vector>

#include "dpcov.h"
#include "support/row_partials.hpp"

namespace {

using dpcov::test::exported;
using dpcov::test::seeded;

constexpr int64_t kN = 400;
constexpr int64_t kDim = 3;

// Rows around (50, -20, 7) with covariance about diag(4, 1, 0.25) and a few far out.
std::vector<double> rows() {
  const double mu[kDim] = {50.0, -20.0, 7.0};
  const double sd[kDim] = {2.0, 1.0, 0.5};
  std::vector<double> r;
  for (int64_t i = 0; i < kN; ++i)
    for (int64_t j = 0; j < kDim; ++j)
      r.push_back(mu[j] + sd[j] * 1.7 * std::sin(0.91 * static_cast<double>(i * kDim + j) + j) +
                  30.0 * (i % 97 == 0));
  return r;
}

dpcov_coinpress_mean_params mean_params() {
  dpcov_coinpress_mean_params p;
  dpcov_coinpress_mean_params_default(&p);
  p.radius = 100.0;
  p.scale = 2.0;
  p.rho = 0.25;
  return p;
}

dpcov_coinpress_params covariance_params() {
  dpcov_coinpress_params p;
  dpcov_coinpress_params_default(&p);
  p.k_bound = 10.0;
  p.rho = 1.75;
  return p;
}

// Every pass of `session` over `x`: in one call of all rows, or (split) in chunks of 7 rows added
// to partials imported from the pass's bytes and merged back through bytes.
void run(dpcov_row_session *session, const std::vector<double> &x, bool split) {
  int32_t done = 0;
  ASSERT_EQ(dpcov_row_session_done(session, &done), DPCOV_OK);
  while (done == 0) {
    dpcov_row_partial *merged = nullptr;
    ASSERT_EQ(dpcov_row_partial_create(&merged, session), DPCOV_OK);
    if (!split) {
      ASSERT_EQ(dpcov_row_partial_add_rows(merged, DPCOV_ROW_MAJOR, kN, kDim, x.data(), kDim),
                DPCOV_OK);
    } else {
      const std::vector<unsigned char> spec = exported(merged);
      for (int64_t i = 0; i < kN; i += 7) {
        dpcov_row_partial *worker = nullptr;
        ASSERT_EQ(dpcov_row_partial_import(&worker, spec.data(), spec.size()), DPCOV_OK);
        ASSERT_EQ(dpcov_row_partial_add_rows(worker, DPCOV_ROW_MAJOR, std::min<int64_t>(7, kN - i),
                                             kDim, x.data() + i * kDim, kDim),
                  DPCOV_OK);
        const std::vector<unsigned char> sums = exported(worker);
        dpcov_row_partial_destroy(&worker);
        ASSERT_EQ(dpcov_row_partial_import(&worker, sums.data(), sums.size()), DPCOV_OK);
        ASSERT_EQ(dpcov_row_partial_merge(merged, worker), DPCOV_OK);
        dpcov_row_partial_destroy(&worker);
      }
    }
    ASSERT_EQ(dpcov_row_session_finish_pass(session, &merged), DPCOV_OK);
    ASSERT_EQ(dpcov_row_session_done(session, &done), DPCOV_OK);
  }
}

struct Released {
  std::vector<double> mean = std::vector<double>(kDim);
  std::vector<double> covariance = std::vector<double>(kDim * kDim);
  dpcov_coinpress_mean_receipt mean_receipt{};
  dpcov_coinpress_receipt receipt{};
  Released() {
    mean_receipt.struct_size = sizeof mean_receipt;
    receipt.struct_size = sizeof receipt;
  }
};

// The rows centred on the mean as `dpcov release --center` centred them in memory.
std::vector<double> centred(const std::vector<double> &x, const std::vector<double> &mean) {
  std::vector<double> out(x.size());
  for (size_t i = 0; i < x.size() / kDim; ++i) {
    bool halved = false;
    for (size_t j = 0; j < kDim; ++j) halved = halved || !std::isfinite(x[i * kDim + j] - mean[j]);
    for (size_t j = 0; j < kDim; ++j)
      out[i * kDim + j] = halved ? 0.5 * x[i * kDim + j] - 0.5 * mean[j] : x[i * kDim + j] - mean[j];
  }
  return out;
}

Released in_memory(const std::vector<double> &x) {
  const dpcov_coinpress_mean_params mp = mean_params();
  const dpcov_coinpress_params cp = covariance_params();
  Released r;
  dpcov_rng *rng = seeded(31);
  EXPECT_EQ(dpcov_coinpress_mean_release(DPCOV_ROW_MAJOR, kN, kDim, x.data(), kDim, nullptr, &mp,
                                         rng, r.mean.data(), &r.mean_receipt),
            DPCOV_OK);
  const std::vector<double> c = centred(x, r.mean);
  EXPECT_EQ(dpcov_coinpress_release(DPCOV_ROW_MAJOR, kN, kDim, c.data(), kDim, &cp, rng,
                                    r.covariance.data(), kDim, &r.receipt),
            DPCOV_OK);
  dpcov_rng_destroy(&rng);
  return r;
}

Released by_sessions(const std::vector<double> &x, bool split) {
  const dpcov_coinpress_mean_params mp = mean_params();
  const dpcov_coinpress_params cp = covariance_params();
  Released r;
  dpcov_rng *rng = seeded(31);
  dpcov_row_session *mean = nullptr, *cov = nullptr;
  EXPECT_EQ(dpcov_coinpress_mean_session_create(&mean, kN, kDim, nullptr, &mp, &rng), DPCOV_OK);
  run(mean, x, split);
  EXPECT_EQ(dpcov_coinpress_centred_session_create(&cov, mean, &cp), DPCOV_OK);
  run(cov, x, split);
  EXPECT_EQ(dpcov_coinpress_mean_session_result(mean, r.mean.data(), &r.mean_receipt), DPCOV_OK);
  EXPECT_EQ(dpcov_coinpress_session_result(cov, DPCOV_ROW_MAJOR, r.covariance.data(), kDim,
                                           &r.receipt),
            DPCOV_OK);
  dpcov_row_session_destroy(&mean);
  dpcov_row_session_destroy(&cov);
  return r;
}

TEST(CapiCoinpressCentredSession, OnePartialOfAllRowsEqualsTheInMemoryPairByteForByte) {
  std::vector<double> x = rows();
  // A row at the end of the doubles: clipped far out, in both.
  x[5 * kDim] = -DBL_MAX;
  const Released a = in_memory(x);
  const Released b = by_sessions(x, false);
  EXPECT_EQ(std::memcmp(&a.mean_receipt, &b.mean_receipt, sizeof a.mean_receipt), 0);
  EXPECT_EQ(std::memcmp(&a.receipt, &b.receipt, sizeof a.receipt), 0);
  EXPECT_EQ(std::memcmp(a.mean.data(), b.mean.data(), sizeof(double) * kDim), 0);
  EXPECT_EQ(std::memcmp(a.covariance.data(), b.covariance.data(), sizeof(double) * kDim * kDim),
            0);
}

TEST(CapiCoinpressCentredSession, RowsSplitOverWorkersEqualThePairUpToRounding) {
  const std::vector<double> x = rows();
  const Released a = in_memory(x);
  const Released b = by_sessions(x, true);
  EXPECT_EQ(std::memcmp(&a.receipt, &b.receipt, sizeof a.receipt), 0);
  // The mean's sums are per row (any split gives the same bytes); the covariance's compensated
  // sums of entries <= n gamma^2 differ by a few ulps, carried through three steps.
  EXPECT_EQ(std::memcmp(a.mean.data(), b.mean.data(), sizeof(double) * kDim), 0);
  for (int64_t k = 0; k < kDim * kDim; ++k)
    EXPECT_NEAR(a.covariance[k], b.covariance[k], 1e-11 * std::fabs(a.covariance[0])) << k;
  // Centred on the private mean, the covariance is near the rows' spread (about 5.8 on the first
  // axis with the far rows), not their second moment about the origin (about 2500).
  EXPECT_LT(b.covariance[0], 50.0);
}

TEST(CapiCoinpressCentredSession, BadArgumentsFailWithTheMeanSessionUnchanged) {
  const dpcov_coinpress_mean_params mp = mean_params();
  dpcov_coinpress_params cp = covariance_params();
  dpcov_rng *rng = seeded(5);
  dpcov_row_session *mean = nullptr;
  ASSERT_EQ(dpcov_coinpress_mean_session_create(&mean, kN, kDim, nullptr, &mp, &rng), DPCOV_OK);
  dpcov_row_session *canary = reinterpret_cast<dpcov_row_session *>(0x10);
  dpcov_row_session *s = canary;
  // Not done yet.
  EXPECT_EQ(dpcov_coinpress_centred_session_create(&s, mean, &cp), DPCOV_E_INVALID_ARGUMENT);
  run(mean, rows(), false);
  EXPECT_EQ(dpcov_coinpress_centred_session_create(nullptr, mean, &cp), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_coinpress_centred_session_create(&s, nullptr, &cp), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_coinpress_centred_session_create(&s, mean, nullptr), DPCOV_E_NULL_POINTER);
  cp.k_bound = 0.0;
  EXPECT_EQ(dpcov_coinpress_centred_session_create(&s, mean, &cp), DPCOV_E_INVALID_ARGUMENT);
  cp = covariance_params();
  cp.rho = NAN;
  EXPECT_NE(dpcov_coinpress_centred_session_create(&s, mean, &cp), DPCOV_OK);
  cp = covariance_params();
  cp.delta = 1.0;
  EXPECT_EQ(dpcov_coinpress_centred_session_create(&s, mean, &cp), DPCOV_E_INVALID_ARGUMENT);
  cp = covariance_params();
  cp.steps = 0;
  EXPECT_EQ(dpcov_coinpress_centred_session_create(&s, mean, &cp), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(s, canary);
  EXPECT_STRNE(dpcov_last_error_message(), "");
  // A covariance session is not a mean session.
  cp = covariance_params();
  rng = seeded(6);
  dpcov_row_session *other = nullptr;
  ASSERT_EQ(dpcov_coinpress_session_create(&other, kN, kDim, &cp, &rng), DPCOV_OK);
  run(other, rows(), false);
  EXPECT_EQ(dpcov_coinpress_centred_session_create(&s, other, &cp), DPCOV_E_INVALID_ARGUMENT);
  dpcov_row_session_destroy(&other);
  // After every refusal the mean session still hands its generator on, once.
  ASSERT_EQ(dpcov_coinpress_centred_session_create(&s, mean, &cp), DPCOV_OK);
  ASSERT_NE(s, canary);
  dpcov_row_session *again = canary;
  EXPECT_EQ(dpcov_coinpress_centred_session_create(&again, mean, &cp), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(again, canary);
  // The mean stays readable.
  std::vector<double> m(kDim);
  dpcov_coinpress_mean_receipt r{};
  r.struct_size = sizeof r;
  EXPECT_EQ(dpcov_coinpress_mean_session_result(mean, m.data(), &r), DPCOV_OK);
  dpcov_row_session_destroy(&s);
  dpcov_row_session_destroy(&mean);
}

TEST(CapiCoinpressCentredSession, APartialCarriesItsCentreAndAnUncentredOneDoesNotMerge) {
  const dpcov_coinpress_mean_params mp = mean_params();
  const dpcov_coinpress_params cp = covariance_params();
  dpcov_rng *rng = seeded(7);
  dpcov_row_session *mean = nullptr, *centred_session = nullptr, *plain = nullptr;
  ASSERT_EQ(dpcov_coinpress_mean_session_create(&mean, kN, kDim, nullptr, &mp, &rng), DPCOV_OK);
  run(mean, rows(), false);
  ASSERT_EQ(dpcov_coinpress_centred_session_create(&centred_session, mean, &cp), DPCOV_OK);
  rng = seeded(7);
  ASSERT_EQ(dpcov_coinpress_session_create(&plain, kN, kDim, &cp, &rng), DPCOV_OK);
  dpcov_row_partial *a = nullptr, *b = nullptr;
  ASSERT_EQ(dpcov_row_partial_create(&a, centred_session), DPCOV_OK);
  ASSERT_EQ(dpcov_row_partial_create(&b, plain), DPCOV_OK);
  const std::vector<unsigned char> with = exported(a), without = exported(b);
  // The centre's d doubles travel with the pass.
  EXPECT_EQ(with.size(), without.size() + kDim * sizeof(double));
  dpcov_row_partial *back = nullptr;
  ASSERT_EQ(dpcov_row_partial_import(&back, with.data(), with.size()), DPCOV_OK);
  EXPECT_EQ(exported(back), with);
  EXPECT_EQ(dpcov_row_partial_merge(a, back), DPCOV_OK);
  EXPECT_EQ(dpcov_row_partial_merge(a, b), DPCOV_E_INCOMPATIBLE);
  dpcov_row_partial_destroy(&back);
  dpcov_row_partial_destroy(&a);
  dpcov_row_partial_destroy(&b);
  dpcov_row_session_destroy(&plain);
  dpcov_row_session_destroy(&centred_session);
  dpcov_row_session_destroy(&mean);
}

}  // namespace
