#include "laplace_scale.hpp"

#include "../check.hpp"
#include "upward.hpp"

namespace dpcov::privacy {

double laplace_scale(double l1_sensitivity, double eps) {
  check::positive_finite(l1_sensitivity, "L1 sensitivity");
  check::epsilon(eps);
  return upward::div_up(l1_sensitivity, eps);
}

}  // namespace dpcov::privacy
