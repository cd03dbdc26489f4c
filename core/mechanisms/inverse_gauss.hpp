// Gaussian noise on the inverse (Sheffet, ALT 2019, Thm B.5): G^{-1} + E, E symmetric Gaussian
// calibrated to the sensitivity of G^{-1} under a public bound lambda_min(G) >= theta^2.
// proofs/inverse_gauss.md.
#pragma once

#include "../matrix.hpp"
#include "../random/rng.hpp"
#include "receipt.hpp"
#include "request.hpp"

namespace dpcov::mechanisms {

// Every constant the release would use, or the status it would throw; no data, no randomness.
Receipt plan_inverse_gauss(const Request &request);

// Validates the statistic, then samples with the constants of `planned` (this mechanism's plan
// of `request`, computed once by the caller): never recomputes a constant.
Release release_inverse_gauss(ConstMatrixView gram, const Request &request, const Receipt &planned,
                              random::Rng &rng);

// The rounding allowance of a computed lambda_min(g): a computed value at or below it does not
// prove the exact one positive.
double eigenvalue_allowance(const Matrix &g);

// Natural log of the density of `released` given the statistic `gram`; -infinity outside the
// support.
double log_density_inverse_gauss(ConstMatrixView released, ConstMatrixView gram, const Request &request);

}  // namespace dpcov::mechanisms
