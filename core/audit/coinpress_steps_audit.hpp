// The exact per-step audit of CoinPress covariance with any number of steps t
// (mechanisms/coinpress.hpp, proofs/coinpress.md, "Audits"). The release is a post-processing of
// its transcript Y_1..Y_t, Y_i = W_i^T W_i / n + E_i before the PSD projection, and given
// Y_1..Y_{i-1} (which fix the whitening A_{i-1}) the upper triangle of Y_i is Gaussian around
// that of M_i = W_i^T W_i / n with iid N(0, sigma_i^2) entries. So the privacy loss of the
// transcript on neighbours X, X' is
//   L = sum_i (||Y_i - M'_i||_ut^2 - ||Y_i - M_i||_ut^2) / (2 sigma_i^2),
// with A_{i-1}, M_i and M'_i recomputed from the claimed plan (gamma, sigma_i, eta, K) and the
// released Y_1..Y_{i-1} (mechanisms::coinpress_step_moment, coinpress_next_transform).
// The pair is the worst case: every row far out on an axis, F = 10^6 sqrt(K) (1 + gamma)^t, so that
// its image A_{i-1} x is clipped to gamma at every step: n - 1 rows at F e_{j mod d} (j = 1..n-1),
// and row 0 at F e_1 in X and F e_2 in X'. Every M_i is then gamma^2 / n times the counts on the
// unit directions of the A_{i-1} e_k, and A_{i-1} stays a multiple of I up to the noise, whose
// effect is smallest this way (every step sees second moments near gamma^2 / d on each axis). The
// steps' means differ by (gamma^2 / n)(u u^T - v v^T), u, v the unit directions of A_{i-1} e_1,
// A_{i-1} e_2, which is the sensitivity sqrt(2) gamma^2 / n up to the second order in the
// off-diagonal part of A_{i-1} (measured: min_shift_ratio).
// The statistics and their error rate are GaussianTranscript's (gaussian_transcript.hpp);
// min_shift_ratio is against the sensitivity.
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "../matrix.hpp"
#include "../mechanisms/coinpress.hpp"
#include "../random/rng.hpp"
#include "gaussian_transcript.hpp"

namespace dpcov::audit {

// The transcript Y_1..Y_t (each d x d) of one release on `rows`: the implementation under audit.
using TranscriptRelease = std::function<std::vector<Matrix>(const Matrix &rows, random::Rng &rng)>;

using CoinpressStepsAuditReport = TranscriptAuditReport<mechanisms::CoinpressReceipt>;

// The audited pair (X, X') for the claim's n >= 2, d >= 2, K and gamma. With changed_rows = k > 1
// (the unit-level audit) rows 0..k-1, one unit, are at F e_1 in X and F e_2 in X': each step's
// mean moves by k times the row-level shift, the most k replaced rows move it. Throws
// Status::InvalidArgument for k outside [1, n].
std::pair<Matrix, Matrix> coinpress_steps_audit_pair(const mechanisms::CoinpressRequest &claim,
                                                     int64_t changed_rows = 1);

// The audit of `release` against the claim of `claim` (its plan, the paper's form), `trials`
// (>= 2) releases per direction, from Rng::from_seed(seed) and (seed + 1). Throws the plan's
// statuses, Status::InvalidArgument for trials < 2, alpha outside (0, 1), n < 2 or d < 2,
// Status::Precondition where a sigma_i is below the noise floor (noise_floor.hpp), and
// Status::Dimension if a transcript is not t matrices d x d.
CoinpressStepsAuditReport audit_coinpress_steps(const mechanisms::CoinpressRequest &claim,
                                                const TranscriptRelease &release, int64_t trials,
                                                double alpha, uint64_t seed);

// The same audit of the library's own release (mechanisms::coinpress_run on the plan's steps).
CoinpressStepsAuditReport audit_coinpress_steps(const mechanisms::CoinpressRequest &claim,
                                                int64_t trials, double alpha, uint64_t seed);

// The library's own release (coinpress_run on the plan's steps): the transcript it hands back.
TranscriptRelease coinpress_library_transcript(const mechanisms::CoinpressRequest &claim);

// The audit on `pair` (X, X', each n x d of the claim) in place of coinpress_steps_audit_pair():
// the rows-exact audit's rotations of it (rows_exact_audit.hpp). min_shift_ratio stays against
// the sensitivity, which a rotated pair's off-diagonal shift is below. claimed_rho > 0 (the
// unit-level audit): the claim is that rho and its epsilon at the plan's delta, while the density
// stays the plan's (its step sigma_i, the release's). Throws as above, and Status::Dimension if
// a dataset of the pair is not n x d.
CoinpressStepsAuditReport audit_coinpress_steps(const mechanisms::CoinpressRequest &claim,
                                                const std::pair<Matrix, Matrix> &pair,
                                                const TranscriptRelease &release, int64_t trials,
                                                double alpha, uint64_t seed,
                                                double claimed_rho = 0.0);

}  // namespace dpcov::audit
