// The noise-aware posterior's sampling share of each coefficient (PosteriorIntervals::
// sampling_share, proofs/adassp_posterior.md, "What the prior decides") from the kept draws of its
// chains: J_j' Cov(x) J_j / Var(beta_j | x), J_j = Cov(beta_j, score) over the posterior, the
// score d log p(x | state) / dx of the release x.
//
// Why across chains: J_j is a Monte Carlo estimate, and the square of a noisy estimate is biased
// upwards by its noise, E[J^' C J^] = J' C J + tr(C Var(J^)); with one coordinate of the score per
// released statistic (77 at p = 11) and a few hundred effective draws that is about a tenth of
// the share, enough to print an interval the rule means to withhold. Estimates from independent
// chains have independent noise, so the mean over ordered pairs of different chains of
// J^_c' C J^_c' is unbiased for J' C J (up to the pooled centring, O(1 / pooled draws)).
#pragma once

#include <cstdint>
#include <vector>

#include "adassp_posterior_chain.hpp"

namespace dpcov::estimators {

// pooled[j]: coefficient j's kept draws, `chains` >= 2 blocks of equal length, one per
// independent chain, in chain order; scores: the release score at the same draws (one per draw,
// the same order). NaN for every coefficient where a score is empty (the statistics' covariance
// not positive definite at that state) or for a coefficient whose draws do not vary. Throws
// Status::InvalidArgument when there are no draws, the blocks do not divide them or chains < 2.
std::vector<double> sampling_shares(const std::vector<std::vector<double>> &pooled,
                                    const std::vector<posterior::ReleaseScore> &scores,
                                    const posterior::GramCoordinates &coords, int64_t chains);

}  // namespace dpcov::estimators
