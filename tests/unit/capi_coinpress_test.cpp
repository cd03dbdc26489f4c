// The C ABI of CoinPress and the zCDP conversion: every argument validated before any work,
// outputs and generator untouched on failure, layouts equivalent.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

struct Fixture {
  dpcov_rng *rng = nullptr;
  dpcov_coinpress_params params{};
  dpcov_coinpress_receipt receipt{};
  std::vector<double> rows;  // 200 x 3, row-major
  std::vector<double> out = std::vector<double>(9, -7.0);
  Fixture() {
    dpcov_rng_create_seeded(&rng, 9, 0);
    dpcov_coinpress_params_default(&params);
    params.k_bound = 10.0;
    receipt.struct_size = sizeof receipt;
    for (int i = 0; i < 600; ++i) rows.push_back(std::sin(0.7 * i) * 2.0);
  }
  ~Fixture() { dpcov_rng_destroy(&rng); }
  dpcov_status release() {
    return dpcov_coinpress_release(DPCOV_ROW_MAJOR, 200, 3, rows.data(), 3, &params, rng,
                                   out.data(), 3, &receipt);
  }
  uint64_t next_word() {
    uint64_t u = 0;
    dpcov_rng_next_u64(rng, &u);
    return u;
  }
};

TEST(CapiCoinpress, DefaultsAreTheAuthorsSettingsWithKRequired) {
  dpcov_coinpress_params p;
  ASSERT_EQ(dpcov_coinpress_params_default(&p), DPCOV_OK);
  EXPECT_EQ(p.struct_size, sizeof p);
  EXPECT_EQ(p.rho, 0.5);
  EXPECT_EQ(p.steps, 3);
  EXPECT_EQ(p.beta, 0.1);
  EXPECT_EQ(p.k_bound, 0.0);
  EXPECT_EQ(dpcov_coinpress_params_default(nullptr), DPCOV_E_NULL_POINTER);
  dpcov_coinpress_receipt r{};
  r.struct_size = sizeof r;
  EXPECT_EQ(dpcov_coinpress_plan(100, 3, &p, &r), DPCOV_E_INVALID_ARGUMENT);  // K unset
}

TEST(CapiCoinpress, PlanFillsEveryConstant) {
  Fixture f;
  ASSERT_EQ(dpcov_coinpress_plan(3000, 10, &f.params, &f.receipt), DPCOV_OK);
  EXPECT_EQ(f.receipt.steps, 3);
  EXPECT_EQ(f.receipt.step_rho[0], 0.0625);
  EXPECT_EQ(f.receipt.step_rho[2], 0.375);
  EXPECT_EQ(f.receipt.step_rho[3], 0.0);
  EXPECT_NEAR(f.receipt.clip_radius, 4.919575389234751, 1e-14);
  EXPECT_GT(f.receipt.step_sigma[0], f.receipt.step_sigma[2]);
  EXPECT_GT(f.receipt.epsilon, 5.2215344445);
  EXPECT_LT(f.receipt.epsilon, 5.2215344446);
  EXPECT_EQ(f.receipt.seed_fixed, 0);
}

