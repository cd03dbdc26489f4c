#include "fieller_hull.hpp"

#include <algorithm>
#include <cmath>

#include "../linalg/blas.hpp"
#include "chain_convergence.hpp"
#include "weak_directions.hpp"

namespace dpcov::estimators {

namespace {

size_t at(int64_t i) { return static_cast<size_t>(i); }

}  // namespace

FiellerPivot fieller_pivot(const std::vector<double> &u, double a,
                           const std::vector<double> &coefficients, const ReleaseNoise &noise,
                           double sampling_u) {
  const auto [off, diagonal] = entry_variances(noise);
  double t_hat = 0.0;
  for (size_t i = 0; i < u.size(); ++i) t_hat += u[i] * coefficients[i];
  // u'(X'y~ - G^ beta) at beta = beta~_perp + u t is a (t~ - t): G^ beta~ = X'y~.
  const double ub = a * t_hat;
  // u'Q(B)u = off (u'Bu + tr B) + (diagonal - 2 off) sum_i u_i^2 B_ii, |u| = 1, at
  // B = (perp + u t)(perp + u t)' with perp orthogonal to u: u'Bu = t^2, tr B = |perp|^2 + t^2.
  double perp2 = 0.0, d0 = 0.0, d1 = 0.0, d2 = 0.0;
  for (size_t i = 0; i < u.size(); ++i) {
    const double perp = coefficients[i] - u[i] * t_hat, w = u[i] * u[i];
    perp2 += perp * perp;
    d0 += w * perp * perp;
    d1 += 2.0 * w * u[i] * perp;
    d2 += w * w;
  }
  const double mixed = diagonal - 2.0 * off;
  return {a, ub, sampling_u + cross_variance(noise) + off * perp2 + mixed * d0, mixed * d1,
          2.0 * off + mixed * d2};
}

std::optional<std::pair<double, double>> fieller_interval(const FiellerPivot &f, double z) {
  const double z2 = z * z;
  const double qa = f.a * f.a - z2 * f.c2, qb = -(2.0 * f.a * f.ub + z2 * f.c1),
               qc = f.ub * f.ub - z2 * f.c0;
  const double disc = qb * qb - 4.0 * qa * qc;
  if (!(qa > 0.0) || !(disc >= 0.0)) return std::nullopt;
  const double root = std::sqrt(disc);
  return std::pair{(-qb - root) / (2.0 * qa), (-qb + root) / (2.0 * qa)};
}

double fieller_p_value(const FiellerPivot &f, double t0) {
  const double v = f.c0 + t0 * (f.c1 + t0 * f.c2);
  if (!(v > 0.0)) return 1.0;
  return std::erfc(std::fabs(f.ub - f.a * t0) / std::sqrt(2.0 * v));
}

void hull_with_fieller(const Matrix &g, const Matrix &truth, const Matrix &sampling,
                       const ReleaseNoise &noise, double level, BootstrapIntervals &out) {
  const int64_t p = g.rows();
  out.widened.assign(at(p), false);
  const double z = normal_quantile(0.5 * (1.0 + level));
  // The pivot needs eigenvectors of the release itself; whether a direction is weak is read on
  // the worlds' truth, which undoes the noise's push on the release's smallest eigenvalues
  // (weak_directions.hpp).
  const linalg::SymmetricEigen eig = linalg::eigh(g);
  std::vector<double> u(at(p));
  for (int64_t k = 0; k < p; ++k) {
    for (int64_t i = 0; i < p; ++i) u[at(i)] = eig.vectors(i, k);
    double strength = 0.0, sampling_u = 0.0;
    for (int64_t j = 0; j < p; ++j)
      for (int64_t i = 0; i < p; ++i) {
        strength += u[at(i)] * truth(i, j) * u[at(j)];
        sampling_u += u[at(i)] * sampling(i, j) * u[at(j)];
      }
    if (strength >= kFiellerDirectionNoiseSds * direction_noise_sd(noise, u)) continue;
    const double a = eig.values[at(k)];
    const FiellerPivot pivot =
        fieller_pivot(u, a, out.coefficients, noise, std::max(sampling_u, 0.0));
    const std::optional<std::pair<double, double>> set = fieller_interval(pivot, z);
    if (!set) continue;
    double t_hat = 0.0;
    for (int64_t i = 0; i < p; ++i) t_hat += u[at(i)] * out.coefficients[at(i)];
    for (int64_t j = 0; j < p; ++j) {
      const double uj = u[at(j)];
      if (uj * uj < kFiellerLoading) continue;
      const double b = out.coefficients[at(j)];
      const double e1 = uj * (set->first - t_hat), e2 = uj * (set->second - t_hat);
      const double lower = b + std::min(e1, e2), upper = b + std::max(e1, e2);
      if (lower < out.ci_lower[at(j)] || upper > out.ci_upper[at(j)]) out.widened[at(j)] = true;
      out.ci_lower[at(j)] = std::min(out.ci_lower[at(j)], lower);
      out.ci_upper[at(j)] = std::max(out.ci_upper[at(j)], upper);
      // beta_j = 0 along u: t0 = t_hat - beta_j / u_j.
      out.p_values[at(j)] = std::max(out.p_values[at(j)], fieller_p_value(pivot, t_hat - b / uj));
    }
  }
}

}  // namespace dpcov::estimators
