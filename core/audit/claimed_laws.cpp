#include "claimed_laws.hpp"

#include "../linalg/blas.hpp"
#include "../mechanisms/projection.hpp"
#include "../privacy/upward.hpp"
#include "distributions.hpp"

namespace dpcov::audit {

namespace {

double lambda_min(ConstMatrixView gram) {
  return linalg::eigvalsh(Matrix::from(gram)).front();
}

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
  if (!linalg::cholesky(released, factor))
    return;  // outside the support: the density audit sees it
  Matrix precision = linalg::spd_inverse(released);
  Matrix scale = linalg::spd_inverse(psi);
  linalg::symmetrize_from_upper(precision);
  linalg::symmetrize_from_upper(scale);
  wishart_bartlett_transforms(precision, m, scale, uniforms);
}

// The ridge after the private test: w lowered by the released s2.
Matrix ridged_after_test(ConstMatrixView gram, const mechanisms::Receipt &receipt, double s2) {
  return ridged(gram, mechanisms::appended_w_after_test(s2, receipt.threshold_w2));
}

}  // namespace

void jl_ridge_law(const mechanisms::Receipt &receipt, const Output &out, ConstMatrixView gram,
                  std::vector<double> &uniforms) {
  second_moment_transforms(out.matrix, receipt.projection_rows, ridged(gram, receipt.appended_w),
                           uniforms);
}

void jl_ridge_sigma_min_law(const mechanisms::Receipt &receipt, const Output &out,
                            ConstMatrixView gram, std::vector<double> &uniforms) {
  uniforms.push_back(test_value_cdf(out.test_value, gram, receipt));
  second_moment_transforms(out.matrix, receipt.projection_rows,
                           ridged_after_test(gram, receipt, out.test_value), uniforms);
}

void inverse_wishart_law(const mechanisms::Receipt &receipt, const Output &out,
                         ConstMatrixView gram, std::vector<double> &uniforms) {
  inverse_wishart_transforms(out.matrix, receipt.dof, ridged(gram, receipt.appended_w), uniforms);
}

void inverse_wishart_sigma_min_law(const mechanisms::Receipt &receipt, const Output &out,
                                   ConstMatrixView gram, std::vector<double> &uniforms) {
  uniforms.push_back(test_value_cdf(out.test_value, gram, receipt));
  inverse_wishart_transforms(out.matrix, receipt.dof,
                             ridged_after_test(gram, receipt, out.test_value), uniforms);
}

void ols_jl_law(const mechanisms::Receipt &receipt, const Output &out, ConstMatrixView gram,
                std::vector<double> &uniforms) {
  // (F(s2) - F(w^2)) / (1 - F(w^2)).
  const double at_threshold = test_value_cdf(receipt.threshold_w2, gram, receipt);
  uniforms.push_back((test_value_cdf(out.test_value, gram, receipt) - at_threshold) /
                     (1.0 - at_threshold));
  second_moment_transforms(out.matrix, receipt.projection_rows, Matrix::from(gram), uniforms);
}

}  // namespace dpcov::audit
