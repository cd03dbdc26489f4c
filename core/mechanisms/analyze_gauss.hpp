// Analyze Gauss (Dwork, Talwar, Thakurta, Zhang, STOC 2014, Alg. 1): G + E, E symmetric with iid
// N(0, sigma^2) upper-triangle entries; sigma by the analytic Gaussian mechanism (Balle & Wang
// 2018, Thm 8) by default or the classical one (eps < 1). proofs/analyze_gauss.md.
#pragma once

#include "../matrix.hpp"
#include "../random/rng.hpp"
#include "receipt.hpp"
#include "request.hpp"

namespace dpcov::mechanisms {

// Every constant the release would use, or the status it would throw; no data, no randomness.
// Sets receipt.calibration, receipt.sigma and receipt.theorem for symmetric Gaussian noise of L2
// sensitivity receipt.sensitivity, by the calibration the request asks for: the analytic Gaussian
// (Balle-Wang 2018 Thm 8; the default) or the classical one (Dwork-Roth Thm A.1, eps < 1). Every
// mechanism that adds Gaussian noise calibrates through here, so sigma is computed in one place.
void calibrate_gaussian(Receipt &receipt, const Request &request, const char *theorem_analytic,
                        const char *theorem_classical);

Receipt plan_analyze_gauss(const Request &request);

// Validates the statistic, then samples with the constants of `planned` (this mechanism's plan
// of `request`, computed once by the caller): never recomputes a constant.
Release release_analyze_gauss(ConstMatrixView gram, const Request &request, const Receipt &planned,
                              random::Rng &rng);

// Natural log of the density of `released` given the statistic `gram`; -infinity outside the
// support.
double log_density_analyze_gauss(ConstMatrixView released, ConstMatrixView gram, const Request &request);

}  // namespace dpcov::mechanisms
