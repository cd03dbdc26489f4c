// What a ledger charges for the release a receipt describes (proofs/ledger.md). It reads the
// mechanisms' receipt, so it sits with them; the ledger itself (core/privacy/ledger.hpp) knows only
// charges.
#pragma once

#include "../privacy/ledger.hpp"
#include "receipt.hpp"

namespace dpcov::mechanisms {

// The charge of the release a receipt describes (a plan's receipt, before the release). Throws
// Status::NotPrivate for a mechanism that is not DP, Status::InvalidArgument for a receipt whose
// fields are out of range.
privacy::Charge charge_of(const Receipt &receipt);

}  // namespace dpcov::mechanisms
