// Calibration of the discrete Gaussian (Canonne, Kamath, Steinke, NeurIPS 2020, arXiv
// 2004.00010; proofs/exact_additive.md): the multivariate discrete Gaussian N_Z(0, sigma2)^m
// added to an integer-valued query of L2 sensitivity Delta is rho-zCDP with rho = Delta^2 /
// (2 sigma2) (CKS Thm 14); rho comes from the (epsilon, delta) budget by zcdp_rho_for_epsilon()
// (zcdp.hpp, CKS Cor. 13).
#pragma once

#include <cstdint>

namespace dpcov::privacy {

// The smallest integer variance sigma2 with Delta^2 / (2 sigma2) <= rho, for Delta^2 given
// exactly (an integer below 2^53): ceil(delta_squared / (2 rho)) for the exact quotient (from 2^53
// on, the smallest double integer at or above it: upward::ceil_quotient_up). Throws
// Status::Precondition if it is 2^62 or more (beyond the exact sampler).
uint64_t discrete_gaussian_variance(double delta_squared, double rho);

}  // namespace dpcov::privacy
