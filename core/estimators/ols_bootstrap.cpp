#include "ols_bootstrap.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "../check.hpp"
#include "../linalg/blas.hpp"
#include "../random/normal.hpp"
#include "profile_hull.hpp"
#include "worlds_spread.hpp"

namespace dpcov::estimators {

namespace {

size_t at(int64_t i) { return static_cast<size_t>(i); }

}  // namespace

bool spd_solve(const Matrix &a, const std::vector<double> &b, std::vector<double> &x) {
  Matrix l;
  if (!linalg::cholesky(a, l)) return false;
  Matrix v(a.rows(), 1);
  for (int64_t i = 0; i < a.rows(); ++i) v(i, 0) = b[at(i)];
  linalg::trsm_lower(linalg::Side::Left, linalg::Trans::No, 1.0, l, v);
  linalg::trsm_lower(linalg::Side::Left, linalg::Trans::Yes, 1.0, l, v);
  for (int64_t i = 0; i < a.rows(); ++i) x[at(i)] = v(i, 0);
  return true;
}

int64_t bootstrap_order(double level, int64_t bootstrap) {
  const double alpha = 1.0 - level;
  // Before bootstrap + 1 below, which overflowed at INT64_MAX: the worlds' time and the
  // coefficients kept, p per world, bounded (reserved below, so that memory fails before a draw).
  if (bootstrap > check::kMaxSimulationDraws)
    fail(Status::InvalidArgument, "the number of bootstrap draws must be at most "
         "DPCOV_MAX_SIMULATION_DRAWS = ", check::kMaxSimulationDraws, " (it bounds the "
         "bootstrap's time and memory), got ", bootstrap);
  // Each end is an order statistic: the k-th smallest and the (B + 1 - k)-th, k >= 1.
  const auto k = static_cast<int64_t>(std::floor(0.5 * alpha * static_cast<double>(bootstrap + 1)));
  if (bootstrap < 1 || k < 1) {
    const double fewest = std::ceil(2.0 / alpha) - 1.0;
    if (fewest > static_cast<double>(check::kMaxSimulationDraws))
      fail(Status::InvalidArgument, "no number of bootstrap draws up to "
           "DPCOV_MAX_SIMULATION_DRAWS = ", check::kMaxSimulationDraws, " gives level ", level,
           " (it needs ", fewest, "): choose a level further from 1");
    fail(Status::InvalidArgument, "the number of bootstrap draws must be >= ",
         static_cast<int64_t>(fewest), " at level ", level, ", got ", bootstrap);
  }
  return k;
}

void check_bootstrap_draws(double level, int64_t bootstrap) {
  if (!(level > 0.0 && level < 1.0))
    fail(Status::InvalidArgument, "level must be in (0, 1), got ", level);
  bootstrap_order(level, bootstrap);
}

WorldsStart start_worlds(const Matrix &g, const std::vector<double> &gxy,
                         const std::vector<double> &coefficients, const Matrix &sampling,
                         const ReleaseNoise &noise, double level, int64_t bootstrap,
                         WeakCoefficients weak) {
  const int64_t p = g.rows();
  bootstrap_order(level, bootstrap);  // before any draw
  WorldsStart start;
  start.out.coefficients = coefficients;
  start.truth = worlds_truth(g, gxy, noise);
  start.out.unbounded = unbounded_coefficients(start.truth.xtx, noise);
  start.profile =
      profile_hull(g, gxy, start.truth.xtx, sampling, noise, level, start.out.unbounded);
  if (weak == WeakCoefficients::Refuse) refuse_unbounded(start.out.unbounded);
  start.noise = noise;
  start.centre.assign(at(p), 0.0);
  if (!spd_solve(start.truth.xtx, start.truth.xty, start.centre))
    fail(Status::NotPositiveDefinite, "the worlds' X'X is not positive definite");
  start.rest.resize(at(p));
  start.interaction.resize(at(p));
  for (std::vector<double> &v : start.rest) v.reserve(at(bootstrap));
  for (std::vector<double> &v : start.interaction) v.reserve(at(bootstrap));
  start.norms.reserve(at(bootstrap));
  return start;
}

bool world_parts(const Matrix &xx, const Matrix &e_xx, const std::vector<double> &noise_xy,
                 WorldsStart &start) {
  const int64_t p = xx.rows();
  Matrix l;
  if (!linalg::cholesky(xx, l)) return false;
  Matrix v(p, 2);  // columns: Z + e*, E* beta_w
  for (int64_t i = 0; i < p; ++i) {
    v(i, 0) = noise_xy[at(i)];
    for (int64_t j = 0; j < p; ++j) v(i, 1) += e_xx(i, j) * start.centre[at(j)];
  }
  linalg::trsm_lower(linalg::Side::Left, linalg::Trans::No, 1.0, l, v);
  linalg::trsm_lower(linalg::Side::Left, linalg::Trans::Yes, 1.0, l, v);
  for (int64_t i = 0; i < p; ++i) {
    start.rest[at(i)].push_back(v(i, 0));
    start.interaction[at(i)].push_back(v(i, 1));
  }
  return true;
}

void summarise_worlds(const Matrix &g, WorldsStart &start, double level, int64_t bootstrap) {
  BootstrapIntervals &out = start.out;
  std::vector<double> &norms = start.norms;
  const int64_t p = g.rows();
  const int64_t k = bootstrap_order(level, bootstrap);
  const int64_t f = out.failed_draws;
  if (f >= k)
    fail(Status::Precondition, "the privacy noise swamps the data: in ", f, " of ", bootstrap,
         " bootstrap draws the noisy feature block is not positive definite, so no interval at "
         "this level can be formed; more rows, a larger epsilon or fewer columns");
  std::vector<std::vector<double>> draws = shrunk_refits(start.rest, start.interaction,
                                                         start.centre);
  // Where the worlds keep the release (the correction beyond the series) their spread carries
  // its noise twice, conservative as worlds_truth.hpp says, and is left so.
  if (start.truth.denoised && draws.front().size() >= 2)
    deflate_spread(draws, start.truth.xtx, start.noise);

  std::sort(norms.begin(), norms.end());
  const auto q = static_cast<int64_t>(std::ceil(level * static_cast<double>(bootstrap))) - 1;
  out.noise_norm = norms[at(std::clamp<int64_t>(q, 0, bootstrap - 1))];
  out.kappa = out.noise_norm / linalg::eigvalsh(g).front();
  const double denominator = static_cast<double>(bootstrap + 1);
  for (int64_t i = 0; i < p; ++i) {
    std::vector<double> &v = draws[at(i)];
    std::sort(v.begin(), v.end());
    // Failed worlds sit at -inf for the lower end and at +inf for the upper one.
    out.ci_lower.push_back(v[at(k - f - 1)]);
    out.ci_upper.push_back(v[at(bootstrap - k)]);
    double mean = 0.0, square = 0.0;
    for (double x : v) mean += x;
    mean /= static_cast<double>(v.size());
    for (double x : v) square += (x - mean) * (x - mean);
    out.std_errors.push_back(std::sqrt(square / static_cast<double>(v.size() - 1)));
    const auto below = std::upper_bound(v.begin(), v.end(), 0.0) - v.begin() + f;
    const auto above = v.end() - std::lower_bound(v.begin(), v.end(), 0.0) + f;
    const double tail = static_cast<double>(std::min(below, above) + 1);
    out.p_values.push_back(std::min(1.0, 2.0 * tail / denominator));
  }
  hull_with_profile(start.profile, out);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (size_t i = 0; i < out.unbounded.size(); ++i) {
    if (!out.unbounded[i]) continue;
    out.ci_lower[i] = out.ci_upper[i] = nan;
    out.std_errors[i] = out.p_values[i] = nan;
  }
}

BootstrapIntervals bootstrap_worlds(const Matrix &g, const std::vector<double> &gxy,
                                    const std::vector<double> &coefficients,
                                    const Matrix &sampling_factor, const ReleaseNoise &noise,
                                    double level, int64_t bootstrap, random::Rng &rng,
                                    WeakCoefficients weak) {
  const int64_t p = g.rows();
  const Matrix sampling =  // F F', the covariance of the sampling noise Z = F z
      linalg::multiply(sampling_factor, sampling_factor, linalg::Trans::No, linalg::Trans::Yes);
  WorldsStart start = start_worlds(g, gxy, coefficients, sampling, noise, level, bootstrap, weak);
  std::vector<double> z(at(p)), xy(at(p));
  for (int64_t b = 0; b < bootstrap; ++b) {
    for (int64_t i = 0; i < p; ++i) z[at(i)] = random::standard_normal(rng);
    const Matrix e = centred_noise(noise, p + 1, rng);
    Matrix xx = start.truth.xtx;
    Matrix e_xx(p, p);
    for (int64_t i = 0; i < p; ++i) {
      double fz = 0.0;  // (F z)_i, so that Z = F z ~ N(0, F F')
      for (int64_t j = 0; j < p; ++j) fz += sampling_factor(i, j) * z[at(j)];
      xy[at(i)] = fz + e(i, p);
      for (int64_t j = 0; j < p; ++j) {
        xx(i, j) += e(i, j);
        e_xx(i, j) = e(i, j);
      }
    }
    const std::vector<double> eig = linalg::eigvalsh(e_xx);
    start.norms.push_back(std::max(std::fabs(eig.front()), std::fabs(eig.back())));
    if (!world_parts(xx, e_xx, xy, start)) ++start.out.failed_draws;
  }
  summarise_worlds(g, start, level, bootstrap);
  return std::move(start.out);
}

ReleasedOls released_ols(ConstMatrixView released, const ReleaseNoise &noise,
                         const solvers::RegressionSpec &spec, int64_t bootstrap) {
  check::all_finite(released, "released matrix");
  check::symmetric(released, "released matrix");
  solvers::validate(spec, released.rows);
  if (spec.ridge != 0.0)
    fail(Status::InvalidArgument, "the bootstrap intervals are for OLS: ridge must be 0, got ",
         spec.ridge);
  std::vector<int64_t> cols;
  if (spec.intercept_column >= 0) cols.push_back(spec.intercept_column);
  cols.insert(cols.end(), spec.features.begin(), spec.features.end());
  const int64_t p = static_cast<int64_t>(cols.size());
  validate(noise, p + 1);
  bootstrap_order(spec.level, bootstrap);
  // G^ = M~ - mu over the coefficient columns and the label.
  const double mu = noise_diagonal_mean(noise);
  ReleasedOls out{Matrix(p, p), std::vector<double>(at(p)), 0.0,
                  std::vector<double>(at(p), 0.0), Matrix()};
  for (int64_t j = 0; j < p; ++j) {
    for (int64_t i = 0; i < p; ++i) out.g(i, j) = released(cols[at(i)], cols[at(j)]);
    out.g(j, j) -= mu;
    out.gxy[at(j)] = released(cols[at(j)], spec.label);
  }
  out.gyy = released(spec.label, spec.label) - mu;
  if (!linalg::cholesky(out.g, out.cholesky) || !spd_solve(out.g, out.gxy, out.coefficients))
    fail(Status::Precondition, "the feature block of the release (minus the noise mean) is not "
         "positive definite (smallest eigenvalue ", linalg::eigvalsh(out.g).front(),
         "): the privacy noise swamps the data; more rows, a larger epsilon or fewer columns");
  return out;
}

BootstrapIntervals ols_bootstrap_intervals(ConstMatrixView released, const ReleaseNoise &noise,
                                           const solvers::RegressionSpec &spec, int64_t bootstrap,
                                           random::Rng &rng, WeakCoefficients weak) {
  const ReleasedOls fit = released_ols(released, noise, spec, bootstrap);
  const int64_t p = fit.g.rows();
  double explained = 0.0;
  for (int64_t i = 0; i < p; ++i) explained += fit.gxy[at(i)] * fit.coefficients[at(i)];
  const double rss = fit.gyy - explained;
  const double s = std::sqrt(std::max(rss, 0.0) / static_cast<double>(spec.rows - p));
  Matrix factor = fit.cholesky;  // s L: Z = s L z ~ N(0, s^2 G^_XX), the model's sampling noise
  for (int64_t j = 0; j < p; ++j)
    for (int64_t i = 0; i < p; ++i) factor(i, j) *= s;
  BootstrapIntervals worlds =
      bootstrap_worlds(fit.g, fit.gxy, fit.coefficients, factor, noise, spec.level, bootstrap,
                       rng, weak);
  worlds.rss_clamped = rss < 0.0;
  return worlds;
}

BootstrapIntervals adassp_bootstrap_intervals(const Matrix &xtx_released,
                                              const std::vector<double> &xty_released,
                                              double yty_released, int64_t n,
                                              const mechanisms::AdasspReceipt &receipt,
                                              double level, int64_t bootstrap, random::Rng &rng) {
  const ReleaseNoise noise = release_noise(receipt);
  const int64_t p = receipt.dim;
  if (xtx_released.rows() != p || xtx_released.cols() != p ||
      static_cast<int64_t>(xty_released.size()) != p)
    fail(Status::Dimension, "the released X'X must be ", p, " x ", p, " and X'y of length ", p);
  check::finite(yty_released, "released y'y");
  Matrix statistic(p + 1, p + 1);
  for (int64_t j = 0; j < p; ++j) {
    for (int64_t i = 0; i < p; ++i) statistic(i, j) = xtx_released(i, j);
    statistic(j, p) = statistic(p, j) = xty_released[at(j)];
  }
  statistic(p, p) = yty_released;
  solvers::RegressionSpec spec;
  spec.label = p;
  for (int64_t j = 0; j < p; ++j) spec.features.push_back(j);
  spec.rows = n;
  spec.level = level;
  return ols_bootstrap_intervals(statistic.view(), noise, spec, bootstrap, rng);
}

}  // namespace dpcov::estimators
