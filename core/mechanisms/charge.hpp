// What a ledger charges for the release a receipt describes (proofs/ledger.md). It reads the
// mechanisms' receipt, so it sits with them; the ledger itself (core/privacy/ledger.hpp) knows only
// charges.
#pragma once

#include "../privacy/ledger.hpp"
#include "receipt.hpp"
#include "registry.hpp"

namespace dpcov::mechanisms {

// The charge of the release a receipt describes (a plan's receipt, before the release). Throws
// Status::NotPrivate for a mechanism that is not DP, Status::InvalidArgument for a receipt whose
// fields are out of range.
privacy::Charge charge_of(const Receipt &receipt);

// The charge of a release of any family, from what every receipt states (dpcov_receipt_prefix):
// the registry entry of its mechanism, the privacy model it claims, and its rho, epsilon and
// delta; `gram` is the full receipt of a Gram mechanism (nullptr for the other families). A Gram
// release is charged by charge_of(*gram); a pure epsilon-DP one (the private bound) epsilon, 0 and
// epsilon^2 / 2 (its receipt's rho is not read); every other family states its release in zCDP
// and is charged privacy::zcdp_charge(rho, epsilon, delta). Throws Status::InvalidArgument for a
// privacy model other than the registry's or a Gram release without its receipt,
// Status::NotPrivate for a mechanism that is not DP.
privacy::Charge charge_of_release(const RegistryEntry &entry, int32_t privacy_model, double rho,
                                  double epsilon, double delta, const Receipt *gram);

}  // namespace dpcov::mechanisms
