// The truth that every noise-aware bootstrap world simulates around (proofs/bootstrap_worlds.md).
//
// A world that took the released X'X~ = X'X + E as its X'X and added a fresh E* would refit on
// X'X + E + E*: the release's noise twice. Over both draws its refits' inverse has twice the
// second-order term of the estimator's, E[(X'X + E)^-1] = G^-1 + G^-1 Q(G^-1) G^-1 + ...
// (G = X'X, Q(B) = E[E B E]), so where the noise is not small against X'X the worlds spread
// wider than the estimate does (binary regressors at d = 10, n = 2000, epsilon = 1: printed
// widths 1.6 times the estimate's spread). The worlds' X'X is instead the release de-noised to
// second order, (X'X~^-1 - X'X~^-1 Q(X'X~^-1) X'X~^-1)^-1, whose inverse is unbiased for G^-1 to
// that order, and their X'y is the released one (unbiased for X'y): each world's refit then has
// the estimator's mean and spread to second order in the noise.
#pragma once

#include <vector>

#include "../matrix.hpp"
#include "release_noise.hpp"

namespace dpcov::estimators {

// The largest second-order correction the worlds take: the generalised eigenvalues of
// (Q(X'X~^-1), X'X~) at most this. Beyond it the expansion the correction rests on is not
// accurate (the correction would remove most of X'X~'s smallest direction), and the worlds keep
// the released X'X~, the conservative construction (proofs/bootstrap_worlds.md, "Where the
// expansion stops").
inline constexpr double kLargestWorldsCorrection = 0.5;

// Q(B) = E[E B E] for the noise law restricted to p = b.rows() columns, B symmetric:
// s_o^2 (B + tr(B) I) + (s_d^2 - 2 s_o^2) diag(B), with s_o^2 and s_d^2 the variances of an
// off-diagonal and a diagonal entry (proofs/bootstrap_worlds.md, "The noise's second moment").
Matrix noise_second_moment(const ReleaseNoise &noise, const Matrix &b);

struct WorldsTruth {
  Matrix xtx;                // the worlds' X'X
  std::vector<double> xty;   // the worlds' X'y: the released one
  bool denoised = false;     // false: the correction exceeded kLargestWorldsCorrection
};

// The worlds' truth from the release's feature block g (noise mean removed, positive definite)
// and its X'y gxy, for noise of law `noise`. Throws Status::NotPositiveDefinite when g is not.
WorldsTruth worlds_truth(const Matrix &g, const std::vector<double> &gxy,
                         const ReleaseNoise &noise);

}  // namespace dpcov::estimators
