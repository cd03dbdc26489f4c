// Inverse-Wishart posterior sampling (Sheffet, "Old Techniques in Differentially Private Linear
// Regression", ALT 2019, arXiv 1507.00056; constants.md section 5.5; proofs/inverse_wishart.md).
//
// Alg. 4 (MechanismId::InverseWishart, Thm 5.1 = B.4): release Sigma ~ W^{-1}_d(A_w^T A_w, m),
// A_w = [A; w I], integer m >= d, w^2 the JL threshold with r replaced by m. The block w I is the
// prior W^{-1}(w^2 I, .) and guarantees sigma_min(A_w) >= w for every A.
// Alg. 5 (MechanismId::InverseWishartSigmaMin): the private sigma_min test of Alg. 2 on
// (eps/2, delta/2) lowers w to w'^2 = max(0, w(eps/2, delta/2, m)^2 - max(s2, 0)).
#pragma once

#include "../matrix.hpp"
#include "../random/rng.hpp"
#include "receipt.hpp"
#include "request.hpp"

namespace dpcov::mechanisms {

// Requires request.options.posterior_dof = m, an integer >= d (Status::Precondition otherwise);
// eps <= 1 (eps/2 <= 1 for Alg. 5) and delta < 1/e.
Receipt plan_inverse_wishart(const Request &request);
Receipt plan_inverse_wishart_sigma_min(const Request &request);

// Samples with the constants of `planned`, the plan of `request` computed once by the caller.
Release release_inverse_wishart(ConstMatrixView gram, const Request &request,
                                const Receipt &planned, random::Rng &rng);
Release release_inverse_wishart_sigma_min(ConstMatrixView gram, const Request &request,
                                          const Receipt &planned, random::Rng &rng);

// Alg. 4: ln of the W^{-1}_d(G + w^2 I, m) density at `released`; -infinity outside the support.
double log_density_inverse_wishart(ConstMatrixView released, ConstMatrixView gram,
                                   const Request &request);
// Alg. 5: the joint density of the test value s2 and the released matrix.
double log_density_inverse_wishart_sigma_min(ConstMatrixView released, double s2,
                                             ConstMatrixView gram, const Request &request);

}  // namespace dpcov::mechanisms
