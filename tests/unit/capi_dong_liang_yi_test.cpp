// The C ABI of the Dong-Liang-Yi mechanisms: validation before any work, outputs and generator
// untouched on failure, layouts equivalent, receipts.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "dpcov.h"

namespace {

struct Fixture {
  dpcov_rng *rng = nullptr;
  dpcov_dly_params params{};
  dpcov_dly_receipt receipt{};
  std::vector<double> rows;  // 100 x 3, row-major, norms <= 0.6
  std::vector<double> out = std::vector<double>(9, -7.0);
  Fixture() {
    dpcov_rng_create_seeded(&rng, 9, 0);
    dpcov_dly_params_default(&params);
    receipt.struct_size = sizeof receipt;
    for (int i = 0; i < 300; ++i) rows.push_back(0.3 * std::sin(0.7 * i));
  }
  ~Fixture() { dpcov_rng_destroy(&rng); }
  dpcov_status release(const dpcov_dly_params *p) {
    return dpcov_dly_release(DPCOV_ROW_MAJOR, 100, 3, rows.data(), 3, p, rng, out.data(), 3,
                             &receipt);
  }
  uint64_t next_word() {
    uint64_t u = 0;
    dpcov_rng_next_u64(rng, &u);
    return u;
  }
};

TEST(CapiDly, DefaultsAndPlan) {
  dpcov_dly_params p;
  ASSERT_EQ(dpcov_dly_params_default(&p), DPCOV_OK);
  EXPECT_EQ(p.variant, DPCOV_DLY_ADAPTIVE);
  EXPECT_EQ(p.rho, 0.1);
  EXPECT_EQ(p.radius, 1.0);
  EXPECT_EQ(dpcov_dly_params_default(nullptr), DPCOV_E_NULL_POINTER);
  dpcov_dly_receipt r{};
  r.struct_size = sizeof r;
  ASSERT_EQ(dpcov_dly_plan(1000, 10, nullptr, &r), DPCOV_OK);
  EXPECT_EQ(r.variant, DPCOV_DLY_ADAPTIVE);
  EXPECT_EQ(r.svt_queries, 80);
  EXPECT_EQ(r.branch, -1);
  EXPECT_LE(r.rho_covariance, 0.1 * 123 / 128);
  EXPECT_NEAR(r.rho_covariance, 0.1 * 123 / 128, 1e-16);
  EXPECT_NEAR(r.histogram_sigma, std::sqrt(5120.0 / 15), 1e-13);
  EXPECT_NEAR(r.first_look_sigma, std::sqrt(5120.0), 1e-12);
  EXPECT_EQ(r.first_look_settled, -1);
  EXPECT_GT(r.epsilon, 0.1);
  EXPECT_EQ(dpcov_dly_plan(1000, 10, &p, nullptr), DPCOV_E_NULL_POINTER);
}

TEST(CapiDly, BadArgumentsFailBeforeAnyWork) {
  Fixture f;
  const uint64_t u0 = [] {
    Fixture g;
    return g.next_word();
  }();
  auto expect_fails = [&](dpcov_status got) {
    EXPECT_NE(got, DPCOV_OK);
    for (double v : f.out) EXPECT_EQ(v, -7.0);
  };
  expect_fails(dpcov_dly_release(DPCOV_ROW_MAJOR, 100, 3, nullptr, 3, &f.params, f.rng,
                                 f.out.data(), 3, &f.receipt));
  expect_fails(dpcov_dly_release(DPCOV_ROW_MAJOR, 100, 3, f.rows.data(), 3, &f.params, nullptr,
                                 f.out.data(), 3, &f.receipt));
  expect_fails(dpcov_dly_release(DPCOV_ROW_MAJOR, 100, 3, f.rows.data(), 3, &f.params, f.rng,
                                 nullptr, 3, &f.receipt));
  expect_fails(dpcov_dly_release(DPCOV_ROW_MAJOR, 100, 3, f.rows.data(), 3, &f.params, f.rng,
                                 f.out.data(), 3, nullptr));
  expect_fails(dpcov_dly_release(5, 100, 3, f.rows.data(), 3, &f.params, f.rng, f.out.data(), 3,
                                 &f.receipt));
  expect_fails(dpcov_dly_release(DPCOV_ROW_MAJOR, 100, 3, f.rows.data(), 2, &f.params, f.rng,
                                 f.out.data(), 3, &f.receipt));
  expect_fails(dpcov_dly_release(DPCOV_ROW_MAJOR, 0, 3, f.rows.data(), 3, &f.params, f.rng,
                                 f.out.data(), 3, &f.receipt));
  for (int field = 0; field < 5; ++field)
    for (double bad : {0.0, -1.0, std::nan(""), HUGE_VAL}) {
      dpcov_dly_params p = f.params;
      if (field == 0) p.rho = bad;
      if (field == 1) p.radius = bad;
      if (field == 2) p.beta = bad == 0.0 ? 1.0 : bad;
      if (field == 3) p.delta = bad == 0.0 ? 1.0 : bad;
      if (field == 4) p.variant = bad == 0.0 ? 4 : -1;
      expect_fails(f.release(&p));
    }
  dpcov_dly_params small = f.params;
  small.struct_size = 4;
  expect_fails(f.release(&small));
  f.rows[4] = std::nan("");
  EXPECT_EQ(f.release(&f.params), DPCOV_E_NON_FINITE);
  EXPECT_EQ(f.next_word(), u0);
}

TEST(CapiDly, LayoutsGiveTheSameReleaseForEachVariant) {
  for (int32_t variant :
       {DPCOV_DLY_GAUSS, DPCOV_DLY_SEPARATE, DPCOV_DLY_ADAPTIVE, DPCOV_DLY_ADAPTIVE_PAPER}) {
    Fixture a;
    a.params.variant = variant;
    ASSERT_EQ(a.release(&a.params), DPCOV_OK);
    EXPECT_EQ(a.receipt.seed_fixed, 1);
    EXPECT_GE(a.receipt.branch, 0);
    Fixture b;
    b.params.variant = variant;
    std::vector<double> col(300);
    for (int i = 0; i < 100; ++i)
      for (int j = 0; j < 3; ++j)
        col[static_cast<size_t>(i + 100 * j)] = b.rows[static_cast<size_t>(3 * i + j)];
    ASSERT_EQ(dpcov_dly_release(DPCOV_COL_MAJOR, 100, 3, col.data(), 100, &b.params, b.rng,
                                b.out.data(), 3, &b.receipt),
              DPCOV_OK);
    for (size_t i = 0; i < 9; ++i) EXPECT_NEAR(a.out[i], b.out[i], 1e-12);
  }
}

}  // namespace
