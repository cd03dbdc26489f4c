// The budget ledger through the C ABI (dpcov/ledger.h): basic and zCDP totals, the refusal of a
// release that would exceed the cap (ledger unchanged), and every bad argument.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "dpcov.h"

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

dpcov_receipt plan(int32_t mechanism, double epsilon, double delta) {
  dpcov_receipt r{};
  r.struct_size = sizeof r;
  EXPECT_EQ(dpcov_mechanism_plan(mechanism, 4, 100, 1.0, epsilon, delta, nullptr, &r), DPCOV_OK)
      << dpcov_last_error_message();
  return r;
}

dpcov_ledger_spent spent_of(const dpcov_ledger *ledger) {
  dpcov_ledger_spent s{};
  s.struct_size = sizeof s;
  EXPECT_EQ(dpcov_ledger_get_spent(ledger, &s), DPCOV_OK);
  return s;
}

class CapiLedger : public ::testing::Test {
 protected:
  void TearDown() override { dpcov_ledger_destroy(&ledger_); }
  dpcov_ledger *ledger_ = nullptr;
};

// A receipt whose theorem has no terminating NUL is not one the library wrote: refused by check
// and charge, the ledger unchanged.
TEST_F(CapiLedger, AReceiptWithoutItsTheoremNulIsRefused) {
  ASSERT_EQ(dpcov_ledger_create(&ledger_, DPCOV_ACCOUNTING_BASIC, 1.0, 1e-5), DPCOV_OK);
  dpcov_receipt r = plan(DPCOV_MECHANISM_ANALYZE_GAUSS, 0.5, 4e-6);
  std::memset(r.theorem, 'x', sizeof r.theorem);
  const dpcov_ledger_spent before = spent_of(ledger_);
  EXPECT_EQ(dpcov_ledger_check(ledger_, &r), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_ledger_charge(ledger_, &r), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(std::strstr(dpcov_last_error_message(), "theorem"), nullptr);
  const dpcov_ledger_spent after = spent_of(ledger_);
  EXPECT_EQ(std::memcmp(&after, &before, sizeof before), 0);
}

TEST_F(CapiLedger, BasicAccountingAddsUpAndRefusesTheReleaseOverTheCap) {
  ASSERT_EQ(dpcov_ledger_create(&ledger_, DPCOV_ACCOUNTING_BASIC, 1.0, 1e-5), DPCOV_OK);
  const dpcov_receipt ag = plan(DPCOV_MECHANISM_ANALYZE_GAUSS, 0.5, 4e-6);
  EXPECT_EQ(dpcov_ledger_check(ledger_, &ag), DPCOV_OK);
  EXPECT_EQ(spent_of(ledger_).charges, 0);  // a check changes nothing
  ASSERT_EQ(dpcov_ledger_charge(ledger_, &ag), DPCOV_OK);
  const dpcov_receipt lap = plan(DPCOV_MECHANISM_LAPLACE_SYM, 0.25, 0.0);
  ASSERT_EQ(dpcov_ledger_charge(ledger_, &lap), DPCOV_OK);
  dpcov_ledger_spent s = spent_of(ledger_);
  EXPECT_EQ(s.charges, 2);
  EXPECT_EQ(s.epsilon, 0.75);
  EXPECT_EQ(s.delta, 4e-6);
  EXPECT_EQ(s.accounting, DPCOV_ACCOUNTING_BASIC);
  // 0.75 + 0.5 > 1: refused, ledger unchanged. Then a release that fits exactly.
  EXPECT_EQ(dpcov_ledger_check(ledger_, &ag), DPCOV_E_PRECONDITION);
  EXPECT_EQ(dpcov_ledger_charge(ledger_, &ag), DPCOV_E_PRECONDITION);
  EXPECT_NE(std::strstr(dpcov_last_error_message(), "cap would be exceeded"), nullptr);
  dpcov_ledger_spent after = spent_of(ledger_);
  EXPECT_EQ(std::memcmp(&after, &s, sizeof s), 0);
  ASSERT_EQ(dpcov_ledger_charge(ledger_, &lap), DPCOV_OK);
  EXPECT_EQ(spent_of(ledger_).epsilon, 1.0);
  // The delta cap binds too.
  dpcov_ledger *tight = nullptr;
  ASSERT_EQ(dpcov_ledger_create(&tight, DPCOV_ACCOUNTING_BASIC, 10.0, 1e-6), DPCOV_OK);
  EXPECT_EQ(dpcov_ledger_charge(tight, &ag), DPCOV_E_PRECONDITION);
  dpcov_ledger_destroy(&tight);
}

TEST_F(CapiLedger, ZcdpAccountingIsTighterForManyGaussianAndPureReleases) {
  const double eps_cap = 1.0, delta_cap = 1e-6;
  ASSERT_EQ(dpcov_ledger_create(&ledger_, DPCOV_ACCOUNTING_ZCDP, eps_cap, delta_cap), DPCOV_OK);
  const dpcov_receipt lap = plan(DPCOV_MECHANISM_LAPLACE_SYM, 0.02, 0.0);
  int charged = 0;
  while (dpcov_ledger_charge(ledger_, &lap) == DPCOV_OK) ++charged;
  // rho = k eps^2 / 2 <= rho_cap, rho_cap = eps_cap^2 / (sqrt(L + eps_cap) + sqrt(L))^2.
  const double L = std::log(1.0 / delta_cap);
  const double rho_cap = eps_cap * eps_cap / std::pow(std::sqrt(L + eps_cap) + std::sqrt(L), 2);
  EXPECT_NEAR(charged, std::floor(rho_cap / 0.0002), 1.0);
  EXPECT_GT(charged, 80);  // basic accounting would stop at 50
  const dpcov_ledger_spent s = spent_of(ledger_);
  EXPECT_LE(s.epsilon, eps_cap);
  EXPECT_EQ(s.delta, delta_cap);
  EXPECT_NEAR(s.epsilon, s.rho + 2 * std::sqrt(s.rho * L), 1e-12);
  // The Gaussian mechanism: rho = Delta^2 / (2 sigma^2) from its receipt.
  dpcov_ledger *gauss = nullptr;
  ASSERT_EQ(dpcov_ledger_create(&gauss, DPCOV_ACCOUNTING_ZCDP, eps_cap, delta_cap), DPCOV_OK);
  const dpcov_receipt ag = plan(DPCOV_MECHANISM_ANALYZE_GAUSS, 0.5, 1e-7);
  ASSERT_EQ(dpcov_ledger_charge(gauss, &ag), DPCOV_OK);
  EXPECT_NEAR(spent_of(gauss).rho, ag.sensitivity * ag.sensitivity / (2 * ag.sigma * ag.sigma),
              1e-15);
  // (epsilon, delta) mechanisms without a zCDP bound need basic accounting.
  const dpcov_receipt wishart = plan(DPCOV_MECHANISM_WISHART_ADDITIVE, 0.5, 1e-7);
  EXPECT_EQ(dpcov_ledger_charge(gauss, &wishart), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(spent_of(gauss).charges, 1);
  dpcov_ledger_destroy(&gauss);
}

TEST_F(CapiLedger, AdvancedAccountingFitsMoreSmallReleasesThanBasicAndRefusesTheNext) {
  const double eps_cap = 1.0, delta_cap = 1e-5;
  ASSERT_EQ(dpcov_ledger_create(&ledger_, DPCOV_ACCOUNTING_ADVANCED, eps_cap, delta_cap), DPCOV_OK);
  // (epsilon, delta) releases that zCDP accounting refuses, at (0.01, 1e-8) each: basic
  // composition stops at 100, advanced composition fits K = 385 (proofs/ledger.md; mpmath:
  // sqrt(2 K ln(1/(1e-5 - K 1e-8))) 0.01 + K 0.01 (e^0.01 - 1) is 0.99990 at K = 385 and 1.00132
  // at K = 386).
  const dpcov_receipt wishart = plan(DPCOV_MECHANISM_WISHART_ADDITIVE, 0.01, 1e-8);
  int charged = 0;
  while (charged < 10000 && dpcov_ledger_check(ledger_, &wishart) == DPCOV_OK) {
    ASSERT_EQ(dpcov_ledger_charge(ledger_, &wishart), DPCOV_OK);
    ++charged;
  }
  EXPECT_EQ(charged, 385);
  const dpcov_ledger_spent s = spent_of(ledger_);
  EXPECT_EQ(s.accounting, DPCOV_ACCOUNTING_ADVANCED);
  EXPECT_EQ(s.charges, 385);
  EXPECT_LE(s.epsilon, eps_cap);
  EXPECT_GT(s.epsilon, 0.99);
  EXPECT_EQ(s.delta, delta_cap);
  // The next one is refused and the ledger is unchanged.
  EXPECT_EQ(dpcov_ledger_charge(ledger_, &wishart), DPCOV_E_PRECONDITION);
  EXPECT_NE(std::strstr(dpcov_last_error_message(), "cap would be exceeded"), nullptr);
  const dpcov_ledger_spent after = spent_of(ledger_);
  EXPECT_EQ(std::memcmp(&after, &s, sizeof s), 0);

  // The first release fixes the per-release budget: a larger one later is refused, a smaller one
  // counts at the first one's budget; a single release over the cap is refused at once.
  dpcov_ledger *fixed = nullptr;
  ASSERT_EQ(dpcov_ledger_create(&fixed, DPCOV_ACCOUNTING_ADVANCED, eps_cap, delta_cap), DPCOV_OK);
  ASSERT_EQ(dpcov_ledger_charge(fixed, &wishart), DPCOV_OK);
  const dpcov_ledger_spent one = spent_of(fixed);
  EXPECT_EQ(one.epsilon, 0.01);  // basic composition is the tighter bound for one release
  EXPECT_EQ(one.delta, 1e-8);
  const dpcov_receipt larger = plan(DPCOV_MECHANISM_LAPLACE_SYM, 0.02, 0.0);
  EXPECT_EQ(dpcov_ledger_charge(fixed, &larger), DPCOV_E_PRECONDITION);
  EXPECT_NE(std::strstr(dpcov_last_error_message(), "at most the first one's"), nullptr);
  const dpcov_receipt smaller = plan(DPCOV_MECHANISM_LAPLACE_SYM, 0.005, 0.0);
  ASSERT_EQ(dpcov_ledger_charge(fixed, &smaller), DPCOV_OK);
  EXPECT_EQ(spent_of(fixed).epsilon, 0.02);
  dpcov_ledger_destroy(&fixed);
  ASSERT_EQ(dpcov_ledger_create(&fixed, DPCOV_ACCOUNTING_ADVANCED, 0.5, 0.0), DPCOV_OK);
  const dpcov_receipt big = plan(DPCOV_MECHANISM_LAPLACE_SYM, 0.75, 0.0);
  EXPECT_EQ(dpcov_ledger_charge(fixed, &big), DPCOV_E_PRECONDITION);
  EXPECT_EQ(spent_of(fixed).charges, 0);
  dpcov_ledger_destroy(&fixed);
}

TEST_F(CapiLedger, ANonPrivateMechanismHasNoCostToCharge) {
  ASSERT_EQ(dpcov_ledger_create(&ledger_, DPCOV_ACCOUNTING_BASIC, 1.0, 0.0), DPCOV_OK);
  dpcov_receipt r = plan(DPCOV_MECHANISM_LAPLACE_SYM, 0.5, 0.0);
  r.not_dp = 1;
  EXPECT_EQ(dpcov_ledger_charge(ledger_, &r), DPCOV_E_NOT_PRIVATE);
  EXPECT_EQ(spent_of(ledger_).charges, 0);
}

TEST_F(CapiLedger, BadArgumentsAreRefusedAndChangeNothing) {
  dpcov_ledger *out = nullptr;
  EXPECT_EQ(dpcov_ledger_create(nullptr, DPCOV_ACCOUNTING_BASIC, 1.0, 0.0), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_ledger_create(&out, 3, 1.0, 0.0), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_ledger_create(&out, -1, 1.0, 0.0), DPCOV_E_INVALID_ARGUMENT);
  for (const double eps : {0.0, -1.0})
    EXPECT_EQ(dpcov_ledger_create(&out, DPCOV_ACCOUNTING_BASIC, eps, 0.0),
              DPCOV_E_INVALID_ARGUMENT);
  for (const double eps : {kNaN, kInf})
    EXPECT_EQ(dpcov_ledger_create(&out, DPCOV_ACCOUNTING_BASIC, eps, 0.0), DPCOV_E_NON_FINITE);
  for (const double delta : {-0.1, 1.0, 2.0})
    EXPECT_EQ(dpcov_ledger_create(&out, DPCOV_ACCOUNTING_BASIC, 1.0, delta),
              DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_ledger_create(&out, DPCOV_ACCOUNTING_BASIC, 1.0, kNaN), DPCOV_E_NON_FINITE);
  EXPECT_EQ(dpcov_ledger_create(&out, DPCOV_ACCOUNTING_ZCDP, 1.0, 0.0), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(out, nullptr);

  ASSERT_EQ(dpcov_ledger_create(&ledger_, DPCOV_ACCOUNTING_BASIC, 1.0, 1e-5), DPCOV_OK);
  const dpcov_receipt good = plan(DPCOV_MECHANISM_LAPLACE_SYM, 0.5, 0.0);
  EXPECT_EQ(dpcov_ledger_check(nullptr, &good), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_ledger_charge(nullptr, &good), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_ledger_check(ledger_, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_ledger_charge(ledger_, nullptr), DPCOV_E_NULL_POINTER);
  dpcov_receipt bad = good;
  bad.struct_size = 8;
  EXPECT_EQ(dpcov_ledger_charge(ledger_, &bad), DPCOV_E_INVALID_ARGUMENT);
  for (const double eps : {0.0, -1.0, kNaN, kInf}) {
    bad = good;
    bad.epsilon = eps;
    EXPECT_NE(dpcov_ledger_charge(ledger_, &bad), DPCOV_OK) << eps;
  }
  for (const double delta : {-1e-9, 1.0, kNaN}) {
    bad = good;
    bad.delta = delta;
    EXPECT_NE(dpcov_ledger_charge(ledger_, &bad), DPCOV_OK) << delta;
  }
  EXPECT_EQ(spent_of(ledger_).charges, 0);

  dpcov_ledger_spent s{};
  s.struct_size = sizeof s - 1;
  EXPECT_EQ(dpcov_ledger_get_spent(ledger_, &s), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(s.charges, 0);
  EXPECT_EQ(dpcov_ledger_get_spent(ledger_, nullptr), DPCOV_E_NULL_POINTER);
  s.struct_size = sizeof s;
  EXPECT_EQ(dpcov_ledger_get_spent(nullptr, &s), DPCOV_E_NULL_POINTER);
  dpcov_ledger_destroy(nullptr);
}

}  // namespace

// A release stated in zCDP (AdaSSP, CoinPress, Dong-Liang-Yi): basic and advanced accounting
// charge its (epsilon, delta), zCDP accounting its rho alone. AdaSSP's plan gives all three before
// any data is read, and the fit's receipt repeats them.
TEST(CapiLedgerZcdp, AdasspIsChargedUnderEveryAccounting) {
  dpcov_adassp_receipt plan{};
  plan.struct_size = sizeof plan;
  ASSERT_EQ(dpcov_adassp_plan(3, std::sqrt(2.0), 1.0, 0.5, 1e-6, nullptr, &plan), DPCOV_OK)
      << dpcov_last_error_message();
  // Joint analytic: a third of mu^2 = 1 / sigma_AG^2 each, so rho = 1 / (2 sigma_AG^2), and
  // sigma_AG = sigma_l / (sqrt 3 Delta_l).
  const double sigma_ag = plan.sigma_lambda_min / (std::sqrt(3.0) * plan.sensitivity_lambda_min);
  EXPECT_NEAR(plan.rho, 0.5 / (sigma_ag * sigma_ag), 1e-9 * plan.rho);
  // Rounded up from the receipt's own constants.
  double rho = 0.0;
  for (const auto &[d, s] : {std::pair{plan.sensitivity_lambda_min, plan.sigma_lambda_min},
                              std::pair{plan.sensitivity_gram, plan.sigma_gram},
                              std::pair{plan.sensitivity_cross, plan.sigma_cross}})
    rho += d * d / (2 * s * s);
  EXPECT_GE(plan.rho, rho);
  EXPECT_LE(plan.rho, rho * (1 + 1e-14));

  for (const int32_t accounting :
       {DPCOV_ACCOUNTING_BASIC, DPCOV_ACCOUNTING_ZCDP, DPCOV_ACCOUNTING_ADVANCED}) {
    SCOPED_TRACE(accounting);
    dpcov_ledger *ledger = nullptr;
    ASSERT_EQ(dpcov_ledger_create(&ledger, accounting, 1.0, 1e-5), DPCOV_OK);
    ASSERT_EQ(dpcov_ledger_check_zcdp(ledger, plan.rho, plan.epsilon, plan.delta), DPCOV_OK)
        << dpcov_last_error_message();
    EXPECT_EQ(spent_of(ledger).charges, 0);  // a check changes nothing
    ASSERT_EQ(dpcov_ledger_charge_zcdp(ledger, plan.rho, plan.epsilon, plan.delta), DPCOV_OK);
    const dpcov_ledger_spent s = spent_of(ledger);
    EXPECT_EQ(s.charges, 1);
    if (accounting == DPCOV_ACCOUNTING_ZCDP) {
      EXPECT_EQ(s.rho, plan.rho);
    } else {
      EXPECT_EQ(s.epsilon, 0.5);
      EXPECT_EQ(s.delta, 1e-6);
      EXPECT_EQ(s.rho, 0.0);
    }
    // A second fit at (0.5, 1e-6) fits every cap; a third is over basic's epsilon cap of 1.
    EXPECT_EQ(dpcov_ledger_charge_zcdp(ledger, plan.rho, plan.epsilon, plan.delta), DPCOV_OK);
    const dpcov_ledger_spent two = spent_of(ledger);
    const dpcov_status third =
        dpcov_ledger_charge_zcdp(ledger, plan.rho, plan.epsilon, plan.delta);
    if (accounting == DPCOV_ACCOUNTING_BASIC) {
      EXPECT_EQ(third, DPCOV_E_PRECONDITION);
      const dpcov_ledger_spent after = spent_of(ledger);
      EXPECT_EQ(std::memcmp(&after, &two, sizeof two), 0);  // refused: unchanged
    }
    dpcov_ledger_destroy(&ledger);
  }
}

TEST(CapiLedgerZcdp, ZcdpAccountingChargesLessThanTheEpsilonOfManyFits) {
  // Ten AdaSSP fits at (0.3, 1e-7) are 3 in epsilon (over a cap of 2 by basic composition), but
  // their rhos add up to less than the cap's rho at delta 1e-5.
  dpcov_adassp_receipt plan{};
  plan.struct_size = sizeof plan;
  ASSERT_EQ(dpcov_adassp_plan(3, 1.0, 1.0, 0.3, 1e-7, nullptr, &plan), DPCOV_OK);
  dpcov_ledger *zcdp = nullptr, *basic = nullptr;
  ASSERT_EQ(dpcov_ledger_create(&zcdp, DPCOV_ACCOUNTING_ZCDP, 2.0, 1e-5), DPCOV_OK);
  ASSERT_EQ(dpcov_ledger_create(&basic, DPCOV_ACCOUNTING_BASIC, 2.0, 1e-5), DPCOV_OK);
  int basic_fits = 0;
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(dpcov_ledger_charge_zcdp(zcdp, plan.rho, plan.epsilon, plan.delta), DPCOV_OK)
        << i << ": " << dpcov_last_error_message();
    basic_fits += dpcov_ledger_charge_zcdp(basic, plan.rho, plan.epsilon, plan.delta) ==
                  DPCOV_OK;
  }
  EXPECT_EQ(basic_fits, 6);
  EXPECT_LE(spent_of(zcdp).epsilon, 2.0);
  dpcov_ledger_destroy(&zcdp);
  dpcov_ledger_destroy(&basic);
}

TEST(CapiLedgerZcdp, ASubnormalDeltaCapGivesFiniteTotals) {
  // ln(1/delta) was computed from 1/delta, which overflows for a subnormal delta: a zCDP ledger
  // accepted a charge and reported an infinite epsilon spent with DPCOV_OK (found by
  // fuzz_solvers). ln(1/delta) <= 745 is now taken as -ln(delta).
  for (const double delta_cap : {std::numeric_limits<double>::denorm_min(), 1e-310}) {
    dpcov_ledger *ledger = nullptr;
    ASSERT_EQ(dpcov_ledger_create(&ledger, DPCOV_ACCOUNTING_ZCDP, 1.0, delta_cap), DPCOV_OK);
    ASSERT_EQ(dpcov_ledger_charge_zcdp(ledger, 1e-6, 0.5, 1e-6), DPCOV_OK)
        << dpcov_last_error_message();
    const dpcov_ledger_spent s = spent_of(ledger);
    EXPECT_EQ(s.charges, 1);
    EXPECT_TRUE(std::isfinite(s.epsilon)) << s.epsilon;
    // rho + 2 sqrt(rho ln(1/delta)) with ln(1/delta) about 745 or 714.
    EXPECT_GT(s.epsilon, 0.05);
    EXPECT_LT(s.epsilon, 0.06);
    dpcov_ledger_destroy(&ledger);
    ASSERT_EQ(dpcov_ledger_create(&ledger, DPCOV_ACCOUNTING_ADVANCED, 1.0, delta_cap), DPCOV_OK);
    const dpcov_receipt laplace = plan(DPCOV_MECHANISM_LAPLACE_SYM, 0.01, 0.0);
    const dpcov_status charged = dpcov_ledger_charge(ledger, &laplace);
    EXPECT_TRUE(charged == DPCOV_OK || charged == DPCOV_E_PRECONDITION)
        << dpcov_last_error_message();
    const dpcov_ledger_spent a = spent_of(ledger);
    EXPECT_TRUE(std::isfinite(a.epsilon) && std::isfinite(a.delta)) << a.epsilon << " " << a.delta;
    dpcov_ledger_destroy(&ledger);
  }
}

TEST(CapiLedgerZcdp, BadArgumentsAreRefusedAndChangeNothing) {
  dpcov_ledger *ledger = nullptr;
  ASSERT_EQ(dpcov_ledger_create(&ledger, DPCOV_ACCOUNTING_ZCDP, 1.0, 1e-5), DPCOV_OK);
  EXPECT_EQ(dpcov_ledger_check_zcdp(nullptr, 0.01, 0.5, 1e-6), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_ledger_charge_zcdp(nullptr, 0.01, 0.5, 1e-6), DPCOV_E_NULL_POINTER);
  for (const auto fn : {+[](dpcov_ledger *l, double r, double e, double d) {
                          return dpcov_ledger_check_zcdp(l, r, e, d);
                        },
                        +[](dpcov_ledger *l, double r, double e, double d) {
                          return dpcov_ledger_charge_zcdp(l, r, e, d);
                        }}) {
    for (const double rho : {0.0, -1.0}) EXPECT_EQ(fn(ledger, rho, 0.5, 1e-6), DPCOV_E_INVALID_ARGUMENT);
    for (const double rho : {kNaN, kInf}) EXPECT_EQ(fn(ledger, rho, 0.5, 1e-6), DPCOV_E_NON_FINITE);
    EXPECT_EQ(fn(ledger, 0.01, -1.0, 1e-6), DPCOV_E_INVALID_ARGUMENT);
    for (const double eps : {kNaN, kInf}) EXPECT_EQ(fn(ledger, 0.01, eps, 1e-6), DPCOV_E_NON_FINITE);
    for (const double delta : {-0.1, 1.0}) EXPECT_EQ(fn(ledger, 0.01, 0.5, delta), DPCOV_E_INVALID_ARGUMENT);
    for (const double delta : {kNaN, kInf}) EXPECT_EQ(fn(ledger, 0.01, 0.5, delta), DPCOV_E_NON_FINITE);
  }
  EXPECT_EQ(spent_of(ledger).charges, 0);
  // Over the cap: refused, unchanged.
  EXPECT_EQ(dpcov_ledger_charge_zcdp(ledger, 1.0, 0.5, 1e-6), DPCOV_E_PRECONDITION);
  EXPECT_EQ(spent_of(ledger).charges, 0);
  dpcov_ledger_destroy(&ledger);
}

namespace {

// A tiny rho at a moderate delta converts to epsilon = 0 (dpcov_zcdp_epsilon: the release is
// (0, delta)-DP). The ledger used to refuse such a charge, so a valid Dong-Liang-Yi or CoinPress
// release at rho = 1e-13 could not run under an accountant; basic and zCDP accounting take it,
// and advanced accounting, whose first release fixes a positive per-release epsilon, refuses it.
TEST(CapiLedgerZcdp, AReleaseOfEpsilonZeroIsCharged) {
  double epsilon = -1.0;
  ASSERT_EQ(dpcov_zcdp_epsilon(1e-13, 1e-6, &epsilon), DPCOV_OK);
  ASSERT_EQ(epsilon, 0.0);
  for (const int32_t accounting : {DPCOV_ACCOUNTING_BASIC, DPCOV_ACCOUNTING_ZCDP}) {
    dpcov_ledger *ledger = nullptr;
    ASSERT_EQ(dpcov_ledger_create(&ledger, accounting, 1.0, 1e-5), DPCOV_OK);
    EXPECT_EQ(dpcov_ledger_check_zcdp(ledger, 1e-13, epsilon, 1e-6), DPCOV_OK);
    EXPECT_EQ(dpcov_ledger_charge_zcdp(ledger, 1e-13, epsilon, 1e-6), DPCOV_OK)
        << dpcov_last_error_message();
    const dpcov_ledger_spent s = spent_of(ledger);
    EXPECT_EQ(s.charges, 1);
    if (accounting == DPCOV_ACCOUNTING_BASIC) {
      EXPECT_EQ(s.epsilon, 0.0);
      EXPECT_EQ(s.delta, 1e-6);
    } else {
      EXPECT_EQ(s.rho, 1e-13);
    }
    dpcov_ledger_destroy(&ledger);
  }
  dpcov_ledger *ledger = nullptr;
  ASSERT_EQ(dpcov_ledger_create(&ledger, DPCOV_ACCOUNTING_ADVANCED, 1.0, 1e-5), DPCOV_OK);
  EXPECT_EQ(dpcov_ledger_charge_zcdp(ledger, 1e-13, epsilon, 1e-6), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(spent_of(ledger).charges, 0);
  dpcov_ledger_destroy(&ledger);
}

}  // namespace
