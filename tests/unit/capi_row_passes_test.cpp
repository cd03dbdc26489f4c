// The C ABI of the zCDP row mechanisms as passes (dpcov/row_passes.h): a session over rows split
// across partials, exported and imported as bytes, releases what the in-memory entry point
// releases with the same generator; every bad argument fails before any draw with its outputs
// untouched; bad bytes are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

constexpr int64_t kN = 400;
constexpr int64_t kDim = 3;

std::vector<double> rows() {
  std::vector<double> r;
  // Most rows far inside the unit ball, a few beyond it: Adaptive clips to r~ < r.
  for (int64_t i = 0; i < kN * kDim; ++i) r.push_back(0.05 * std::sin(0.7 * i) + (i % 997 == 0));
  return r;
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

// Runs the session's passes as a driver and three workers would: each pass goes to the workers
// as an empty partial's bytes, each worker adds its share of the rows in chunks of 7, and the
// driver merges what they send back.
void run_passes(dpcov_row_session *session, const std::vector<double> &x) {
  int32_t done = 0;
  ASSERT_EQ(dpcov_row_session_done(session, &done), DPCOV_OK);
  while (done == 0) {
    dpcov_row_partial *empty = nullptr;
    ASSERT_EQ(dpcov_row_partial_create(&empty, session), DPCOV_OK);
    const std::vector<unsigned char> spec = exported(empty);
    dpcov_row_partial *merged = empty;
    const int64_t cuts[] = {0, 150, 151, kN};
    for (int w = 2; w >= 0; --w) {
      dpcov_row_partial *worker = nullptr;
      ASSERT_EQ(dpcov_row_partial_import(&worker, spec.data(), spec.size()), DPCOV_OK);
      for (int64_t first = cuts[w]; first < cuts[w + 1]; first += 7) {
        const int64_t count = std::min<int64_t>(7, cuts[w + 1] - first);
        ASSERT_EQ(dpcov_row_partial_add_rows(worker, DPCOV_ROW_MAJOR, count, kDim,
                                             x.data() + first * kDim, kDim),
                  DPCOV_OK);
      }
      const std::vector<unsigned char> sums = exported(worker);
      dpcov_row_partial_destroy(&worker);
      dpcov_row_partial *back = nullptr;
      ASSERT_EQ(dpcov_row_partial_import(&back, sums.data(), sums.size()), DPCOV_OK);
      ASSERT_EQ(dpcov_row_partial_merge(merged, back), DPCOV_OK);
      dpcov_row_partial_destroy(&back);
    }
    ASSERT_EQ(dpcov_row_session_finish_pass(session, &merged), DPCOV_OK);
    EXPECT_EQ(merged, nullptr);  // consumed
    ASSERT_EQ(dpcov_row_session_done(session, &done), DPCOV_OK);
  }
}

double max_abs_diff(const std::vector<double> &a, const std::vector<double> &b) {
  double m = 0.0;
  for (size_t k = 0; k < a.size(); ++k) m = std::max(m, std::fabs(a[k] - b[k]));
  return m;
}

TEST(CapiRowPasses, DlySessionOverWorkersEqualsTheInMemoryRelease) {
  const std::vector<double> x = rows();
  for (int32_t variant : {DPCOV_DLY_GAUSS, DPCOV_DLY_SEPARATE, DPCOV_DLY_ADAPTIVE,
                          DPCOV_DLY_ADAPTIVE_PAPER}) {
    dpcov_dly_params params;
    dpcov_dly_params_default(&params);
    params.variant = variant;
    params.rho = 0.5;
    dpcov_rng *rng = seeded(11);
    std::vector<double> whole(kDim * kDim), parted(kDim * kDim);
    dpcov_dly_receipt a{}, b{};
    a.struct_size = b.struct_size = sizeof a;
    ASSERT_EQ(dpcov_dly_release(DPCOV_ROW_MAJOR, kN, kDim, x.data(), kDim, &params, rng,
                                whole.data(), kDim, &a),
              DPCOV_OK);
    dpcov_rng_destroy(&rng);
    rng = seeded(11);
    dpcov_row_session *session = nullptr;
    ASSERT_EQ(dpcov_dly_session_create(&session, kN, kDim, &params, &rng), DPCOV_OK);
    EXPECT_EQ(rng, nullptr);  // the session took the generator
    run_passes(session, x);
    ASSERT_EQ(dpcov_dly_session_result(session, DPCOV_ROW_MAJOR, parted.data(), kDim, &b),
              DPCOV_OK);
    EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0) << "variant " << variant;
    EXPECT_LE(max_abs_diff(whole, parted), 1e-12) << "variant " << variant;
    if (variant == DPCOV_DLY_ADAPTIVE) {
      EXPECT_LT(b.clip_radius, 1.0);  // two passes ran
    }
    dpcov_row_session_destroy(&session);
    EXPECT_EQ(session, nullptr);
  }
}