TEST(CapiCoinpress, BadArgumentsFailBeforeAnyWork) {
  Fixture f;
  const uint64_t u0 = [] {
    Fixture g;
    return g.next_word();
  }();
  auto expect_untouched = [&](dpcov_status got, dpcov_status want) {
    EXPECT_EQ(got, want) << dpcov_last_error_message();
    for (double v : f.out) EXPECT_EQ(v, -7.0);
  };
  expect_untouched(dpcov_coinpress_release(DPCOV_ROW_MAJOR, 200, 3, nullptr, 3, &f.params, f.rng,
                                           f.out.data(), 3, &f.receipt),
                   DPCOV_E_NULL_POINTER);
  expect_untouched(dpcov_coinpress_release(DPCOV_ROW_MAJOR, 200, 3, f.rows.data(), 3, nullptr,
                                           f.rng, f.out.data(), 3, &f.receipt),
                   DPCOV_E_NULL_POINTER);
  expect_untouched(dpcov_coinpress_release(DPCOV_ROW_MAJOR, 200, 3, f.rows.data(), 3, &f.params,
                                           nullptr, f.out.data(), 3, &f.receipt),
                   DPCOV_E_NULL_POINTER);
  expect_untouched(dpcov_coinpress_release(DPCOV_ROW_MAJOR, 200, 3, f.rows.data(), 3, &f.params,
                                           f.rng, nullptr, 3, &f.receipt),
                   DPCOV_E_NULL_POINTER);
  expect_untouched(dpcov_coinpress_release(DPCOV_ROW_MAJOR, 200, 3, f.rows.data(), 3, &f.params,
                                           f.rng, f.out.data(), 3, nullptr),
                   DPCOV_E_NULL_POINTER);
  expect_untouched(dpcov_coinpress_release(7, 200, 3, f.rows.data(), 3, &f.params, f.rng,
                                           f.out.data(), 3, &f.receipt),
                   DPCOV_E_LAYOUT);
  expect_untouched(dpcov_coinpress_release(DPCOV_ROW_MAJOR, 200, 3, f.rows.data(), 2, &f.params,
                                           f.rng, f.out.data(), 3, &f.receipt),
                   DPCOV_E_LAYOUT);
  expect_untouched(dpcov_coinpress_release(DPCOV_ROW_MAJOR, 200, 3, f.rows.data(), 3, &f.params,
                                           f.rng, f.out.data(), 2, &f.receipt),
                   DPCOV_E_LAYOUT);
  expect_untouched(dpcov_coinpress_release(DPCOV_ROW_MAJOR, 0, 3, f.rows.data(), 3, &f.params,
                                           f.rng, f.out.data(), 3, &f.receipt),
                   DPCOV_E_INVALID_ARGUMENT);
  expect_untouched(dpcov_coinpress_release(DPCOV_ROW_MAJOR, 200, 0, f.rows.data(), 3, &f.params,
                                           f.rng, f.out.data(), 3, &f.receipt),
                   DPCOV_E_DIMENSION);
  for (double rho : {0.0, -1.0, std::nan(""), HUGE_VAL}) {
    dpcov_coinpress_params p = f.params;
    p.rho = rho;
    EXPECT_NE(dpcov_coinpress_release(DPCOV_ROW_MAJOR, 200, 3, f.rows.data(), 3, &p, f.rng,
                                      f.out.data(), 3, &f.receipt),
              DPCOV_OK);
  }
  for (double k : {0.0, 0.99, std::nan(""), HUGE_VAL}) {
    dpcov_coinpress_params p = f.params;
    p.k_bound = k;
    EXPECT_NE(dpcov_coinpress_release(DPCOV_ROW_MAJOR, 200, 3, f.rows.data(), 3, &p, f.rng,
                                      f.out.data(), 3, &f.receipt),
              DPCOV_OK);
  }
  for (int64_t t : {0, -1, DPCOV_COINPRESS_MAX_STEPS + 1}) {
    dpcov_coinpress_params p = f.params;
    p.steps = t;
    expect_untouched(dpcov_coinpress_release(DPCOV_ROW_MAJOR, 200, 3, f.rows.data(), 3, &p, f.rng,
                                             f.out.data(), 3, &f.receipt),
                     DPCOV_E_INVALID_ARGUMENT);
  }
  for (double beta : {0.0, 1.0, std::nan("")}) {
    dpcov_coinpress_params p = f.params;
    p.beta = beta;
    EXPECT_NE(dpcov_coinpress_release(DPCOV_ROW_MAJOR, 200, 3, f.rows.data(), 3, &p, f.rng,
                                      f.out.data(), 3, &f.receipt),
              DPCOV_OK);
  }
  for (double delta : {0.0, 1.0, std::nan("")}) {
    dpcov_coinpress_params p = f.params;
    p.delta = delta;
    EXPECT_NE(dpcov_coinpress_release(DPCOV_ROW_MAJOR, 200, 3, f.rows.data(), 3, &p, f.rng,
                                      f.out.data(), 3, &f.receipt),
              DPCOV_OK);
  }
  dpcov_coinpress_params small = f.params;
  small.struct_size = 8;
  expect_untouched(dpcov_coinpress_release(DPCOV_ROW_MAJOR, 200, 3, f.rows.data(), 3, &small,
                                           f.rng, f.out.data(), 3, &f.receipt),
                   DPCOV_E_INVALID_ARGUMENT);
  f.receipt.struct_size = 8;
  expect_untouched(f.release(), DPCOV_E_INVALID_ARGUMENT);
  f.receipt.struct_size = sizeof f.receipt;
  f.rows[5] = NAN;
  expect_untouched(f.release(), DPCOV_E_NON_FINITE);
  for (double v : f.out) EXPECT_EQ(v, -7.0);
  EXPECT_EQ(f.next_word(), u0);  // no failed call advanced the generator
}

