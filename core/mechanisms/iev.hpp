// Iterative eigenvector sampling, IEV (Amin, Dick, Kulesza, Munoz Medina, Vassilvitskii,
// "Differentially Private Covariance Estimation", NeurIPS 2019, Alg. 1, Thm 1, Cor. 1/2): Laplace
// noise on the top k eigenvalues of G, then k eigenvectors drawn one by one by the exponential
// mechanism (a Bingham density) on the orthogonal complement of those drawn before. Pure
// eps-DP. The loop lives in eigenvector_sampling.hpp; proofs/iev.md.
#pragma once

#include "../matrix.hpp"
#include "../random/rng.hpp"
#include "receipt.hpp"
#include "request.hpp"

namespace dpcov::mechanisms {

// Every constant the release would use, or the status it would throw; no data, no randomness.
Receipt plan_iev(const Request &request);

// Validates the statistic, then samples with the constants of `planned` (this mechanism's plan
// of `request`, computed once by the caller): never recomputes a constant. The receipt also
// carries the Bingham proposal and rejection totals of this release.
Release release_iev(ConstMatrixView gram, const Request &request, const Receipt &planned,
                    random::Rng &rng);

// The released matrix has no density in closed form (it needs the normalisers of every step, a
// hypergeometric function of matrix argument, and the clip puts mass on the boundary): throws
// Status::InvalidArgument after validating the arguments. Auditors use the per-step densities of
// eigenvector_sampling.hpp on the release's transcript instead.
double log_density_iev(ConstMatrixView released, ConstMatrixView gram, const Request &request);

}  // namespace dpcov::mechanisms
