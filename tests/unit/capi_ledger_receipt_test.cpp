// One charge for every receipt family (dpcov_ledger_charge_receipt): each family's plan receipt,
// read through its common prefix, spends what the family's own charge spent before (a Gram
// receipt as dpcov_ledger_charge, a zCDP statement as dpcov_ledger_charge_zcdp) under every
// accounting; a receipt with a mechanism the registry does not hold or a forged privacy model is
// refused with the ledger unchanged; the private bound is charged from a bare prefix.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

struct Family {
  std::string name;
  std::vector<unsigned char> bytes;  // the receipt, of the family's own struct
  // The family's own charge before the common one.
  std::function<dpcov_status(dpcov_ledger *)> own_charge;
};

template <class T>
std::vector<unsigned char> bytes_of(const T &r) {
  const auto *p = reinterpret_cast<const unsigned char *>(&r);
  return {p, p + sizeof r};
}

template <class T>
std::function<dpcov_status(dpcov_ledger *)> zcdp_charge(const T &r) {
  return [r](dpcov_ledger *l) { return dpcov_ledger_charge_zcdp(l, r.rho, r.epsilon, r.delta); };
}

std::vector<Family> families() {
  std::vector<Family> out;
  dpcov_receipt gram{};
  gram.struct_size = sizeof gram;
  EXPECT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_ANALYZE_GAUSS, 4, 1000, 1.0, 0.5, 1e-7, nullptr,
                                 &gram),
            DPCOV_OK);
  out.push_back({"analyze_gauss", bytes_of(gram),
                 [gram](dpcov_ledger *l) { return dpcov_ledger_charge(l, &gram); }});
  dpcov_receipt laplace{};
  laplace.struct_size = sizeof laplace;
  EXPECT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_LAPLACE_SYM, 4, 1000, 1.0, 0.5, 0.0, nullptr,
                                 &laplace),
            DPCOV_OK);
  out.push_back({"laplace_sym", bytes_of(laplace),
                 [laplace](dpcov_ledger *l) { return dpcov_ledger_charge(l, &laplace); }});
  dpcov_adassp_receipt adassp{};
  adassp.struct_size = sizeof adassp;
  EXPECT_EQ(dpcov_adassp_plan(3, 1.0, 1.0, 0.5, 1e-7, nullptr, &adassp), DPCOV_OK);
  out.push_back({"adassp", bytes_of(adassp), zcdp_charge(adassp)});
  dpcov_dly_params dp;
  dpcov_dly_params_default(&dp);
  dpcov_dly_receipt dly{};
  dly.struct_size = sizeof dly;
  EXPECT_EQ(dpcov_dly_plan(1000, 3, &dp, &dly), DPCOV_OK);
  out.push_back({"dly", bytes_of(dly), zcdp_charge(dly)});
  dpcov_coinpress_params cp;
  dpcov_coinpress_params_default(&cp);
  cp.k_bound = 10.0;
  dpcov_coinpress_receipt coinpress{};
  coinpress.struct_size = sizeof coinpress;
  EXPECT_EQ(dpcov_coinpress_plan(1000, 3, &cp, &coinpress), DPCOV_OK);
  out.push_back({"coinpress", bytes_of(coinpress), zcdp_charge(coinpress)});
  dpcov_coinpress_mean_params mp;
  dpcov_coinpress_mean_params_default(&mp);
  mp.radius = 10.0;
  dpcov_coinpress_mean_receipt mean{};
  mean.struct_size = sizeof mean;
  EXPECT_EQ(dpcov_coinpress_mean_plan(1000, 3, &mp, &mean), DPCOV_OK);
  out.push_back({"coinpress_mean", bytes_of(mean), zcdp_charge(mean)});
  return out;
}

dpcov_ledger_spent spent(const dpcov_ledger *l) {
  dpcov_ledger_spent s{};
  s.struct_size = sizeof s;
  EXPECT_EQ(dpcov_ledger_get_spent(l, &s), DPCOV_OK);
  return s;
}

struct Ledger {
  dpcov_ledger *l = nullptr;
  explicit Ledger(int32_t accounting) {
    EXPECT_EQ(dpcov_ledger_create(&l, accounting, 10.0, 1e-3), DPCOV_OK);
  }
  ~Ledger() { dpcov_ledger_destroy(&l); }
};

TEST(CapiLedgerReceipt, EveryFamilySpendsWhatItsOwnChargeSpent) {
  for (const Family &f : families()) {
    for (int32_t accounting : {DPCOV_ACCOUNTING_BASIC, DPCOV_ACCOUNTING_ZCDP}) {
      SCOPED_TRACE(f.name + " accounting " + std::to_string(accounting));
      Ledger own(accounting), common(accounting);
      ASSERT_EQ(f.own_charge(own.l), DPCOV_OK) << dpcov_last_error_message();
      ASSERT_EQ(dpcov_ledger_check_receipt(common.l, f.bytes.data()), DPCOV_OK)
          << dpcov_last_error_message();
      EXPECT_EQ(spent(common.l).charges, 0);
      ASSERT_EQ(dpcov_ledger_charge_receipt(common.l, f.bytes.data()), DPCOV_OK)
          << dpcov_last_error_message();
      const dpcov_ledger_spent a = spent(own.l), b = spent(common.l);
      EXPECT_EQ(b.charges, 1);
      EXPECT_EQ(a.epsilon, b.epsilon);
      EXPECT_EQ(a.delta, b.delta);
      EXPECT_EQ(a.rho, b.rho);
    }
  }
}

