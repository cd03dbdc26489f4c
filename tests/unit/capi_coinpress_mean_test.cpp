// The C ABI of CoinPress mean estimation (dpcov/coinpress.h): every argument validated before any
// work, outputs and generator untouched on failure, sizes checked in bytes, layouts equivalent.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "dpcov.h"

namespace {

struct Fixture {
  dpcov_rng *rng = nullptr;
  dpcov_coinpress_mean_params params{};
  dpcov_coinpress_mean_receipt receipt{};
  std::vector<double> rows;  // 200 x 3, row-major
  std::vector<double> centre = {0.5, -0.5, 0.0};
  std::vector<double> out = std::vector<double>(3, -7.0);
  Fixture() {
    dpcov_rng_create_seeded(&rng, 9, 0);
    dpcov_coinpress_mean_params_default(&params);
    params.radius = 10.0;
    receipt.struct_size = sizeof receipt;
    for (int i = 0; i < 600; ++i) rows.push_back(3.0 + std::sin(0.7 * i) * 2.0);
  }
  ~Fixture() { dpcov_rng_destroy(&rng); }
  dpcov_status release(int32_t layout, int64_t n, int64_t dim, const double *r, int64_t ldr,
                       const double *c, const dpcov_coinpress_mean_params *p, dpcov_rng *g,
                       double *m, dpcov_coinpress_mean_receipt *rec) {
    return dpcov_coinpress_mean_release(layout, n, dim, r, ldr, c, p, g, m, rec);
  }
  dpcov_status release() {
    return dpcov_coinpress_mean_release(DPCOV_ROW_MAJOR, 200, 3, rows.data(), 3, centre.data(),
                                        &params, rng, out.data(), &receipt);
  }
  uint64_t next_word() {
    uint64_t u = 0;
    dpcov_rng_next_u64(rng, &u);
    return u;
  }
};

TEST(CapiCoinpressMean, DefaultsAreTheAuthorsSettingsWithTheRadiusRequired) {
  dpcov_coinpress_mean_params p;
  ASSERT_EQ(dpcov_coinpress_mean_params_default(&p), DPCOV_OK);
  EXPECT_EQ(p.struct_size, sizeof p);
  EXPECT_EQ(p.rho, 0.5);
  EXPECT_EQ(p.steps, 3);
  EXPECT_EQ(p.beta, 0.01);
  EXPECT_EQ(p.scale, 1.0);
  EXPECT_EQ(p.radius, -1.0);
  EXPECT_EQ(dpcov_coinpress_mean_params_default(nullptr), DPCOV_E_NULL_POINTER);
  dpcov_coinpress_mean_receipt r{};
  r.struct_size = sizeof r;
  EXPECT_EQ(dpcov_coinpress_mean_plan(100, 3, &p, &r), DPCOV_E_INVALID_ARGUMENT);  // r unset
}

TEST(CapiCoinpressMean, PlanFillsEveryConstant) {
  Fixture f;
  f.params.radius = 10.0 * std::sqrt(50.0);
  ASSERT_EQ(dpcov_coinpress_mean_plan(1000, 50, &f.params, &f.receipt), DPCOV_OK);
  EXPECT_EQ(f.receipt.steps, 3);
  EXPECT_EQ(f.receipt.step_rho[0], 0.0625);
  EXPECT_EQ(f.receipt.step_rho[2], 0.375);
  EXPECT_EQ(f.receipt.step_rho[3], 0.0);
  EXPECT_EQ(f.receipt.step_clip_radius[3], 0.0);
  EXPECT_GT(f.receipt.step_clip_radius[0], f.receipt.step_clip_radius[1]);
  EXPECT_GT(f.receipt.step_clip_radius[1], f.receipt.step_clip_radius[2]);
  for (int i = 0; i < 3; ++i)
    EXPECT_GE(f.receipt.step_sigma[i],
              std::sqrt(2.0) * f.receipt.step_clip_radius[i] / (1000 * std::sqrt(f.receipt.step_rho[i])));
  EXPECT_GT(f.receipt.epsilon, 5.2215344445);
  EXPECT_LT(f.receipt.epsilon, 5.2215344446);
  EXPECT_EQ(f.receipt.seed_fixed, 0);
}

TEST(CapiCoinpressMean, BadArgumentsFailBeforeAnyWork) {
  Fixture f;
  const uint64_t u0 = [] {
    Fixture g;
    return g.next_word();
  }();
  const dpcov_coinpress_mean_receipt before = f.receipt;
  auto expect_untouched = [&](dpcov_status got, dpcov_status want) {
    EXPECT_EQ(got, want) << dpcov_last_error_message();
    EXPECT_NE(dpcov_last_error_message()[0], '\0');
    for (double v : f.out) EXPECT_EQ(v, -7.0);
    EXPECT_EQ(f.receipt.dim, before.dim);
  };
  const double *rows = f.rows.data();
  const double *c = f.centre.data();
  double *out = f.out.data();
  auto *p = &f.params;
  auto *r = &f.receipt;
  expect_untouched(f.release(DPCOV_ROW_MAJOR, 200, 3, nullptr, 3, c, p, f.rng, out, r),
                   DPCOV_E_NULL_POINTER);
  expect_untouched(f.release(DPCOV_ROW_MAJOR, 200, 3, rows, 3, c, nullptr, f.rng, out, r),
                   DPCOV_E_NULL_POINTER);
  expect_untouched(f.release(DPCOV_ROW_MAJOR, 200, 3, rows, 3, c, p, nullptr, out, r),
                   DPCOV_E_NULL_POINTER);
  expect_untouched(f.release(DPCOV_ROW_MAJOR, 200, 3, rows, 3, c, p, f.rng, nullptr, r),
                   DPCOV_E_NULL_POINTER);
  expect_untouched(f.release(DPCOV_ROW_MAJOR, 200, 3, rows, 3, c, p, f.rng, out, nullptr),
                   DPCOV_E_NULL_POINTER);
  expect_untouched(f.release(7, 200, 3, rows, 3, c, p, f.rng, out, r), DPCOV_E_LAYOUT);
  expect_untouched(f.release(DPCOV_ROW_MAJOR, 200, 3, rows, 2, c, p, f.rng, out, r),
                   DPCOV_E_LAYOUT);
  expect_untouched(f.release(DPCOV_COL_MAJOR, 200, 3, rows, 100, c, p, f.rng, out, r),
                   DPCOV_E_LAYOUT);
  expect_untouched(f.release(DPCOV_ROW_MAJOR, 0, 3, rows, 3, c, p, f.rng, out, r),
                   DPCOV_E_INVALID_ARGUMENT);
  expect_untouched(f.release(DPCOV_ROW_MAJOR, 200, 0, rows, 3, c, p, f.rng, out, r),
                   DPCOV_E_DIMENSION);
  // Extents whose size in bytes overflows (n * ldr * 8 > PTRDIFF_MAX).
  expect_untouched(f.release(DPCOV_ROW_MAJOR, INT64_C(1) << 40, 3, rows, INT64_C(1) << 30, c, p,
                             f.rng, out, r),
                   DPCOV_E_TOO_LARGE);
  for (double rho : {0.0, -1.0, std::nan(""), HUGE_VAL}) {
    dpcov_coinpress_mean_params q = f.params;
    q.rho = rho;
    EXPECT_NE(f.release(DPCOV_ROW_MAJOR, 200, 3, rows, 3, c, &q, f.rng, out, r), DPCOV_OK);
  }
  // (r = 1e308 and s = 1e300 are valid settings: their radii are computed scaled, no longer
  // refused because r^2 or s^2 overflowed; proofs/check/coinpress_mean.py plans them.)
  for (double radius : {-1.0, -1e-300, std::nan(""), HUGE_VAL}) {
    dpcov_coinpress_mean_params q = f.params;
    q.radius = radius;
    EXPECT_NE(f.release(DPCOV_ROW_MAJOR, 200, 3, rows, 3, c, &q, f.rng, out, r), DPCOV_OK)
        << radius;
  }
  for (double scale : {0.0, -1.0, std::nan(""), HUGE_VAL}) {
    dpcov_coinpress_mean_params q = f.params;
    q.scale = scale;
    EXPECT_NE(f.release(DPCOV_ROW_MAJOR, 200, 3, rows, 3, c, &q, f.rng, out, r), DPCOV_OK)
        << scale;
  }
  for (int64_t t : {0, -1, DPCOV_COINPRESS_MAX_STEPS + 1}) {
    dpcov_coinpress_mean_params q = f.params;
    q.steps = t;
    expect_untouched(f.release(DPCOV_ROW_MAJOR, 200, 3, rows, 3, c, &q, f.rng, out, r),
                     DPCOV_E_INVALID_ARGUMENT);
  }
  for (double beta : {0.0, 1.0, std::nan("")}) {
    dpcov_coinpress_mean_params q = f.params;
    q.beta = beta;
    EXPECT_NE(f.release(DPCOV_ROW_MAJOR, 200, 3, rows, 3, c, &q, f.rng, out, r), DPCOV_OK);
  }
  for (double delta : {0.0, 1.0, std::nan("")}) {
    dpcov_coinpress_mean_params q = f.params;
    q.delta = delta;
    EXPECT_NE(f.release(DPCOV_ROW_MAJOR, 200, 3, rows, 3, c, &q, f.rng, out, r), DPCOV_OK);
  }
  dpcov_coinpress_mean_params small = f.params;
  small.struct_size = 8;
  expect_untouched(f.release(DPCOV_ROW_MAJOR, 200, 3, rows, 3, c, &small, f.rng, out, r),
                   DPCOV_E_INVALID_ARGUMENT);
  f.receipt.struct_size = 8;
  expect_untouched(f.release(), DPCOV_E_INVALID_ARGUMENT);
  f.receipt.struct_size = sizeof f.receipt;
  f.centre[1] = INFINITY;
  expect_untouched(f.release(), DPCOV_E_NON_FINITE);
  f.centre[1] = -0.5;
  f.rows[5] = NAN;
  expect_untouched(f.release(), DPCOV_E_NON_FINITE);
  EXPECT_EQ(f.next_word(), u0);  // no failed call advanced the generator
}

// A tiny budget against a large radius: sigma overflows, and the plan fails instead of returning
// an infinite noise scale with DPCOV_OK (found by fuzz_solvers; seed coinpress-mean-sigma-overflow).
TEST(CapiCoinpressMean, AnOverflowingNoiseScaleIsRefused) {
  Fixture f;
  f.params.rho = 1e-300;
  f.params.radius = 1e200;
  f.params.steps = 1;
  EXPECT_EQ(dpcov_coinpress_mean_plan(1, 3, &f.params, &f.receipt), DPCOV_E_NUMERICAL)
      << dpcov_last_error_message();
  EXPECT_EQ(f.receipt.dim, 0);
}

// A step's noisy centre that overflows (a centre at -DBL_MAX, a huge scale) fails as a numerical
// failure after the draw, with the generator advanced: the next step's offsets from it were
// infinite and the release failed with DPCOV_E_NON_FINITE ("row 0 ... is inf"), a status that
// ledgers (the CLI's, Python's accountant) do not charge, as if nothing had been drawn (found by
// the zcdp_extreme property test).
TEST(CapiCoinpressMean, AStepWhoseCentreOverflowsFailsAsNumericalAfterItsDraw) {
  dpcov_coinpress_mean_params p;
  ASSERT_EQ(dpcov_coinpress_mean_params_default(&p), DPCOV_OK);
  p.rho = 0.001;
  p.radius = 0.0;
  p.scale = 1e300;
  p.steps = 2;
  p.beta = 1e-300;
  p.delta = 0.5;
  const double row = 0.0, centre = -1.7976931348623157e308;
  int numerical = 0;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    dpcov_rng *rng = nullptr;
    ASSERT_EQ(dpcov_rng_create_seeded(&rng, seed, 0), DPCOV_OK);
    uint64_t fresh = 0;
    {
      dpcov_rng *twin = nullptr;
      ASSERT_EQ(dpcov_rng_create_seeded(&twin, seed, 0), DPCOV_OK);
      ASSERT_EQ(dpcov_rng_next_u64(twin, &fresh), DPCOV_OK);
      dpcov_rng_destroy(&twin);
    }
    double mean = -7.0;
    dpcov_coinpress_mean_receipt receipt{};
    receipt.struct_size = sizeof receipt;
    const dpcov_status status = dpcov_coinpress_mean_release(
        DPCOV_ROW_MAJOR, 1, 1, &row, 1, &centre, &p, rng, &mean, &receipt);
    uint64_t next = 0;
    ASSERT_EQ(dpcov_rng_next_u64(rng, &next), DPCOV_OK);
    dpcov_rng_destroy(&rng);
    if (status == DPCOV_OK) {
      EXPECT_TRUE(std::isfinite(mean));
      continue;
    }
    EXPECT_EQ(status, DPCOV_E_NUMERICAL) << seed << ": " << dpcov_last_error_message();
    EXPECT_EQ(mean, -7.0);
    EXPECT_NE(next, fresh);  // the noise drawn is consumed
    ++numerical;
  }
  EXPECT_GT(numerical, 0);
}

