// The exact-density audits of the releases on the rows whose output (or a post-processing of it)
// has a closed-form density (gaussian_release_audit.hpp; proofs/dong_liang_yi.md and
// proofs/coinpress.md, "Audits"):
// - Dong-Liang-Yi Gauss: clamp(S + E), the upper triangle of S + E Gaussian around S = X^T X / n
//   of the rows clipped to r, at sigma = dly_gauss_sigma(rho, r, n);
// - Dong-Liang-Yi Separate's eigenvalue step: the eigenvalues of its output are lambda(S) + z,
//   z ~ N(0, sigma^2 I) at the step's share rho / 2 (claim: rho / 2 and its (epsilon, delta));
// - CoinPress covariance with t = 1 at K = 4 (A^{-1} = 2 I exactly): S + 4 E, S of the rows
//   clipped to sqrt(K) gamma.
// Each where the clamp (eigenvalues in [0, r^2], or the projection onto the PSD cone) binds with
// probability below 1e-150: the pair's second moments have every eigenvalue at least 40 sigma from
// the clamp ends and from each other, which fixes the pair's size n from rho.
// The pair (d = 3, unit s = r = 1 for Dong-Liang-Yi, s = 2 gamma for CoinPress): one row at 2s e_1
// in X and 2s e_2 in X' (the release clips them to s e_1, s e_2), then n / 10 rows at s e_1,
// 3n / 10 at s e_2, n / 2 at s e_3, the rest 0: the change of S, (e_2 e_2^T - e_1 e_1^T) s^2 / n,
// attains the sensitivity over the upper triangle, and the eigenvalues sit near 0.1, 0.3, 0.5 s^2.
// More pairs (audit_rows_exact_pairs): pair k >= 1 is the axis pair with both row sets rotated by
// one orthogonal Q_k drawn from the seed. Rotation keeps every row's norm (so the clipping) and the
// second moments' eigenvalues (so the clamp margin), and moves the change of S to
// Q_k (e_2 e_2^T - e_1 e_1^T) Q_k^T s^2 / n, whose off-diagonal entries the axis pair's diagonal
// change leaves untested: a release whose off-diagonal noise is below its claim passes the axis
// pair and shows on a rotated one.
// CoinPress with t >= 2 has no closed-form output density (step t whitens by a function of the
// unreleased steps), but its transcript Y_1..Y_t does, step by step: the library's release is
// run with its transcript handed back inside the audit (coinpress_steps_audit.hpp; the transcript
// never leaves it) on coinpress_steps_audit_pair() of the claim (d = 3, K = 4, every row far out
// on an axis) and its rotations by the same Q_k, n from the same margin with the largest step
// sigma_i against gamma^2 (audit_rows_exact_steps_pairs).
// Without a closed-form density: Dong-Liang-Yi Adaptive and AdaptivePaper (the branch and the
// budget follow private statistics): audited black-box (rows_black_box.hpp).
#pragma once

#include <cstdint>

#include "../mechanisms/coinpress.hpp"
#include "../mechanisms/dong_liang_yi.hpp"
#include "coinpress_steps_audit.hpp"
#include "gaussian_release_audit.hpp"
#include "rows_black_box.hpp"

