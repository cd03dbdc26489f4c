#include "target.hpp"

#include "../linalg/blas.hpp"

namespace dpcov::audit {

const char *noise_family_name(NoiseFamily family) {
  switch (family) {
    case NoiseFamily::Unknown: return "none";
    case NoiseFamily::Gaussian: return "gaussian";
    case NoiseFamily::Laplace: return "laplace";
    case NoiseFamily::Wishart: return "wishart";
  }
  return "none";
}

NoiseModel claimed_noise(mechanisms::MechanismId mechanism, const mechanisms::Receipt &receipt) {
  using mechanisms::MechanismId;
  switch (mechanism) {
    case MechanismId::AnalyzeGauss:
      return {NoiseFamily::Gaussian, NoiseBase::Gram, receipt.sigma, 0.0};
    case MechanismId::InverseGauss:
      return {NoiseFamily::Gaussian, NoiseBase::InverseGram, receipt.sigma, 0.0};
    case MechanismId::LaplaceSym:
      return {NoiseFamily::Laplace, NoiseBase::Gram, receipt.scale, 0.0};
    case MechanismId::WishartAdditive:
    case MechanismId::WishartJiang:
      return {NoiseFamily::Wishart, NoiseBase::Gram, receipt.scale, receipt.dof};
    default: return {};
  }
}

Matrix noise_base(const NoiseModel &noise, ConstMatrixView gram) {
  Matrix g = Matrix::from(gram);
  if (noise.base == NoiseBase::Gram) return g;
  Matrix inverse = linalg::spd_inverse(g);
  linalg::symmetrize_from_upper(inverse);
  return inverse;
}

Target mechanism_target(mechanisms::MechanismId mechanism, const mechanisms::Request &request) {
  const mechanisms::Receipt receipt = mechanisms::plan(mechanism, request);
  Target target;
  target.name = mechanisms::mechanism_name(mechanism);
  target.epsilon = receipt.epsilon;
  target.delta = receipt.delta;
  target.noise = claimed_noise(mechanism, receipt);
  target.release = [mechanism, request](ConstMatrixView gram, int64_t n, random::Rng &rng) {
    mechanisms::Request r = request;
    r.n = n;
    mechanisms::Release release = mechanisms::release(mechanism, gram, r, rng);
    return Output{std::move(release.matrix), release.receipt.test_value};
  };
  const bool tested = receipt.test_epsilon > 0.0;
  target.log_density = [mechanism, request, tested](const Output &released, ConstMatrixView gram,
                                                    int64_t n) {
    mechanisms::Request r = request;
    r.n = n;
    return tested ? mechanisms::log_density_tested(mechanism, released.matrix.view(),
                                                   released.test_value, gram, r)
                  : mechanisms::log_density(mechanism, released.matrix.view(), gram, r);
  };
  return target;
}

}  // namespace dpcov::audit
