// The neighbour relation a privacy guarantee is stated for (constants.md section 1).
#pragma once

#include <cstdint>

#include "dpcov/receipt.h"

namespace dpcov::privacy {

enum class Neighbour : int32_t {
  // One row replaced by another of norm <= B; n is fixed and public. The dpcov default, and the
  // relation of all five seed papers.
  ReplaceOne = DPCOV_NEIGHBOUR_REPLACE_ONE,
  // One row of norm <= B added or removed; n is then private.
  AddRemove = DPCOV_NEIGHBOUR_ADD_REMOVE,
};

const char *neighbour_name(Neighbour neighbour);

}  // namespace dpcov::privacy