namespace dpcov::audit {

struct RowsExactRequest {
  RowsMechanism mechanism = RowsMechanism::DlyGauss;
  int64_t steps = 1;    // CoinPress's t (t >= 2 on its transcript); 1 for Dong-Liang-Yi
  double rho = 0.5;     // the claimed zCDP budget of the release
  double delta = 1e-6;  // the delta of the claimed (epsilon, delta)
  // k > 1: the unit-level audit (rows_unit_audit.hpp). The claim is rho for units of exactly k
  // rows under replace-one, the release runs at rows_unit_release_rho(), n is a multiple of k,
  // and the pair's first k rows (one unit) all move where the row-level pair moves row 0.
  int64_t max_rows_per_unit = 1;
  // With k > 1: the planted broken variant, units of k rows released at rho itself.
  bool rows_only = false;
};

// The largest pair: rho below about 2e-7 would need more rows.
inline constexpr int64_t kRowsExactMaxRows = 1000000;

// Throws Status::Precondition (saying why and that the black-box audit covers it) for a release
// without an exact audit, Status::InvalidArgument for steps != 1 on Dong-Liang-Yi, for steps out
// of [1, kCoinpressMaxSteps], or for a rho that needs more than kRowsExactMaxRows rows, and the
// plan's statuses for rho or delta out of range.
void check_rows_exact_request(const RowsExactRequest &request);

// CoinPress with t >= 2: audited on its transcript (audit_rows_exact_steps_pairs), not by the
// Gaussian-release functions below (which throw Status::InvalidArgument for it).
bool rows_exact_by_steps(const RowsExactRequest &request);

// The rows of each dataset of the pair: the smallest multiple of 1000 at which the margin holds.
int64_t rows_exact_n(const RowsExactRequest &request);

// The claimed requests of the audited releases on the pair (d = 3; r = 1, or K = 4 and t).
mechanisms::DlyRequest rows_exact_dly_request(const RowsExactRequest &request);
mechanisms::CoinpressRequest rows_exact_coinpress_request(const RowsExactRequest &request);

// Pair `pair` and the claim (above): 0 the axis pair, k >= 1 the axis pair rotated by Q_k, a
// unit quaternion of four standard normals from Rng::from_seed(seed, kRowsExactRotationStream + k).
// Throws as check_rows_exact_request, and Status::InvalidArgument for pair < 0.
gaussian_release::Subject rows_exact_subject(const RowsExactRequest &request, int64_t pair = 0,
                                             uint64_t seed = 0);

// The stream of the rotations' generators (the audit's draws use other streams).
inline constexpr uint64_t kRowsExactRotationStream = 1u << 20;
// At most this many pairs: each costs 2 trials releases.
inline constexpr int64_t kRowsExactMaxPairs = 64;

// The library's release at the claim, returning the audited matrix.
gaussian_release::Release rows_exact_release(const RowsExactRequest &request);

// The same release for the audit of `subject` (a rows_exact_subject() of `request`, which must
// outlive it): the mechanism's passes (DlyPasses, CoinpressPasses) with each pass's sums over
// subject.rows[0] and [1] formed once (pair_partials.hpp), so that a draw on either costs O(d^3)
// and equals rows_exact_release()'s draw with the same generator byte for byte; on other rows it
// is rows_exact_release(). The audits below use it: their draws are the library's releases, at a
// cost that does not grow with the pair's n (10^4 rows and more at unit level).
gaussian_release::Release rows_exact_pair_release(const RowsExactRequest &request,
                                                  const gaussian_release::Subject &subject);

// The audit of the library's release on pair 0 (gaussian_release::run_audit).
gaussian_release::Verdict audit_rows_exact(const RowsExactRequest &request, int64_t trials,
                                           double alpha, uint64_t seed);

// The audits (gaussian_release::run_audit) of pairs 0 .. pairs - 1, each at alpha / pairs (so
// that a release matching its claim is flagged with probability <= alpha over all of them), pair
// k's draws from seed + k. The worst pair: a flagged one before any other, then the largest
// rho_lower / claimed rho. Throws Status::InvalidArgument for pairs outside
// [1, kRowsExactMaxPairs], trials < 2 or alpha outside (0, 1), and as rows_exact_subject().
struct RowsExactPairs {
  gaussian_release::Verdict worst;
  int64_t worst_pair = 0;
  int64_t samples = 0;  // releases over every pair and both directions
};
RowsExactPairs audit_rows_exact_pairs(const RowsExactRequest &request, int64_t pairs,
                                      int64_t trials, double alpha, uint64_t seed);
// The same with `release` in place of the library's (the privacy tests' known-broken variants).
RowsExactPairs audit_rows_exact_pairs(const RowsExactRequest &request,
                                      const gaussian_release::Release &release, int64_t pairs,
                                      int64_t trials, double alpha, uint64_t seed);

// CoinPress with t >= 2: the per-step audit of the library's transcript on pairs 0 .. pairs - 1
// (0: coinpress_steps_audit_pair() of rows_exact_coinpress_request(), k >= 1: both datasets
// rotated by Q_k as above), each at alpha / pairs, pair k's draws from seed + 2k and
// seed + 2k + 1. The worst pair: a flagged one before any other, then the largest rho_lower (of
// its two directions) / claimed rho. Throws as check_rows_exact_request() and
// audit_coinpress_steps(), and Status::InvalidArgument for a request that is not coinpress with
// t >= 2, pairs outside [1, kRowsExactMaxPairs], trials < 2 or alpha outside (0, 1).
struct RowsExactStepsPairs {
  CoinpressStepsAuditReport worst;
  int64_t worst_pair = 0;
  int64_t samples = 0;  // releases over every pair and both directions
};
RowsExactStepsPairs audit_rows_exact_steps_pairs(const RowsExactRequest &request, int64_t pairs,
                                                 int64_t trials, double alpha, uint64_t seed);
// The same with `release` in place of the library's (the privacy tests' known-broken variants).
RowsExactStepsPairs audit_rows_exact_steps_pairs(const RowsExactRequest &request,
                                                 const TranscriptRelease &release, int64_t pairs,
                                                 int64_t trials, double alpha, uint64_t seed);

}  // namespace dpcov::audit
