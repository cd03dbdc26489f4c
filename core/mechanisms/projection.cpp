#include "projection.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "../check.hpp"
#include "../linalg/blas.hpp"
#include "../privacy/sigma_min_test.hpp"
#include "../privacy/upward.hpp"
#include "../random/samplers.hpp"

namespace dpcov::mechanisms {

Matrix add_ridge(ConstMatrixView gram, double w2) {
  Matrix m(gram.rows, gram.cols);
  for (int64_t j = 0; j < gram.cols; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      m(i, j) = gram(i, j) + (i == j ? w2 : 0.0);
      m(j, i) = m(i, j);
    }
  return m;
}

Matrix gaussian_sketch(random::Rng &rng, int64_t r, const Matrix &m) {
  const int64_t d = m.rows();
  const linalg::SymmetricEigen eig = linalg::eigh(m);
  Matrix f = eig.vectors;
  for (int64_t j = 0; j < d; ++j) {
    const double root = std::sqrt(std::max(0.0, eig.values[static_cast<size_t>(j)]));
    for (int64_t i = 0; i < d; ++i) f(i, j) *= root;
  }
  Matrix z(r, d);
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i < r; ++i) z(i, j) = random::standard_normal(rng);
  return linalg::multiply(z, f, linalg::Trans::No, linalg::Trans::Yes);
}

Matrix sketch_second_moment(const Matrix &s) {
  const int64_t d = s.cols();
  Matrix m(d, d);
  linalg::syrk_upper(s.view(), 0.0, m.data(), d);
  const double inv_r = 1.0 / static_cast<double>(s.rows());
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      m(i, j) *= inv_r;
      m(j, i) = m(i, j);
    }
  return m;
}

double sketch_log_density(const Matrix &s, const Matrix &m) {
  const int64_t r = s.rows();
  const int64_t d = s.cols();
  Matrix l;
  if (!linalg::cholesky(m, l))
    fail(Status::NotPositiveDefinite, "the sketch covariance A_w^T A_w is not positive definite");
  // tr(M^{-1} S^T S) = ||L^{-1} S^T||_F^2.
  Matrix st(d, r);
  for (int64_t i = 0; i < r; ++i)
    for (int64_t j = 0; j < d; ++j) st(j, i) = s(i, j);
  linalg::trsm_lower(linalg::Side::Left, linalg::Trans::No, 1.0, l, st);
  double quad = 0.0;
  for (int64_t i = 0; i < d * r; ++i) quad += st.data()[i] * st.data()[i];
  const double rd = static_cast<double>(r) * static_cast<double>(d);
  return -0.5 * rd * std::log(2.0 * std::numbers::pi) -
         0.5 * static_cast<double>(r) * linalg::log_det_from_cholesky(l) - 0.5 * quad;
}

double second_moment_log_density(ConstMatrixView released, int64_t r, const Matrix &m) {
  const int64_t d = m.rows();
  if (r < d)
    fail(Status::Precondition, "S^T S / r has a density on symmetric matrices only for r >= d ",
         "(here r = ", r, " < d = ", d, "); use the density of the sketch S itself");
  Matrix w(d, d);
  const double rr = static_cast<double>(r);
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i < d; ++i) w(i, j) = rr * released(i, j);
  const double jacobian = 0.5 * static_cast<double>(d) * static_cast<double>(d + 1) * std::log(rr);
  return random::wishart_log_density(w, rr, m) + jacobian;
}

void plan_sigma_min_test(Receipt &receipt) {
  const privacy::BudgetSplit split = privacy::split_budget_in_halves(receipt.epsilon, receipt.delta);
  receipt.test_epsilon = split.test_epsilon;
  receipt.test_delta = split.test_delta;
  receipt.test_scale = privacy::sigma_min_test_scale(receipt.bound, receipt.epsilon);
  receipt.test_shift = privacy::sigma_min_test_shift(receipt.bound, receipt.epsilon, receipt.delta);
}

namespace {

double lambda_min(ConstMatrixView gram) { return linalg::eigvalsh(Matrix::from(gram)).front(); }

}  // namespace

double private_sigma_min_squared(ConstMatrixView gram, const Receipt &receipt, random::Rng &rng) {
  return lambda_min(gram) + random::laplace(rng, receipt.test_scale) - receipt.test_shift;
}

double sigma_min_test_log_density(double s2, ConstMatrixView gram, const Receipt &receipt) {
  check::finite(s2, "test value s2");
  const double b = receipt.test_scale;
  return -random::laplace_log_normaliser(b) -
         std::fabs(s2 - (lambda_min(gram) - receipt.test_shift)) / b;
}

double sigma_min_test_log_probability_at_most(double threshold, ConstMatrixView gram,
                                              const Receipt &receipt) {
  check::finite(threshold, "threshold");
  const double x = (threshold + receipt.test_shift - lambda_min(gram)) / receipt.test_scale;
  return x <= 0.0 ? x - std::log(2.0) : std::log1p(-0.5 * std::exp(-x));
}

double appended_w_after_test(double s2, double threshold_w2) {
  using namespace privacy::upward;
  const double w2 = std::max(0.0, add_up(threshold_w2, -std::max(s2, 0.0)));
  return sqrt_up(w2);
}

int64_t checked_projection_rows(const Request &request) {
  const int64_t r = request.options.projection_rows;
  if (r < 1) fail(Status::Dimension, "the number of projection rows r must be >= 1, got ", r);
  if (r > check::kBlasIntMax / request.dim)
    fail(Status::TooLarge, "the sketch r x d = ", r, " x ", request.dim,
         " must fit a 32-bit BLAS integer");
  return r;
}

SketchMaker sketch_from_gram(ConstMatrixView gram, int64_t r) {
  const Matrix g = Matrix::from(gram);
  return [g, r](double w, random::Rng &rng) {
    return gaussian_sketch(rng, r, add_ridge(g.view(), privacy::upward::mul_up(w, w)));
  };
}

}  // namespace dpcov::mechanisms
