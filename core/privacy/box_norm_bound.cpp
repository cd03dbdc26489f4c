#include "box_norm_bound.hpp"

#include "../error.hpp"
#include "upward.hpp"

namespace dpcov::privacy {

double box_norm_bound(int64_t entries) {
  // Up to 2^53 every integer, so the count itself, is a double: the monotonicity argument needs it.
  if (entries < 1 || entries > (int64_t{1} << 53))
    fail(DPCOV_E_DIMENSION, "the number of entries per row must be in [1, 2^53], got ", entries);
  return upward::sqrt_up(static_cast<double>(entries));
}

}  // namespace dpcov::privacy
