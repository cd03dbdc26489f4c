#include "bingham.hpp"

#include <algorithm>
#include <cmath>

#include "../error.hpp"
#include "../linalg/blas.hpp"
#include "normal.hpp"
#include "spd.hpp"
#include "uniform.hpp"

namespace dpcov::random {

namespace {

// Slack allowed above ln(ratio) = 0 before the envelope is declared broken (constants.md 9.3).
constexpr double kEnvelopeSlack = 1e-12;

// Newton steps on the envelope equation before giving up; from b = 1 they reach the root in
// about log2(q) + 6 (the step at most doubles b while the root is far, then converges
// quadratically), so this cap is never met by finite input.
constexpr int kMaxNewtonSteps = 200;

double envelope_equation(const std::vector<double> &lambda, double b) {
  double sum = 0.0;
  for (double l : lambda) sum += 1.0 / (b + 2.0 * l);
  return sum - 1.0;
}

}  // namespace

double bingham_envelope_b(const std::vector<double> &lambda) {
  const double q = static_cast<double>(lambda.size());
  // h(b) = sum_i 1 / (b + 2 lambda_i) - 1 is decreasing and convex in b, so Newton's method from
  // b = 1 (where h >= 0) never overshoots: each step stays left of the root and moves towards
  // it. One pass over the spectrum per step, where bisection down to adjacent doubles took about
  // 60 (a twentieth of an IEV release at d = 50).
  double b = 1.0;
  for (int step = 0; step < kMaxNewtonSteps; ++step) {
    double sum = 0.0, slope = 0.0;
    for (double l : lambda) {
      const double inv = 1.0 / (b + 2.0 * l);
      sum += inv;
      slope += inv * inv;
    }
    const double h = sum - 1.0;
    if (!(h > 0.0)) break;
    const double next = std::min(q, b + h / slope);
    if (!(next > b)) break;
    b = next;
  }
  // Rounding may leave b one double short of the closest one to the root.
  const double up = std::min(q, std::nextafter(b, q));
  return std::fabs(envelope_equation(lambda, up)) < std::fabs(envelope_equation(lambda, b)) ? up
                                                                                            : b;
}

BinghamSampler::BinghamSampler(const Matrix &a, int64_t max_tries) : max_tries_(max_tries) {
  check_symmetric_parameter(a, "Bingham matrix A");
  if (max_tries < 1)
    fail(Status::InvalidArgument, "Bingham max_tries must be >= 1, got ", max_tries);
  linalg::SymmetricEigen eig = linalg::eigh(a);
  vectors_ = std::move(eig.vectors);
  lambda_ = std::move(eig.values);
  set_envelope();
}

BinghamSampler::BinghamSampler(const std::vector<double> &a_diagonal, int64_t max_tries)
    : lambda_(a_diagonal), max_tries_(max_tries) {
  if (a_diagonal.empty()) fail(Status::Dimension, "Bingham diagonal A must not be empty");
  for (double v : a_diagonal)
    if (!std::isfinite(v)) fail(Status::NonFinite, "Bingham diagonal A is not finite");
  if (max_tries < 1)
    fail(Status::InvalidArgument, "Bingham max_tries must be >= 1, got ", max_tries);
  set_envelope();
}

void BinghamSampler::set_envelope() {
  const double smallest = *std::min_element(lambda_.begin(), lambda_.end());
  for (double &l : lambda_) l = std::max(0.0, l - smallest);
  const double q = static_cast<double>(lambda_.size());
  b_ = bingham_envelope_b(lambda_);
  log_m_ = -0.5 * (q - b_) + 0.5 * q * std::log(q / b_);
  // In the eigenbasis Omega is diagonal, 1 + 2 lambda_i / b, so N(0, Omega^{-1}) has independent
  // coordinates with these standard deviations.
  proposal_sd_.resize(lambda_.size());
  for (size_t i = 0; i < lambda_.size(); ++i)
    proposal_sd_[i] = 1.0 / std::sqrt(1.0 + 2.0 * lambda_[i] / b_);
}

double BinghamSampler::propose(Rng &rng, double *y) const {
  const int64_t q = dim();
  for (;;) {
    // The normals in one batch, then one pass over them: the same values and sums, in the same
    // order, as drawing and accumulating coordinate by coordinate.
    standard_normals(rng, y, q);
    double norm2 = 0.0, quad = 0.0;
    for (int64_t i = 0; i < q; ++i) {
      const double z = proposal_sd_[static_cast<size_t>(i)] * y[i];
      y[i] = z;
      norm2 += z * z;
      quad += lambda_[static_cast<size_t>(i)] * z * z;
    }
    if (norm2 > 0.0 && std::isfinite(norm2)) {
      const double inv = 1.0 / std::sqrt(norm2);
      for (int64_t i = 0; i < q; ++i) y[i] *= inv;
      return quad / norm2;
    }
  }
}

double BinghamSampler::log_accept_ratio(double t) const {
  const double q = static_cast<double>(dim());
  const double delta = (b_ + 2.0 * t - q) / q;
  return 0.5 * q * (std::log1p(delta) - delta);
}

void BinghamSampler::rotate(const double *y, double *x) const {
  const int64_t q = dim();
  if (vectors_.rows() == 0) {
    std::copy(y, y + q, x);
    return;
  }
  // One BLAS matrix-vector product: the q^2 flops of the accepted draw.
  linalg::gemm_views(1.0, vectors_.view(), ConstMatrixView{y, q, 1, q, Layout::ColMajor}, 0.0,
                     MatrixView{x, q, 1, q, Layout::ColMajor});
}

int64_t BinghamSampler::accept(Rng &rng, double *y) const {
  for (int64_t tries = 1; tries <= max_tries_; ++tries) {
    const double t = propose(rng, y);
    const double log_ratio = log_accept_ratio(t);
    if (log_ratio > kEnvelopeSlack)
      fail(Status::Internal, "Bingham envelope violated: ln ratio ", log_ratio, " > 0 at t = ", t);
    if (std::log(uniform01(rng)) < log_ratio) return tries;
  }
  fail(Status::NoConvergence, "Bingham sampler: no proposal accepted in ", max_tries_,
       " tries");
}

int64_t BinghamSampler::sample(Rng &rng, double *out) const {
  // Given diagonal, A's eigenbasis is the output's coordinates: no buffer to rotate from.
  if (vectors_.rows() == 0) return accept(rng, out);
  std::vector<double> y(static_cast<size_t>(dim()));
  const int64_t tries = accept(rng, y.data());
  rotate(y.data(), out);
  return tries;
}

int64_t BinghamSampler::sample_columns(Rng &rng, int64_t n, double *out, int64_t ld_out) const {
  const int64_t q = dim();
  if (n < 0 || ld_out < q)
    fail(Status::Internal, "Bingham sample_columns: n = ", n, ", ld_out = ", ld_out, " for q = ",
         q);
  const bool diagonal = vectors_.rows() == 0;
  Matrix eigenbasis_draws(diagonal ? 0 : q, diagonal ? 0 : n);
  double *y = diagonal ? out : eigenbasis_draws.data();
  const int64_t ld_y = diagonal ? ld_out : q;
  int64_t tries = 0;
  for (int64_t i = 0; i < n; ++i) tries += accept(rng, y + i * ld_y);
  if (!diagonal && n > 0)
    linalg::gemm_views(1.0, vectors_.view(), eigenbasis_draws.view(), 0.0,
                       MatrixView{out, q, n, ld_out, Layout::ColMajor});
  return tries;
}

int64_t bingham(Rng &rng, const Matrix &a, double *out, int64_t max_tries) {
  return BinghamSampler(a, max_tries).sample(rng, out);
}

}  // namespace dpcov::random
