#include "unit_plan.hpp"

#include <string>

#include "../cli_error.hpp"
#include "../library_status.hpp"

namespace dpcov::cli {

bool units_by_group_privacy(int32_t id) {
  dpcov_mechanism_entry entry{};
  entry.struct_size = sizeof entry;
  library_check(dpcov_mechanism_info_by_id(id, &entry), "the mechanism's registry entry");
  return std::string(entry.unit_proof) == "proofs/unit_group_privacy.md";
}

GroupUnitsRows group_units_rows(const MechanismChoice &unit_choice,
                                const MechanismOptions &unit_options, int64_t max_rows_per_unit) {
  GroupUnitsRows rows{unit_choice, unit_options};
  library_check_parameters(
      dpcov_unit_row_budget(unit_choice.params.neighbour, DPCOV_NEIGHBOUR_ADD_REMOVE,
                            max_rows_per_unit, unit_options.epsilon, unit_choice.delta,
                            &rows.options.epsilon, &rows.choice.delta),
      "the per-row budget of the privacy units");
  rows.choice.params.neighbour = DPCOV_NEIGHBOUR_ADD_REMOVE;
  rows.options.neighbour = "add-remove";
  rows.options.requested_epsilon = unit_options.requested_epsilon.value_or(unit_options.epsilon);
  rows.options.rest_spent_by = concat("per row, by group privacy over units of up to ",
                                      max_rows_per_unit, " rows");
  return rows;
}

void state_unit_guarantee(dpcov_receipt &planned, const MechanismChoice &unit_choice,
                          double unit_epsilon, int64_t max_rows_per_unit) {
  planned.epsilon = unit_epsilon;
  if (planned.delta != 0.0) planned.delta = unit_choice.delta;
  planned.neighbour = unit_choice.params.neighbour;
  planned.max_rows_per_unit = max_rows_per_unit;
}

}  // namespace dpcov::cli
