// Fieller's interval beside the bootstrap worlds, along the release's weak directions
// (proofs/bootstrap_worlds.md, "Fieller beside the worlds").
//
// The worlds are built on the release; along a direction only a few noise sds strong the data's
// X'X may be much weaker than the release's, and the worlds' refits, which spread the direction's
// component by a / (a + E*), cannot see by how much (weak_directions.hpp flags or refuses the
// coefficients along directions below 3 sds).
// Along an eigenvector u of the released feature block G^ (eigenvalue a) the pivot
// u'(X'y~ - G^ beta) = u'X'e + u'e_xy - u'E beta is exactly Gaussian at the true beta, with a
// variance V(t) quadratic in t = u'beta once the rest of beta is the estimate's. Its level set
// {t : (u'X'y~ - a t)^2 <= z^2 V(t)} is Fieller's interval for t: bounded only where a exceeds
// z times the noise sd of u'Eu, and widening continuously as the direction weakens. Each
// coefficient loading on such a direction takes the hull of its bootstrap interval and of its
// range over that set, and a p-value no smaller than the pivot's test of beta_j = 0 along u, so
// that the p-value still agrees with the interval at every level. Where the set is not a bounded
// interval the coefficient keeps its bootstrap interval: the weakest directions are flagged
// already (below 3 sds), and leaving the few others without an interval measured worse (they
// mostly covered: bench/results/interval_grid.md, "Fieller beside the worlds"). The printed
// intervals are still those of selected releases: a mitigation of the selection, measured in
// tests/statistical/edge_coverage_test.cpp.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "../matrix.hpp"
#include "ols_bootstrap.hpp"
#include "release_noise.hpp"

namespace dpcov::estimators {

// Eigenvectors u of G^ with u'G_w u (G_w the worlds' truth) below this many noise sds of u'Eu
// get Fieller's interval beside the worlds, for the coefficients with at least kFiellerLoading
// of their square on them. Chosen from measured coverage at the edge of identifiability
// (bench/fieller_hull.py, bench/results/interval_grid.md), not derived.
inline constexpr double kFiellerDirectionNoiseSds = 4.5;
inline constexpr double kFiellerLoading = 0.05;

// The pivot u'X'y~ - a t along a unit eigenvector u of G^ (eigenvalue a) and its variance
// c0 + c1 t + c2 t^2 at beta = beta_perp + u t (beta_perp the estimate less its u component):
// the sampling variance of u'X'e (`sampling_u`), the noise on X'y (cross_variance) and
// Var(u'E beta) = u'Q(beta beta')u (noise_second_moment).
struct FiellerPivot {
  double a = 0.0, ub = 0.0, c0 = 0.0, c1 = 0.0, c2 = 0.0;
};
FiellerPivot fieller_pivot(const std::vector<double> &u, double a,
                           const std::vector<double> &coefficients, const ReleaseNoise &noise,
                           double sampling_u);

// The set {t : (ub - a t)^2 <= z^2 V(t)} as [low, high], or nothing where it is not a bounded
// interval (the whole line, or its complement).
std::optional<std::pair<double, double>> fieller_interval(const FiellerPivot &pivot, double z);

// The two-sided p-value of t = t0 by the pivot: erfc(|ub - a t0| / sqrt(2 V(t0))).
double fieller_p_value(const FiellerPivot &pivot, double t0);

// Hulls `out` (the worlds' intervals at `level`, out.coefficients the release's estimate) as above
// for every eigenvector of g (the released feature block, noise mean removed) whose strength in
// `truth` (the worlds' X'X) is below kFiellerDirectionNoiseSds, and sets out.widened where a
// coefficient's interval grew; `sampling` is the covariance of X'e (p x p: s^2 G^, or the meat).
void hull_with_fieller(const Matrix &g, const Matrix &truth, const Matrix &sampling,
                       const ReleaseNoise &noise, double level, BootstrapIntervals &out);

}  // namespace dpcov::estimators
