// The neighbour relation a privacy guarantee is stated for (constants.md section 1).
#pragma once

#include <cstdint>

namespace dpcov::privacy {

enum class Neighbour : int32_t {
  // One row replaced by another of norm <= B; n is fixed and public. The dpcov default, and the
  // relation of all five seed papers.
  ReplaceOne = 0,
  // One row of norm <= B added or removed; n is then private.
  AddRemove = 1,
};

const char *neighbour_name(Neighbour neighbour);

}  // namespace dpcov::privacy
