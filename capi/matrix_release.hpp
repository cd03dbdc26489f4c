// The release of a statistic the caller holds as a matrix, from a plan computed once, shared by
// dpcov_mechanism_release(), which plans first, and dpcov_plan_release_matrix(), which takes a
// plan the caller made with dpcov_plan_create().
#pragma once

#include <cstdint>
#include <functional>

#include "../core/matrix.hpp"
#include "../core/mechanisms/mechanism.hpp"
#include "dpcov/receipt.h"
#include "dpcov/rng.h"

namespace dpcov::capi {

// The plan of the release, called once after the output's checks.
using PlanOfMatrix = std::function<mechanisms::Receipt()>;

// Releases the checked statistic `gram` by `id` at `request` with the constants of plan_of():
// the receipt's checks run before the first draw; out and receipt are written only on success.
void release_matrix_into(mechanisms::MechanismId id, ConstMatrixView gram,
                         const mechanisms::Request &request, const PlanOfMatrix &plan_of,
                         dpcov_rng *rng, int32_t layout, double *out, int64_t ldo,
                         dpcov_receipt *receipt);

}  // namespace dpcov::capi
