// Privacy constants of iterative eigenvector sampling (Amin, Dick, Kulesza, Munoz Medina,
// Vassilvitskii, "Differentially Private Covariance Estimation", NeurIPS 2019, Alg. 1, Thm 1,
// Cor. 1 and 2; constants.md section 8; proofs/iev.md) and of its Kapralov-Talwar rank-one
// variant (proofs/kt_rank1.md). Noise scales are rounded up, budget shares and Bingham exponents
// down.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "neighbour.hpp"

namespace dpcov::privacy {

// L1 sensitivity of the vector of eigenvalues of G = A^T A (sorted): 2 B^2 under replace-one,
// B^2 under add/remove (Lidskii: sum_i |lambda_i(G) - lambda_i(G')| <= ||G - G'||_*, the nuclear
// norm of v'v'^T - v v^T or of v v^T). Any sub-vector (the top k) has at most the same. Tight.
double gram_eigenvalue_l1_sensitivity(Neighbour neighbour, double bound);

// The budget of the eigenvalue step, eps0 = eps / 2 (Cor. 1 and Cor. 2).
double iev_eigenvalue_epsilon(double eps);

// The budget of the eigenvector steps together, the other half eps / 2 (Cor. 1 and Cor. 2). Both
// halves are rounded down, so they never sum to more than eps.
double iev_eigenvector_epsilon(double eps);

// The uniform split of the other half over the `steps` eigenvector steps, eps_i = eps / (2 steps)
// (Cor. 2 with steps = d; a rank-k release has steps = k). Throws Status::InvalidArgument unless
// steps >= 1.
double iev_uniform_step_epsilon(double eps, int64_t steps);

// tau = b ln(2 steps / beta) of Cor. 1, where b is the Laplace scale of the eigenvalue step
// (2 B^2 / eps0 under replace-one, as in the paper): with probability >= 1 - beta/2 every one of the
// `steps` Laplace noises is below tau in magnitude. It only shapes the adaptive split, which is a
// function of released values, so any tau >= 0 is private. Throws Status::InvalidArgument unless
// scale > 0, steps >= 1 and 0 < beta < 1.
double iev_adaptive_tau(double laplace_scale, int64_t steps, double beta);

// The adaptive split of Cor. 1: eps_i = eps_vectors sqrt(lambda_hat_i + tau) / sum_j
// sqrt(lambda_hat_j + tau), with a negative lambda_hat_i + tau counted as 0 and the uniform split
// eps_vectors / k if every weight is 0. Each share is rounded down and the sum is rounded up, so the
// exact sum of the returned shares is <= eps_vectors. A function of released values only.
// Throws Status::InvalidArgument / Status::NonFinite on an empty or non-finite input.
std::vector<double> iev_adaptive_step_epsilons(std::span<const double> lambda_hat, double tau,
                                               double eps_vectors);

// Sensitivity of the score g(u) = u^T C_i u of one eigenvector step: B^2 under either relation
// (C_i changes by P_i (v'v'^T - v v^T) P_i^T or +/- P_i v v^T P_i^T, and (u^T P_i v)^2 lies in
// [0, B^2]).
double bingham_score_sensitivity(double bound);

// The constant of the Bingham exponent kappa_i = factor eps_i / B^2 of one eigenvector step, whose
// density is proportional to exp(kappa_i u^T C_i u).
enum class BinghamExponent {
  // Alg. 1 as published: factor 1/4 under either relation. It spends eps_i / 2 under replace-one
  // and eps_i / 4 under add/remove; the receipt records eps_i (the paper's accounting). Default.
  Published,
  // Calibrated to the score sensitivity B^2: the largest factor for which step i is eps_i-DP,
  // 1/2 under replace-one (the score moves both ways, so the exponential mechanism pays twice) and
  // 1 under add/remove (the score only grows when a row is added, so the normaliser moves against
  // the density and the mechanism pays once).
  Sensitivity,
};

// The factor of `exponent` under `neighbour`: 1/4, or 1/2 (replace-one) / 1 (add/remove).
double bingham_exponent_factor(BinghamExponent exponent, Neighbour neighbour);

// kappa_i = factor eps_i / B^2, rounded down. eps_i = 0 (an adaptive share of 0) gives kappa = 0, a
// uniform draw. Throws Status::InvalidArgument / Status::NonFinite unless eps_i is finite and
// >= 0 and B is finite and > 0.
double bingham_exponent(BinghamExponent exponent, Neighbour neighbour, double eps_i, double bound);

// The privacy an exponent actually gives one step: sup over neighbours and u of the log-ratio of
// the step densities, 2 kappa B^2 (replace-one) or kappa B^2 (add/remove), rounded up. The bound
// the per-step privacy tests check.
double bingham_step_epsilon(Neighbour neighbour, double kappa, double bound);

}  // namespace dpcov::privacy
