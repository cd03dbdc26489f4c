// Additive Wishart noise (Sheffet, ALT 2019, Alg. 3 / Thm 4.1 = Thm B.3): G + W,
// W ~ W_d(k, B^2 I), k = ceil(d + 14 ln(4/delta) / eps^2). proofs/wishart_additive.md.
#pragma once

#include "../matrix.hpp"
#include "../random/rng.hpp"
#include "receipt.hpp"
#include "request.hpp"

namespace dpcov::mechanisms {

// Every constant the release would use, or the status it would throw; no data, no randomness.
Receipt plan_wishart_additive(const Request &request);

// Validates the statistic, then samples with the constants of `planned` (this mechanism's plan
// of `request`, computed once by the caller): never recomputes a constant.
Release release_wishart_additive(ConstMatrixView gram, const Request &request,
                                 const Receipt &planned, random::Rng &rng);

// Natural log of the density of `released` given the statistic `gram`; -infinity outside the
// support.
double log_density_wishart_additive(ConstMatrixView released, ConstMatrixView gram, const Request &request);

}  // namespace dpcov::mechanisms
