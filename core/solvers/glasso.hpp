// The graphical lasso (the l1-penalised Gaussian log-likelihood of Wang, Huai and Xu, GlobalSIP
// 2018, eq. 1):
//   Theta = argmin_{Theta positive definite} -log det Theta + <S, Theta> + rho sum_ij w_ij
//   |Theta_ij|,
// with w_ij = 1 off the diagonal and w_ii = 1 (penalise_diagonal, the paper's and R glasso's
// objective) or 0 (scikit-learn's). Solved by the block coordinate descent of Friedman, Hastie and
// Tibshirani (Biostatistics 2008) with a coordinate-descent lasso for each column.
#pragma once

#include <cstdint>

#include "../matrix.hpp"

namespace dpcov::solvers {

struct GlassoOptions {
  double rho = 0.0;               // penalty, finite and >= 0
  bool penalize_diagonal = true;  // penalise Theta_ii too (seed 001); false matches scikit-learn
  double tol = 1e-6;              // on the scaled KKT residual, finite and > 0
  int64_t max_iter = 1000;        // sweeps over the columns, and passes of each inner lasso
};

// Where the iteration started. Block coordinate descent keeps W = Theta^{-1} positive definite
// only from a start W0 that is positive definite and dual feasible (|W0 - S| <= rho entrywise,
// W0_ii = S_ii + rho_ii); these are the starts tried, in this order.
enum class GlassoStart {
  Warm = 0,           // the caller's Theta0^{-1}, moved into the feasible box
  Covariance = 1,     // S + rho_diag I (Friedman et al.'s start)
  SoftThreshold = 2,  // S soft-thresholded by rho off the diagonal, S_ii + rho_diag on it
};

struct GlassoResult {
  Matrix precision;   // Theta, exactly symmetric, exact zeros off the support
  Matrix covariance;  // W = Theta^{-1}, exactly symmetric
  int64_t iterations = 0;
  // max_ij |dist(W_ij - S_ij, rho_ij * subdifferential of |Theta_ij|)| / sqrt(W_ii W_jj): Theta is
  // the exact solution for an input S + E with |E_ij| <= kkt_residual * sqrt(W_ii W_jj).
  double kkt_residual = 0.0;
  // sum_ij (S_ij - W_ij) Theta_ij + rho_ij |Theta_ij| = tr(S Theta) + rho ||Theta||_1 - d: the
  // primal-dual gap of (Theta, W), a bound on the suboptimality once W is dual feasible.
  double duality_gap = 0.0;
  GlassoStart start = GlassoStart::Covariance;
};

// Throws dpcov::Error naming the first invalid option.
void validate(const GlassoOptions &options);

// Solves the problem for the symmetric, finite d x d matrix s (checked by the caller). S may be
// indefinite (a noisy release): the solver needs one of the starts above to be positive definite
// and otherwise throws Status::NotPositiveDefinite (advising a larger rho, a penalised diagonal,
// or a PSD projection of S). warm_start, if not null, is a symmetric positive definite Theta0
// (e.g. the solution for a nearby rho). Stops when kkt_residual <= tol; after max_iter sweeps
// throws Status::NoConvergence.
GlassoResult graphical_lasso(const Matrix &s, const GlassoOptions &options,
                             const Matrix *warm_start);

// graphical_lasso() on an input that must not leave the library: a mechanism's noisy intermediate
// (covariance perturbation solves on the release, which is never returned) or the exact data (the
// output-perturbation audit target). Same result; a failure keeps its status but its message names
// the failure and the options only, never a value reached on the input (the KKT residual, a
// diagonal entry): nothing data-dependent leaves the library in a message.
GlassoResult graphical_lasso_undisclosed(const Matrix &s, const GlassoOptions &options);

}  // namespace dpcov::solvers
