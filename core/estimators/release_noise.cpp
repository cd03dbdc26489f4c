#include "release_noise.hpp"

#include <algorithm>
#include <cstdint>

#include "../check.hpp"
#include "../error.hpp"
#include "../mechanisms/exact_additive.hpp"
#include "../mechanisms/public_receipt.hpp"
#include "../mechanisms/registry.hpp"
#include "../mechanisms/request.hpp"
#include "../random/normal.hpp"
#include "../random/symmetric_noise.hpp"
#include "../random/wishart.hpp"

namespace dpcov::estimators {

Matrix centred_noise(const ReleaseNoise &noise, int64_t k, random::Rng &rng) {
  Matrix e(k, k);
  switch (noise.kind) {
    case ReleaseNoise::Kind::SymmetricGaussian:
      random::symmetric_gaussian_noise(rng, noise.scale, e);
      break;
    case ReleaseNoise::Kind::SymmetricLaplace:
      random::symmetric_laplace_noise(rng, noise.scale, e);
      break;
    case ReleaseNoise::Kind::Wishart: {
      Matrix scale = Matrix::identity(k);
      for (int64_t i = 0; i < k; ++i) scale(i, i) = noise.scale;
      e = random::wishart(rng, noise.dof, scale);
      for (int64_t i = 0; i < k; ++i) e(i, i) -= noise.dof * noise.scale;
      break;
    }
    case ReleaseNoise::Kind::Adassp:
      // The order of fit_adassp: X'X's upper triangle column by column, X'y, y'y.
      for (int64_t j = 0; j + 1 < k; ++j)
        for (int64_t i = 0; i <= j; ++i)
          e(i, j) = e(j, i) =
              (i == j ? noise.scale : noise.off_diagonal) * random::standard_normal(rng);
      for (int64_t i = 0; i + 1 < k; ++i)
        e(i, k - 1) = e(k - 1, i) = noise.cross * random::standard_normal(rng);
      e(k - 1, k - 1) = noise.label * random::standard_normal(rng);
      break;
  }
  return e;
}

double noise_diagonal_mean(const ReleaseNoise &noise) {
  return noise.kind == ReleaseNoise::Kind::Wishart ? noise.dof * noise.scale : 0.0;
}

std::pair<double, double> entry_variances(const ReleaseNoise &noise) {
  const double s2 = noise.scale * noise.scale;
  switch (noise.kind) {
    case ReleaseNoise::Kind::SymmetricGaussian:
      return {s2, s2};
    case ReleaseNoise::Kind::SymmetricLaplace:
      return {2.0 * s2, 2.0 * s2};  // Laplace(b) has variance 2 b^2
    case ReleaseNoise::Kind::Wishart:
      // W(k, s I): Cov(W_ij, W_lm) = k s^2 (d_il d_jm + d_im d_jl).
      return {noise.dof * s2, 2.0 * noise.dof * s2};
    case ReleaseNoise::Kind::Adassp:
      return {noise.off_diagonal * noise.off_diagonal, s2};
  }
  fail(Status::Internal, "unknown release noise law");
}

double cross_variance(const ReleaseNoise &noise) {
  return noise.kind == ReleaseNoise::Kind::Adassp ? noise.cross * noise.cross
                                                  : entry_variances(noise).first;
}

namespace {

// Noise-aware post-processing needs noise added to G itself with a known law, by a mechanism
// that is private (an audit target's release is not to be analysed as if it were): the
// registry's kInferenceRobustGram bit, the list the command line and Python offer intervals for.
bool has_release_noise(const mechanisms::RegistryEntry &entry) {
  return (entry.inference & mechanisms::kInferenceRobustGram) != 0;
}

}  // namespace

ReleaseNoise release_noise(const mechanisms::Receipt &receipt) {
  using mechanisms::NoiseKind;
  const mechanisms::RegistryEntry &entry =
      mechanisms::entry_of(static_cast<int32_t>(receipt.mechanism));
  if (!has_release_noise(entry))
    fail(Status::InvalidArgument, "no noise-aware intervals for ", entry.name,
         " releases: their noise is not additive with a known law (supported: ",
         mechanisms::names_where(has_release_noise, ", "), ")");
  ReleaseNoise noise;
  switch (entry.noise.kind) {
    case NoiseKind::SymmetricGaussian:
      noise = {ReleaseNoise::Kind::SymmetricGaussian, receipt.sigma, 0.0};
      break;
    case NoiseKind::SymmetricLaplace:
      noise = {ReleaseNoise::Kind::SymmetricLaplace, receipt.scale, 0.0};
      break;
    case NoiseKind::Wishart:
      noise = {ReleaseNoise::Kind::Wishart, receipt.scale, receipt.dof};
      break;
    case NoiseKind::None:
      fail(Status::Internal, "no release noise for ", entry.name);
  }
  if (receipt.numerics == mechanisms::Numerics::Exact) {
    noise.grid_unit = mechanisms::exact_grid_unit(receipt);
    // A unit release counts units; up to max_rows_per_unit rows of each were rounded.
    const int64_t rows_per_unit = std::max<int64_t>(receipt.max_rows_per_unit, 1);
    noise.public_rows =
        mechanisms::n_is_public(receipt.neighbour) && receipt.n <= INT64_MAX / rows_per_unit
            ? receipt.n * rows_per_unit
            : -1;
  }
  return noise;
}

ReleaseNoise release_noise(const mechanisms::AdasspReceipt &receipt) {
  if (!receipt.label_square)
    fail(Status::InvalidArgument, "noise-aware intervals need the AdaSSP fit to release y'y too "
         "(the residual variance): fit with release_label_square");
  return adassp_fit_noise(receipt);
}

ReleaseNoise adassp_fit_noise(const mechanisms::AdasspReceipt &receipt) {
  ReleaseNoise noise{ReleaseNoise::Kind::Adassp, receipt.sigma_gram, 0.0};
  noise.off_diagonal = receipt.sigma_gram_off_diagonal;
  noise.cross = receipt.sigma_cross;
  noise.label = receipt.label_square ? receipt.sigma_label_square : 1.0;
  return noise;
}

void validate(const ReleaseNoise &noise, int64_t order) {
  check::positive_finite(noise.scale, "noise scale");
  if (noise.kind == ReleaseNoise::Kind::Adassp) {
    check::positive_finite(noise.off_diagonal, "off-diagonal noise scale");
    check::positive_finite(noise.cross, "X'y noise scale");
    check::positive_finite(noise.label, "y'y noise scale");
  }
  if (noise.kind == ReleaseNoise::Kind::Wishart) {
    check::finite(noise.dof, "Wishart degrees of freedom");
    if (!(noise.dof > static_cast<double>(order - 1)))
      fail(Status::InvalidArgument, "Wishart degrees of freedom must exceed ", order - 1,
           ", got ", noise.dof);
  }
}

}  // namespace dpcov::estimators
