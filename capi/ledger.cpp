// dpcov/ledger.h over the kernel's ledger (core/privacy/ledger.hpp).
#include "dpcov/ledger.h"
#include "struct_size.hpp"

#include <new>

#include "../core/check.hpp"
#include "../core/error.hpp"
#include "../core/mechanisms/charge.hpp"
#include "../core/privacy/ledger.hpp"
#include "guard.hpp"
#include "receipt_prefix.hpp"
#include "receipt_writer.hpp"

struct dpcov_ledger {
  dpcov::privacy::Ledger ledger;
};

namespace {

dpcov_ledger_spent c_spent(const dpcov::privacy::Ledger::Spent &s) {
  dpcov_ledger_spent c{};
  c.struct_size = sizeof c;
  c.accounting = static_cast<int32_t>(s.accounting);
  c.charges = s.charges;
  c.epsilon = s.epsilon;
  c.delta = s.delta;
  c.rho = s.rho;
  c.epsilon_cap = s.epsilon_cap;
  c.delta_cap = s.delta_cap;
  return c;
}

dpcov::privacy::Charge checked_charge(const dpcov_ledger *ledger, const dpcov_receipt *receipt) {
  dpcov::check::not_null(ledger, "ledger");
  const dpcov_receipt c = dpcov::capi::read_struct(receipt, dpcov_receipt{}, "receipt");
  return dpcov::mechanisms::charge_of(dpcov::capi::core_receipt(c));
}

// The charge of a receipt of any family, read through its common prefix.
dpcov::privacy::Charge checked_receipt_charge(const dpcov_ledger *ledger, const void *receipt) {
  namespace mech = dpcov::mechanisms;
  dpcov::check::not_null(ledger, "ledger");
  const dpcov_receipt_prefix p = dpcov::capi::read_prefix(receipt);
  const mech::RegistryEntry &entry = mech::entry_of(p.mechanism);
  if (entry.family != mech::Family::Gram)
    return mech::charge_of_release(entry, p.privacy_model, p.rho, p.epsilon, p.delta, nullptr);
  const dpcov_receipt c = dpcov::capi::read_struct(static_cast<const dpcov_receipt *>(receipt),
                                                   dpcov_receipt{}, "receipt");
  const mech::Receipt gram = dpcov::capi::core_receipt(c);
  return mech::charge_of_release(entry, p.privacy_model, p.rho, p.epsilon, p.delta, &gram);
}

}  // namespace

DPCOV_API dpcov_status dpcov_ledger_create(dpcov_ledger **out, int32_t accounting,
                                           double epsilon_cap, double delta_cap) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(out, "out");
    dpcov::privacy::Ledger ledger(static_cast<dpcov::privacy::Accounting>(accounting),
                                  epsilon_cap, delta_cap);
    *out = new dpcov_ledger{ledger};
  });
}

DPCOV_API void dpcov_ledger_destroy(dpcov_ledger **ledger) {
  if (ledger == nullptr) return;
  delete *ledger;
  *ledger = nullptr;
}

DPCOV_API dpcov_status dpcov_ledger_check(const dpcov_ledger *ledger, const dpcov_receipt *receipt) {
  return dpcov::capi::guarded([&] {
    const dpcov::privacy::Charge charge = checked_charge(ledger, receipt);
    ledger->ledger.check(charge);
  });
}

DPCOV_API dpcov_status dpcov_ledger_charge(dpcov_ledger *ledger, const dpcov_receipt *receipt) {
  return dpcov::capi::guarded([&] {
    const dpcov::privacy::Charge charge = checked_charge(ledger, receipt);
    ledger->ledger.charge(charge);
  });
}

DPCOV_API dpcov_status dpcov_ledger_check_zcdp(const dpcov_ledger *ledger, double rho,
                                               double epsilon, double delta) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(ledger, "ledger");
    ledger->ledger.check(dpcov::privacy::zcdp_charge(rho, epsilon, delta));
  });
}

DPCOV_API dpcov_status dpcov_ledger_charge_zcdp(dpcov_ledger *ledger, double rho, double epsilon,
                                                double delta) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(ledger, "ledger");
    ledger->ledger.charge(dpcov::privacy::zcdp_charge(rho, epsilon, delta));
  });
}

DPCOV_API dpcov_status dpcov_ledger_check_receipt(const dpcov_ledger *ledger,
                                                  const void *receipt) {
  return dpcov::capi::guarded([&] {
    const dpcov::privacy::Charge charge = checked_receipt_charge(ledger, receipt);
    ledger->ledger.check(charge);
  });
}

DPCOV_API dpcov_status dpcov_ledger_charge_receipt(dpcov_ledger *ledger, const void *receipt) {
  return dpcov::capi::guarded([&] {
    const dpcov::privacy::Charge charge = checked_receipt_charge(ledger, receipt);
    ledger->ledger.charge(charge);
  });
}

DPCOV_API dpcov_status dpcov_ledger_get_spent(const dpcov_ledger *ledger,
                                              dpcov_ledger_spent *spent) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(ledger, "ledger");
    dpcov::capi::struct_bytes(spent, "spent");
    dpcov::capi::write_struct(spent, c_spent(ledger->ledger.spent()));
  });
}
