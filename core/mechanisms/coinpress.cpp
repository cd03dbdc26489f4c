#include "coinpress.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "../check.hpp"
#include "../data/row_bound.hpp"
#include "../linalg/blas.hpp"
#include "../postprocess/eigenvalue_clip.hpp"
#include "../privacy/coinpress.hpp"
#include "../privacy/zcdp.hpp"
#include "../random/symmetric_noise.hpp"
#include "statistic.hpp"

namespace dpcov::mechanisms {

namespace {

// V f(Lambda) V^T for the eigendecomposition of the symmetric s, exactly symmetric.
template <class F>
Matrix spectral_function(const Matrix &s, F f) {
  const linalg::SymmetricEigen e = linalg::eigh(s);
  const int64_t d = s.rows();
  Matrix scaled = e.vectors;
  for (int64_t j = 0; j < d; ++j) {
    const double factor = f(e.values[static_cast<size_t>(j)]);
    for (int64_t i = 0; i < d; ++i) scaled(i, j) *= factor;
  }
  Matrix out = linalg::multiply(scaled, e.vectors, linalg::Trans::No, linalg::Trans::Yes);
  linalg::symmetrize_from_upper(out);
  return out;
}

// Row i of W = X M (M = A^T, or A for the authors' code) where its sum of squares overflowed:
// x_i is finite but x_i M has entries of 1e154 or more, or entries that overflowed. Its norm is
// then far above gamma, so its clipped value is x_i 2^-e M (finite, with 2^e above max |x_ij|,
// the same direction) put on the sphere of radius gamma, the factor shaved as data::clip_factor
// does. The privacy proof needs only that each row's image lies in the ball of radius gamma and
// depends on that row alone, which holds whatever the row. Before, a product that overflowed made
// the release fail on a dataset with such a row and not on its neighbour without it (after noise
// had been drawn), and a norm that overflowed dropped the row instead of clipping it.
void clip_overflowed_row(ConstMatrixView rows, int64_t i, ConstMatrixView m, double gamma,
                         Matrix &w) {
  const int64_t d = rows.cols;
  double largest = 0.0;
  for (int64_t j = 0; j < d; ++j) largest = std::max(largest, std::fabs(rows(i, j)));
  int exponent = 0;
  std::frexp(largest, &exponent);  // largest < 2^exponent
  std::vector<double> u(static_cast<size_t>(d), 0.0);
  for (int64_t k = 0; k < d; ++k) {
    double sum = 0.0;
    for (int64_t j = 0; j < d; ++j) sum += std::ldexp(rows(i, j), -exponent) * m(j, k);
    u[static_cast<size_t>(k)] = sum;
  }
  const double norm = linalg::nrm2(d, u.data(), 1);
  const double factor = norm > 0.0 ? data::clip_factor(norm, gamma, data::clip_shave(d)) : 0.0;
  for (int64_t k = 0; k < d; ++k) w(i, k) = factor * u[static_cast<size_t>(k)];
}

// W = X A^T (the rows A x_i; X A for the authors' code), each row clipped to norm <= gamma.
// Clipping shaves the factor by a few ulps (data::row_factor), so that no clipped row has a
// computed norm above gamma.
Matrix whiten_and_clip(ConstMatrixView rows, const Matrix &a, double gamma, bool authors_code) {
  const int64_t n = rows.rows;
  const int64_t d = rows.cols;
  Matrix w(n, d);
  const ConstMatrixView a_transposed{a.data(), d, d, d, Layout::RowMajor};
  const ConstMatrixView m = authors_code ? a.view() : a_transposed;
  linalg::gemm_views(1.0, rows, m, 0.0, w.view());
  std::vector<double> sums(static_cast<size_t>(n));
  data::row_sums_of_squares(w.view(), 0, n, sums.data());
  for (int64_t i = 0; i < n; ++i) {
    if (!std::isfinite(sums[static_cast<size_t>(i)])) {
      clip_overflowed_row(rows, i, m, gamma, w);
      continue;
    }
    const double factor =
        data::row_factor(w.view(), i, sums[static_cast<size_t>(i)], gamma, BoundPolicy::Clip);
    if (factor != 1.0)
      for (int64_t j = 0; j < d; ++j) w(i, j) *= factor;
  }
  return w;
}

// Z_i = proj_PSD(Y_i) (the authors' code: eigenvalues replaced by their absolute values).
Matrix projected(const Matrix &noisy, bool authors_code) {
  if (authors_code) return spectral_function(noisy, [](double x) { return std::fabs(x); });
  return postprocess::project_psd(noisy);
}

// U = Z + eta I, the matrix whose inverse root the next step whitens with.
Matrix regularised(Matrix z, double eta) {
  for (int64_t i = 0; i < z.rows(); ++i) z(i, i) += eta;
  return z;
}

// A := U^{-1/2} A.
Matrix whitened_further(const Matrix &u, const Matrix &a) {
  return linalg::multiply(spectral_function(u, [](double x) { return 1.0 / std::sqrt(x); }), a);
}

}  // namespace

Matrix coinpress_centred_rows(ConstMatrixView rows, const std::vector<double> &centre) {
  Matrix out(rows.rows, rows.cols);
  for (int64_t i = 0; i < rows.rows; ++i) {
    bool halved = false;
    for (int64_t j = 0; j < rows.cols; ++j) {
      out(i, j) = rows(i, j) - centre[static_cast<size_t>(j)];
      halved = halved || !std::isfinite(out(i, j));
    }
    if (halved)
      for (int64_t j = 0; j < rows.cols; ++j)
        out(i, j) = 0.5 * rows(i, j) - 0.5 * centre[static_cast<size_t>(j)];
  }
  return out;
}

Matrix coinpress_whitened_rows(ConstMatrixView rows, const Matrix &a, double gamma,
                               bool authors_code) {
  return whiten_and_clip(rows, a, gamma, authors_code);
}

Matrix coinpress_step_moment(ConstMatrixView rows, const Matrix &a, double gamma,
                             bool authors_code) {
  RowPass pass;
  pass.kind = RowPassKind::CoinpressStep;
  pass.dim = rows.cols;
  pass.clip_radii = {gamma};
  pass.transform.assign(a.data(), a.data() + a.rows() * a.cols());
  pass.authors_code = authors_code;
  RowPartial partial = row_partial(pass);
  add_rows(partial, rows);
  return pass_moment(partial, rows.rows);
}

Matrix coinpress_next_transform(const Matrix &a, const Matrix &noisy_moment, double eta) {
  return whitened_further(regularised(projected(noisy_moment, false), eta), a);
}

CoinpressSteps coinpress_steps(const CoinpressReceipt &plan) {
  CoinpressSteps s;
  s.clip_radius.assign(plan.step_sigma.size(), plan.clip_radius);
  s.sigma = plan.step_sigma;
  s.eta = plan.eta;
  s.k_bound = plan.k_bound;
  return s;
}

CoinpressPasses::CoinpressPasses(const CoinpressSteps &steps, int64_t dim, int64_t n,
                                 random::Rng &rng, std::vector<Matrix> *transcript,
                                 std::vector<double> centre)
    : steps_(steps), n_(n), rng_(&rng), transcript_(transcript) {
  // A_0 = I / sqrt(K), and A := U^{-1/2} A gives A^{-1} := A^{-1} U^{1/2}.
  a_ = scaled_identity(dim, 1.0 / std::sqrt(steps.k_bound));
  a_inverse_ = scaled_identity(dim, std::sqrt(steps.k_bound));
  pass_.kind = RowPassKind::CoinpressStep;
  pass_.dim = dim;
  pass_.clip_radii = {steps.clip_radius.at(0)};
  pass_.transform.assign(a_.data(), a_.data() + dim * dim);
  pass_.centre = std::move(centre);
  pass_.authors_code = steps.authors_code;
  check_row_pass(pass_);
}

const RowPass &CoinpressPasses::pass() const {
  if (done_) fail(Status::InvalidArgument, "the release is complete: no pass is left");
  return pass_;
}

const Matrix &CoinpressPasses::estimate() const {
  if (!done_) fail(Status::InvalidArgument, "the release needs pass ", pass_.index, " first");
  return estimate_;
}

void CoinpressPasses::finish_pass(const RowPartial &merged) {
  check_pass_sums(pass(), n_, merged);
  const int64_t d = pass_.dim;
  const size_t s = static_cast<size_t>(pass_.index);
  const Matrix moment = pass_moment(merged, n_);
  Matrix noise(d, d);
  random::symmetric_gaussian_noise(*rng_, steps_.sigma[s], noise);
  const Matrix noisy = add_mirrored(moment.view(), noise);
  if (transcript_ != nullptr) transcript_->push_back(noisy);
  const Matrix z = projected(noisy, steps_.authors_code);
  if (s + 1 == steps_.sigma.size()) {
    estimate_ = linalg::multiply(linalg::multiply(a_inverse_, z), a_inverse_, linalg::Trans::No,
                                 steps_.authors_code ? linalg::Trans::No : linalg::Trans::Yes);
    linalg::symmetrize_from_upper(estimate_);
    done_ = true;
    return;
  }
  const Matrix u = regularised(z, steps_.eta);
  a_ = whitened_further(u, a_);
  a_inverse_ =
      linalg::multiply(a_inverse_, spectral_function(u, [](double x) { return std::sqrt(x); }));
  // Noise beyond the doubles (rho near the smallest double) leaves no transform to whiten the
  // next pass with: the release fails here, after its draw, as it fails at the end otherwise.
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i < d; ++i)
      if (!std::isfinite(a_(i, j)))
        fail(Status::Numerical, "step ", pass_.index + 1, "'s noisy moment gives no finite ",
             "whitening transform (its noise sigma is ", steps_.sigma[s], ")");
  pass_.index += 1;
  pass_.clip_radii = {steps_.clip_radius[s + 1]};
  pass_.transform.assign(a_.data(), a_.data() + d * d);
}

