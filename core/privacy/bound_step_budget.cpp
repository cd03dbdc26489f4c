#include "bound_step_budget.hpp"

#include "../check.hpp"
#include "../error.hpp"
#include "upward.hpp"

namespace dpcov::privacy {

double bound_step_rest(double epsilon, double bound_epsilon) {
  check::epsilon(epsilon);
  check::finite(bound_epsilon, "bound_epsilon");
  if (!(bound_epsilon > 0.0 && bound_epsilon < epsilon))
    fail(Status::InvalidArgument, "the bound step's epsilon must be > 0 and below epsilon ",
         epsilon, " (the release spends the rest), got ", bound_epsilon);
  // The exact difference rounded towards -infinity: the largest double not above it.
  return upward::sub_down(epsilon, bound_epsilon);
}

double bound_step_total(double bound_epsilon, double epsilon) {
  check::finite(bound_epsilon, "bound_epsilon");
  check::finite(epsilon, "epsilon");
  if (!(bound_epsilon > 0.0 && epsilon > 0.0))
    fail(Status::InvalidArgument, "a bound step's and a release's epsilons must be > 0, got ",
         bound_epsilon, " and ", epsilon);
  const double total = upward::add_up(bound_epsilon, epsilon);
  check::finite_result(total, "the two steps' epsilon");
  return total;
}

}  // namespace dpcov::privacy
