// The law of the noise a mechanism adds to the whole statistic, read from its receipt, and what
// follows from it at no privacy cost: fresh draws of that noise and the quantiles of its norm.
#pragma once

#include <cstdint>
#include <utility>

#include "../matrix.hpp"
#include "../mechanisms/adassp.hpp"
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
    // AdaSSP's noise on [X, y]' [X, y] with y the LAST column: on X'X diagonal N(0, scale^2),
    // off-diagonal N(0, off_diagonal^2); on X'y N(0, cross^2); on y'y N(0, label^2).
    Adassp,
  };
  Kind kind = Kind::SymmetricGaussian;
  double scale = 0.0;
  double dof = 0.0;
  double off_diagonal = 0.0, cross = 0.0, label = 0.0;  // Adassp only
  // Exact numerics (proofs/exact_additive.md) rounded each row to multiples of `grid_unit` before
  // the noise: not noise, but an error of at most grid_unit / 2 per coordinate that the PCA bounds
  // add to the noise's norm (proofs/grid_rounding.md). 0: the rows were not rounded.
  double grid_unit = 0.0;
  // The number of rows where it is public (replace-one; for privacy units, the units times the
  // most rows each kept, a bound), else -1: the rounding's error on the second moment grows with
  // it.
  int64_t public_rows = -1;
};

// The noise law of a release from its receipt: analyze_gauss (sigma), laplace_sym (scale),
// wishart_additive (dof, scale); with exact numerics, the grid and the public n too. Throws Status::InvalidArgument naming the mechanism for every
// other one (its noise is not additive with a known law, or it is not private).
ReleaseNoise release_noise(const mechanisms::Receipt &receipt);

// The noise law of an AdaSSP release that includes y'y (receipt.label_square); throws
// Status::InvalidArgument otherwise.
ReleaseNoise release_noise(const mechanisms::AdasspReceipt &receipt);

// AdaSSP's noise on X'X and X'y, with or without y'y: where y'y was not released the label's
// scale is 1, valid for draws of the whole statistic that never read the label's entry.
ReleaseNoise adassp_fit_noise(const mechanisms::AdasspReceipt &receipt);

// Checks the law: scale finite > 0; for Wishart dof finite > k - 1 for order k (k = p + 1).
void validate(const ReleaseNoise &noise, int64_t order);

// One draw of the noise restricted to k columns, minus its mean.
Matrix centred_noise(const ReleaseNoise &noise, int64_t k, random::Rng &rng);

// The noise's mean on the diagonal (0 off the diagonal for every supported law).
double noise_diagonal_mean(const ReleaseNoise &noise);

// The variances of an entry of the noise on X'X: (off the diagonal, on it). Every supported law
// has independent entries up to symmetry.
std::pair<double, double> entry_variances(const ReleaseNoise &noise);

// The variance of an entry of the noise on X'y (the last column), independent of those on X'X.
double cross_variance(const ReleaseNoise &noise);

}  // namespace dpcov::estimators
