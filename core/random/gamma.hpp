// Gamma and chi-square variates.
#pragma once

#include "rng.hpp"

namespace dpcov::random {

// Gamma(shape, 1), density x^{a-1} e^{-x} / Gamma(a), for any finite shape a > 0. Marsaglia-Tsang
// (ACM TOMS 26(3), 2000) for a >= 1; for a < 1 the boost G(a + 1) U^{1/a} (same paper, section
// 6), computed in log space. For very small a the exact value is often below the smallest double
// and then 0 is returned (e.g. half the draws at a = 0.001 are below 1e-300).
// Throws Status::InvalidArgument / Status::NonFinite unless a is finite and > 0.
double gamma(Rng &rng, double shape);

// Chi-square with real dof k > 0: 2 Gamma(k / 2). Same errors as gamma() for k.
double chi_square(Rng &rng, double dof);

}  // namespace dpcov::random
