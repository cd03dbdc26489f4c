// Models a library that releases the sum of squares and cross products X^T X of rows in a public
// box [low, high]^d and sizes its sensitivity from the box's half-width, as if the box were
// centred at the origin: rows of norm <= (high - low) sqrt(d) / 2. For a box away from 0 the rows'
// norms reach high sqrt(d), and one row changes X^T X by far more than the noise covers.
//
// Broken: Gaussian noise calibrated (analytic Gaussian, replace-one) to the centred box's norm.
// Corrected: calibrated to the largest norm in the box, high sqrt(d). The pair: d = 2, box
// [9, 11]^2, 10 rows at the low corner, row 0 moved to the high corner (the largest change of
// X^T X in the box).
#pragma once

#include "zoo_case.hpp"

namespace dpcov::audit::zoo {

ZooCase uncentred_sscp(Variant variant, double epsilon, double delta);

}  // namespace dpcov::audit::zoo