TEST(CapiCoinpress, LayoutsGiveTheSameRelease) {
  Fixture a;
  ASSERT_EQ(a.release(), DPCOV_OK);
  EXPECT_EQ(a.receipt.seed_fixed, 1);
  Fixture b;
  std::vector<double> col(600);
  for (int i = 0; i < 200; ++i)
    for (int j = 0; j < 3; ++j) col[static_cast<size_t>(i + 200 * j)] = b.rows[static_cast<size_t>(3 * i + j)];
  ASSERT_EQ(dpcov_coinpress_release(DPCOV_COL_MAJOR, 200, 3, col.data(), 200, &b.params, b.rng,
                                    b.out.data(), 3, &b.receipt),
            DPCOV_OK);
  for (int i = 0; i < 9; ++i) EXPECT_NEAR(a.out[static_cast<size_t>(i)], b.out[static_cast<size_t>(i)], 1e-12);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(a.out[static_cast<size_t>(3 * i + j)], a.out[static_cast<size_t>(3 * j + i)]);
}

TEST(CapiCoinpress, ZcdpConversions) {
  double eps = 0.0;
  ASSERT_EQ(dpcov_zcdp_epsilon(0.5, 1e-6, &eps), DPCOV_OK);
  EXPECT_NEAR(eps, 5.2215344445301690534, 1e-8);
  double rho = 0.0;
  ASSERT_EQ(dpcov_zcdp_rho(1.0, 1e-6, &rho), DPCOV_OK);
  EXPECT_NEAR(rho, 0.024355970359538372796, 1e-12);
  double untouched = -3.0;
  EXPECT_EQ(dpcov_zcdp_epsilon(0.5, 1e-6, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_NE(dpcov_zcdp_epsilon(0.0, 1e-6, &untouched), DPCOV_OK);
  EXPECT_NE(dpcov_zcdp_epsilon(NAN, 1e-6, &untouched), DPCOV_OK);
  EXPECT_NE(dpcov_zcdp_epsilon(0.5, 1.0, &untouched), DPCOV_OK);
  EXPECT_EQ(dpcov_zcdp_rho(1.0, 1e-6, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_NE(dpcov_zcdp_rho(-1.0, 1e-6, &untouched), DPCOV_OK);
  EXPECT_NE(dpcov_zcdp_rho(INFINITY, 1e-6, &untouched), DPCOV_OK);
  EXPECT_NE(dpcov_zcdp_rho(1.0, 0.0, &untouched), DPCOV_OK);
  EXPECT_EQ(untouched, -3.0);
}

}  // namespace

namespace {

// A refusal after the first draw is an output: the noise drawn is consumed, and the generator is
// not rewound (K = DBL_MAX and rho = 1e-300, one step: the noise, sigma about 1e149, is drawn,
// then the estimate K Z overflows).
TEST(CapiCoinpress, AFailureAfterTheDrawLeavesTheGeneratorAdvanced) {
  Fixture f;
  const uint64_t first = [] {
    Fixture g;
    return g.next_word();
  }();
  f.params.k_bound = 1.7976931348623157e308;
  f.params.rho = 1e-300;
  f.params.steps = 1;
  ASSERT_EQ(dpcov_coinpress_plan(200, 3, &f.params, &f.receipt), DPCOV_OK);
  EXPECT_EQ(f.release(), DPCOV_E_NUMERICAL) << dpcov_last_error_message();
  for (double v : f.out) EXPECT_EQ(v, -7.0);
  EXPECT_NE(f.next_word(), first);
}

}  // namespace

namespace {

// A subnormal rho whose step shares round down to 0: refused as too small to split, naming the
// caller's rho (the message was "rho must be finite and > 0, got 0", a value never given).
TEST(CapiCoinpress, ARhoTooSmallToSplitIsRefusedByName) {
  Fixture f;
  f.params.rho = 4.9406564584124654e-324;
  EXPECT_EQ(dpcov_coinpress_plan(200, 3, &f.params, &f.receipt), DPCOV_E_NUMERICAL);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("too small to split over 3 steps"),
            std::string::npos)
      << dpcov_last_error_message();
  dpcov_coinpress_mean_params m;
  ASSERT_EQ(dpcov_coinpress_mean_params_default(&m), DPCOV_OK);
  m.radius = 1.0;
  m.rho = 4.9406564584124654e-324;
  dpcov_coinpress_mean_receipt r{};
  r.struct_size = sizeof r;
  EXPECT_EQ(dpcov_coinpress_mean_plan(200, 3, &m, &r), DPCOV_E_NUMERICAL);
  EXPECT_EQ(r.dim, 0);
  f.params.steps = 1;  // one step spends rho itself: planned, with a finite sigma
  EXPECT_EQ(dpcov_coinpress_plan(200, 3, &f.params, &f.receipt), DPCOV_OK);
  EXPECT_TRUE(std::isfinite(f.receipt.step_sigma[0]));
}

}  // namespace
