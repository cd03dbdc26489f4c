// The release of an accumulator (dpcov_gram) from a plan computed once, shared by
// dpcov_mechanism_release_gram(), which plans first, and dpcov_plan_release_gram(), which takes a
// plan the caller made with dpcov_plan_create().
#pragma once

#include <cstdint>
#include <functional>

#include "../core/mechanisms/exact_additive.hpp"
#include "../core/mechanisms/mechanism.hpp"
#include "dpcov/mechanism.h"
#include "dpcov/rng.h"
#include "gram_handle.hpp"

namespace dpcov::capi {

// The accumulator's d, rows and bound with `epsilon`, `delta` and `options`: the request of a
// release from it. Throws Status::InvalidArgument for an accumulator given no chunk (its bound is
// unknown) and the drop policy's refusal under replace-one.
mechanisms::Request gram_request(const dpcov_gram &gram, double epsilon, double delta,
                                 const mechanisms::Options &options);

// Status::Incompatible unless `id` releases the exact integer Gram matrix an exact accumulator
// holds (analyze_gauss, laplace_sym).
void check_exact_release(mechanisms::MechanismId id);

// Status::Incompatible, quoting its registry entry's unit_refusal, unless `id` has a unit-level
// proof (its entry's unit_proof);
// Status::Precondition while a unit is open (dpcov_gram_finish_units() not yet called).
void check_unit_release(mechanisms::MechanismId id, const data::UnitSampler &units);

// The request a release by `id` from `gram` is planned and drawn at: `request` (gram_request()),
// except for a mechanism that holds at unit level by group privacy
// (mechanisms::units_by_group_privacy) on an accumulator of units, which is planned at the rows'
// own bound B, under add/remove, at the per-row budget of k (add/remove) or 2 k (replace) steps
// (privacy::group_privacy_row_budget; proofs/unit_group_privacy.md).
mechanisms::Request drawn_request(mechanisms::MechanismId id, const dpcov_gram &gram,
                                  const mechanisms::Request &request);

// The plan of a release at `drawn` (drawn_request()); for an exact accumulator it is given a grid
// to fill with the plan's (else nullptr).
using PlanOf = std::function<mechanisms::Receipt(const mechanisms::Request &drawn,
                                                 mechanisms::ExactGrid *grid)>;

// Releases `gram` by `id` at `request` (gram_request()) from plan_of(drawn_request()), called once
// after the output's checks: the draw uses the plan's constants and grid as they are. The
// receipt states `request`'s epsilon, delta and relation (the unit-level guarantee) whatever the
// per-row budget drawn at. The receipt's checks run before the first draw; out and receipt are
// written only on success.
void release_gram_into(mechanisms::MechanismId id, const dpcov_gram &gram,
                       const mechanisms::Request &request, const PlanOf &plan_of, dpcov_rng *rng,
                       int32_t layout, double *out, int64_t ldo, dpcov_receipt *receipt);

}  // namespace dpcov::capi
