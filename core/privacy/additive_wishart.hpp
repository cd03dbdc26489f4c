// Additive Wishart noise: Sheffet, "Old Techniques in Differentially Private Linear Regression"
// (ALT 2019; arXiv 1507.00056), Alg. 3 / Thm 4.1 (= Thm B.3); the same mechanism on G / n in Wang,
// Huai, Xu (GlobalSIP 2018), Alg. 2 (constants.md section 5.4; proofs/wishart_additive.md).
//
// Releasing G + W with W ~ W_d(k, B^2 I) is (eps, delta)-DP under replace-one (and therefore
// add/remove) for eps in (0, 1) and delta in (0, 1/e).
#pragma once

#include <cstdint>

namespace dpcov::privacy {

// Throws Status::Precondition unless eps in (0, 1) and delta in (0, 1/e), the theorem's
// preconditions (after the generic checks: eps finite > 0, delta in (0, 1)).
void check_additive_wishart_preconditions(double eps, double delta);

// k = ceil(d + 14 ln(4 / delta) / eps^2), computed with the argument rounded up, so k is never
// below the theorem's value. Throws as check_additive_wishart_preconditions, and
// Status::Dimension / Status::TooLarge for d.
double additive_wishart_dof(int64_t dim, double eps, double delta);

// The scale matrix is additive_wishart_scale(B) * I = B^2 I (Thm B.3 allows any V with
// lambda_min(V) >= B^2), rounded up.
double additive_wishart_scale(double bound);

}  // namespace dpcov::privacy
