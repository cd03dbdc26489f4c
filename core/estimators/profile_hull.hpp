// The profile of the pivot vector beside the bootstrap worlds, for the coefficients along the
// release's weak directions (proofs/bootstrap_worlds.md, "The profile beside the worlds").
//
// The worlds are built on the release; along a direction only a few noise sds strong the data's
// X'X may be much weaker than the release's, and the worlds' refits cannot see by how much
// (weak_directions.hpp refuses or flags the coefficients along directions below 3 sds). Just
// above that rule the bootstrap answers on the releases whose noise strengthened the direction,
// where the estimate is shrunk along it: its printed intervals of such coefficients are selected
// and covered 0.83-0.89 at the edge of identifiability (bench/results/interval_grid.md, "The
// edge of identifiability on fresh seeds"). The profile's set (pivot_profile.hpp) reads no
// threshold: at the true beta its pivot is exactly Gaussian on every release. So for each
// coefficient loading on such a direction the profile, not the weak rule, decides: where its set
// is open on a side the release does not bound the coefficient (refused or flagged as the weak
// rule's are); where it is closed the coefficient takes the hull of its bootstrap interval and of
// the set, and a p-value no smaller than the profile's, or the profile's alone where the weak
// rule would have flagged it (the worlds cannot see that direction). The printed sets are still
// selected, by their own closure, which costs far less coverage than the rule's threshold
// (tests/statistical/edge_coverage_test.cpp).
#pragma once

#include <vector>

#include "../matrix.hpp"
#include "pivot_profile.hpp"
#include "release_noise.hpp"

namespace dpcov::estimators {

struct BootstrapIntervals;

// Eigenvectors u of G^ with u'G_w u (G_w the worlds' truth) below this many noise sds of u'Eu are
// the directions near the weak rule's threshold; a coefficient with at least kProfileLoading of
// its square on them is read by the profile. Chosen from measured coverage at the edge of
// identifiability (bench/results/interval_grid.md, "The profile beside the worlds"), not derived.
inline constexpr double kProfileDirectionNoiseSds = 4.5;
inline constexpr double kProfileLoading = 0.05;

// The profile's sets of the coefficients along g's directions weaker than the threshold in
// `truth` (`along`), searched for those coefficients only (the other entries of `sets` are not
// read); `profile_only` flags those of them the weak rule had left unbounded, whose interval is
// the profile's alone.
struct ProfileHull {
  std::vector<bool> along, profile_only;
  ProfileIntervals sets;
};

// g the released feature block (noise mean removed, positive definite), gxy the released X'y,
// truth the worlds' X'X, sampling the covariance of X'e (s^2 G^, or the meat; its positive part
// is read), noise the release's law, `unbounded` the weak rule's verdict (weak_directions.hpp),
// which the profile replaces for the coefficients along those directions: unbounded exactly
// where their set at `level` is open on a side.
ProfileHull profile_hull(const Matrix &g, const std::vector<double> &gxy, const Matrix &truth,
                         const Matrix &sampling, const ReleaseNoise &noise, double level,
                         std::vector<bool> &unbounded);

// Hulls `out`'s intervals (at the same level) with the closed profile sets of the coefficients
// along a weak direction (or replaces them, for `profile_only`), raises their p-values to the
// profile's, and sets out.widened where an interval grew.
void hull_with_profile(const ProfileHull &hull, BootstrapIntervals &out);

}  // namespace dpcov::estimators
