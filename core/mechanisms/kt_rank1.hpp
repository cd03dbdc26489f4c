// The Kapralov-Talwar baseline as Amin et al. (NeurIPS 2019, Sec. 4) run it: IEV with the
// rank-one subtraction C_{i+1} = C_i - lambda_hat_i theta_i theta_i^T instead of the projection, each
// eigenvector drawn on the whole sphere S^{d-1}. Same accounting as IEV, pure eps-DP. Not Kapralov
// and Talwar's own SODA 2013 algorithm. The loop lives in eigenvector_sampling.hpp;
// proofs/kt_rank1.md.
#pragma once

#include "../matrix.hpp"
#include "../random/rng.hpp"
#include "receipt.hpp"
#include "request.hpp"

namespace dpcov::mechanisms {

// Every constant the release would use, or the status it would throw; no data, no randomness.
Receipt plan_kt_rank1(const Request &request);

// Validates the statistic, then samples with the constants of `planned` (this mechanism's plan
// of `request`, computed once by the caller): never recomputes a constant. The receipt also
// carries the Bingham proposal and rejection totals of this release.
Release release_kt_rank1(ConstMatrixView gram, const Request &request, const Receipt &planned,
                         random::Rng &rng);

// The released matrix has no density in closed form (it needs the normalisers of every step, a
// hypergeometric function of matrix argument, and the clip puts mass on the boundary): throws
// Status::InvalidArgument after validating the arguments. Auditors use the per-step densities of
// eigenvector_sampling.hpp on the release's transcript instead.
double log_density_kt_rank1(ConstMatrixView released, ConstMatrixView gram, const Request &request);

}  // namespace dpcov::mechanisms
