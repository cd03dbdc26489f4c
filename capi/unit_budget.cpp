// C ABI of the row-level budget of privacy units by group privacy (dpcov/unit_budget.h).
#include "dpcov/unit_budget.h"

#include "../core/check.hpp"
#include "../core/error.hpp"
#include "../core/privacy/unit_group_privacy.hpp"
#include "dpcov/receipt.h"
#include "guard.hpp"

namespace {

namespace privacy = dpcov::privacy;

privacy::Neighbour relation(int32_t value, const char *name) {
  if (value != DPCOV_NEIGHBOUR_REPLACE_ONE && value != DPCOV_NEIGHBOUR_ADD_REMOVE)
    dpcov::fail(dpcov::Status::InvalidArgument, name,
                " must be DPCOV_NEIGHBOUR_REPLACE_ONE (0) or DPCOV_NEIGHBOUR_ADD_REMOVE (1), got ",
                value);
  return static_cast<privacy::Neighbour>(value);
}

int64_t steps(int32_t unit_neighbour, int32_t row_neighbour, int64_t max_rows_per_unit) {
  return privacy::unit_group_steps(relation(unit_neighbour, "unit_neighbour"),
                                   relation(row_neighbour, "row_neighbour"), max_rows_per_unit);
}

}  // namespace

extern "C" {

dpcov_status dpcov_unit_row_budget(int32_t unit_neighbour, int32_t row_neighbour,
                                   int64_t max_rows_per_unit, double epsilon, double delta,
                                   double *row_epsilon, double *row_delta) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(row_epsilon, "row_epsilon");
    dpcov::check::not_null(row_delta, "row_delta");
    const privacy::RowBudget budget = privacy::group_privacy_row_budget(
        steps(unit_neighbour, row_neighbour, max_rows_per_unit), epsilon, delta);
    *row_epsilon = budget.epsilon;
    *row_delta = budget.delta;
  });
}

dpcov_status dpcov_unit_row_rho(int32_t unit_neighbour, int32_t row_neighbour,
                                int64_t max_rows_per_unit, double rho, double *row_rho) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(row_rho, "row_rho");
    *row_rho = privacy::group_privacy_row_rho(
        steps(unit_neighbour, row_neighbour, max_rows_per_unit), rho);
  });
}

}  // extern "C"