// A receipt whose prefix states what the registry does not: refused, nothing charged.
void expect_refused(const std::vector<unsigned char> &bytes, const char *what) {
  SCOPED_TRACE(what);
  Ledger l(DPCOV_ACCOUNTING_BASIC);
  EXPECT_EQ(dpcov_ledger_check_receipt(l.l, bytes.data()), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_ledger_charge_receipt(l.l, bytes.data()), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("receipt"), std::string::npos);
  EXPECT_EQ(spent(l.l).charges, 0);
  EXPECT_EQ(spent(l.l).epsilon, 0.0);
}

TEST(CapiLedgerReceipt, AnUnknownMechanismOrAForgedPrivacyModelIsRefused) {
  for (const Family &f : families()) {
    SCOPED_TRACE(f.name);
    dpcov_receipt_prefix p{};
    p.struct_size = sizeof p;
    ASSERT_EQ(dpcov_receipt_prefix_of(f.bytes.data(), &p), DPCOV_OK);
    std::vector<unsigned char> unknown = f.bytes;
    const int32_t no_mechanism = 999;
    std::memcpy(unknown.data() + offsetof(dpcov_receipt_prefix, mechanism), &no_mechanism,
                sizeof no_mechanism);
    expect_refused(unknown, "unknown mechanism");
    for (int32_t model : {0, int32_t{DPCOV_MECHANISM_PRIVACY_PURE},
                          int32_t{DPCOV_MECHANISM_PRIVACY_APPROXIMATE},
                          int32_t{DPCOV_MECHANISM_PRIVACY_ZCDP}, 99}) {
      if (model == p.privacy_model) continue;
      std::vector<unsigned char> forged = f.bytes;
      std::memcpy(forged.data() + offsetof(dpcov_receipt_prefix, privacy_model), &model,
                  sizeof model);
      expect_refused(forged, "forged privacy model");
    }
  }
}

TEST(CapiLedgerReceipt, BadArgumentsAreRefused) {
  Ledger l(DPCOV_ACCOUNTING_BASIC);
  const std::vector<unsigned char> gram = families().front().bytes;
  EXPECT_EQ(dpcov_ledger_charge_receipt(nullptr, gram.data()), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_ledger_check_receipt(nullptr, gram.data()), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_ledger_charge_receipt(l.l, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_ledger_check_receipt(l.l, nullptr), DPCOV_E_NULL_POINTER);
  std::vector<unsigned char> small = gram;
  const size_t size = sizeof(dpcov_receipt_prefix) - 1;
  std::memcpy(small.data(), &size, sizeof size);
  EXPECT_EQ(dpcov_ledger_charge_receipt(l.l, small.data()), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(spent(l.l).charges, 0);
}

// The private bound step, pure epsilon-DP, as a bare prefix (what a ledger kept in a file replays):
// charged what the bound step's own charge (a mechanism-0 receipt through dpcov_ledger_charge) was,
// epsilon and rho = epsilon^2 / 2 rounded up by the library; a delta is refused.
TEST(CapiLedgerReceipt, ThePrivateBoundIsChargedFromItsPrefixAlone) {
  dpcov_receipt_prefix p{};
  p.struct_size = sizeof p;
  p.mechanism = DPCOV_MECHANISM_PRIVATE_BOUND;
  p.privacy_model = DPCOV_MECHANISM_PRIVACY_PURE;
  p.epsilon = 0.1;
  dpcov_receipt own{};
  own.struct_size = sizeof own;
  own.epsilon = 0.1;
  for (int32_t accounting : {DPCOV_ACCOUNTING_BASIC, DPCOV_ACCOUNTING_ZCDP,
                             DPCOV_ACCOUNTING_ADVANCED}) {
    SCOPED_TRACE(accounting);
    Ledger by_prefix(accounting), by_receipt(accounting);
    ASSERT_EQ(dpcov_ledger_charge_receipt(by_prefix.l, &p), DPCOV_OK) << dpcov_last_error_message();
    ASSERT_EQ(dpcov_ledger_charge(by_receipt.l, &own), DPCOV_OK) << dpcov_last_error_message();
    const dpcov_ledger_spent a = spent(by_prefix.l), b = spent(by_receipt.l);
    EXPECT_EQ(a.epsilon, b.epsilon);
    EXPECT_EQ(a.delta, b.delta);
    EXPECT_EQ(a.rho, b.rho);
    if (accounting == DPCOV_ACCOUNTING_ZCDP) {
      EXPECT_GE(a.rho, 0.1 * 0.1 / 2.0);
    }
  }
  p.delta = 1e-6;
  Ledger l(DPCOV_ACCOUNTING_BASIC);
  EXPECT_EQ(dpcov_ledger_charge_receipt(l.l, &p), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(spent(l.l).charges, 0);
}

}  // namespace
