#include "glasso.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "../error.hpp"
#include "../linalg/blas.hpp"

namespace dpcov::solvers {

namespace {

double soft_threshold(double z, double rho) {
  if (z > rho) return z - rho;
  if (z < -rho) return z + rho;
  return 0.0;
}

bool positive_definite(const Matrix &a) {
  Matrix l;
  return linalg::cholesky(a, l);
}

// The dual-feasible start built from S: off-diagonal entries within rho of S (soft_off_diagonal
// moves each one rho towards 0), diagonal S_ii + rho_diag.
Matrix feasible_start(const Matrix &s, double rho, double rho_diag, bool soft_off_diagonal) {
  Matrix w = s;
  const int64_t d = s.rows();
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i < d; ++i)
      w(i, j) = i == j ? s(i, i) + rho_diag
                       : (soft_off_diagonal ? soft_threshold(s(i, j), rho) : s(i, j));
  return w;
}

// Theta0^{-1} moved into the box |W - S| <= rho, with the diagonal fixed at S_ii + rho_diag.
Matrix warm_covariance(const Matrix &s, const Matrix &theta0, double rho, double rho_diag) {
  Matrix w = linalg::spd_inverse(theta0);
  const int64_t d = s.rows();
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i < d; ++i)
      w(i, j) =
          i == j ? s(i, i) + rho_diag : std::min(std::max(w(i, j), s(i, j) - rho), s(i, j) + rho);
  return w;
}

struct Certificate {
  double kkt_residual;
  double duality_gap;
};

Certificate certify(const Matrix &s, const Matrix &theta, const Matrix &w, double rho,
                    double rho_diag) {
  const int64_t d = s.rows();
  Certificate c{0.0, 0.0};
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i < d; ++i) {
      const double r = i == j ? rho_diag : rho;
      const double diff = w(i, j) - s(i, j);
      const double t = theta(i, j);
      const double violation =
          t == 0.0 ? std::max(0.0, std::fabs(diff) - r) : std::fabs(diff - std::copysign(r, t));
      // sqrt(W_ii) sqrt(W_jj), not sqrt(W_ii W_jj): the product overflows from about 1e154 and
      // underflows below 1e-154, where the solution (equivariant in scale) is still in range.
      const double scale = std::sqrt(w(i, i)) * std::sqrt(w(j, j));
      c.kkt_residual = std::max(c.kkt_residual, violation / scale);
      c.duality_gap += -diff * t + r * std::fabs(t);
    }
  return c;
}

}  // namespace

void validate(const GlassoOptions &options) {
  if (!std::isfinite(options.rho))
    fail(Status::NonFinite, "rho must be finite and >= 0, got ", options.rho);
  if (options.rho < 0.0) fail(Status::InvalidArgument, "rho must be >= 0, got ", options.rho);
  if (!std::isfinite(options.tol))
    fail(Status::NonFinite, "tol must be finite and > 0, got ", options.tol);
  if (options.tol <= 0.0) fail(Status::InvalidArgument, "tol must be > 0, got ", options.tol);
  if (options.max_iter < 1)
    fail(Status::InvalidArgument, "max_iter must be >= 1, got ", options.max_iter);
}

