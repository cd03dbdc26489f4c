#include "box_norm_bound.hpp"

#include "row_bound.hpp"
#include "../error.hpp"
#include "../privacy/upward.hpp"

namespace dpcov::data {

double box_norm_bound(int64_t entries) {
  // Up to 2^53 every integer, so the count itself, is a double: the monotonicity argument needs it.
  if (entries < 1 || entries > (int64_t{1} << 53))
    fail(Status::Dimension, "the number of entries per row must be in [1, 2^53], got ", entries);
  // A corner row of the box (every entry +-1) has sum of squares `entries` exactly; the accumulator
  // keeps a row whole only if its sum is <= within_limit_squared(B, entries), so B is the smallest
  // double whose limit reaches `entries` (limit monotone in B; a few steps from the estimate).
  const double m = static_cast<double>(entries);
  double bound = privacy::upward::div_up(privacy::upward::sqrt_up(m), within_shave(entries));
  while (within_limit_squared(bound, entries) < m) bound = privacy::upward::bump_up(bound);
  while (within_limit_squared(privacy::upward::bump_down(bound), entries) >= m)
    bound = privacy::upward::bump_down(bound);
  return bound;
}

}  // namespace dpcov::data