TEST(CapiRowPasses, CoinpressSessionOverWorkersEqualsTheInMemoryRelease) {
  const std::vector<double> x = rows();
  dpcov_coinpress_params params;
  dpcov_coinpress_params_default(&params);
  params.k_bound = 10.0;
  params.rho = 5.0;
  dpcov_rng *rng = seeded(12);
  std::vector<double> whole(kDim * kDim), parted(kDim * kDim);
  dpcov_coinpress_receipt a{}, b{};
  a.struct_size = b.struct_size = sizeof a;
  ASSERT_EQ(dpcov_coinpress_release(DPCOV_ROW_MAJOR, kN, kDim, x.data(), kDim, &params, rng,
                                    whole.data(), kDim, &a),
            DPCOV_OK);
  dpcov_rng_destroy(&rng);
  rng = seeded(12);
  dpcov_row_session *session = nullptr;
  ASSERT_EQ(dpcov_coinpress_session_create(&session, kN, kDim, &params, &rng), DPCOV_OK);
  run_passes(session, x);
  ASSERT_EQ(dpcov_coinpress_session_result(session, DPCOV_ROW_MAJOR, parted.data(), kDim, &b),
            DPCOV_OK);
  EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0);
  EXPECT_LE(max_abs_diff(whole, parted), 1e-10);
  dpcov_row_session_destroy(&session);
}

