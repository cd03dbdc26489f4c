// Calibration of the discrete Gaussian (Canonne, Kamath, Steinke, NeurIPS 2020, arXiv
// 2004.00010; proofs/exact_additive.md): the multivariate discrete Gaussian N_Z(0, sigma2)^m
// added to an integer-valued query of L2 sensitivity Delta is rho-zCDP with rho = Delta^2 /
// (2 sigma2) (CKS Thm 14), and rho-zCDP implies (eps, delta)-DP for
//   delta = exp((alpha - 1)(alpha rho - eps)) (1 - 1/alpha)^alpha / (alpha - 1)
// at every alpha > 1 (CKS Cor. 13).
#pragma once

#include <cstdint>

namespace dpcov::privacy {

// CKS Cor. 13's delta at one order alpha > 1 (an upper bound on the true delta for any alpha).
double zcdp_delta_at(double rho, double eps, double alpha);

// CKS Cor. 13's delta at the minimising alpha (found by bisection on the derivative).
double zcdp_delta(double rho, double eps);

// The largest rho (to a relative 1e-12) whose zcdp_delta(rho, eps) is at most delta * (1 - 1e-9):
// the 1e-9 margin absorbs the rounding of the double evaluation, so the rho returned is on the
// safe side of the exact one (checked against mpmath in proofs/check/exact_additive.py).
// Throws DPCOV_E_INVALID_ARGUMENT unless eps > 0 and 0 < delta < 1 are finite.
double zcdp_rho_for(double eps, double delta);

// The smallest integer variance sigma2 with Delta^2 / (2 sigma2) <= rho, for Delta^2 given
// exactly (an integer below 2^53): ceil(delta_squared / (2 rho)) for the exact quotient (from 2^53
// on, the smallest double integer at or above it: upward::ceil_quotient_up). Throws
// DPCOV_E_PRECONDITION if it is 2^62 or more (beyond the exact sampler).
uint64_t discrete_gaussian_variance(double delta_squared, double rho);

}  // namespace dpcov::privacy
