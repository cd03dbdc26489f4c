// The common receipt prefix (dpcov_receipt_prefix_of, dpcov/receipt.h): every family's receipt,
// planned and released through the C ABI, starts with the same members, which the prefix reads
// the same way; and its bad arguments, each refused with the output untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "dpcov.h"

namespace {

constexpr int64_t kN = 40;
constexpr int64_t kDim = 3;

// Rows of norm <= 1/2 with a spread every family accepts.
std::vector<double> rows() {
  std::vector<double> a(static_cast<size_t>(kN * kDim));
  for (size_t i = 0; i < a.size(); ++i) a[i] = 0.25 * std::sin(0.7 * static_cast<double>(i) + 1.0);
  return a;
}

template <class Receipt>
Receipt fresh() {
  Receipt r;
  std::memset(&r, 0xAB, sizeof r);
  r.struct_size = sizeof r;
  return r;
}

dpcov_receipt_prefix prefix_of(const void *receipt) {
  dpcov_receipt_prefix p = fresh<dpcov_receipt_prefix>();
  EXPECT_EQ(dpcov_receipt_prefix_of(receipt, &p), DPCOV_OK) << dpcov_last_error_message();
  return p;
}

// The prefix read through dpcov_receipt_prefix_of equals the family's own members, names the
// registry's privacy model, and a release records its generator (a plan none).
template <class Receipt>
void expect_prefix(const Receipt &r, int32_t mechanism, int32_t generator) {
  const dpcov_receipt_prefix p = prefix_of(&r);
  dpcov_mechanism_entry entry{};
  entry.struct_size = sizeof entry;
  ASSERT_EQ(dpcov_mechanism_info_by_id(mechanism, &entry), DPCOV_OK);
  EXPECT_EQ(p.mechanism, mechanism);
  EXPECT_EQ(r.mechanism, mechanism);
  EXPECT_EQ(p.privacy_model, entry.privacy_model);
  EXPECT_EQ(p.neighbour, r.neighbour);
  EXPECT_EQ(p.numerics, r.numerics);
  EXPECT_EQ(p.generator, generator);
  EXPECT_EQ(p.seed_fixed, generator == DPCOV_GENERATOR_PCG64 ? 1 : 0);
  EXPECT_EQ(p.epsilon, r.epsilon);
  EXPECT_EQ(p.delta, r.delta);
  EXPECT_EQ(p.rho, r.rho);
  EXPECT_EQ(p.bound, r.bound);
  EXPECT_EQ(p.n, r.n);
  EXPECT_STREQ(p.theorem, r.theorem);
  EXPECT_GT(std::strlen(p.theorem), 0u);
  EXPECT_GT(p.epsilon, 0.0);
}

class ReceiptPrefix : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(dpcov_rng_create_seeded(&rng_, 7, 0), DPCOV_OK); }
  void TearDown() override { dpcov_rng_destroy(&rng_); }
  dpcov_rng *rng_ = nullptr;
  std::vector<double> rows_ = rows();
  std::vector<double> out_ = std::vector<double>(static_cast<size_t>(kDim * kDim));
};

TEST_F(ReceiptPrefix, GramFamilyPlanAndReleaseShareIt) {
  dpcov_receipt plan = fresh<dpcov_receipt>();
  ASSERT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_ANALYZE_GAUSS, kDim, kN, 1.0, 1.0, 1e-6, nullptr,
                                 &plan),
            DPCOV_OK);
  expect_prefix(plan, DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_GENERATOR_NONE);
  EXPECT_EQ(plan.privacy_model, DPCOV_MECHANISM_PRIVACY_APPROXIMATE);
  EXPECT_EQ(plan.rho, 0.0);
  std::vector<double> gram(static_cast<size_t>(kDim * kDim), 0.0);
  for (int64_t i = 0; i < kDim; ++i) gram[static_cast<size_t>(i * (kDim + 1))] = 5.0;
  dpcov_receipt released = fresh<dpcov_receipt>();
  ASSERT_EQ(dpcov_mechanism_release(DPCOV_MECHANISM_LAPLACE_SYM, DPCOV_ROW_MAJOR, kDim,
                                    gram.data(), kDim, kN, 1.0, 1.0, 0.0, nullptr, rng_,
                                    out_.data(), kDim, &released),
            DPCOV_OK)
      << dpcov_last_error_message();
  expect_prefix(released, DPCOV_MECHANISM_LAPLACE_SYM, DPCOV_GENERATOR_PCG64);
  EXPECT_EQ(released.privacy_model, DPCOV_MECHANISM_PRIVACY_PURE);
}

