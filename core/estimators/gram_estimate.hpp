// The estimate of the Gram matrix G that a Gram release holds, read from its receipt: the
// release less the mean its mechanism adds, where the mechanism's law gives that mean in closed
// form. Every analysis of a release (covariance, PCA, regression) reads this, not the release.
#pragma once

#include "../matrix.hpp"
#include "../mechanisms/receipt.hpp"

namespace dpcov::estimators {

struct GramEstimate {
  Matrix matrix;
  // true where `matrix` is unbiased for G (the mechanism's noise has mean 0, or its mean was
  // removed); false where the mechanism's bias has no closed form (IEV and KT clip a spectrum,
  // inverse Gauss releases an inverse) and `matrix` is the release unchanged.
  bool unbiased = false;
};

// By mechanism (proofs/gram_estimate.md):
// - analyze_gauss, laplace_sym: the release (its noise has mean 0);
// - wishart_additive: Y - dof * scale * I (Sheffet ALT 2019, Sec. 4: the noise is W_d(dof, scale I));
// - jl_ridge, jl_ridge_sigma_min: Y - w^2 I with w = appended_w (Sheffet ALT 2019, Alg. 1 / 2:
//   E[S^T S / r] = A_w^T A_w = G + w^2 I);
// - inverse_wishart, inverse_wishart_sigma_min: (m - d - 1) Y - w^2 I with m = dof (Alg. 4 / 5:
//   Y ~ W^{-1}_d(G + w^2 I, m) has mean (G + w^2 I) / (m - d - 1)); Status::Precondition unless
//   m > d + 1, where the mean does not exist;
// - every other mechanism: the release, not unbiased.
// Throws Status::InvalidArgument unless receipt.dim is Y's order and the receipt's constants
// are finite and in range; the result may be indefinite.
GramEstimate gram_estimate(const Matrix &release, const mechanisms::Receipt &receipt);

}  // namespace dpcov::estimators
