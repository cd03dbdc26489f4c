// dpcov/ledger.h over the kernel's ledger (core/privacy/ledger.hpp).
#include "dpcov/ledger.h"

#include <new>

#include "../core/check.hpp"
#include "../core/error.hpp"
#include "../core/privacy/ledger.hpp"
#include "guard.hpp"

struct dpcov_ledger {
  dpcov::privacy::Ledger ledger;
};

namespace {

dpcov::privacy::Charge checked_charge(const dpcov_ledger *ledger, const dpcov_receipt *receipt) {
  dpcov::check::not_null(ledger, "ledger");
  dpcov::check::not_null(receipt, "receipt");
  if (receipt->struct_size < sizeof(dpcov_receipt))
    dpcov::fail(DPCOV_E_INVALID_ARGUMENT, "receipt->struct_size must be at least ",
                sizeof(dpcov_receipt), ", got ", receipt->struct_size);
  return dpcov::privacy::charge_of(*receipt);
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

DPCOV_API dpcov_status dpcov_ledger_get_spent(const dpcov_ledger *ledger,
                                              dpcov_ledger_spent *spent) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(ledger, "ledger");
    dpcov::check::not_null(spent, "spent");
    if (spent->struct_size < sizeof(dpcov_ledger_spent))
      dpcov::fail(DPCOV_E_INVALID_ARGUMENT, "spent->struct_size must be set to ",
                  sizeof(dpcov_ledger_spent), ", got ", spent->struct_size);
    dpcov_ledger_spent value = ledger->ledger.spent();
    value.struct_size = spent->struct_size;
    *spent = value;
  });
}