TEST_F(ReceiptPrefix, AdasspNamesItsIdItsZcdpRhoAndItsRegressorBound) {
  std::vector<double> g(16, 0.0);
  for (int i = 0; i < 4; ++i) g[static_cast<size_t>(5 * i)] = 30.0;
  const int64_t features[] = {0, 1, 2};
  double coefficients[3];
  dpcov_adassp_receipt plan = fresh<dpcov_adassp_receipt>();
  ASSERT_EQ(dpcov_adassp_plan(3, 1.5, 1.0, 1.0, 1e-6, nullptr, &plan), DPCOV_OK);
  expect_prefix(plan, DPCOV_MECHANISM_ADASSP, DPCOV_GENERATOR_NONE);
  EXPECT_EQ(plan.bound, 1.5);
  EXPECT_GT(plan.rho, 0.0);
  EXPECT_EQ(plan.failure_probability, 0.05);
  EXPECT_EQ(plan.n, DPCOV_RECEIPT_N_WITHHELD);
  dpcov_adassp_receipt fit = fresh<dpcov_adassp_receipt>();
  ASSERT_EQ(dpcov_adassp_fit(DPCOV_ROW_MAJOR, 4, g.data(), 4, 3, features, 3, 1.5, 1.0, 1.0, 1e-6,
                             nullptr, rng_, coefficients, nullptr, 0, nullptr, &fit),
            DPCOV_OK)
      << dpcov_last_error_message();
  expect_prefix(fit, DPCOV_MECHANISM_ADASSP, DPCOV_GENERATOR_PCG64);
  EXPECT_EQ(fit.rho, plan.rho);
}

TEST_F(ReceiptPrefix, DongLiangYiStatesItsZcdpBudgetAndRowBound) {
  dpcov_dly_params params{};
  ASSERT_EQ(dpcov_dly_params_default(&params), DPCOV_OK);
  params.variant = DPCOV_DLY_GAUSS;
  params.radius = 0.5;
  dpcov_dly_receipt plan = fresh<dpcov_dly_receipt>();
  ASSERT_EQ(dpcov_dly_plan(kN, kDim, &params, &plan), DPCOV_OK);
  expect_prefix(plan, DPCOV_MECHANISM_DLY, DPCOV_GENERATOR_NONE);
  EXPECT_EQ(plan.privacy_model, DPCOV_MECHANISM_PRIVACY_ZCDP);
  EXPECT_EQ(plan.rho, params.rho);
  EXPECT_EQ(plan.bound, 0.5);
  dpcov_dly_receipt released = fresh<dpcov_dly_receipt>();
  ASSERT_EQ(dpcov_dly_release(DPCOV_ROW_MAJOR, kN, kDim, rows_.data(), kDim, &params, rng_,
                              out_.data(), kDim, &released),
            DPCOV_OK)
      << dpcov_last_error_message();
  expect_prefix(released, DPCOV_MECHANISM_DLY, DPCOV_GENERATOR_PCG64);
}

TEST_F(ReceiptPrefix, CoinpressFamiliesStateTheirZcdpBudget) {
  dpcov_coinpress_params params{};
  ASSERT_EQ(dpcov_coinpress_params_default(&params), DPCOV_OK);
  params.k_bound = 4.0;
  dpcov_coinpress_receipt plan = fresh<dpcov_coinpress_receipt>();
  ASSERT_EQ(dpcov_coinpress_plan(kN, kDim, &params, &plan), DPCOV_OK)
      << dpcov_last_error_message();
  expect_prefix(plan, DPCOV_MECHANISM_COINPRESS, DPCOV_GENERATOR_NONE);
  EXPECT_EQ(plan.bound, 0.0);
  dpcov_coinpress_mean_params mean{};
  ASSERT_EQ(dpcov_coinpress_mean_params_default(&mean), DPCOV_OK);
  mean.radius = 2.0;
  dpcov_coinpress_mean_receipt mean_plan = fresh<dpcov_coinpress_mean_receipt>();
  ASSERT_EQ(dpcov_coinpress_mean_plan(kN, kDim, &mean, &mean_plan), DPCOV_OK)
      << dpcov_last_error_message();
  expect_prefix(mean_plan, DPCOV_MECHANISM_COINPRESS_MEAN, DPCOV_GENERATOR_NONE);
  double released_mean[kDim];
  dpcov_coinpress_mean_receipt mean_release = fresh<dpcov_coinpress_mean_receipt>();
  ASSERT_EQ(dpcov_coinpress_mean_release(DPCOV_ROW_MAJOR, kN, kDim, rows_.data(), kDim, nullptr,
                                         &mean, rng_, released_mean, &mean_release),
            DPCOV_OK)
      << dpcov_last_error_message();
  expect_prefix(mean_release, DPCOV_MECHANISM_COINPRESS_MEAN, DPCOV_GENERATOR_PCG64);
}

