// Constants of the output-perturbation mechanism of Wang, Huai, Xu, "Differentially Private Sparse
// Inverse Covariance Estimation" (GlobalSIP 2018), Alg. 1: Theta_rho + N, N ~ W_d(d + 1, c I) with
// c = d^{5/2} / (n eps rho^2) for rows of norm <= 1 (constants.md section 7;
// proofs/glasso_output.md).
//
// NOT DIFFERENTIALLY PRIVATE, for the reason the Wishart mechanism of Jiang et al. is not
// (proofs/wishart_jiang.md): the noise has no mass outside the positive-definite cone, so for two
// neighbouring datasets whose graphical-lasso solutions differ, the event {released - Theta_D not
// PSD} has probability 0 under one and a positive probability under the other (proofs/
// glasso_output.md gives the pair and the probability). These functions exist so that the audit
// target runs exactly as published; no release may rely on them for privacy.
#pragma once

#include <cstdint>

namespace dpcov::privacy {

// beta = d / rho: at the optimum of -log det Theta + <S, Theta> + rho sum_ij |Theta_ij| with S
// positive semidefinite, tr(S Theta) + rho ||Theta||_1 = d (the KKT conditions), hence
// ||Theta||_2 <= ||Theta||_1 <= d / rho (Banerjee, El Ghaoui, d'Aspremont, JMLR 2008, Thm 1).
// The bound on which the published sensitivity rests. Rounded up. Throws Status::Dimension /
// Status::TooLarge for d, Status::InvalidArgument / Status::NonFinite unless rho is finite > 0.
double glasso_precision_norm_bound(int64_t dim, double rho);

// The published scale on the precision scale of S = G / n, for rows of norm <= B:
// c = d^{5/2} B^2 / (n eps rho^2) (Alg. 1 states B = 1). It is the trace-norm sensitivity
// sqrt(d) * beta^2 * (2 B^2 / n) divided by 2 eps (proofs/glasso_output.md, section 2).
// Rounded up. Throws as above, Status::Dimension unless n >= 1, and
// Status::InvalidArgument / Status::NonFinite unless B and eps are finite and > 0.
double glasso_output_wishart_scale_not_dp(int64_t dim, int64_t n, double bound, double eps,
                                          double rho);

// The published degrees of freedom: d + 1.
double glasso_output_wishart_dof_not_dp(int64_t dim);

}  // namespace dpcov::privacy
