#include "target.hpp"

#include <cmath>

#include "../error.hpp"
#include "../linalg/blas.hpp"
#include "../math/chi_square.hpp"
#include "../mechanisms/registry.hpp"
#include "audit_table.hpp"
#include "distributions.hpp"

namespace dpcov::audit {

namespace {

using mechanisms::MechanismId;

// The transforms of a mechanism whose claimed law is its own (NoiseFamily::ClaimedLaw).
void claimed_law_transforms(MechanismId mechanism, const mechanisms::Receipt &receipt,
                            const Output &out, ConstMatrixView gram,
                            std::vector<double> &uniforms) {
  if (out.refused) return;
  const MechanismAudit *audit = find_audit(static_cast<int32_t>(mechanism));
  if (audit == nullptr || audit->claimed_law == nullptr)
    fail(Status::Internal, "no claimed-law transforms for ", mechanisms::mechanism_name(mechanism));
  audit->claimed_law(receipt, out, gram, uniforms);
}

// ln P(refusal | G) of a mechanism that can refuse.
double log_refusal_probability(MechanismId mechanism, ConstMatrixView gram,
                               const mechanisms::Request &request) {
  const MechanismAudit *audit = find_audit(static_cast<int32_t>(mechanism));
  if (audit == nullptr || audit->log_refusal == nullptr)
    fail(Status::Internal, mechanisms::mechanism_name(mechanism),
         " refused a release but has no refusal probability");
  return audit->log_refusal(gram, request);
}

}  // namespace

const char *noise_family_name(NoiseFamily family) {
  switch (family) {
    case NoiseFamily::Unknown: return "none";
    case NoiseFamily::Gaussian: return "gaussian";
    case NoiseFamily::Laplace: return "laplace";
    case NoiseFamily::Wishart: return "wishart";
    case NoiseFamily::ClaimedLaw: return "claimed_law";
  }
  return "none";
}

NoiseModel claimed_noise(mechanisms::MechanismId mechanism, const mechanisms::Receipt &receipt) {
  const mechanisms::NoiseLaw law = mechanisms::entry_of(static_cast<int32_t>(mechanism)).noise;
  switch (law.kind) {
    case mechanisms::NoiseKind::SymmetricGaussian:
      return {NoiseFamily::Gaussian, law.base, receipt.sigma, 0.0};
    case mechanisms::NoiseKind::SymmetricLaplace:
      return {NoiseFamily::Laplace, law.base, receipt.scale, 0.0};
    case mechanisms::NoiseKind::Wishart:
      return {NoiseFamily::Wishart, law.base, receipt.scale, receipt.dof};
    case mechanisms::NoiseKind::None:
      break;
  }
  const MechanismAudit *audit = find_audit(static_cast<int32_t>(mechanism));
  if (audit != nullptr && audit->claimed_law != nullptr)
    return {NoiseFamily::ClaimedLaw, NoiseBase::Gram, 0.0, 0.0};
  return {};
}

void wishart_bartlett_transforms(const Matrix &w, double dof, const Matrix &scale,
                                 std::vector<double> &uniforms) {
  const int64_t d = w.rows();
  Matrix l;
  if (!linalg::cholesky(scale, l))
    fail(Status::NotPositiveDefinite,
         "the Wishart scale of a conformance test is not positive definite");
  // W_std = L^{-1} w L^{-T}, exactly symmetric (the Cholesky factorisation reads one triangle).
  Matrix standard = w;
  linalg::trsm_lower(linalg::Side::Left, linalg::Trans::No, 1.0, l, standard);
  linalg::trsm_lower(linalg::Side::Right, linalg::Trans::Yes, 1.0, l, standard);
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i < j; ++i) standard(i, j) = standard(j, i);
  Matrix t;
  if (!linalg::cholesky(standard, t)) return;
  for (int64_t j = 0; j < d; ++j) {
    uniforms.push_back(math::chi_square_cdf(t(j, j) * t(j, j), dof - static_cast<double>(j)));
    for (int64_t i = j + 1; i < d; ++i) uniforms.push_back(normal_cdf(t(i, j)));
  }
}

Matrix noise_base(const NoiseModel &noise, ConstMatrixView gram) {
  Matrix g = Matrix::from(gram);
  if (noise.base == NoiseBase::Gram) return g;
  Matrix inverse = linalg::spd_inverse(g);
  linalg::symmetrize_from_upper(inverse);
  return inverse;
}

Target mechanism_target(mechanisms::MechanismId mechanism,
                        const mechanisms::Request &claimed) {
  const mechanisms::Receipt receipt = mechanisms::plan(mechanism, claimed);
  // Every draw and every density plans the request again (at its n). An analytic Gaussian
  // calibration searches for its sigma in multiple precision, most of an audit's time for the
  // Gaussian mechanisms: the unit sigma found here is handed on, as plan_at_bound() does, and the
  // plans equal this one bit for bit.
  mechanisms::Request request = claimed;
  request.analytic_unit_sigma = receipt.unit_sigma;
  Target target;
  target.name = mechanisms::mechanism_name(mechanism);
  target.epsilon = receipt.epsilon;
  target.delta = receipt.delta;
  target.noise = claimed_noise(mechanism, receipt);
  target.release = [mechanism, request](ConstMatrixView gram, int64_t n, random::Rng &rng) {
    mechanisms::Request r = request;
    r.n = n;
    try {
      mechanisms::Release release = mechanisms::release(mechanism, gram, r, rng);
      return Output{std::move(release.matrix), release.receipt.test_value, false};
    } catch (const Error &error) {
      if (error.status() != Status::Refused) throw;
      return Output{Matrix(), 0.0, true};
    }
  };
  const bool tested = receipt.test_epsilon > 0.0;
  target.log_density = [mechanism, request, tested](const Output &released, ConstMatrixView gram,
                                                    int64_t n) {
    mechanisms::Request r = request;
    r.n = n;
    if (released.refused) return log_refusal_probability(mechanism, gram, r);
    return tested ? mechanisms::log_density_tested(mechanism, released.matrix.view(),
                                                   released.test_value, gram, r)
                  : mechanisms::log_density(mechanism, released.matrix.view(), gram, r);
  };
  if (target.noise.family == NoiseFamily::ClaimedLaw)
    target.transforms = [mechanism, request](const Output &released, ConstMatrixView gram,
                                             int64_t n, std::vector<double> &uniforms) {
      mechanisms::Request r = request;
      r.n = n;
      claimed_law_transforms(mechanism, mechanisms::plan(mechanism, r), released, gram, uniforms);
    };
  return target;
}

}  // namespace dpcov::audit
