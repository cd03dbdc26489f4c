// Intervals from the profile of the pivot vector: Fieller's set in many dimensions, with no rule
// on which releases answer (proofs/pivot_profile.md).
//
// For a release G^ = X'X + E (noise mean removed) and X'y~ = X'y + e_xy of a linear model
// y = X beta + e, the pivot r(beta) = X'y~ - G^ beta = X'e + e_xy - E beta is, at the true beta,
// Gaussian with mean 0 and covariance
//   Sigma(beta) = S + v_xy I + Q(beta beta'),
// S the sampling covariance of X'e (s^2 X'X for homoscedastic errors, the meat for robust ones),
// v_xy the variance of an entry of e_xy and Q(B) = E[E B E] (worlds_truth.hpp). So
// T(beta) = r' Sigma(beta)^-1 r is chi-square with p degrees of freedom at the truth, whatever the
// release made of X'X. Coefficient j's set is {c : min over beta with beta_j = c of T(beta) <= q},
// q the level-quantile of chi-square with ONE degree of freedom: exact where Sigma does not depend
// on beta (then the profile is the square of a Gaussian pivot for beta_j), and otherwise measured
// (bench/results/interval_grid.md, "Intervals that the edge's selection does not bias"). The set
// is bounded only where the release identifies beta_j; it widens continuously as the direction
// that carries beta_j weakens, on every release, so no threshold selects the releases it reads.
#pragma once

#include <cstdint>
#include <vector>

#include "../linalg/blas.hpp"
#include "../matrix.hpp"
#include "release_noise.hpp"

namespace dpcov::estimators {

struct PivotProfile {
  Matrix g;                 // the released feature block, noise mean removed (p x p, symmetric)
  std::vector<double> gxy;  // the released X'y
  Matrix base;              // S + v_xy I: the pivot's covariance with beta = 0
  ReleaseNoise noise;       // the law of E, read for Q
};

// The profile of a release G^ (`g`), X'y~ (`gxy`) under the noise law `noise`, with S =
// `sampling` (the covariance of X'e: s^2 G^, or the meat's positive part): base = S + v_xy I.
PivotProfile pivot_profile(const Matrix &g, const std::vector<double> &gxy, Matrix sampling,
                           const ReleaseNoise &noise);

// T(beta) = r' Sigma(beta)^-1 r, and its gradient into `gradient` (p doubles) when not null.
// +inf where Sigma(beta) is not positive definite in floating point (beta of a size near the
// largest doubles).
double pivot_statistic(const PivotProfile &profile, const std::vector<double> &beta,
                       std::vector<double> *gradient);

// Along a ray beta = c e_j + t w (w_j = 0) T tends, as t grows, to
// T0(w) = (G^ w)' Q(w w')^-1 (G^ w), whatever c: r grows like t G^ w and Sigma like t^2 Q(w w').
// `limit` is the lowest T0 found over unit w with w_j = 0 (projected descent from every
// eigenvector of G^, given in `eig`, and every coordinate axis), `w` where (+inf and 0 for
// p = 1). Where it is at most q the profile of beta_j is below q at every value: its set is the
// whole line.
struct FarDirection {
  double limit = 0.0;
  std::vector<double> w;
};
FarDirection far_direction(const PivotProfile &profile, const linalg::SymmetricEigen &eig,
                           int64_t j);

// Where profiled_statistic starts: the estimate G^-1 X'y~, G^-1, coefficient j's far direction,
// the scale of the starts along it (also the floor of a descent step's cap), and q.
struct ProfileStarts {
  std::vector<double> estimate;
  Matrix g_inverse;
  FarDirection far;
  double far_scale = 0.0;
  double level_quantile = 0.0;
};

// min over beta with beta_j = c of T(beta), by damped Gauss-Newton descent from several starts:
// `start` (on return the minimiser found), the estimate moved along G^-1's column j (the
// minimiser where Sigma is fixed), and the lowest point of a scan from there along the far
// direction (far_scale 2^k, k in [-16, 24], each side) where its limit is at most twice q (T may be lowest out there when the
// release barely identifies a direction); the lowest minimum is kept. A local minimiser: where it stops above the global minimum the set
// comes out narrower than the profile's; the tests compare it with many random starts.
double profiled_statistic(const PivotProfile &profile, int64_t j, double c,
                          const ProfileStarts &starts, std::vector<double> &start);

struct ProfileIntervals {
  std::vector<double> coefficients;  // G^-1 X'y~ (T = 0 there)
  std::vector<double> p_values;      // of beta_j = 0: P(chi-square_1 > profiled T at 0)
  std::vector<double> ci_lower, ci_upper;
  // Per coefficient, per end: the set reaches the end of the searched range (open on that side
  // as far as the search can tell); the end is written as the searched range's end.
  std::vector<bool> lower_open, upper_open;
};

// Each coefficient's set at `level` (in (0, 1)), searched from the estimate out to the larger of
// 1000 of its delta-method standard errors there and a distance that reaches past
// [-must_reach[j], must_reach[j]], so that a set open on both sides is written as an interval
// containing that range; each end found to a relative precision of 1e-6 of its distance from the
// estimate, on the outer side. With `which` (p flags) only the flagged coefficients are searched;
// the others keep their estimate as both ends and a p-value of 1. Throws Status::Precondition
// where G^ is singular (no estimate to centre on).
ProfileIntervals pivot_profile_intervals(const PivotProfile &profile, double level,
                                         const std::vector<double> &must_reach,
                                         const std::vector<bool> *which = nullptr);

}  // namespace dpcov::estimators
