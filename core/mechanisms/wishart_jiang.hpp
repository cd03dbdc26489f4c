// The Wishart mechanism of Jiang, Xie, Zhang (AAAI 2016, Alg. 2): G + W, W ~ W_d(d + 1,
// (3 B^2 / (2 eps)) I). NOT DIFFERENTIALLY PRIVATE (proofs/wishart_jiang.md gives a neighbouring
// pair and an event of probability 1 - exp(-eps/3) under one and 0 under the other). Plan and
// release refuse with Status::NotPrivate unless Options::audit_only_not_private is set; the
// receipt then has not_dp = true.
#pragma once

#include "../matrix.hpp"
#include "../random/rng.hpp"
#include "receipt.hpp"
#include "request.hpp"

namespace dpcov::mechanisms {

// Every constant the release would use, or the status it would throw; no data, no randomness.
Receipt plan_wishart_jiang(const Request &request);

// Validates the statistic, then samples with the constants of `planned` (this mechanism's plan
// of `request`, computed once by the caller): never recomputes a constant.
Release release_wishart_jiang(ConstMatrixView gram, const Request &request, const Receipt &planned,
                              random::Rng &rng);

// Natural log of the density of `released` given the statistic `gram`; -infinity outside the
// support.
double log_density_wishart_jiang(ConstMatrixView released, ConstMatrixView gram, const Request &request);

}  // namespace dpcov::mechanisms
