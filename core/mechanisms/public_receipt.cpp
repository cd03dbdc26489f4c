#include "public_receipt.hpp"

#include "../error.hpp"

namespace dpcov::mechanisms {

bool n_is_public(privacy::Neighbour neighbour) {
  return neighbour == privacy::Neighbour::ReplaceOne;
}

Receipt public_receipt(const Receipt &receipt) {
  if (receipt.neighbour != privacy::Neighbour::ReplaceOne &&
      receipt.neighbour != privacy::Neighbour::AddRemove)
    fail(Status::InvalidArgument, "receipt->neighbour must be DPCOV_NEIGHBOUR_REPLACE_ONE (0) or ",
         "DPCOV_NEIGHBOUR_ADD_REMOVE (1), got ", static_cast<int32_t>(receipt.neighbour));
  Receipt out = receipt;
  if (!n_is_public(receipt.neighbour)) out.n = kNWithheld;
  // The number of proposals a rejection sampler draws has a law that depends on the data; no
  // proof covers publishing it (proofs/public_receipt.md).
  out.bingham_proposals = 0;
  out.bingham_rejections = 0;
  return out;
}

}  // namespace dpcov::mechanisms
