#include "bingham_dense.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "../error.hpp"
#include "../linalg/blas.hpp"
#include "normal.hpp"
#include "uniform.hpp"

namespace dpcov::random {

namespace {

// Newton steps on the cubic before settling for the last iterate: from above the root they
// decrease monotonically and converge quadratically in a few steps.
constexpr int kMaxNewtonSteps = 100;

// |C - m I|_F from the upper triangle: plain squares, or scaled by the largest entry where they
// overflow or underflow.
double centred_frobenius(int64_t q, const double *c, int64_t ld, double m) {
  const auto entry = [&](int64_t i, int64_t j) { return i == j ? c[i + j * ld] - m : c[i + j * ld]; };
  double sum = 0.0;
  for (int64_t j = 0; j < q; ++j) {
    for (int64_t i = 0; i < j; ++i) sum += 2.0 * c[i + j * ld] * c[i + j * ld];
    sum += entry(j, j) * entry(j, j);
  }
  if (std::isfinite(sum) && sum > std::numeric_limits<double>::min() * 1e10) return std::sqrt(sum);
  double largest = 0.0;
  for (int64_t j = 0; j < q; ++j)
    for (int64_t i = 0; i <= j; ++i) largest = std::max(largest, std::fabs(entry(i, j)));
  if (largest == 0.0) return 0.0;
  const double inverse = 1.0 / largest;
  double scaled = 0.0;
  for (int64_t j = 0; j < q; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      const double x = entry(i, j) * inverse;
      scaled += i == j ? x * x : 2.0 * x * x;
    }
  return largest * std::sqrt(scaled);
}

}  // namespace

double bingham_envelope_u_second_order(int64_t q, double mean_square) {
  const double dq = static_cast<double>(q);
  const double constant = 4.0 * dq * mean_square;
  // f(u) = u^2 (u - q) - constant is increasing and convex on [q, inf), and f(q + cbrt(constant))
  // >= 0, so Newton's method from there decreases to the root without overshooting.
  double u = dq + std::cbrt(constant);
  for (int step = 0; step < kMaxNewtonSteps; ++step) {
    const double f = u * u * (u - dq) - constant;
    const double slope = u * (3.0 * u - 2.0 * dq);
    const double next = std::max(dq, u - f / slope);
    if (!(next < u)) break;
    u = next;
  }
  return u;
}

bool bingham_second_order_applies(int64_t q, double mean_square, double u) {
  const double dq = static_cast<double>(q);
  const double frobenius = std::sqrt(dq * mean_square);
  return 2.0 * std::sqrt((dq - 1.0) / dq) * frobenius <= 0.5 * u;
}

bool bingham_uniform_envelope_applies(int64_t q, double eigenvalue_bound) {
  return eigenvalue_bound <= std::log1p(static_cast<double>(q) / 8.0);
}

DenseBinghamSampler::DenseBinghamSampler(int64_t max_tries) : max_tries_(max_tries) {
  if (max_tries < 1)
    fail(Status::InvalidArgument, "Bingham max_tries must be >= 1, got ", max_tries);
}

int64_t DenseBinghamSampler::sample(Rng &rng, int64_t q, const double *c, int64_t ld,
                                    double kappa, double *y) {
  if (q < 1 || ld < q || !(kappa >= 0.0) || !std::isfinite(kappa))
    fail(Status::Internal, "dense Bingham: q = ", q, ", ld = ", ld, ", kappa = ", kappa);
  const double dq = static_cast<double>(q);
  double trace = 0.0;
  for (int64_t j = 0; j < q; ++j) trace += c[j + j * ld];
  const double m = trace / dq;
  const double spread = centred_frobenius(q, c, ld, m);
  if (!std::isfinite(m) || !std::isfinite(spread))
    fail(Status::Internal, "dense Bingham: C is not finite");
  const double frobenius = kappa * spread;  // |A|_F
  // Every eigenvalue of the trace-free A is at most this in absolute value.
  const double bound = std::sqrt((dq - 1.0) / dq) * frobenius;
  if (bingham_uniform_envelope_applies(q, bound)) {
    // t = y^T A y = kappa (m - y^T C y) is computed with an error of at most about
    // 2 q eps (kappa |m| + |A|_F); the margin keeps the computed t above the bound.
    const double margin =
        4.0 * dq * std::numeric_limits<double>::epsilon() * (kappa * std::fabs(m) + frobenius);
    last_u_ = 0.0;
    return accept_uniform(rng, q, c, ld, kappa, m, -(bound + margin), y);
  }
  const double mean_square = frobenius * frobenius / dq;
  const double second_order =
      std::isfinite(mean_square) ? bingham_envelope_u_second_order(q, mean_square) : 0.0;
  if (std::isfinite(second_order) && bingham_second_order_applies(q, mean_square, second_order) &&
      factor(q, c, ld, kappa, m, second_order))
    return accept(rng, q, second_order, y);
  // A strong exponent: the optimal u from A's eigenvalues (no eigenvectors), u = b - 2 a_min with
  // b the envelope root of the spectrum shifted to a smallest eigenvalue of 0.
  Matrix a(q, q);
  for (int64_t j = 0; j < q; ++j)
    for (int64_t i = 0; i < q; ++i)
      a(i, j) = i == j ? kappa * (m - c[j + j * ld])
                       : -kappa * (i < j ? c[i + j * ld] : c[j + i * ld]);
  std::vector<double> spectrum = linalg::eigvalsh(a);
  const double smallest = spectrum.front();
  for (double &value : spectrum) value = std::max(0.0, value - smallest);
  const double exact = bingham_envelope_b(spectrum) - 2.0 * smallest;
  if (std::isfinite(exact) && factor(q, c, ld, kappa, m, exact)) return accept(rng, q, exact, y);
  // The envelope's factor failed in rounding (u I + 2 A nearly singular against its entries):
  // the draw from A's eigenbasis.
  last_u_ = 0.0;
  return BinghamSampler(a, max_tries_).sample(rng, y);
}

bool DenseBinghamSampler::factor(int64_t q, const double *c, int64_t ld, double kappa, double m,
                                 double u) {
  // The upper triangle of (u I + 2 A) / u = I + (2 kappa / u)(m I - C), column by column as C's.
  factor_.resize(static_cast<size_t>(q * q));
  const double scale = 2.0 * kappa / u;
  for (int64_t j = 0; j < q; ++j) {
    double *column = factor_.data() + j * q;
    const double *source = c + j * ld;
    for (int64_t i = 0; i < j; ++i) column[i] = -scale * source[i];
    column[j] = 1.0 + scale * (m - source[j]);
  }
  last_u_ = u;
  return u > 0.0 && linalg::cholesky_upper_in_place(q, factor_.data(), q);
}

int64_t DenseBinghamSampler::accept(Rng &rng, int64_t q, double u, double *y) {
  const double dq = static_cast<double>(q);
  work_.resize(static_cast<size_t>(q));
  for (int64_t tries = 1; tries <= max_tries_; ++tries) {
    double g2 = 0.0, z2 = 0.0;
    do {
      // z = U^{-1} g has covariance (U^T U)^{-1} for the factor U^T U = (u I + 2 A) / u.
      standard_normals(rng, work_.data(), q);
      std::copy(work_.begin(), work_.end(), y);
      linalg::solve_upper(q, factor_.data(), q, y);
      g2 = 0.0;
      z2 = 0.0;
      for (int64_t i = 0; i < q; ++i) {
        g2 += work_[static_cast<size_t>(i)] * work_[static_cast<size_t>(i)];
        z2 += y[i] * y[i];
      }
    } while (!(z2 > 0.0 && std::isfinite(z2) && g2 > 0.0));
    // 1 + delta = y^T (u I + 2 A) y / q for y = z / |z|: positive, so the ratio is finite and,
    // as ln(1 + delta) <= delta, at most 0.
    const double delta = u * g2 / (dq * z2) - 1.0;
    const double log_ratio = 0.5 * dq * (std::log1p(delta) - delta);
    if (std::log(uniform01(rng)) < log_ratio) {
      const double inv = 1.0 / std::sqrt(z2);
      for (int64_t i = 0; i < q; ++i) y[i] *= inv;
      return tries;
    }
  }
  fail(Status::NoConvergence, "Bingham sampler: no proposal accepted in ", max_tries_, " tries");
}

int64_t DenseBinghamSampler::accept_uniform(Rng &rng, int64_t q, const double *c, int64_t ld,
                                            double kappa, double m, double lower, double *y) {
  work_.resize(static_cast<size_t>(q));
  for (int64_t tries = 1; tries <= max_tries_; ++tries) {
    double norm2 = 0.0;
    do {
      standard_normals(rng, y, q);
      norm2 = 0.0;
      for (int64_t i = 0; i < q; ++i) norm2 += y[i] * y[i];
    } while (!(norm2 > 0.0 && std::isfinite(norm2)));
    linalg::symv_upper(q, 1.0, c, ld, y, 0.0, work_.data());
    double quadratic = 0.0;
    for (int64_t i = 0; i < q; ++i) quadratic += y[i] * work_[static_cast<size_t>(i)];
    const double t = kappa * (m - quadratic / norm2);
    const double log_ratio = lower - t;
    if (log_ratio > 0.0)
      fail(Status::Internal, "Bingham envelope violated: y^T A y = ", t, " below ", lower);
    if (std::log(uniform01(rng)) < log_ratio) {
      const double inv = 1.0 / std::sqrt(norm2);
      for (int64_t i = 0; i < q; ++i) y[i] *= inv;
      return tries;
    }
  }
  fail(Status::NoConvergence, "Bingham sampler: no proposal accepted in ", max_tries_, " tries");
}

}  // namespace dpcov::random
