// Constants of the Wishart mechanism of Jiang, Xie, Zhang, "Wishart Mechanism for Differentially
// Private Principal Components Analysis" (AAAI 2016), Alg. 2 and Thm 3, and of Wang, Huai, Xu
// (GlobalSIP 2018) Alg. 2, epsilon version (constants.md section 4; proofs/wishart_jiang.md).
//
// NOT DIFFERENTIALLY PRIVATE. The published proof compares Wishart densities without noticing that
// they vanish outside the positive-definite cone: for a row v of norm B and its neighbour without
// it, the event {Y - G not PSD} has probability 0 under one dataset and 1 - exp(-eps/3) under the
// other, for every d and n. These functions exist so that the audit target can be run exactly as
// published; no release may rely on them for privacy.
#pragma once

#include <cstdint>

namespace dpcov::privacy {

// The published scale on G: W_d(d + 1, C) with C = (3 B^2 / (2 eps)) I. Jiang et al. state it on
// S = G / n with B = 1 as 3 / (2 n eps). Throws Status::InvalidArgument / Status::NonFinite
// unless B and eps are finite and > 0.
double jiang_wishart_scale_not_dp(double bound, double eps);

// The published degrees of freedom: d + 1.
double jiang_wishart_dof_not_dp(int64_t dim);

}  // namespace dpcov::privacy
