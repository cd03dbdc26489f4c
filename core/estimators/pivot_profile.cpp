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
// returns the value reached, `beta` the point.
double descend(const PivotProfile &profile, int64_t j, std::vector<double> &beta) {
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

}  // namespace

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
                          const std::vector<double> &estimate, const Matrix &g_inverse,
                          std::vector<double> &start) {
  const int64_t p = profile.g.rows();
  // The minimiser of T with Sigma held fixed moves the free coordinates along G^-1's column j.
  std::vector<double> linear(at(p));
  for (int64_t i = 0; i < p; ++i)
    linear[at(i)] = estimate[at(i)] + g_inverse(i, j) / g_inverse(j, j) * (c - estimate[at(j)]);
  linear[at(j)] = c;
  start[at(j)] = c;
  const double from_start = descend(profile, j, start);
  const double from_linear = descend(profile, j, linear);
  if (from_linear < from_start) {
    start = linear;
    return from_linear;
  }
  return from_start;
}

ProfileIntervals pivot_profile_intervals(const PivotProfile &profile, double level,
                                         const std::vector<double> &must_reach) {
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
  for (int64_t j = 0; j < p; ++j) {
    const double centre = out.coefficients[at(j)];
    const double unit = std::sqrt(std::max(spread(j, j), 0.0));
    const double limit =
        std::max(kSearchStandardErrors * unit, must_reach[at(j)] + std::fabs(centre));
    std::vector<double> start = out.coefficients;
    const double at_zero = profiled_statistic(profile, j, 0.0, out.coefficients, g_inverse, start);
    out.p_values[at(j)] = std::erfc(std::sqrt(std::max(at_zero, 0.0) / 2.0));
    for (const double side : {-1.0, 1.0}) {
      start = out.coefficients;
      auto inside_at = [&](double distance) {
        return profiled_statistic(profile, j, centre + side * distance, out.coefficients,
                                  g_inverse, start) <= q;
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