TEST(CapiCoinpressMean, LayoutsAndANullCentreGiveTheSameRelease) {
  Fixture a;
  a.centre = {0.0, 0.0, 0.0};
  ASSERT_EQ(a.release(), DPCOV_OK);
  EXPECT_EQ(a.receipt.seed_fixed, 1);
  for (double v : a.out) EXPECT_TRUE(std::isfinite(v));
  Fixture b;
  std::vector<double> col(600);
  for (int i = 0; i < 200; ++i)
    for (int j = 0; j < 3; ++j)
      col[static_cast<size_t>(i + 200 * j)] = b.rows[static_cast<size_t>(3 * i + j)];
  ASSERT_EQ(dpcov_coinpress_mean_release(DPCOV_COL_MAJOR, 200, 3, col.data(), 200, nullptr,
                                         &b.params, b.rng, b.out.data(), &b.receipt),
            DPCOV_OK);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(a.out[static_cast<size_t>(i)], b.out[static_cast<size_t>(i)], 1e-12);
}

// Rows near the largest double, far from the centre: x - c overflows, yet the projection is
// finite and the release is the same as for rows merely far away in the same directions.
TEST(CapiCoinpressMean, RowsWhoseOffsetOverflowsAreProjected) {
  Fixture f;
  f.centre = {-1e308, 0.0, 0.0};
  for (int i = 0; i < 200; ++i) f.rows[static_cast<size_t>(3 * i)] = 1.7e308;
  f.params.radius = 1.0;
  f.params.steps = 1;
  ASSERT_EQ(f.release(), DPCOV_OK) << dpcov_last_error_message();
  for (double v : f.out) EXPECT_TRUE(std::isfinite(v));
}

