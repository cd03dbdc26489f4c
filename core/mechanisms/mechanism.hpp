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
double log_density(MechanismId mechanism, ConstMatrixView released, ConstMatrixView gram,
                   const Request &request);
// The joint density of a propose-test-release output: the released test value s2 and matrix
// (jl_ridge_sigma_min, inverse_wishart_sigma_min, ols_jl); Status::InvalidArgument for others.
double log_density_tested(MechanismId mechanism, ConstMatrixView released, double test_value,
                          ConstMatrixView gram, const Request &request);

}  // namespace dpcov::mechanisms
