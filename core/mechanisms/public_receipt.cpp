#include "public_receipt.hpp"

#include "../error.hpp"

namespace dpcov::mechanisms {

bool n_is_public(privacy::Neighbour neighbour) {
  return neighbour == privacy::Neighbour::ReplaceOne;
}

dpcov_receipt public_receipt(const dpcov_receipt &receipt) {
  if (receipt.neighbour != DPCOV_NEIGHBOUR_REPLACE_ONE &&
      receipt.neighbour != DPCOV_NEIGHBOUR_ADD_REMOVE)
    fail(DPCOV_E_INVALID_ARGUMENT, "receipt->neighbour must be DPCOV_NEIGHBOUR_REPLACE_ONE (0) or ",
         "DPCOV_NEIGHBOUR_ADD_REMOVE (1), got ", receipt.neighbour);
  dpcov_receipt out = receipt;
  if (!n_is_public(static_cast<privacy::Neighbour>(receipt.neighbour)))
    out.n = DPCOV_RECEIPT_N_WITHHELD;
  // The number of proposals a rejection sampler draws has a law that depends on the data; no
  // proof covers publishing it (proofs/public_receipt.md).
  out.bingham_proposals = 0;
  out.bingham_rejections = 0;
  return out;
}

}  // namespace dpcov::mechanisms