// Each bad argument is refused with its status, and the output keeps every byte.
TEST_F(ReceiptPrefix, BadArgumentsAreRefusedWithTheOutputUntouched) {
  dpcov_receipt good = fresh<dpcov_receipt>();
  ASSERT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_ANALYZE_GAUSS, kDim, kN, 1.0, 1.0, 1e-6, nullptr,
                                 &good),
            DPCOV_OK);
  const auto refused = [&](const dpcov_receipt &r, dpcov_status expected, size_t out_size) {
    dpcov_receipt_prefix out = fresh<dpcov_receipt_prefix>();
    out.struct_size = out_size;
    const dpcov_receipt_prefix before = out;
    EXPECT_EQ(dpcov_receipt_prefix_of(&r, &out), expected);
    EXPECT_EQ(std::memcmp(&out, &before, sizeof out), 0);
    EXPECT_GT(std::strlen(dpcov_last_error_message()), 0u);
  };
  const size_t full = sizeof(dpcov_receipt_prefix);
  dpcov_receipt_prefix out = fresh<dpcov_receipt_prefix>();
  EXPECT_EQ(dpcov_receipt_prefix_of(nullptr, &out), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_receipt_prefix_of(&good, nullptr), DPCOV_E_NULL_POINTER);
  refused(good, DPCOV_E_INVALID_ARGUMENT, full - 1);  // the caller's prefix too small
  refused(good, DPCOV_E_INVALID_ARGUMENT, 0);
  const auto with = [&](auto change) {
    dpcov_receipt r = good;
    change(r);
    return r;
  };
  refused(with([](dpcov_receipt &r) { r.struct_size = full - 1; }), DPCOV_E_INVALID_ARGUMENT, full);
  refused(with([](dpcov_receipt &r) { r.mechanism = 99; }), DPCOV_E_INVALID_ARGUMENT, full);
  refused(with([](dpcov_receipt &r) { r.mechanism = -1; }), DPCOV_E_INVALID_ARGUMENT, full);
  refused(with([](dpcov_receipt &r) { r.privacy_model = DPCOV_MECHANISM_PRIVACY_PURE; }),
          DPCOV_E_INVALID_ARGUMENT, full);
  refused(with([](dpcov_receipt &r) { r.neighbour = 2; }), DPCOV_E_INVALID_ARGUMENT, full);
  refused(with([](dpcov_receipt &r) { r.numerics = -1; }), DPCOV_E_INVALID_ARGUMENT, full);
  refused(with([](dpcov_receipt &r) { r.generator = 3; }), DPCOV_E_INVALID_ARGUMENT, full);
  refused(with([](dpcov_receipt &r) { r.seed_fixed = 2; }), DPCOV_E_INVALID_ARGUMENT, full);
  refused(with([](dpcov_receipt &r) { r.epsilon = NAN; }), DPCOV_E_NON_FINITE, full);
  refused(with([](dpcov_receipt &r) { r.delta = INFINITY; }), DPCOV_E_NON_FINITE, full);
  refused(with([](dpcov_receipt &r) { r.rho = -INFINITY; }), DPCOV_E_NON_FINITE, full);
  refused(with([](dpcov_receipt &r) { r.bound = NAN; }), DPCOV_E_NON_FINITE, full);
  refused(with([](dpcov_receipt &r) { std::memset(r.theorem, 'x', sizeof r.theorem); }),
          DPCOV_E_INVALID_ARGUMENT, full);
}

// A caller built against a smaller prefix gets no byte past its struct_size.
TEST_F(ReceiptPrefix, WritesNoBytePastTheCallersStructSize) {
  dpcov_receipt r = fresh<dpcov_receipt>();
  ASSERT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_ANALYZE_GAUSS, kDim, kN, 1.0, 1.0, 1e-6, nullptr,
                                 &r),
            DPCOV_OK);
  unsigned char buffer[sizeof(dpcov_receipt_prefix) + 32];
  std::memset(buffer, 0x5A, sizeof buffer);
  dpcov_receipt_prefix *out = reinterpret_cast<dpcov_receipt_prefix *>(buffer);
  out->struct_size = sizeof(dpcov_receipt_prefix);
  ASSERT_EQ(dpcov_receipt_prefix_of(&r, out), DPCOV_OK);
  for (size_t i = sizeof(dpcov_receipt_prefix); i < sizeof buffer; ++i) EXPECT_EQ(buffer[i], 0x5A);
}

}  // namespace
