#include "pivot_profile.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "../check.hpp"
#include "../error.hpp"
#include "../linalg/blas.hpp"
#include "chain_convergence.hpp"
#include "worlds_truth.hpp"

namespace dpcov::estimators {

namespace {

size_t at(int64_t i) { return static_cast<size_t>(i); }

constexpr double kInf = std::numeric_limits<double>::infinity();
// Descent steps per profiled value; each step solves with Sigma and the free block of the
// Gauss-Newton matrix, both p x p.
constexpr int kMaxDescentSteps = 200;
// The searched range, in delta-method standard errors at the estimate, and the relative
// precision of each end.
constexpr double kSearchStandardErrors = 1000.0;
constexpr double kEndPrecision = 1e-6;
// Far starts are tried where the far limit of T is at most this many times the level's
// quantile: T approaches its limit like 1/t, and further above it a dip below the quantile
// would need a release far from the estimate's basin.
constexpr double kFarStartsBelow = 2.0;

// Solves L L' x = r in place (L lower triangular, p x p).
void cholesky_solve(const Matrix &l, std::vector<double> &x) {
  const int64_t p = l.rows();
  for (int64_t i = 0; i < p; ++i) {
    double v = x[at(i)];
    for (int64_t k = 0; k < i; ++k) v -= l(i, k) * x[at(k)];
    x[at(i)] = v / l(i, i);
  }
  for (int64_t i = p - 1; i >= 0; --i) {
    double v = x[at(i)];
    for (int64_t k = i + 1; k < p; ++k) v -= l(k, i) * x[at(k)];
    x[at(i)] = v / l(i, i);
  }
}

// Sigma(beta) = base + Q(beta beta'), or false where it has a non-finite entry or is not
// positive definite (then `l` is unspecified).
bool sigma_factor(const PivotProfile &profile, const std::vector<double> &beta, Matrix &l) {
  const int64_t p = profile.g.rows();
  Matrix outer(p, p);
  for (int64_t j = 0; j < p; ++j)
    for (int64_t i = 0; i < p; ++i) outer(i, j) = beta[at(i)] * beta[at(j)];
  Matrix sigma = noise_second_moment(profile.noise, outer);
  for (int64_t j = 0; j < p; ++j)
    for (int64_t i = 0; i < p; ++i) {
      sigma(i, j) += profile.base(i, j);
      if (!std::isfinite(sigma(i, j))) return false;
    }
  return linalg::cholesky(sigma, l);
}

std::vector<double> residual(const PivotProfile &profile, const std::vector<double> &beta) {
  const int64_t p = profile.g.rows();
  std::vector<double> r = profile.gxy;
  for (int64_t j = 0; j < p; ++j)
    for (int64_t i = 0; i < p; ++i) r[at(i)] -= profile.g(i, j) * beta[at(j)];
  return r;
}

// The free block (all but coordinate j) of the Gauss-Newton matrix 2 G' Sigma^-1 G, the
// curvature of T with Sigma held at beta, plus a ridge of 1e-12 of its trace so that it can be
// factored where G^ is singular along the free coordinates.
bool gauss_newton_factor(const PivotProfile &profile, const Matrix &sigma_l, int64_t j,
                         Matrix &factor) {
  const int64_t p = profile.g.rows();
  Matrix solved(p, p);  // Sigma^-1 G, column by column
  std::vector<double> column(at(p));
  for (int64_t c = 0; c < p; ++c) {
    for (int64_t i = 0; i < p; ++i) column[at(i)] = profile.g(i, c);
    cholesky_solve(sigma_l, column);
    for (int64_t i = 0; i < p; ++i) solved(i, c) = column[at(i)];
  }
  const int64_t m = p - 1;
  Matrix h(m, m);
  double trace = 0.0;
  for (int64_t b = 0, cb = 0; cb < p; ++cb) {
    if (cb == j) continue;
    for (int64_t a = 0, ca = 0; ca < p; ++ca) {
      if (ca == j) continue;
      double v = 0.0;
      for (int64_t i = 0; i < p; ++i) v += profile.g(i, ca) * solved(i, cb);
      h(a, b) = 2.0 * v;
      ++a;
    }
    trace += h(b, b);
    ++b;
  }
  for (int64_t a = 0; a < m; ++a) h(a, a) += 1e-12 * trace + std::numeric_limits<double>::min();
  for (int64_t b = 0; b < m; ++b)
    for (int64_t a = 0; a < m; ++a)
      if (!std::isfinite(h(a, b))) return false;
  return linalg::cholesky(h, factor);
}

// Damped Gauss-Newton descent of T over every coordinate but j, from `beta` (beta_j fixed);
// returns the value reached, `beta` the point. Each step is at most half the free coordinates'
// norm plus `reach`: the Gauss-Newton step holds Sigma fixed and so points back to the estimate,
// which from far out would jump over the ridge that separates a far minimum from the near one.
double descend(const PivotProfile &profile, int64_t j, std::vector<double> &beta, double reach) {
  const int64_t p = profile.g.rows();
  std::vector<double> gradient(at(p)), trial(at(p)), trial_gradient(at(p));
  double value = pivot_statistic(profile, beta, &gradient);
  if (!std::isfinite(value) || p == 1) return value;
  Matrix sigma_l, factor;
  std::vector<double> step(at(p - 1));
  for (int iteration = 0; iteration < kMaxDescentSteps; ++iteration) {
    if (!sigma_factor(profile, beta, sigma_l) || !gauss_newton_factor(profile, sigma_l, j, factor))
      break;
    double slope = 0.0;
    for (int64_t i = 0, a = 0; i < p; ++i)
      if (i != j) step[at(a++)] = -gradient[at(i)];
    cholesky_solve(factor, step);
    double step2 = 0.0, free2 = 0.0;
    for (int64_t i = 0, a = 0; i < p; ++i)
      if (i != j) {
        step2 += step[at(a)] * step[at(a)];
        free2 += beta[at(i)] * beta[at(i)];
        ++a;
      }
    const double cap = 0.5 * std::sqrt(free2) + reach;
    if (step2 > cap * cap)
      for (auto &v : step) v *= cap / std::sqrt(step2);
    for (int64_t i = 0, a = 0; i < p; ++i)
      if (i != j) slope += gradient[at(i)] * step[at(a++)];
    if (!(slope < 0.0)) break;
    // Backtracking to the Armijo condition; a step too small to move beta ends the descent.
    double t = 1.0, next = kInf;
    bool moved = false;
    for (int halvings = 0; halvings < 60; ++halvings, t *= 0.5) {
      moved = false;
      for (int64_t i = 0, a = 0; i < p; ++i) {
        trial[at(i)] = beta[at(i)];
        if (i == j) continue;
        trial[at(i)] += t * step[at(a++)];
        moved = moved || trial[at(i)] != beta[at(i)];
      }
      if (!moved) break;
      next = pivot_statistic(profile, trial, &trial_gradient);
      if (next <= value + 1e-4 * t * slope) break;
    }
    if (!moved || !(next <= value + 1e-4 * t * slope)) break;
    const double decrease = value - next;
    beta.swap(trial);
    gradient.swap(trial_gradient);
    value = next;
    if (decrease <= 1e-12 * (1.0 + value)) break;
  }
  return value;
}

// Projected gradient descent of T0(w) = (G^ w)' Q(w w')^-1 (G^ w) over unit w with w_j = 0
// (`far`: the profile with X'y and the base 0, so that pivot_statistic is T0), from `w`; T0 is
// constant along rays, so each step moves along the sphere and is normalised back onto it.
double descend_on_sphere(const PivotProfile &far, int64_t j, std::vector<double> &w) {
  const int64_t p = far.g.rows();
  std::vector<double> gradient, trial(at(p));
  double value = pivot_statistic(far, w, &gradient);
  double length = 0.5;
  for (int iteration = 0; iteration < kMaxDescentSteps && std::isfinite(value); ++iteration) {
    double radial = 0.0, norm2 = 0.0;
    gradient[at(j)] = 0.0;
    for (int64_t i = 0; i < p; ++i) radial += gradient[at(i)] * w[at(i)];
    for (int64_t i = 0; i < p; ++i) {
      gradient[at(i)] -= radial * w[at(i)];
      norm2 += gradient[at(i)] * gradient[at(i)];
    }
    if (!(norm2 > 0.0)) break;
    const double norm = std::sqrt(norm2);
    bool improved = false;
    for (int halvings = 0; halvings < 40 && !improved; ++halvings, length *= 0.5) {
      double t2 = 0.0;
      for (int64_t i = 0; i < p; ++i) {
        trial[at(i)] = w[at(i)] - length * gradient[at(i)] / norm;
        t2 += trial[at(i)] * trial[at(i)];
      }
      for (auto &v : trial) v /= std::sqrt(t2);
      std::vector<double> trial_gradient;
      const double next = pivot_statistic(far, trial, &trial_gradient);
      if (next < value - 1e-4 * length * norm) {
        const double decrease = value - next;
        w = trial;
        gradient.swap(trial_gradient);
        value = next;
        improved = true;
        if (decrease <= 1e-12 * (1.0 + value)) return value;
      }
    }
    if (!improved) break;
    length = std::min(4.0 * length, 1.0);
  }
  return value;
}

}  // namespace

FarDirection far_direction(const PivotProfile &profile, const linalg::SymmetricEigen &eig,
                           int64_t j) {
  const int64_t p = profile.g.rows();
  FarDirection best{kInf, std::vector<double>(at(p), 0.0)};
  if (p == 1) return best;
  const PivotProfile far{profile.g, std::vector<double>(at(p), 0.0), Matrix(p, p), profile.noise};
  // From every eigenvector of G^ (its j-th entry removed) and every free coordinate axis.
  for (int64_t k = 0; k < 2 * p; ++k) {
    std::vector<double> w(at(p), 0.0);
    if (k < p) {
      for (int64_t i = 0; i < p; ++i) w[at(i)] = eig.vectors(i, k);
    } else {
      w[at(k - p)] = 1.0;
    }
    w[at(j)] = 0.0;
    double norm2 = 0.0;
    for (double v : w) norm2 += v * v;
    if (!(norm2 > 1e-12)) continue;
    for (auto &v : w) v /= std::sqrt(norm2);
    const double value = descend_on_sphere(far, j, w);
    if (value < best.limit) best = {value, w};
  }
  return best;
}

double pivot_statistic(const PivotProfile &profile, const std::vector<double> &beta,
                       std::vector<double> *gradient) {
  const int64_t p = profile.g.rows();
  Matrix l;
  if (!sigma_factor(profile, beta, l)) return kInf;
  const std::vector<double> r = residual(profile, beta);
  std::vector<double> w = r;  // Sigma^-1 r
  cholesky_solve(l, w);
  double value = 0.0;
  for (int64_t i = 0; i < p; ++i) value += r[at(i)] * w[at(i)];
  if (!std::isfinite(value)) return kInf;
  if (gradient == nullptr) return value;
  // dT/dbeta_k = -2 (G' w)_k - w' Q(e_k beta' + beta e_k') w, and for Q(B) = off (B + tr(B) I)
  // + (diagonal - 2 off) Diag(B): w'Q(.)w = 2 off (w_k (w'beta) + beta_k |w|^2)
  // + 2 (diagonal - 2 off) w_k^2 beta_k.
  const auto [off, diagonal] = entry_variances(profile.noise);
  double w_beta = 0.0, w2 = 0.0;
  for (int64_t i = 0; i < p; ++i) {
    w_beta += w[at(i)] * beta[at(i)];
    w2 += w[at(i)] * w[at(i)];
  }
  gradient->assign(at(p), 0.0);
  for (int64_t k = 0; k < p; ++k) {
    double gw = 0.0;
    for (int64_t i = 0; i < p; ++i) gw += profile.g(i, k) * w[at(i)];
    const double wk = w[at(k)], bk = beta[at(k)];
    (*gradient)[at(k)] = -2.0 * gw - 2.0 * off * (wk * w_beta + bk * w2) -
                         2.0 * (diagonal - 2.0 * off) * wk * wk * bk;
  }
  return value;
}

double profiled_statistic(const PivotProfile &profile, int64_t j, double c,
                          const ProfileStarts &starts, std::vector<double> &start) {
  const int64_t p = profile.g.rows();
  // The minimiser of T with Sigma held fixed moves the free coordinates along G^-1's column j.
  std::vector<double> linear(at(p));
  for (int64_t i = 0; i < p; ++i)
    linear[at(i)] = starts.estimate[at(i)] + starts.g_inverse(i, j) / starts.g_inverse(j, j) *
                                                 (c - starts.estimate[at(j)]);
  linear[at(j)] = c;
  start[at(j)] = c;
  double best = descend(profile, j, start, starts.far_scale);
  const auto consider = [&](std::vector<double> candidate) {
    const double value = descend(profile, j, candidate, starts.far_scale);
    if (value < best) {
      best = value;
      start = std::move(candidate);
    }
  };
  consider(linear);
  // Far out along the direction in which T tends to its lowest limit, on both sides, where that
  // limit is near enough to the level for T to dip below it on the way out.
  // The start there is the lowest point of a scan along the ray, t = far_scale 2^k for k in
  // [-16, 24], on both sides.
  if (starts.far.limit <= kFarStartsBelow * starts.level_quantile) {
    std::vector<double> lowest, candidate(at(p));
    double lowest_value = kInf;
    for (const double side : {-1.0, 1.0})
      for (int k = -16; k <= 24; ++k) {
        const double t = side * starts.far_scale * std::ldexp(1.0, k);
        for (int64_t i = 0; i < p; ++i) candidate[at(i)] = linear[at(i)] + t * starts.far.w[at(i)];
        const double value = pivot_statistic(profile, candidate, nullptr);
        if (value < lowest_value) {
          lowest_value = value;
          lowest = candidate;
        }
      }
    if (!lowest.empty()) consider(std::move(lowest));
  }
  return best;
}

PivotProfile pivot_profile(const Matrix &g, const std::vector<double> &gxy, Matrix sampling,
                           const ReleaseNoise &noise) {
  for (int64_t i = 0; i < sampling.rows(); ++i) sampling(i, i) += cross_variance(noise);
  return PivotProfile{g, gxy, std::move(sampling), noise};
}

ProfileIntervals pivot_profile_intervals(const PivotProfile &profile, double level,
                                         const std::vector<double> &must_reach,
                                         const std::vector<bool> *which) {
  const int64_t p = profile.g.rows();
  if (!(level > 0.0 && level < 1.0)) fail(Status::InvalidArgument, "level must be in (0, 1)");
  const linalg::SymmetricEigen eig = linalg::eigh(profile.g);
  double largest = 0.0;
  for (double v : eig.values) largest = std::max(largest, std::fabs(v));
  for (double v : eig.values)
    if (!(std::fabs(v) > static_cast<double>(p) * 0x1p-52 * largest))
      fail(Status::Precondition, "the released feature block is singular: no estimate to centre "
           "the intervals on");
  Matrix g_inverse(p, p);
  for (int64_t k = 0; k < p; ++k)
    for (int64_t b = 0; b < p; ++b)
      for (int64_t a = 0; a < p; ++a)
        g_inverse(a, b) += eig.vectors(a, k) * eig.vectors(b, k) / eig.values[at(k)];
  ProfileIntervals out;
  out.coefficients.assign(at(p), 0.0);
  for (int64_t j = 0; j < p; ++j)
    for (int64_t i = 0; i < p; ++i) out.coefficients[at(i)] += g_inverse(i, j) * profile.gxy[at(j)];
  check::finite_result(out.coefficients.data(), out.coefficients.size(), "coefficients");

  // Delta-method standard errors at the estimate: diag(G^-1 Sigma(beta~) G^-1), the unit of the
  // search.
  Matrix sigma_l;
  if (!sigma_factor(profile, out.coefficients, sigma_l))
    fail(Status::Precondition, "the pivot's covariance at the estimate is not finite");
  const Matrix sigma = linalg::multiply(sigma_l, sigma_l, linalg::Trans::No, linalg::Trans::Yes);
  const Matrix spread = linalg::multiply(linalg::multiply(g_inverse, sigma), g_inverse);

  const double z = normal_quantile(0.5 * (1.0 + level));
  const double q = z * z;
  out.p_values.assign(at(p), 1.0);
  out.ci_lower.assign(at(p), 0.0);
  out.ci_upper.assign(at(p), 0.0);
  out.lower_open.assign(at(p), false);
  out.upper_open.assign(at(p), false);
  double far_scale = 0.0;
  for (int64_t k = 0; k < p; ++k)
    far_scale = std::max(far_scale, std::sqrt(std::max(spread(k, k), 0.0)) +
                                        std::fabs(out.coefficients[at(k)]));
  for (int64_t j = 0; j < p; ++j) {
    const double centre = out.coefficients[at(j)];
    if (which != nullptr && !(*which)[at(j)]) {
      out.ci_lower[at(j)] = out.ci_upper[at(j)] = centre;
      continue;
    }
    const double unit = std::sqrt(std::max(spread(j, j), 0.0));
    const double limit =
        std::max(kSearchStandardErrors * unit, must_reach[at(j)] + std::fabs(centre));
    const ProfileStarts starts{out.coefficients, g_inverse, far_direction(profile, eig, j),
                               far_scale, q};
    std::vector<double> start = out.coefficients;
    const double at_zero =
        std::min(profiled_statistic(profile, j, 0.0, starts, start), starts.far.limit);
    out.p_values[at(j)] = std::erfc(std::sqrt(std::max(at_zero, 0.0) / 2.0));
    // T tends to the far limit along a ray at every value of beta_j: below q, the set is the
    // whole line.
    if (starts.far.limit <= q) {
      out.ci_lower[at(j)] = centre - limit;
      out.ci_upper[at(j)] = centre + limit;
      out.lower_open[at(j)] = out.upper_open[at(j)] = true;
      continue;
    }
    for (const double side : {-1.0, 1.0}) {
      start = out.coefficients;
      auto inside_at = [&](double distance) {
        return profiled_statistic(profile, j, centre + side * distance, starts, start) <= q;
      };
      // Out from the estimate by doubling from one standard error, then bisection between the
      // last distance inside and the first outside; the end written is the outside one.
      double inside = 0.0, outside = unit > 0.0 ? std::min(unit, limit) : limit;
      while (inside_at(outside)) {
        inside = outside;
        if (outside >= limit) break;
        outside = std::min(2.0 * outside, limit);
      }
      const bool open = inside >= limit;
      if (!open)
        while (outside - inside > kEndPrecision * outside) {
          const double middle = 0.5 * (inside + outside);
          (inside_at(middle) ? inside : outside) = middle;
        }
      const double end = centre + side * (open ? limit : outside);
      (side < 0 ? out.ci_lower : out.ci_upper)[at(j)] = end;
      (side < 0 ? out.lower_open : out.upper_open)[at(j)] = open;
    }
  }
  check::finite_result(out.ci_lower.data(), out.ci_lower.size(), "interval ends");
  check::finite_result(out.ci_upper.data(), out.ci_upper.size(), "interval ends");
  return out;
}

}  // namespace dpcov::estimators
