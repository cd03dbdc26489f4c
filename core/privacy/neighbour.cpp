#include "neighbour.hpp"

namespace dpcov::privacy {

const char *neighbour_name(Neighbour neighbour) {
  return neighbour == Neighbour::ReplaceOne ? "replace-one" : "add/remove-one";
}

}  // namespace dpcov::privacy
