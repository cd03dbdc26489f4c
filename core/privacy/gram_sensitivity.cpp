#include "gram_sensitivity.hpp"

#include <cmath>

#include "../check.hpp"
#include "upward.hpp"

namespace dpcov::privacy {

double gram_l2_sensitivity(Neighbour neighbour, double bound) {
  check::positive_finite(bound, "bound B");
  const double b2 = upward::mul_up(bound, bound);
  return neighbour == Neighbour::ReplaceOne ? upward::mul_up(upward::sqrt_up(2.0), b2) : b2;
}

double gram_upper_triangle_l1_sensitivity(Neighbour neighbour, int64_t dim, double bound) {
  check::dimension(dim, "dimension d");
  check::positive_finite(bound, "bound B");
  const double b2 = upward::mul_up(bound, bound);
  const double d_plus_1 = static_cast<double>(dim + 1);  // exact: d^2 fits 32 bits
  const double replace = upward::mul_up(d_plus_1, b2);
  // Halving is exact.
  return neighbour == Neighbour::ReplaceOne ? replace : replace / 2.0;
}

double gram_l1_sensitivity_published(int64_t dim, double bound) {
  check::dimension(dim, "dimension d");
  check::positive_finite(bound, "bound B");
  return upward::mul_up(2.0 * static_cast<double>(dim), upward::mul_up(bound, bound));
}

}  // namespace dpcov::privacy