// A radius near the largest double, where n R overflows: three rows at +8e307 summed to infinity,
// so the release refused (DPCOV_E_NUMERICAL, after its draw) on them and succeeded on the
// neighbour with one row at -8e307, whatever the seed: the refusal told the two apart. Both release
// now, with the mean within a few sigma of the projected rows' (R = 7e307, sigma about 3.3e305).
TEST(CapiCoinpressMean, AnOverflowingSumOfRowsIsNotARefusalThatTellsNeighboursApart) {
  dpcov_coinpress_mean_params p;
  ASSERT_EQ(dpcov_coinpress_mean_params_default(&p), DPCOV_OK);
  p.radius = 7e307;
  p.steps = 1;
  p.rho = 1e4;
  const double same_side[3] = {8e307, 8e307, 8e307}, flipped[3] = {8e307, 8e307, -8e307};
  for (uint64_t seed = 1; seed <= 20; ++seed)
    for (const double *rows : {same_side, flipped}) {
      dpcov_rng *rng = nullptr;
      ASSERT_EQ(dpcov_rng_create_seeded(&rng, seed, 0), DPCOV_OK);
      dpcov_coinpress_mean_receipt r{};
      r.struct_size = sizeof r;
      double mean = -7.0;
      ASSERT_EQ(dpcov_coinpress_mean_release(DPCOV_ROW_MAJOR, 3, 1, rows, 1, nullptr, &p, rng,
                                             &mean, &r),
                DPCOV_OK)
          << dpcov_last_error_message();
      const double projected = rows == same_side ? 7e307 : 7e307 / 3;
      EXPECT_NEAR(mean, projected, 8 * r.step_sigma[0]);
      dpcov_rng_destroy(&rng);
    }
}

