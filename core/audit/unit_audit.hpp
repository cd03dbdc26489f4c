// The unit-level audit (issue 34's "a neighbouring pair that differs by one unit of k rows"): the
// release a mechanism makes from an accumulator of privacy units, audited by its exact density on
// an aligned unit pair against the unit-level claim, or the planted broken variant that bounds
// rows but not units. What dpcov_audit_units() and `dpcov audit --unit-rows` run.
#pragma once

#include <cstdint>

#include "../mechanisms/mechanism.hpp"
#include "loss_audit.hpp"
#include "unit_pairs.hpp"

namespace dpcov::audit {

// The pair: D holds a base of units and one unit of k rows B e_1; D' holds the base alone
// (add/remove) or the base and k rows B e_2 instead (replace). The base: six units of 1 to 3
// rows in the span of e_2, ..., e_d (so e_1, where the unit differs, carries nothing but the
// noise), for a mechanism that takes a lambda_min bound two units of k rows along each axis
// (full rank, lambda_min >= 2 k B^2 (1 - 2^-49)), and for IEV and KT under replace a unit of k
// rows B e_2, with the six small units in the span of e_3, ..., e_d when d >= 3 (so that the
// replacement moves the spectrum by 2 k B^2 in l1 at every k, the most a unit can: the pair that
// maximises the loss of their Laplace eigenvalue step). Symmetric Laplace, whose noise is sized
// by the L1 norm of the upper triangle, takes its unit along the directions that maximise that
// norm instead: (v, w) of max_l1_change_pair() under replace (2.87 k B^2 of the (d + 1) k B^2
// sized for at d = 3, where the axes reach 2 k B^2 only), (1, ..., 1) under add/remove (all of
// (d + 1) k B^2 / 2). d >= 2.
std::pair<UnitRows, UnitRows> aligned_unit_pair(mechanisms::MechanismId mechanism,
                                                privacy::Neighbour neighbour, int64_t dim,
                                                int64_t max_rows_per_unit, double row_bound);

// The request the release from an accumulator of units is made at: the unit bound B_u
// (privacy::unit_contribution_bound) for a mechanism with the trace proof, or
// mechanisms::group_unit_request() for one with the group-privacy proof. `request` holds the rows'
// bound B and the unit-level claim. Throws Status::Incompatible for a mechanism without a unit
// proof (registry).
mechanisms::Request unit_release_request(mechanisms::MechanismId mechanism,
                                         const mechanisms::Request &request,
                                         int64_t max_rows_per_unit);

// Audits `mechanism` on aligned_unit_pair() against the unit-level claim (request.epsilon,
// request.delta; delta 0 for a pure mechanism), by its exact density, or black-box
// (audit_units_black_box()) where the audit table audits it so: the release at
// unit_release_request(), or with
// `broken` the planted variant released at `request` itself (rows bounded by B, budget not
// divided: units not bounded). Idealized numerics. A mechanism taking a lambda_min bound gets
// the pair's (request_for_pair()) when request.options.lambda_min_bound is 0. Throws what the
// plans and the audit throw, Status::Dimension for d < 2, and Status::TooLarge when the pair's
// Gram matrices would cost more than kMaxUnitPairWork (below), before any row is made.
AuditReport audit_units(mechanisms::MechanismId mechanism, const mechanisms::Request &request,
                        int64_t max_rows_per_unit, bool broken, const Settings &settings);

// The most (rows of the pair) x d^2 a unit audit forms its Gram matrices from, 2^34 (seconds):
// it bounds the time and memory of a call whatever k and d.
inline constexpr double kMaxUnitPairWork = 0x1p34;

}  // namespace dpcov::audit