GlassoResult graphical_lasso(const Matrix &s, const GlassoOptions &options,
                             const Matrix *warm_start) {
  validate(options);
  const int64_t d = s.rows();
  const double rho = options.rho;
  const double rho_diag = options.penalize_diagonal ? rho : 0.0;
  for (int64_t i = 0; i < d; ++i)
    if (!(s(i, i) + rho_diag > 0.0))
      fail(Status::NotPositiveDefinite, "graphical lasso needs S_ii",
           options.penalize_diagonal ? " + rho" : "", " > 0 for every i; entry ", i, " is ",
           s(i, i) + rho_diag,
           ": project S onto the positive semidefinite cone first or increase rho");
  if (warm_start != nullptr && !positive_definite(*warm_start))
    fail(Status::NotPositiveDefinite, "warm_start must be positive definite");

  GlassoResult result;
  result.kkt_residual = std::numeric_limits<double>::infinity();
  Matrix w;
  bool have_start = false;
  if (warm_start != nullptr) {
    w = warm_covariance(s, *warm_start, rho, rho_diag);
    have_start = positive_definite(w);
    result.start = GlassoStart::Warm;
  }
  if (!have_start) {
    w = feasible_start(s, rho, rho_diag, false);
    have_start = positive_definite(w);
    result.start = GlassoStart::Covariance;
  }
  if (!have_start) {
    w = feasible_start(s, rho, rho_diag, true);
    have_start = positive_definite(w);
    result.start = GlassoStart::SoftThreshold;
  }
  if (!have_start)
    fail(Status::NotPositiveDefinite, "graphical lasso: neither S",
         options.penalize_diagonal ? " + rho I" : "",
         " nor its soft-thresholded version is positive definite, so block coordinate descent has "
         "no feasible start; increase rho",
         options.penalize_diagonal ? "" : " or penalise the diagonal",
         ", or project S onto the positive semidefinite cone first (post-processing)");

  // Column j of beta holds the lasso coefficients of column j (its entry j is unused), so that
  // every inner lasso starts from its previous solution, or from -Theta0_{-j,j} / Theta0_jj.
  Matrix beta(d, d);
  if (warm_start != nullptr)
    for (int64_t j = 0; j < d; ++j)
      for (int64_t i = 0; i < d; ++i)
        if (i != j) beta(i, j) = -(*warm_start)(i, j) / (*warm_start)(j, j);

  Matrix theta(d, d);
  std::vector<double> r(static_cast<size_t>(d));
  // The inner lasso stops when no coefficient moves by more than this, in the scale-free units of
  // the KKT residual (a change db_k moves W_kj by about V_kk db_k).
  const double inner_tol = 0.1 * options.tol;
  for (int64_t sweep = 1; sweep <= options.max_iter; ++sweep) {
    for (int64_t j = 0; j < d; ++j) {
      // Lasso: minimise b' V b / 2 - b' u + rho ||b||_1 with V = W without row and column j and
      // u = S_{-j,j}. r = u - V b is kept current, so W_{-j,j} = V b = u - r at the end.
      for (int64_t i = 0; i < d; ++i) {
        if (i == j) continue;
        double vb = 0.0;
        for (int64_t k = 0; k < d; ++k)
          if (k != j) vb += w(i, k) * beta(k, j);
        r[static_cast<size_t>(i)] = s(i, j) - vb;
      }
      for (int64_t pass = 0; pass < options.max_iter; ++pass) {
        double largest_step = 0.0;
        for (int64_t k = 0; k < d; ++k) {
          if (k == j) continue;
          const double old = beta(k, j);
          const double updated =
              soft_threshold(r[static_cast<size_t>(k)] + w(k, k) * old, rho) / w(k, k);
          if (updated == old) continue;
          const double delta = updated - old;
          beta(k, j) = updated;
          for (int64_t i = 0; i < d; ++i)
            if (i != j) r[static_cast<size_t>(i)] -= w(i, k) * delta;
          largest_step = std::max(largest_step, std::fabs(delta) * std::sqrt(w(k, k) / w(j, j)));
        }
        if (largest_step <= inner_tol) break;
      }
      double w12_beta = 0.0;
      for (int64_t i = 0; i < d; ++i) {
        if (i == j) continue;
        const double wij = s(i, j) - r[static_cast<size_t>(i)];
        w(i, j) = wij;
        w(j, i) = wij;
        w12_beta += wij * beta(i, j);
      }
      // Theta_jj = 1 / (W_jj - w12' b) and Theta_{-j,j} = -Theta_jj b (the partitioned inverse).
      const double theta_jj = 1.0 / (w(j, j) - w12_beta);
      theta(j, j) = theta_jj;
      for (int64_t i = 0; i < d; ++i) {
        if (i == j) continue;
        theta(i, j) = -theta_jj * beta(i, j);
        theta(j, i) = theta(i, j);
      }
    }
    result.iterations = sweep;
    // Before convergence the assembled Theta can fail to be positive definite; it has no
    // certificate then.
    if (!positive_definite(theta)) {
      result.kkt_residual = std::numeric_limits<double>::infinity();
      continue;
    }
    const Matrix covariance = linalg::spd_inverse(theta);
    const Certificate c = certify(s, theta, covariance, rho, rho_diag);
    result.kkt_residual = c.kkt_residual;
    result.duality_gap = c.duality_gap;
    if (c.kkt_residual <= options.tol) {
      result.precision = theta;
      result.covariance = covariance;
      return result;
    }
  }
  fail(Status::NoConvergence, "graphical lasso did not converge in ", options.max_iter,
       " sweeps: scaled KKT residual ", result.kkt_residual, " > tol ", options.tol,
       "; raise max_iter or tol, or increase rho");
}

GlassoResult graphical_lasso_undisclosed(const Matrix &s, const GlassoOptions &options) {
  try {
    return graphical_lasso(s, options, nullptr);
  } catch (const Error &e) {
    if (e.status() == Status::NoConvergence)
      fail(Status::NoConvergence, "graphical lasso did not converge in ", options.max_iter,
           " sweeps to tol ", options.tol, "; raise max_iter or tol, or increase rho (the "
           "residual it reached is not reported: it is a function of data that stays inside the "
           "library)");
    if (e.status() == Status::NotPositiveDefinite)
      fail(Status::NotPositiveDefinite, "graphical lasso: no positive definite start for block "
           "coordinate descent; increase rho or penalise the diagonal");
    throw;
  }
}

}  // namespace dpcov::solvers
