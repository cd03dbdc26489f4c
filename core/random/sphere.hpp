// Uniform points on the unit sphere.
#pragma once

#include <cstdint>

#include "rng.hpp"

namespace dpcov::random {

// Writes a point uniform on S^{q-1} (q coordinates, Euclidean norm 1) to out[0..q-1]: q iid
// normals divided by their norm (the normal distribution is rotation invariant). Throws
// Status::Dimension unless q >= 1.
void uniform_sphere(Rng &rng, double *out, int64_t q);

}  // namespace dpcov::random
