// One entry point per operation for every Gram-input mechanism, selected by id: what the C ABI
// (dpcov/mechanism.h) calls.
#pragma once

#include <cstdint>

#include "../matrix.hpp"
#include "../random/rng.hpp"
#include "receipt.hpp"
#include "request.hpp"

namespace dpcov::mechanisms {

// The id for a C value; throws Status::InvalidArgument for an unknown one.
MechanismId mechanism_id(int32_t value);

Receipt plan(MechanismId mechanism, const Request &request);
Release release(MechanismId mechanism, ConstMatrixView gram, const Request &request,
                random::Rng &rng);
// The release from `planned`, the plan of (mechanism, request) already computed by the caller:
// the draw uses the plan's constants as they are, so each is computed once per release.
// Status::Internal if `planned` is not a plan of this mechanism and request.
Release release(MechanismId mechanism, ConstMatrixView gram, const Request &request,
                const Receipt &planned, random::Rng &rng);
// `planned`, a plan of (mechanism, request) made before the rows were counted (any n), as the plan
// at request.n: the same constants with n recorded, since no calibration reads n; the plan is
// computed again only for the mechanisms whose derived values do (IEV and KT clip the released
// spectrum to n B^2 under replace-one, the graphical-lasso output perturbation scales its noise
// with 1 / n). `planned` may hold idealized or exact numerics.
Receipt plan_at_rows(MechanismId mechanism, const Receipt &planned, const Request &request);
// `planned`, an idealized plan of (mechanism, request) at another bound B, as the plan at
// request.bound: planned again, but an analytic Gaussian calibration scales the unit sigma
// `planned` holds (sigma is proportional to the sensitivity) instead of searching again, so the
// result equals plan(mechanism, request) bit for bit. Status::Internal if `planned` differs from
// the request in anything but the bound.
Receipt plan_at_bound(MechanismId mechanism, const Receipt &planned, const Request &request);
// Whether a plan of `mechanism` reads n (plan_at_rows() computes it again at the rows' n).
bool plan_reads_n(MechanismId mechanism);
double log_density(MechanismId mechanism, ConstMatrixView released, ConstMatrixView gram,
                   const Request &request);
// The joint density of a propose-test-release output: the released test value s2 and matrix
// (jl_ridge_sigma_min, inverse_wishart_sigma_min, ols_jl); Status::InvalidArgument for others.
double log_density_tested(MechanismId mechanism, ConstMatrixView released, double test_value,
                          ConstMatrixView gram, const Request &request);

}  // namespace dpcov::mechanisms