TEST(CapiRowPasses, BadArgumentsFailBeforeAnyDrawAndLeaveOutputsUntouched) {
  dpcov_dly_params params;
  dpcov_dly_params_default(&params);
  dpcov_rng *rng = seeded(3);
  dpcov_row_session *session = nullptr;
  EXPECT_EQ(dpcov_dly_session_create(nullptr, kN, kDim, &params, &rng), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_dly_session_create(&session, kN, kDim, &params, nullptr), DPCOV_E_NULL_POINTER);
  dpcov_rng *none = nullptr;
  EXPECT_EQ(dpcov_dly_session_create(&session, kN, kDim, &params, &none), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_dly_session_create(&session, 0, kDim, &params, &rng), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_dly_session_create(&session, kN, 0, &params, &rng), DPCOV_E_DIMENSION);
  params.rho = NAN;
  EXPECT_NE(dpcov_dly_session_create(&session, kN, kDim, &params, &rng), DPCOV_OK);
  params.rho = 0.1;
  params.variant = 9;
  EXPECT_EQ(dpcov_dly_session_create(&session, kN, kDim, &params, &rng), DPCOV_E_INVALID_ARGUMENT);
  dpcov_coinpress_params cp;
  dpcov_coinpress_params_default(&cp);  // K unset: refused
  EXPECT_NE(dpcov_coinpress_session_create(&session, kN, kDim, &cp, &rng), DPCOV_OK);
  EXPECT_EQ(dpcov_coinpress_session_create(&session, kN, kDim, nullptr, &rng),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(session, nullptr);
  ASSERT_NE(rng, nullptr);  // not taken by a failed call
  uint64_t word = 0;
  dpcov_rng *fresh = seeded(3);
  uint64_t expected = 0;
  dpcov_rng_next_u64(fresh, &expected);
  dpcov_rng_destroy(&fresh);
  dpcov_rng_next_u64(rng, &word);
  EXPECT_EQ(word, expected);  // nothing drawn

  params.variant = DPCOV_DLY_GAUSS;
  ASSERT_EQ(dpcov_dly_session_create(&session, kN, kDim, &params, &rng), DPCOV_OK);
  dpcov_row_partial *p = nullptr;
  EXPECT_EQ(dpcov_row_partial_create(nullptr, session), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_row_partial_create(&p, nullptr), DPCOV_E_NULL_POINTER);
  ASSERT_EQ(dpcov_row_partial_create(&p, session), DPCOV_OK);
  const std::vector<double> x = rows();
  EXPECT_EQ(dpcov_row_partial_add_rows(nullptr, DPCOV_ROW_MAJOR, 1, kDim, x.data(), kDim),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_row_partial_add_rows(p, 7, 1, kDim, x.data(), kDim), DPCOV_E_LAYOUT);
  EXPECT_EQ(dpcov_row_partial_add_rows(p, DPCOV_ROW_MAJOR, 1, kDim + 1, x.data(), kDim + 1),
            DPCOV_E_DIMENSION);
  EXPECT_EQ(dpcov_row_partial_add_rows(p, DPCOV_ROW_MAJOR, -1, kDim, x.data(), kDim),
            DPCOV_E_DIMENSION);
  EXPECT_EQ(dpcov_row_partial_add_rows(p, DPCOV_ROW_MAJOR, 1, kDim, nullptr, kDim),
            DPCOV_E_NULL_POINTER);
  const double bad[] = {0.1, NAN, 0.2};
  EXPECT_EQ(dpcov_row_partial_add_rows(p, DPCOV_ROW_MAJOR, 1, kDim, bad, kDim),
            DPCOV_E_NON_FINITE);
  EXPECT_EQ(dpcov_row_partial_add_rows(p, DPCOV_ROW_MAJOR, 0, kDim, nullptr, kDim), DPCOV_OK);
  EXPECT_EQ(dpcov_row_partial_merge(p, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_row_partial_merge(nullptr, p), DPCOV_E_NULL_POINTER);
  size_t size = 0;
  EXPECT_EQ(dpcov_row_partial_export(nullptr, nullptr, 0, &size), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_row_partial_export(p, nullptr, 0, nullptr), DPCOV_E_NULL_POINTER);
  ASSERT_EQ(dpcov_row_partial_export(p, nullptr, 0, &size), DPCOV_OK);
  std::vector<unsigned char> small(size - 1);
  size_t untouched = 77;
  EXPECT_EQ(dpcov_row_partial_export(p, small.data(), small.size(), &untouched),
            DPCOV_E_BUFFER_TOO_SMALL);
  EXPECT_EQ(untouched, 77u);

  // Not all n rows: refused before any draw, the partial kept, the session usable.
  ASSERT_EQ(dpcov_row_partial_add_rows(p, DPCOV_ROW_MAJOR, kN - 1, kDim, x.data(), kDim),
            DPCOV_OK);
  EXPECT_EQ(dpcov_row_session_finish_pass(session, &p), DPCOV_E_DIMENSION);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(dpcov_row_session_finish_pass(session, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_row_session_finish_pass(nullptr, &p), DPCOV_E_NULL_POINTER);
  std::vector<double> out(kDim * kDim, -7.0);
  dpcov_dly_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  EXPECT_EQ(dpcov_dly_session_result(session, DPCOV_ROW_MAJOR, out.data(), kDim, &receipt),
            DPCOV_E_INVALID_ARGUMENT);  // not done
  int32_t done = 5;
  EXPECT_EQ(dpcov_row_session_done(nullptr, &done), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_row_session_done(session, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(done, 5);

  // A partial of another session's pass does not finish this one.
  dpcov_rng *other_rng = seeded(4);
  dpcov_row_session *other = nullptr;
  params.radius = 2.0;
  ASSERT_EQ(dpcov_dly_session_create(&other, kN, kDim, &params, &other_rng), DPCOV_OK);
  dpcov_row_partial *q = nullptr;
  ASSERT_EQ(dpcov_row_partial_create(&q, other), DPCOV_OK);
  EXPECT_EQ(dpcov_row_partial_merge(p, q), DPCOV_E_INCOMPATIBLE);
  ASSERT_EQ(dpcov_row_partial_add_rows(q, DPCOV_ROW_MAJOR, kN, kDim, x.data(), kDim), DPCOV_OK);
  EXPECT_EQ(dpcov_row_session_finish_pass(session, &q), DPCOV_E_INCOMPATIBLE);
  ASSERT_EQ(dpcov_row_session_finish_pass(other, &q), DPCOV_OK);
  dpcov_row_session_destroy(&other);

  ASSERT_EQ(dpcov_row_partial_add_rows(p, DPCOV_ROW_MAJOR, 1, kDim, x.data(), kDim), DPCOV_OK);
  ASSERT_EQ(dpcov_row_session_finish_pass(session, &p), DPCOV_OK);
  EXPECT_EQ(dpcov_row_partial_create(&p, session), DPCOV_E_INVALID_ARGUMENT);  // done
  dpcov_coinpress_receipt cr{};
  cr.struct_size = sizeof cr;
  EXPECT_EQ(dpcov_coinpress_session_result(session, DPCOV_ROW_MAJOR, out.data(), kDim, &cr),
            DPCOV_E_INVALID_ARGUMENT);  // a Dong-Liang-Yi session
  EXPECT_EQ(dpcov_dly_session_result(session, DPCOV_ROW_MAJOR, out.data(), kDim - 1, &receipt),
            DPCOV_E_LAYOUT);
  EXPECT_EQ(dpcov_dly_session_result(session, DPCOV_ROW_MAJOR, out.data(), kDim, nullptr),
            DPCOV_E_NULL_POINTER);
  for (double v : out) EXPECT_EQ(v, -7.0);
  EXPECT_EQ(dpcov_dly_session_result(session, DPCOV_ROW_MAJOR, out.data(), kDim, &receipt),
            DPCOV_OK);
  dpcov_row_session_destroy(&session);
  dpcov_row_session_destroy(nullptr);
  dpcov_row_partial_destroy(nullptr);
}

TEST(CapiRowPasses, ImportRefusesBadBytes) {
  dpcov_dly_params params;
  dpcov_dly_params_default(&params);
  dpcov_rng *rng = seeded(5);
  dpcov_row_session *session = nullptr;
  ASSERT_EQ(dpcov_dly_session_create(&session, kN, kDim, &params, &rng), DPCOV_OK);
  dpcov_row_partial *p = nullptr;
  ASSERT_EQ(dpcov_row_partial_create(&p, session), DPCOV_OK);
  const std::vector<double> x = rows();
  ASSERT_EQ(dpcov_row_partial_add_rows(p, DPCOV_COL_MAJOR, kDim, kDim, x.data(), kDim), DPCOV_OK);
  const std::vector<unsigned char> good = exported(p);
  dpcov_row_partial *q = nullptr;
  EXPECT_EQ(dpcov_row_partial_import(nullptr, good.data(), good.size()), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_row_partial_import(&q, nullptr, good.size()), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_row_partial_import(&q, good.data(), good.size() - 1), DPCOV_E_INVALID_ARGUMENT);
  for (size_t k = 0; k < good.size(); k += 13) {
    std::vector<unsigned char> flipped = good;
    flipped[k] ^= 0x10;
    EXPECT_NE(dpcov_row_partial_import(&q, flipped.data(), flipped.size()), DPCOV_OK) << k;
  }
  EXPECT_EQ(q, nullptr);
  ASSERT_EQ(dpcov_row_partial_import(&q, good.data(), good.size()), DPCOV_OK);
  EXPECT_EQ(exported(q), good);
  dpcov_row_partial_destroy(&q);
  dpcov_row_partial_destroy(&p);
  dpcov_row_session_destroy(&session);
}

}  // namespace
