// The exact-density audit of CoinPress mean estimation (mechanisms/coinpress_mean.hpp,
// proofs/coinpress_mean.md). Each step's output has a density given the previous public centre:
// c_i - c_{i-1} ~ N(m_i, sigma_i^2 I) with m_i the mean offset from c_{i-1} of the rows projected
// onto B(c_{i-1}, R_i), so the privacy loss of a whole release c_1..c_t on neighbours X, X' is
//   L = sum_i (||c_i - c_{i-1} - m'_i||^2 - ||c_i - c_{i-1} - m_i||^2) / (2 sigma_i^2),
// with m_i, m'_i recomputed from the claimed R_i (the plan's) and the released c_{i-1}.
// The pair is the worst case: n - 1 rows near the origin (coordinates sin(0.7 (i d + j))) and one
// row at +F e_1 in X and at -F e_1 in X', F = 10^6 (1 + max R_i), so that every step's means
// differ by 2 R_i / n (the sensitivity) up to 1e-10 relative.
//
// The statistics and their error rate are GaussianTranscript's (gaussian_transcript.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <utility>

#include "../matrix.hpp"
#include "../mechanisms/coinpress_mean.hpp"
#include "../random/rng.hpp"
#include "gaussian_transcript.hpp"

namespace dpcov::audit {

// The t x d centres c_1..c_t of one release on `rows`: the implementation under audit.
using CentresRelease = std::function<Matrix(const Matrix &rows, random::Rng &rng)>;

using CoinpressMeanDirection = TranscriptDirection;

using CoinpressMeanAuditReport = TranscriptAuditReport<mechanisms::CoinpressMeanReceipt>;

// The audited pair (X, X') for the claim's n, d and step radii. With changed_rows = k > 1 (the
// unit-level audit) rows 0..k-1, one unit, are at +F e_1 in X and -F e_1 in X': every step's
// means differ by k times the sensitivity, the most k replaced rows move them (each row's
// projection moves by at most 2 R_i). Throws Status::InvalidArgument for k outside [1, n].
std::pair<Matrix, Matrix> coinpress_mean_audit_pair(const mechanisms::CoinpressMeanRequest &claim,
                                                    int64_t changed_rows = 1);

// The audit of `release` against the claim of `claim` (its plan), `trials` (>= 2) releases per
// direction, from Rng::from_seed(seed) and (seed + 1). Throws the plan's statuses,
// Status::InvalidArgument for trials < 2 or alpha outside (0, 1).
CoinpressMeanAuditReport audit_coinpress_mean(const mechanisms::CoinpressMeanRequest &claim,
                                              const CentresRelease &release, int64_t trials,
                                              double alpha, uint64_t seed);

// The audit of `release` on `pair` (X, X', each n x d of the claim). claimed_rho > 0 (the
// unit-level audit): the claim is that rho and its epsilon at the plan's delta, the density the
// plan's (its step sigma_i, the release's). Throws as above, and Status::Dimension for a pair of
// another shape.
CoinpressMeanAuditReport audit_coinpress_mean(const mechanisms::CoinpressMeanRequest &claim,
                                              const std::pair<Matrix, Matrix> &pair,
                                              const CentresRelease &release, int64_t trials,
                                              double alpha, uint64_t seed,
                                              double claimed_rho = 0.0);

// The library's own release at the claim (its plan), from the origin.
CentresRelease coinpress_mean_library_release(const mechanisms::CoinpressMeanRequest &claim);

// The same audit of the library's own release at the claim's rho.
CoinpressMeanAuditReport audit_coinpress_mean(const mechanisms::CoinpressMeanRequest &claim,
                                              int64_t trials, double alpha, uint64_t seed);

}  // namespace dpcov::audit
