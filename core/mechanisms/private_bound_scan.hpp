// A private norm bound by the sparse vector technique: AboveThreshold (Dwork and Roth, "The
// Algorithmic Foundations of Differential Privacy", 2014, Algorithm 1, Theorem 3.23) scanning the
// public geometric grid upward from its smallest candidate and stopping at the first b_k whose
// noisy count of rows above it, A(D, b_k) + nu_k, is at most the noisy target m + tau. If none
// stops below the top candidate, the top is chosen. Unlike the exponential mechanism over the same
// grid (private_bound.hpp), whose many candidates above the data share one utility and so take
// most of the mass at small n, the scan stops just above the data with high probability:
// proofs/private_bound.md, "The scan".
//
// The noise is discrete Laplace on the integers (counts and the target are integers), drawn by the
// exact sampler of Canonne, Kamath and Steinke (random/discrete.hpp), so every comparison is exact
// integer arithmetic and the guarantee is that of the ideal mechanism: pure eps-DP.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "../random/rng.hpp"

namespace dpcov::mechanisms {

// A discrete Laplace scale as the exact rational t / s: P(x) proportional to exp(-|x| s / t)
// (random::discrete_laplace(rng, s, t)).
struct DiscreteLaplaceScale {
  uint64_t s = 1;
  uint64_t t = 1;
};

// The denominator s of every scale below: t / 2^24 is within 2^-24 t of the exact scale, and
// t < 2^53 keeps the quotient exact in a double.
inline constexpr uint64_t kScanScaleDenominator = uint64_t{1} << 24;

// The threshold noise tau's scale: the smallest t / 2^24 >= 2 / eps (Dwork-Roth Theorem 3.23:
// Lap(2 Delta / eps) with Delta = 1: half of eps pays for the threshold). Throws
// Status::InvalidArgument unless eps is finite and >= 2^-26 (then t < 2^53).
DiscreteLaplaceScale private_bound_scan_threshold_scale(double eps);

// The query noise nu_k's scale: the smallest t / 2^24 >= 2 / eps. The counts A(D, b) are monotone
// in D under both neighbour relations: adding a row raises every count by 0 or 1, removing lowers
// every one, and replacing x by x' raises every count if ||x'|| >= ||x|| and lowers every one
// otherwise. For monotone queries AboveThreshold needs Lap(Delta / eps_2) on the queries, not Dwork
// and Roth's Lap(2 Delta / eps_2) (Lyu, Su and Li, "Understanding the Sparse Vector Technique for
// Differential Privacy", PVLDB 10(6) 2017, Section 3, monotonic queries). Derivation, and the
// exact audit that finds losses of 0.9897 eps (eps 1) and 0.99993 eps (eps 4) with these scales,
// in proofs/private_bound.md.
// Throws as the threshold scale.
DiscreteLaplaceScale private_bound_scan_query_scale(double eps);

// Natural logs of the probabilities that the scan chooses each of the K candidates, from a
// histogram of K + 1 cells (private_bound.hpp), at the given scales. Exact sums over the integer
// threshold noise tau in [-(m + L), A_0 - m + L], L = 40 times the larger scale plus 1 (the mass
// left out is below exp(-40) of the mass kept; proofs/private_bound.md). For tests, the audit and
// the proof check: the time grows with the counts and the scales.
std::vector<double> private_bound_scan_log_probabilities(const std::vector<uint64_t> &histogram,
                                                         uint64_t target_clipped,
                                                         DiscreteLaplaceScale threshold,
                                                         DiscreteLaplaceScale query);

// Draws the scan's choice at the given scales (tests pass others as mutations): one threshold
// draw and K - 1 query draws whatever the data, every comparison made, so neither the number of
// draws nor the work depends on which candidate stops the scan. Throws Status::InvalidArgument on
// a bad histogram or scale.
size_t private_bound_scan_select_with_scales(const std::vector<uint64_t> &histogram,
                                             uint64_t target_clipped,
                                             DiscreteLaplaceScale threshold,
                                             DiscreteLaplaceScale query, random::Rng &rng);

// The mechanism: eps-DP index of the chosen candidate under either neighbour relation.
size_t private_bound_scan_select(const std::vector<uint64_t> &histogram, uint64_t target_clipped,
                                 double eps, random::Rng &rng);

}  // namespace dpcov::mechanisms
