// How a Gram release of privacy units of up to k rows is planned, shared by `release`, which
// plans it, and the receipt check of the commands that compute from it, which plans it again.
#pragma once

#include <cstdint>

#include <dpcov.h>

#include "mechanism_options.hpp"

namespace dpcov::cli {

// Whether the registry releases `id` at unit level by group privacy (its unit proof is
// proofs/unit_group_privacy.md); the other unit mechanisms are planned at the bound of a unit's
// contribution (unit_contribution_bound).
bool units_by_group_privacy(int32_t id);

// A mechanism that takes units by group privacy is drawn at the per-row budget, at the rows' own
// bound, under add/remove (dpcov_unit_row_budget; proofs/unit_group_privacy.md): the choice and
// options of that per-row plan, from the unit-level ones.
struct GroupUnitsRows {
  MechanismChoice choice;
  MechanismOptions options;
};
GroupUnitsRows group_units_rows(const MechanismChoice &unit_choice,
                                const MechanismOptions &unit_options, int64_t max_rows_per_unit);

// `planned`, the per-row plan's receipt, made to state the unit-level guarantee (epsilon, delta,
// neighbour relation and k), as the release's receipt does and the ledger is charged.
void state_unit_guarantee(dpcov_receipt &planned, const MechanismChoice &unit_choice,
                          double unit_epsilon, int64_t max_rows_per_unit);

}  // namespace dpcov::cli
