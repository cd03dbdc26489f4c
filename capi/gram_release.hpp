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

// Status::Incompatible unless `id` has a unit-level proof (its registry entry's unit_proof);
// Status::Precondition while a unit is open (dpcov_gram_finish_units() not yet called).
void check_unit_release(mechanisms::MechanismId id, const data::UnitSampler &units);

// The plan of a release at its request's n; for an exact accumulator it is given a grid to fill
// with the plan's (else nullptr).
using PlanOf = std::function<mechanisms::Receipt(mechanisms::ExactGrid *grid)>;

// Releases `gram` by `id` at `request` (gram_request()) from plan_of(), called once after the
// output's checks: the draw uses the plan's constants and grid as they are. The receipt's checks
// run before the first draw; out and receipt are written only on success.
void release_gram_into(mechanisms::MechanismId id, const dpcov_gram &gram,
                       const mechanisms::Request &request, const PlanOf &plan_of, dpcov_rng *rng,
                       int32_t layout, double *out, int64_t ldo, dpcov_receipt *receipt);

}  // namespace dpcov::capi
