// Exponential and Laplace variates.
#pragma once

#include "rng.hpp"

namespace dpcov::random {

// Exponential with rate 1, by inversion: -ln(U) with U uniform on (0, 1), never 0, so the result
// is finite and > 0.
double exponential(Rng &rng);

// Laplace with density exp(-|x| / b) / (2 b), by inversion (constants.md section 9):
// x = -b sgn(U) ln(1 - 2|U|) with U uniform on (-1/2, 1/2). Throws DPCOV_E_INVALID_ARGUMENT /
// DPCOV_E_NON_FINITE unless b is finite and > 0.
double laplace(Rng &rng, double scale);

}  // namespace dpcov::random
