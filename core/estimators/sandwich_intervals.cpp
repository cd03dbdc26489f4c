#include "sandwich_intervals.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "../check.hpp"
#include "../linalg/blas.hpp"
#include "../random/normal.hpp"
#include "weak_directions.hpp"
#include "worlds_spread.hpp"

namespace dpcov::estimators {

namespace {

size_t at(int64_t i) { return static_cast<size_t>(i); }

// The meat the worlds centre on: M~, or, given the meat's noise law, M~ minus the noise mean.
Matrix meat_centre(const Matrix &meat, const ReleaseNoise *meat_noise) {
  Matrix centre = meat;
  if (meat_noise == nullptr) return centre;
  const double mu = noise_diagonal_mean(*meat_noise);
  for (int64_t i = 0; i < meat.rows(); ++i) centre(i, i) -= mu;
  return centre;
}

// The meat of every world: the centre (fixed), or, given the meat's noise law, the centre plus a
// fresh centred draw of that law (the header's construction). Not raised to positive
// semidefinite: sandwich_worlds reads only w' M w for one w at a time. The law is checked here,
// before any draw.
using MeatDraw = std::function<Matrix(random::Rng &)>;

MeatDraw meat_sampling(const Matrix &centre, const ReleaseNoise *meat_noise) {
  if (meat_noise == nullptr) return [centre](random::Rng &) { return centre; };
  const int64_t p = centre.rows();
  validate(*meat_noise, p);
  return [centre, law = *meat_noise, p](random::Rng &rng) {
    const Matrix e = centred_noise(law, p, rng);
    Matrix world = centre;
    for (int64_t j = 0; j < p; ++j)
      for (int64_t i = 0; i < p; ++i) world(i, j) += e(i, j);
    return world;
  };
}

// Each usable world's margin, per coefficient j: its standard normal draw z, the world's
// w_j' M_w w_j and the variance of w_j' E w_j under the meat's noise law (0 without one).
struct Margins {
  std::vector<std::vector<double>> z, meat, noise;
  explicit Margins(int64_t p) : z(at(p)), meat(at(p)), noise(at(p)) {}
};

// The margins' sampling noise added to each world's refit, with the meat's noise shift
// (meat_noise_shift) taken at coefficient j's total variance: the robust variance of its refits
// without the margin (u - v, every other noise) plus the mean of its worlds' max(w_j' M w_j, 0).
void add_margins(const Margins &m, WorldsStart &start) {
  for (size_t j = 0; j < m.z.size(); ++j) {
    if (start.rest[j].empty()) continue;  // no usable world: summarise_worlds refuses
    std::vector<double> others(start.rest[j].size());
    double sampling = 0.0;
    for (size_t b = 0; b < others.size(); ++b) {
      others[b] = start.rest[j][b] - start.interaction[j][b];
      sampling += std::max(m.meat[j][b], 0.0);
    }
    const double total = robust_variance(others) + sampling / static_cast<double>(others.size());
    for (size_t b = 0; b < others.size(); ++b) {
      const double v = m.meat[j][b] + meat_noise_shift(m.noise[j][b], total);
      start.rest[j][b] += v > 0.0 && m.z[j][b] != 0.0 ? std::sqrt(v) * m.z[j][b] : 0.0;
    }
  }
}

// The bootstrap worlds of bootstrap_worlds (around the same de-noised truth X'X_w, E* beta_w's
// part shrunk as there) with the sampling noise added to each coefficient after the refit:
// beta*_j + sqrt(max(w_j' M_w w_j + shift, 0)) z_j, w_j = (X'X_w + E*)^-1 e_j, which without the
// shift is the law of ((X'X_w + E*)^-1 Z)_j for Z ~ N(0, M_w) whenever M_w is positive
// semidefinite. A coefficient's interval reads only its own margin, and w_j' M w_j is linear in the
// meat, so the meat's noise enters it unbiased; only that scalar is raised to 0, not the meat's
// eigenvalues, whose positive part grows with the noise in every direction (proofs/sandwich.md,
// "One coefficient at a time"; the shift: "The meat's noise in the margin").
BootstrapIntervals sandwich_worlds(const Matrix &g, const std::vector<double> &gxy,
                                   const std::vector<double> &coefficients,
                                   const Matrix &centre, const ReleaseNoise *meat_noise,
                                   const ReleaseNoise &noise, double level, int64_t bootstrap,
                                   random::Rng &rng, WeakCoefficients weak) {
  const MeatDraw draw_meat = meat_sampling(centre, meat_noise);
  WorldsStart start = start_worlds(g, gxy, coefficients, centre, noise, level, bootstrap, weak);
  const int64_t p = g.rows();
  Margins margins(p);
  std::vector<double> xy(at(p)), z(at(p)), v(at(p)), s2(at(p)), w_j(at(p));
  for (int64_t b = 0; b < bootstrap; ++b) {
    const Matrix meat = draw_meat(rng);
    for (int64_t i = 0; i < p; ++i) z[at(i)] = random::standard_normal(rng);
    const Matrix e = centred_noise(noise, p + 1, rng);
    Matrix xx = start.truth.xtx, e_xx(p, p);
    for (int64_t j = 0; j < p; ++j) {
      xy[at(j)] = e(j, p);
      for (int64_t i = 0; i < p; ++i) xx(i, j) += e_xx(i, j) = e(i, j);
    }
    const std::vector<double> eig = linalg::eigvalsh(e_xx);
    start.norms.push_back(std::max(std::fabs(eig.front()), std::fabs(eig.back())));
    if (!world_parts(xx, e_xx, xy, start)) {
      ++start.out.failed_draws;
      continue;
    }
    const Matrix w = linalg::spd_inverse(xx);
    bool usable = true;
    for (int64_t j = 0; j < p; ++j) {
      double vj = 0.0;
      for (int64_t a = 0; a < p; ++a)
        for (int64_t c = 0; c < p; ++c) vj += w(a, j) * meat(a, c) * w(c, j);
      // A meat near the largest doubles can overflow w' M w to inf - inf: such a world is as
      // unusable as one whose refit fails, and counts at both ends like it.
      usable = usable && !std::isnan(vj);
      v[at(j)] = vj;
      if (meat_noise != nullptr) {
        for (int64_t a = 0; a < p; ++a) w_j[at(a)] = w(a, j);
        const double sd = direction_noise_sd(*meat_noise, w_j);
        s2[at(j)] = sd * sd;
      }
    }
    for (int64_t j = 0; j < p; ++j) {
      // The sampling noise's margin belongs to u, the part that does not multiply beta_w.
      if (usable) {
        margins.z[at(j)].push_back(z[at(j)]);
        margins.meat[at(j)].push_back(v[at(j)]);
        margins.noise[at(j)].push_back(s2[at(j)]);
      } else {
        start.rest[at(j)].pop_back();
        start.interaction[at(j)].pop_back();
      }
    }
    start.out.failed_draws += !usable;
  }
  add_margins(margins, start);
  summarise_worlds(g, start, level, bootstrap);
  return std::move(start.out);
}

}  // namespace

double meat_noise_shift(double noise_variance, double total_variance) {
  if (!(noise_variance > 0.0)) return 0.0;
  return noise_variance / (std::max(total_variance, 0.0) + std::sqrt(noise_variance));
}

Matrix sandwich_rows(ConstMatrixView x, const std::vector<double> &y,
                     const std::vector<double> &beta0, double bound_x, double residual_bound) {
  check::all_finite(x, "rows");
  check::positive_finite(bound_x, "bound_x");
  check::positive_finite(residual_bound, "residual_bound");
  const int64_t n = x.rows, p = x.cols;
  if (static_cast<int64_t>(y.size()) != n || static_cast<int64_t>(beta0.size()) != p)
    fail(Status::Dimension, "the meat needs ", n, " labels and ", p, " coefficients");
  for (double v : y) check::finite(v, "labels");
  for (double v : beta0) check::finite(v, "beta0");
  const double row_bound = bound_x * residual_bound;
  Matrix u(n, p);
  for (int64_t r = 0; r < n; ++r) {
    double fitted = 0.0, norm2 = 0.0;
    for (int64_t j = 0; j < p; ++j) fitted += x(r, j) * beta0[at(j)];
    // A fitted value beyond the doubles (a huge beta0) is a residual beyond every bound.
    const double residual = std::isfinite(fitted)
                                ? std::clamp(y[at(r)] - fitted, -residual_bound, residual_bound)
                                : residual_bound;
    double largest = 0.0;
    for (int64_t j = 0; j < p; ++j) largest = std::max(largest, std::abs(x(r, j)));
    // ||r x|| = |r| m ||x / m||, m the largest entry: no overflow for any finite row.
    for (int64_t j = 0; j < p; ++j) {
      const double scaled = largest > 0.0 ? x(r, j) / largest : 0.0;
      norm2 += scaled * scaled;
    }
    const double unit_norm = std::sqrt(norm2);
    const bool over = std::abs(residual) * largest * unit_norm > row_bound;
    for (int64_t j = 0; j < p; ++j)
      u(r, j) = over ? std::copysign(row_bound, residual) * (x(r, j) / largest) / unit_norm
                     : residual * x(r, j);
  }
  return u;
}

Matrix sandwich_meat(ConstMatrixView x, const std::vector<double> &y,
                     const std::vector<double> &beta0, double bound_x, double residual_bound) {
  const Matrix u = sandwich_rows(x, y, beta0, bound_x, residual_bound);
  const int64_t n = u.rows(), p = u.cols();
  Matrix meat(p, p);
  for (int64_t r = 0; r < n; ++r)
    for (int64_t j = 0; j < p; ++j)
      for (int64_t i = 0; i <= j; ++i) meat(i, j) += u(r, i) * u(r, j);
  for (int64_t j = 0; j < p; ++j)
    for (int64_t i = 0; i < j; ++i) meat(j, i) = meat(i, j);
  return meat;
}

BootstrapIntervals adassp_sandwich_intervals(const Matrix &xtx_released,
                                             const std::vector<double> &xty_released,
                                             const mechanisms::AdasspReceipt &receipt,
                                             const Matrix &meat_released, double level,
                                             int64_t bootstrap, random::Rng &rng,
                                             const ReleaseNoise *meat_noise,
                                             WeakCoefficients weak) {
  const int64_t p = receipt.dim;
  if (p < 1) fail(Status::InvalidArgument, "the receipt must have at least one regressor, got ", p);
  if (xtx_released.rows() != p || xtx_released.cols() != p ||
      static_cast<int64_t>(xty_released.size()) != p || meat_released.rows() != p ||
      meat_released.cols() != p)
    fail(Status::Dimension, "the released X'X and meat must be ", p, " x ", p,
         " and X'y of length ", p);
  check::all_finite(xtx_released.view(), "released X'X");
  check::symmetric(xtx_released.view(), "released X'X");
  check::all_finite(meat_released.view(), "released meat");
  check::symmetric(meat_released.view(), "released meat");
  for (double v : xty_released) check::finite(v, "released X'y");
  if (!(level > 0.0 && level < 1.0))
    fail(Status::InvalidArgument, "level must be in (0, 1), got ", level);
  const ReleaseNoise noise = adassp_fit_noise(receipt);
  validate(noise, p + 1);
  bootstrap_order(level, bootstrap);
  std::vector<double> beta(at(p), 0.0);
  if (!spd_solve(xtx_released, xty_released, beta))
    fail(Status::Precondition, "the released X'X is not positive definite (smallest eigenvalue ",
         linalg::eigvalsh(xtx_released).front(),
         "): the privacy noise swamps the data; more rows, a larger epsilon or fewer columns");
  return sandwich_worlds(xtx_released, xty_released, beta,
                         meat_centre(meat_released, meat_noise), meat_noise, noise, level,
                         bootstrap, rng, weak);
}

BootstrapIntervals gram_sandwich_intervals(ConstMatrixView released, const ReleaseNoise &noise,
                                           const solvers::RegressionSpec &spec,
                                           const Matrix &meat_released, int64_t bootstrap,
                                           random::Rng &rng, const ReleaseNoise *meat_noise,
                                           WeakCoefficients weak) {
  const int64_t p = static_cast<int64_t>(spec.features.size()) + (spec.intercept_column >= 0);
  if (meat_released.rows() != p || meat_released.cols() != p)
    fail(Status::Dimension, "the released meat must be ", p, " x ", p, " (one row per "
         "coefficient), got ", meat_released.rows(), " x ", meat_released.cols());
  check::all_finite(meat_released.view(), "released meat");
  check::symmetric(meat_released.view(), "released meat");
  const ReleasedOls fit = released_ols(released, noise, spec, bootstrap);
  return sandwich_worlds(fit.g, fit.gxy, fit.coefficients,
                         meat_centre(meat_released, meat_noise), meat_noise, noise, spec.level,
                         bootstrap, rng, weak);
}

}  // namespace dpcov::estimators
