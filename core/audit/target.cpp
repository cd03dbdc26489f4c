#include "target.hpp"

#include <cmath>

#include "../error.hpp"
#include "../linalg/blas.hpp"
#include "../math/chi_square.hpp"
#include "../mechanisms/ols_ptr.hpp"
#include "../mechanisms/projection.hpp"
#include "../privacy/upward.hpp"
#include "distributions.hpp"

namespace dpcov::audit {

namespace {

using mechanisms::MechanismId;

double lambda_min(ConstMatrixView gram) { return linalg::eigvalsh(Matrix::from(gram)).front(); }

// F(s2) for the test value's Laplace law given G (projection.hpp: centre lambda_min(G) - shift).
double test_value_cdf(double s2, ConstMatrixView gram, const mechanisms::Receipt &receipt) {
  return laplace_cdf((s2 - (lambda_min(gram) - receipt.test_shift)) / receipt.test_scale);
}

// G + w^2 I with w^2 rounded up, exactly as the mechanisms build it.
Matrix ridged(ConstMatrixView gram, double w) {
  return mechanisms::add_ridge(gram, privacy::upward::mul_up(w, w));
}

// The Wishart part of a JL-type release: S^T S = r * released ~ W_d(r, m).
void second_moment_transforms(const Matrix &released, int64_t r, const Matrix &m,
                              std::vector<double> &uniforms) {
  Matrix w = released;
  for (int64_t j = 0; j < w.cols(); ++j)
    for (int64_t i = 0; i < w.rows(); ++i) w(i, j) *= static_cast<double>(r);
  wishart_bartlett_transforms(w, static_cast<double>(r), m, uniforms);
}

// The inverse-Wishart part: released ~ W^{-1}(psi, m), i.e. released^{-1} ~ W_d(m, psi^{-1}).
void inverse_wishart_transforms(const Matrix &released, double m, const Matrix &psi,
                                std::vector<double> &uniforms) {
  Matrix factor;
  if (!linalg::cholesky(released, factor)) return;  // outside the support: the density audit sees it
  Matrix precision = linalg::spd_inverse(released);
  Matrix scale = linalg::spd_inverse(psi);
  linalg::symmetrize_from_upper(precision);
  linalg::symmetrize_from_upper(scale);
  wishart_bartlett_transforms(precision, m, scale, uniforms);
}

// The transforms of the mechanisms whose law has no NoiseModel entry: each draw's Wishart or
// inverse-Wishart part by its Bartlett factors given the released test value, and the test value
// by its Laplace law (conditioned on passing for ols_jl, whose refusals release nothing). Given
// s2 the matrix part is independent of it, so all the values of a draw are independent.
void claimed_law_transforms(MechanismId mechanism, const mechanisms::Receipt &receipt,
                            const Output &out, ConstMatrixView gram,
                            std::vector<double> &uniforms) {
  if (out.refused) return;
  const double s2 = out.test_value;
  switch (mechanism) {
    case MechanismId::JlRidge:
      second_moment_transforms(out.matrix, receipt.projection_rows, ridged(gram, receipt.appended_w),
                               uniforms);
      return;
    case MechanismId::JlRidgeSigmaMin:
      uniforms.push_back(test_value_cdf(s2, gram, receipt));
      second_moment_transforms(
          out.matrix, receipt.projection_rows,
          ridged(gram, mechanisms::appended_w_after_test(s2, receipt.threshold_w2)), uniforms);
      return;
    case MechanismId::InverseWishart:
      inverse_wishart_transforms(out.matrix, receipt.dof, ridged(gram, receipt.appended_w),
                                 uniforms);
      return;
    case MechanismId::InverseWishartSigmaMin:
      uniforms.push_back(test_value_cdf(s2, gram, receipt));
      inverse_wishart_transforms(
          out.matrix, receipt.dof,
          ridged(gram, mechanisms::appended_w_after_test(s2, receipt.threshold_w2)), uniforms);
      return;
    case MechanismId::OlsJl: {
      // s2 given a release (s2 > w^2): (F(s2) - F(w^2)) / (1 - F(w^2)).
      const double at_threshold = test_value_cdf(receipt.threshold_w2, gram, receipt);
      uniforms.push_back((test_value_cdf(s2, gram, receipt) - at_threshold) / (1.0 - at_threshold));
      second_moment_transforms(out.matrix, receipt.projection_rows, Matrix::from(gram), uniforms);
      return;
    }
    default:
      fail(Status::Internal, "no claimed-law transforms for ",
           mechanisms::mechanism_name(mechanism));
  }
}

// ln P(refusal | G) of a mechanism that can refuse.
double log_refusal_probability(MechanismId mechanism, ConstMatrixView gram,
                               const mechanisms::Request &request) {
  if (mechanism == MechanismId::OlsJl) return mechanisms::log_refusal_probability_ols_jl(gram, request);
  fail(Status::Internal, mechanisms::mechanism_name(mechanism),
       " refused a release but has no refusal probability");
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
    case MechanismId::JlRidge:
    case MechanismId::JlRidgeSigmaMin:
    case MechanismId::InverseWishart:
    case MechanismId::InverseWishartSigmaMin:
    case MechanismId::OlsJl: return {NoiseFamily::ClaimedLaw, NoiseBase::Gram, 0.0, 0.0};
    default: return {};
  }
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
