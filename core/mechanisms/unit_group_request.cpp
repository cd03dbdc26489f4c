#include "unit_group_request.hpp"

#include "../privacy/unit_group_privacy.hpp"

namespace dpcov::mechanisms {

Request group_unit_request(const Request &unit_request, int64_t max_rows_per_unit,
                           double row_bound) {
  const int64_t steps =
      privacy::unit_group_steps(unit_request.options.neighbour, max_rows_per_unit);
  const privacy::RowBudget budget =
      privacy::group_privacy_row_budget(steps, unit_request.epsilon, unit_request.delta);
  Request drawn = unit_request;
  drawn.bound = row_bound;
  drawn.epsilon = budget.epsilon;
  drawn.delta = budget.delta;
  // The chain of row steps adds and removes rows: the row-level guarantee it composes is the
  // add/remove one, whatever the unit relation.
  drawn.options.neighbour = privacy::Neighbour::AddRemove;
  drawn.analytic_unit_sigma = 0.0;
  return drawn;
}

}  // namespace dpcov::mechanisms