TEST(CapiCoinpressMean, TheCentringSplitGivesAnEighthToTheMean) {
  double mean_share = -1.0, covariance_share = -1.0;
  ASSERT_EQ(dpcov_coinpress_centring_split(0.5, &mean_share, &covariance_share), DPCOV_OK);
  EXPECT_EQ(mean_share, 0.0625);
  EXPECT_EQ(covariance_share, 0.4375);
  ASSERT_EQ(dpcov_coinpress_centring_split(0.1, &mean_share, &covariance_share), DPCOV_OK);
  EXPECT_LE(mean_share, 0.1 / 8);
  EXPECT_LE(static_cast<long double>(mean_share) + covariance_share, 0.1L);
  double untouched = -3.0;
  EXPECT_EQ(dpcov_coinpress_centring_split(0.5, nullptr, &untouched), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_coinpress_centring_split(0.5, &untouched, nullptr), DPCOV_E_NULL_POINTER);
  for (double rho : {0.0, -1.0, std::nan(""), HUGE_VAL})
    EXPECT_NE(dpcov_coinpress_centring_split(rho, &untouched, &untouched), DPCOV_OK);
  // A subnormal rho whose eighth rounds down to 0: refused, not a zero budget with DPCOV_OK
  // (found by fuzz_solvers).
  for (double rho : {4.9406564584124654e-324, 2.9643938750474793e-323})
    EXPECT_EQ(dpcov_coinpress_centring_split(rho, &untouched, &untouched), DPCOV_E_NUMERICAL);
  EXPECT_EQ(untouched, -3.0);
}

