// The part of a receipt that may be published (proofs/public_receipt.md). A release's receipt also
// holds curator-only diagnostics whose values depend on the data outside any mechanism: the exact n
// under add/remove neighbours (n is private there) and the Bingham proposal counts of IEV and KT
// (their law depends on the data). The public receipt withholds them; every other field is a
// function of public parameters and of released values.
#pragma once

#include <cstdint>

#include "../privacy/neighbour.hpp"
#include "receipt.hpp"

namespace dpcov::mechanisms {

// n is a public parameter exactly when the neighbour relation keeps it fixed (replace-one).
bool n_is_public(privacy::Neighbour neighbour);

// n in a public receipt when n is private (add/remove); the C ABI's DPCOV_RECEIPT_N_WITHHELD,
// pinned in capi/.
inline constexpr int64_t kNWithheld = -1;

// `receipt` with the curator-only fields withheld: n = kNWithheld under add/remove,
// bingham_proposals = bingham_rejections = 0. Throws Status::InvalidArgument on an unknown
// neighbour relation.
Receipt public_receipt(const Receipt &receipt);

}  // namespace dpcov::mechanisms
