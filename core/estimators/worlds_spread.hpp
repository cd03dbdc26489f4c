// The bootstrap worlds' spread de-noised to second order (proofs/bootstrap_worlds.md, "The
// worlds' spread"): the coefficients that the worlds' fresh X'X noise multiplies, shrunk so that
// their square is unbiased, and the spread that the worlds' inverse carries from the release's
// noise, taken out.
//
// The estimate's error is (G + E)^-1 (Z + e - E beta): the noise on X'X enters multiplied by the
// true coefficients, and its covariance Q(beta beta') = s_o^2 (beta beta' + |beta|^2 I) + ... grows
// with |beta|^2. A world around the centre beta_w draws E* beta_w instead, and |beta_w|^2
// estimates |beta|^2 + tr Cov(beta_w): where the noise dominates at d = 10 that is twice
// |beta|^2 (binary regressors, n = 2000, epsilon 1), so the worlds spread wider than the estimate
// (studentised errors of sd 0.86) and the percentile intervals over-cover. Each world's refit is
// split as beta_w + u - v, u = (G_w + E*)^-1 (Z + e*) (every other noise) and
// v = (G_w + E*)^-1 E* beta_w, and the intervals are read from beta_w + u - m - c (v - m): m the
// worlds' median of v (the estimator's second-order bias, which is linear in beta and so is kept
// as beta_w makes it) and c in [0, 1] the factor with c^2 |beta_w|^2 = |beta_w|^2 - T(c), T(c) the
// sum over the coefficients of the robust variance of u - c v: |c beta_w|^2 then estimates
// |beta|^2 without bias, to the order the worlds' spread estimates Cov(beta_w).
#pragma once

#include <vector>

#include "../matrix.hpp"
#include "release_noise.hpp"

namespace dpcov::estimators {

// The variance of a normal law with the interquartile range of v (at least one value; v is
// reordered): the worlds' spread without the weight of their rare near-singular draws.
double robust_variance(std::vector<double> &v);

// The factor c above from each coefficient's parts over the usable worlds (`rest[j]` the u_j,
// `interaction[j]` the v_j, equal lengths, at least 2 worlds) and the centre beta_w: 0 where
// T(0) >= |beta_w|^2, else the root in (0, 1] of c^2 |beta_w|^2 + T(c) - |beta_w|^2 by bisection
// (T is the squared interquartile range over 1.349^2, the variance of a normal law; the robust
// variance understates a heavy-tailed one, so c errs towards 1, the wider worlds).
double interaction_shrinkage(const std::vector<std::vector<double>> &rest,
                             const std::vector<std::vector<double>> &interaction,
                             const std::vector<double> &centre);

// The worlds' refits of coefficient j, beta_w[j] + u - m - c (v - m) for each world's (u, v) of
// `rest[j]` and `interaction[j]` (m their median over the worlds), with c = interaction_shrinkage.
std::vector<std::vector<double>> shrunk_refits(const std::vector<std::vector<double>> &rest,
                                               const std::vector<std::vector<double>> &interaction,
                                               const std::vector<double> &centre);

// The worlds' refits (one row per coefficient, over the usable worlds, at least 2) spread by
// H Sigma H, H = X'X_w^-1 the inverse of a truth that carries the release's noise: over releases
// that is G^-1 Sigma G^-1 + G^-1 Q(G^-1 Sigma G^-1) G^-1 to second order, the estimate's spread
// plus one more copy of its second-order term (the same "noise twice" that worlds_truth.hpp takes
// out of the mean). With V the refits' covariance (robust variances, interquartile ranges over
// 1.349, with the refits' correlations), each coefficient's refits are scaled about their median
// by sqrt(max(0, 1 - (H Q(V) H)_jj / V_jj)), Q = noise_second_moment of `noise`, so that their
// variance is V_jj less that term. `xtx` is X'X_w (positive definite).
void deflate_spread(std::vector<std::vector<double>> &refits, const Matrix &xtx,
                    const ReleaseNoise &noise);

}  // namespace dpcov::estimators