// The plan's rho, epsilon and delta are what a budget ledger charges: under zCDP accounting the
// rho of the whole t-step release, checked before any data is read.
TEST(CapiCoinpressMean, ThePlanIsWhatTheZcdpLedgerCharges) {
  Fixture f;
  ASSERT_EQ(dpcov_coinpress_mean_plan(200, 3, &f.params, &f.receipt), DPCOV_OK);
  dpcov_ledger *ledger = nullptr;
  ASSERT_EQ(dpcov_ledger_create(&ledger, DPCOV_ACCOUNTING_ZCDP, 8.0, 1e-5), DPCOV_OK);
  ASSERT_EQ(dpcov_ledger_check_zcdp(ledger, f.receipt.rho, f.receipt.epsilon, f.receipt.delta),
            DPCOV_OK);
  ASSERT_EQ(f.release(), DPCOV_OK);
  ASSERT_EQ(dpcov_ledger_charge_zcdp(ledger, f.receipt.rho, f.receipt.epsilon, f.receipt.delta),
            DPCOV_OK);
  dpcov_ledger_spent spent{};
  spent.struct_size = sizeof spent;
  ASSERT_EQ(dpcov_ledger_get_spent(ledger, &spent), DPCOV_OK);
  EXPECT_EQ(spent.rho, 0.5);
  // A second release at rho = 4 would exceed the cap: refused, the ledger unchanged.
  dpcov_coinpress_mean_params big = f.params;
  big.rho = 4.0;
  dpcov_coinpress_mean_receipt planned{};
  planned.struct_size = sizeof planned;
  ASSERT_EQ(dpcov_coinpress_mean_plan(200, 3, &big, &planned), DPCOV_OK);
  EXPECT_EQ(dpcov_ledger_charge_zcdp(ledger, planned.rho, planned.epsilon, planned.delta),
            DPCOV_E_PRECONDITION);
  ASSERT_EQ(dpcov_ledger_get_spent(ledger, &spent), DPCOV_OK);
  EXPECT_EQ(spent.charges, 1);
  dpcov_ledger_destroy(&ledger);
}

}  // namespace
