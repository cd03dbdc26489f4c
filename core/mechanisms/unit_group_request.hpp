// The row-level request of a release of privacy units by group privacy
// (proofs/unit_group_privacy.md): what the C ABI plans and draws on an accumulator of units for a
// mechanism whose registry entry names that proof, and what the unit-level audit audits.
#pragma once

#include <cstdint>

#include "request.hpp"

namespace dpcov::mechanisms {

// `unit_request` (epsilon, delta and relation at unit level) planned instead at the rows' own
// bound `row_bound`, under add/remove, at the per-row budget of unit_group_steps(relation, k)
// steps (privacy::group_privacy_row_budget). Throws what those calculators throw.
Request group_unit_request(const Request &unit_request, int64_t max_rows_per_unit,
                           double row_bound);

}  // namespace dpcov::mechanisms
