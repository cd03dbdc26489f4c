#include "profile_hull.hpp"

#include <algorithm>

#include "../postprocess/eigenvalue_clip.hpp"
#include "ols_bootstrap.hpp"
#include "weak_directions.hpp"

namespace dpcov::estimators {

ProfileHull profile_hull(const Matrix &g, const std::vector<double> &gxy, const Matrix &truth,
                         const Matrix &sampling, const ReleaseNoise &noise, double level,
                         std::vector<bool> &unbounded) {
  ProfileHull hull;
  // The pivot's directions are the release's own; whether one is weak is read on the worlds'
  // truth, which undoes the noise's push on the release's smallest eigenvalues
  // (weak_directions.hpp).
  const std::vector<double> loading = weak_loadings(g, &truth, noise, kProfileDirectionNoiseSds);
  hull.along.resize(loading.size());
  for (size_t j = 0; j < loading.size(); ++j) hull.along[j] = loading[j] >= kProfileLoading;
  hull.profile_only.assign(hull.along.size(), false);
  if (std::none_of(hull.along.begin(), hull.along.end(), [](bool b) { return b; })) return hull;
  hull.sets = pivot_profile_intervals(
      pivot_profile(g, gxy, postprocess::project_psd(sampling), noise), level,
      std::vector<double>(hull.along.size(), 0.0), &hull.along);
  for (size_t j = 0; j < hull.along.size(); ++j) {
    if (!hull.along[j]) continue;
    hull.profile_only[j] = unbounded[j];
    unbounded[j] = hull.sets.lower_open[j] || hull.sets.upper_open[j];
  }
  return hull;
}

void hull_with_profile(const ProfileHull &hull, BootstrapIntervals &out) {
  out.widened.assign(hull.along.size(), false);
  for (size_t j = 0; j < hull.along.size(); ++j) {
    if (!hull.along[j] || hull.sets.lower_open[j] || hull.sets.upper_open[j]) continue;
    const double lower = hull.sets.ci_lower[j], upper = hull.sets.ci_upper[j];
    if (hull.profile_only[j]) {
      out.ci_lower[j] = lower;
      out.ci_upper[j] = upper;
      out.p_values[j] = hull.sets.p_values[j];
      out.widened[j] = true;
      continue;
    }
    if (lower < out.ci_lower[j] || upper > out.ci_upper[j]) out.widened[j] = true;
    out.ci_lower[j] = std::min(out.ci_lower[j], lower);
    out.ci_upper[j] = std::max(out.ci_upper[j], upper);
    out.p_values[j] = std::max(out.p_values[j], hull.sets.p_values[j]);
  }
}

}  // namespace dpcov::estimators
