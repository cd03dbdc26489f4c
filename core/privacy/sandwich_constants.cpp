#include "sandwich_constants.hpp"

#include "../check.hpp"
#include "upward.hpp"

namespace dpcov::privacy {

SandwichBudget sandwich_budget(double epsilon, double delta) {
  check::positive_finite(epsilon, "epsilon");
  if (!(delta > 0.0 && delta < 1.0))
    fail(Status::InvalidArgument, "delta must be in (0, 1), got ", delta);
  SandwichBudget b;
  b.meat_epsilon = upward::mul_down(kSandwichMeatShare, epsilon);
  b.meat_delta = upward::mul_down(kSandwichMeatShare, delta);
  b.fit_epsilon = upward::sub_down(epsilon, b.meat_epsilon);
  b.fit_delta = upward::sub_down(delta, b.meat_delta);
  return b;
}

double sandwich_residual_bound(double bound_y) {
  check::positive_finite(bound_y, "bound_y");
  return upward::mul_up(2.0, bound_y);
}

double sandwich_meat_row_bound(double bound_x, double residual_bound) {
  check::positive_finite(bound_x, "bound_x");
  check::positive_finite(residual_bound, "residual_bound");
  return upward::mul_up(bound_x, residual_bound);
}

}  // namespace dpcov::privacy
