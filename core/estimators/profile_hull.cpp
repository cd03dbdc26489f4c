#include "profile_hull.hpp"

#include <algorithm>

#include "../linalg/blas.hpp"
#include "../postprocess/eigenvalue_clip.hpp"
#include "ols_bootstrap.hpp"
#include "weak_directions.hpp"

namespace dpcov::estimators {

namespace {

size_t at(int64_t i) { return static_cast<size_t>(i); }

// The coefficients loading at least kProfileLoading on the eigenvectors of g that are below
// kProfileDirectionNoiseSds in `truth`. The pivot's directions are the release's own; whether one
// is weak is read on the worlds' truth, which undoes the noise's push on the release's smallest
// eigenvalues (weak_directions.hpp).
std::vector<bool> along_weak_directions(const Matrix &g, const Matrix &truth,
                                        const ReleaseNoise &noise) {
  const int64_t p = g.rows();
  const linalg::SymmetricEigen eig = linalg::eigh(g);
  std::vector<double> loading(at(p), 0.0), u(at(p));
  for (int64_t k = 0; k < p; ++k) {
    for (int64_t i = 0; i < p; ++i) u[at(i)] = eig.vectors(i, k);
    double strength = 0.0;
    for (int64_t j = 0; j < p; ++j)
      for (int64_t i = 0; i < p; ++i) strength += u[at(i)] * truth(i, j) * u[at(j)];
    // ">=" rather than "<": a NaN strength or noise sd fails it and counts as weak.
    if (strength >= kProfileDirectionNoiseSds * direction_noise_sd(noise, u)) continue;
    for (int64_t i = 0; i < p; ++i) loading[at(i)] += u[at(i)] * u[at(i)];
  }
  std::vector<bool> out(at(p));
  for (int64_t i = 0; i < p; ++i) out[at(i)] = loading[at(i)] >= kProfileLoading;
  return out;
}

}  // namespace

ProfileHull profile_hull(const Matrix &g, const std::vector<double> &gxy, const Matrix &truth,
                         const Matrix &sampling, const ReleaseNoise &noise, double level,
                         std::vector<bool> &unbounded) {
  ProfileHull hull;
  hull.along = along_weak_directions(g, truth, noise);
  hull.profile_only.assign(hull.along.size(), false);
  if (std::none_of(hull.along.begin(), hull.along.end(), [](bool b) { return b; })) return hull;
  PivotProfile profile{g, gxy, postprocess::project_psd(sampling), noise};
  for (int64_t i = 0; i < g.rows(); ++i) profile.base(i, i) += cross_variance(noise);
  hull.sets = pivot_profile_intervals(profile, level, std::vector<double>(hull.along.size(), 0.0));
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
