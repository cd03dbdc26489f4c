// The law of the noise a mechanism adds to the whole statistic, read from its receipt, and what
// follows from it at no privacy cost: fresh draws of that noise and the quantiles of its norm.
#pragma once

#include <cstdint>

#include "../matrix.hpp"
#include "../mechanisms/receipt.hpp"
#include "../random/rng.hpp"

namespace dpcov::estimators {

// The law of the noise E a mechanism added to the whole d x d statistic; its restriction to any
// set of columns has the same form (iid entries, or W(k, scale I) of that order).
struct ReleaseNoise {
  enum class Kind {
    SymmetricGaussian,  // iid N(0, scale^2) upper triangle (Analyze Gauss: scale = sigma)
    SymmetricLaplace,   // iid Laplace(scale) upper triangle (laplace_sym: scale = b)
    Wishart,            // W_d(dof, scale I), mean dof * scale * I (wishart_additive)
  };
  Kind kind = Kind::SymmetricGaussian;
  double scale = 0.0;
  double dof = 0.0;
};

// The noise law of a release from its receipt: analyze_gauss (sigma), laplace_sym (scale),
// wishart_additive (dof, scale). Throws DPCOV_E_INVALID_ARGUMENT naming the mechanism for every
// other one (its noise is not additive with a known law, or it is not private).
ReleaseNoise release_noise(const mechanisms::Receipt &receipt);

// Checks the law: scale finite > 0; for Wishart dof finite > k - 1 for order k (k = p + 1).
void validate(const ReleaseNoise &noise, int64_t order);

// One draw of the noise restricted to k columns, minus its mean.
Matrix centred_noise(const ReleaseNoise &noise, int64_t k, random::Rng &rng);

// The noise's mean on the diagonal (0 off the diagonal for every supported law).
double noise_diagonal_mean(const ReleaseNoise &noise);

}  // namespace dpcov::estimators
