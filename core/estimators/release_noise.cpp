#include "release_noise.hpp"

#include "../check.hpp"
#include "../error.hpp"
#include "../mechanisms/request.hpp"
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
  }
  return e;
}

double noise_diagonal_mean(const ReleaseNoise &noise) {
  return noise.kind == ReleaseNoise::Kind::Wishart ? noise.dof * noise.scale : 0.0;
}

ReleaseNoise release_noise(const mechanisms::Receipt &receipt) {
  using mechanisms::MechanismId;
  switch (receipt.mechanism) {
    case MechanismId::AnalyzeGauss:
      return {ReleaseNoise::Kind::SymmetricGaussian, receipt.sigma, 0.0};
    case MechanismId::LaplaceSym:
      return {ReleaseNoise::Kind::SymmetricLaplace, receipt.scale, 0.0};
    case MechanismId::WishartAdditive:
      return {ReleaseNoise::Kind::Wishart, receipt.scale, receipt.dof};
    default:
      fail(DPCOV_E_INVALID_ARGUMENT, "no noise-aware intervals for a ",
           mechanisms::mechanism_name(receipt.mechanism), " release: its noise is not additive "
           "with a known law (supported: analyze_gauss, laplace_sym, wishart_additive)");
  }
}

void validate(const ReleaseNoise &noise, int64_t order) {
  check::positive_finite(noise.scale, "noise scale");
  if (noise.kind == ReleaseNoise::Kind::Wishart) {
    check::finite(noise.dof, "Wishart degrees of freedom");
    if (!(noise.dof > static_cast<double>(order - 1)))
      fail(DPCOV_E_INVALID_ARGUMENT, "Wishart degrees of freedom must exceed ", order - 1,
           ", got ", noise.dof);
  }
}

}  // namespace dpcov::estimators