Matrix coinpress_run(ConstMatrixView rows, const CoinpressSteps &steps, random::Rng &rng,
                     std::vector<Matrix> *transcript) {
  CoinpressPasses passes(steps, rows.cols, rows.rows, rng, transcript);
  while (!passes.done()) {
    RowPartial partial = row_partial(passes.pass());
    add_rows(partial, rows);
    passes.finish_pass(partial);
  }
  return passes.estimate();
}

CoinpressReceipt coinpress_plan(const CoinpressRequest &request) {
  check::dimension(request.dim, "d");
  if (request.n < 1) fail(Status::InvalidArgument, "n must be >= 1, got ", request.n);
  check::positive_finite(request.rho, "rho");
  check::finite(request.k_bound, "K");
  if (!(request.k_bound >= 1.0))
    fail(Status::InvalidArgument, "K (the prior Sigma <= K I, with I <= Sigma) must be >= 1, got ",
         request.k_bound);
  check::delta(request.delta);
  CoinpressReceipt r;
  r.dim = request.dim;
  r.n = request.n;
  r.steps = request.steps;
  r.rho = request.rho;
  r.k_bound = request.k_bound;
  r.beta = request.beta;
  r.delta = request.delta;
  r.step_rho = privacy::coinpress_budget_split(request.rho, request.steps);
  r.clip_radius = privacy::coinpress_clip_radius(request.dim, request.beta);
  r.eta = privacy::coinpress_eta(request.dim, request.n);
  for (double share : r.step_rho)
    r.step_sigma.push_back(privacy::coinpress_step_sigma(r.clip_radius, request.n, share));
  r.epsilon = privacy::zcdp_receipt_epsilon(request.rho, request.delta);
  return r;
}

CoinpressRelease coinpress_release(ConstMatrixView rows, const CoinpressRequest &request,
                                   random::Rng &rng) {
  CoinpressReceipt receipt = coinpress_plan(request);
  if (rows.rows != request.n || rows.cols != request.dim)
    fail(Status::Dimension, "rows must be n x d = ", request.n, " x ", request.dim, ", got ",
         rows.rows, " x ", rows.cols);
  check::all_finite(rows, "rows");
  CoinpressSteps steps = coinpress_steps(receipt);
  steps.authors_code = request.authors_code;
  Matrix estimate = coinpress_run(rows, steps, rng, nullptr);
  receipt.seed_fixed = rng.seed_fixed();
  return {std::move(estimate), std::move(receipt)};
}

}  // namespace dpcov::mechanisms
