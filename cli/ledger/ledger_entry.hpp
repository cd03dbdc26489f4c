// One release as the --ledger file charges it and records it. Every charge is the library's one
// charge of a receipt (dpcov_ledger_charge_receipt): the common prefix of the release's receipt
// (registry id, privacy model, epsilon, delta, rho, numerics) and, for a Gram mechanism, the rest
// of its receipt, whose sensitivity and sigma its charge reads. A ledger entry records exactly
// that; entries of the previous format (a Gram receipt's fields, or a release stated in zCDP by
// mechanism name) are read and charged as they were (docs/ledger-file.md).
#pragma once

#include <cstdint>
#include <string>

#include <dpcov.h>
#include <nlohmann/json.hpp>

namespace dpcov::cli {

struct LedgerCharge {
  // A Gram mechanism's plan or release receipt.
  LedgerCharge(const dpcov_receipt &r);  // NOLINT: a receipt is a charge
  // The release a receipt of any family describes, through its prefix (dpcov_receipt_prefix_of).
  static LedgerCharge of_receipt(const void *receipt);
  // A release of registry id `mechanism` stated in zCDP: rho-zCDP and (epsilon, delta)-DP
  // (Dong-Liang-Yi, CoinPress, CoinPress mean, AdaSSP).
  static LedgerCharge zcdp(int32_t mechanism, double rho, double epsilon, double delta);
  // The private bound step: epsilon-DP (DPCOV_MECHANISM_PRIVATE_BOUND).
  static LedgerCharge bound_step(double epsilon);

  // The prefix, and for a Gram mechanism its whole receipt (struct_size says which).
  dpcov_receipt receipt{};
  // > 0: an advanced ledger's one charge of a bound step of this epsilon and the release together,
  // both in `receipt`'s epsilon (and rho).
  double bound_epsilon = 0.0;
};

// dpcov_ledger_charge_receipt of `c` on `ledger`.
dpcov_status apply_charge(dpcov_ledger *ledger, const LedgerCharge &c);

// The entry that records `c`, naming the release `output`.
nlohmann::ordered_json entry_of(const LedgerCharge &c, const std::string &output);

// The charge an entry records, of either format. Throws CliError(kExitInputData) for a mechanism
// the library's registry does not hold, and nlohmann::json::exception for a missing field.
LedgerCharge charge_of(const nlohmann::ordered_json &entry);

}  // namespace dpcov::cli
