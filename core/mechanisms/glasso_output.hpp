// Output perturbation around the graphical lasso, Wang, Huai, Xu (GlobalSIP 2018), Alg. 1:
// Theta_rho(G / n) + N, N ~ W_d(d + 1, c I), c = d^{5/2} B^2 / (n eps rho^2), where Theta_rho(S)
// minimises -log det Theta + <S, Theta> + rho sum_ij |Theta_ij| (diagonal penalised, as in the
// paper). NOT DIFFERENTIALLY PRIVATE (proofs/glasso_output.md: the support argument of
// proofs/wishart_jiang.md, with a neighbouring pair and the probability of the support miss). Plan
// and release refuse with Status::NotPrivate unless Options::audit_only_not_private is set; the
// receipt then has not_dp = true. The penalty rho is Options::glasso_rho (required, public).
#pragma once

#include "../solvers/glasso.hpp"
#include "../matrix.hpp"
#include "../random/rng.hpp"
#include "receipt.hpp"
#include "request.hpp"

namespace dpcov::mechanisms {

// Every constant the release would use, or the status it would throw; no data, no randomness.
// Besides the generic checks: replace-one only (the mechanism normalises by the public n), n >= 1,
// rho finite and > 0.
Receipt plan_glasso_output(const Request &request);

// The exact graphical-lasso solution the mechanism perturbs: Theta_rho(G / n), solved to a
// scaled KKT residual of kGlassoOutputTolerance. Deterministic, so release and log-density use the
// same matrix.
solvers::GlassoResult glasso_output_solution(ConstMatrixView gram, const Request &request);

// Validates the statistic, solves, then samples with the constants of `planned` (the plan of
// `request`, computed once by the caller): never recomputes a constant.
Release release_glasso_output(ConstMatrixView gram, const Request &request, const Receipt &planned,
                              random::Rng &rng);

// Natural log of the Wishart density of released - Theta_rho(G / n); -infinity outside the
// support (that difference not positive definite).
double log_density_glasso_output(ConstMatrixView released, ConstMatrixView gram,
                                 const Request &request);

}  // namespace dpcov::mechanisms
