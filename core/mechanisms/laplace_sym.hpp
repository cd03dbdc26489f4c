// Symmetric Laplace input perturbation (Jiang, Xie, Zhang, AAAI 2016, Alg. 1; Wang et al. 2018;
// Amin et al. 2019 baseline): G + L, L symmetric with iid Lap(b) upper-triangle entries, b from the
// upper-triangle L1 sensitivity (default) or the published 2 d B^2 / eps. proofs/laplace_sym.md.
#pragma once

#include "../matrix.hpp"
#include "../random/rng.hpp"
#include "receipt.hpp"
#include "request.hpp"

namespace dpcov::mechanisms {

// Every constant the release would use, or the status it would throw; no data, no randomness.
Receipt plan_laplace_sym(const Request &request);

// Validates the statistic, then samples with the constants of `planned` (this mechanism's plan
// of `request`, computed once by the caller): never recomputes a constant.
Release release_laplace_sym(ConstMatrixView gram, const Request &request, const Receipt &planned,
                            random::Rng &rng);

// Natural log of the density of `released` given the statistic `gram`; -infinity outside the
// support.
double log_density_laplace_sym(ConstMatrixView released, ConstMatrixView gram, const Request &request);

}  // namespace dpcov::mechanisms
