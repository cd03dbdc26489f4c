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

// Lanczos steps for the envelope of a strong exponent: C's largest eigenvalues converge first,
// and they decide u there.
constexpr int64_t kLanczosSteps = 10;
// Below this q a strong exponent's u comes from A's eigenvalues: LAPACK's values-only
// decomposition of a small matrix costs less than the Lanczos estimate and its checks.
constexpr int64_t kLanczosFrom = 24;
// Corrections of the Lanczos model by the exact trace of (u I + 2 A)^{-1}, and the distance of
// that trace from 1 (the envelope equation) within which u is kept: there the expected number of
// proposals is within about exp(q tol^2 / 2) of the optimum's.
constexpr int kTraceCorrections = 1;
constexpr double kTraceTolerance = 0.02;
// The largest condition number u / b of the ACG envelope's matrix (u I + 2 A) / u that its
// Cholesky factor is trusted with: the factor's rounding perturbs A by about u eps / 2, under
// 1e-8 b here, against the envelope's scale b.
constexpr double kMaxEnvelopeCondition = 1e8;

// |C - m I|_F from the upper triangle: plain squares, or scaled by the largest entry where they
// overflow or underflow.
double centred_frobenius(int64_t q, const double *c, int64_t ld, double m) {
  const auto entry = [&](int64_t i, int64_t j) {
    return i == j ? c[i + j * ld] - m : c[i + j * ld];
  };
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
  // Scaled by a power of two (exact, and finite where 1 / largest overflows: a subnormal largest).
  const int exponent = -std::ilogb(largest);
  double scaled = 0.0;
  for (int64_t j = 0; j < q; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      const double x = std::ldexp(entry(i, j), exponent);
      scaled += i == j ? x * x : 2.0 * x * x;
    }
  return std::ldexp(std::sqrt(scaled), -exponent);
}

// The Cholesky factor U (U^T U = (u I + 2 A) / u, A = kappa (m I - C)) into `factor` (q x q,
// upper); false if not positive definite.
bool envelope_factor(int64_t q, const double *c, int64_t ld, double kappa, double m, double u,
                     std::vector<double> &factor) {
  if (!(u > 0.0) || !std::isfinite(u)) return false;
  factor.resize(static_cast<size_t>(q * q));
  const double scale = 2.0 * kappa / u;
  for (int64_t j = 0; j < q; ++j) {
    double *column = factor.data() + j * q;
    const double *source = c + j * ld;
    for (int64_t i = 0; i < j; ++i) column[i] = -scale * source[i];
    column[j] = 1.0 + scale * (m - source[j]);
  }
  return linalg::cholesky_upper_in_place(q, factor.data(), q);
}

// m = tr(C) / q and |C - m I|_F: A = kappa (m I - C) is trace-free, |A|_F = kappa |C - m I|_F.
struct Centre {
  double m, spread;
};

Centre centre(int64_t q, const double *c, int64_t ld) {
  double trace = 0.0;
  for (int64_t j = 0; j < q; ++j) trace += c[j + j * ld];
  const double m = trace / static_cast<double>(q);
  return {m, centred_frobenius(q, c, ld, m)};
}

// Lanczos on C from a fixed start vector, with full reorthogonalisation: the Ritz values,
// descending, and each one's residual norm (an eigenvalue of C lies within it).
struct Ritz {
  std::vector<double> values, residuals;
};

Ritz lanczos(int64_t q, const double *c, int64_t ld, int64_t steps) {
  const int64_t k = std::min(q, steps);
  std::vector<double> basis(static_cast<size_t>(q * k)), w(static_cast<size_t>(q));
  std::vector<double> h(static_cast<size_t>(k));
  std::vector<double> alpha, beta;
  double *v = basis.data();
  // A fixed start with weight on every coordinate; the estimate only sets u, never the law.
  double norm = 0.0;
  for (int64_t i = 0; i < q; ++i) {
    v[i] = 1.0 + 0.5 * std::sin(2.399963 * static_cast<double>(i) + 0.5);
    norm += v[i] * v[i];
  }
  for (int64_t i = 0; i < q; ++i) v[i] /= std::sqrt(norm);
  double scale = 0.0;
  for (int64_t j = 0; j < k; ++j) {
    const double *vj = basis.data() + j * q;
    linalg::symv_upper(q, 1.0, c, ld, vj, 0.0, w.data());
    double a = 0.0;
    for (int64_t i = 0; i < q; ++i) a += vj[i] * w[static_cast<size_t>(i)];
    alpha.push_back(a);
    scale = std::max(scale, std::fabs(a));
    // Against every earlier vector, twice ("twice is enough", Parlett).
    for (int pass = 0; pass < 2; ++pass) {
      linalg::gemv(linalg::Trans::Yes, q, j + 1, 1.0, basis.data(), q, w.data(), 0.0, h.data());
      linalg::gemv(linalg::Trans::No, q, j + 1, -1.0, basis.data(), q, h.data(), 1.0, w.data());
    }
    double b = 0.0;
    for (double x : w) b += x * x;
    b = std::sqrt(b);
    beta.push_back(b);
    if (j + 1 == k || !(b > 1e-13 * std::max(scale, b))) break;
    double *next = basis.data() + (j + 1) * q;
    for (int64_t i = 0; i < q; ++i) next[i] = w[static_cast<size_t>(i)] / b;
  }
  const size_t found = alpha.size();
  const double last_beta = beta.back();
  beta.resize(found - 1);
  const linalg::SymmetricEigen t = linalg::tridiagonal_eigen(alpha, beta);
  Ritz out;
  for (size_t r = found; r-- > 0;) {
    out.values.push_back(t.values[r]);
    out.residuals.push_back(
        std::fabs(last_beta * t.vectors(static_cast<int64_t>(found) - 1, static_cast<int64_t>(r))));
  }
  return out;
}

}  // namespace

double bingham_envelope_u_lanczos(int64_t q, const double *c, int64_t ld, double kappa,
                                  std::vector<double> &factor) {
  const Centre centred = centre(q, c, ld);
  const Ritz ritz = lanczos(q, c, ld, kLanczosSteps);
  // A's smallest eigenvalues from C's largest Ritz values, as far as they have converged on the
  // scale that matters (kappa times the residual under 1/4); the top one always.
  std::vector<double> low;
  for (size_t r = 0; r < ritz.values.size(); ++r) {
    if (r > 0 && !(kappa * ritz.residuals[r] <= 0.25)) break;
    low.push_back(kappa * (centred.m - ritz.values[r]));
  }
  const double a1 = low.front(), dq = static_cast<double>(q);
  // The rest by their mean and variance, from tr A = 0 and |A|_F^2 (second order about the mean).
  const double rest = dq - static_cast<double>(low.size());
  double sum = 0.0, square = 0.0;
  for (double a : low) {
    sum += a;
    square += a * a;
  }
  const double frobenius = kappa * centred.spread;
  const double mean = rest > 0.0 ? std::max(a1, -sum / rest) : a1;
  const double variance =
      rest > 0.0 ? std::max(0.0, (frobenius * frobenius - square) / rest - mean * mean) : 0.0;
  // Lanczos sees one vector of an eigenspace: the weight of a_1 grows where the exact trace below
  // shows mass the model misses (a multiple or tightly clustered top eigenvalue).
  double top_weight = 1.0;
  const auto model = [&](double b) {  // sum_j 1 / (b + 2 (a_j - a_1)), modelled
    double f = top_weight / b;
    for (size_t r = 1; r < low.size(); ++r) f += 1.0 / (b + 2.0 * (low[r] - a1));
    if (rest > 0.0) {
      const double x = b + 2.0 * (mean - a1);
      f += rest * (1.0 / x + 4.0 * variance / (x * x * x));
    }
    return f;
  };
  // The model's root in b = u + 2 a_1 > 0 (decreasing in b): bisection.
  const auto root = [&] {
    double lo = 0.0, hi = dq * top_weight;
    while (model(hi) > 1.0 && hi < 1e300) hi *= 2.0;
    for (int step = 0; step < 64 && hi - lo > 1e-12 * hi; ++step) {
      const double mid = 0.5 * (lo + hi);
      (model(mid) > 1.0 ? lo : hi) = mid;
    }
    return hi;
  };
  std::vector<double> inverse;
  double b = root();
  for (int round = 0;; ++round) {
    const double u = b - 2.0 * a1;
    if (!(u <= kMaxEnvelopeCondition * b) ||
        !envelope_factor(q, c, ld, kappa, centred.m, u, factor))
      return 0.0;
    // The exact left side at u: tr((u I + 2 A)^{-1}) = |U^{-1}|_F^2 / u.
    inverse = factor;
    if (!linalg::invert_upper_triangular(q, inverse.data(), q)) return 0.0;
    double trace = 0.0;
    for (int64_t j = 0; j < q; ++j)
      for (int64_t i = 0; i <= j; ++i) {
        const double x = inverse[static_cast<size_t>(i + j * q)];
        trace += x * x;
      }
    const double exact = trace / u, missing = exact - model(b);
    if (std::fabs(exact - 1.0) <= kTraceTolerance) return u;
    if (round == kTraceCorrections || !(missing > 0.0)) return 0.0;
    top_weight += missing * b;
    b = root();
  }
}

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

int64_t DenseBinghamSampler::sample(Rng &rng, int64_t q, const double *c, int64_t ld, double kappa,
                                    double *y) {
  if (q < 1 || ld < q || !(kappa >= 0.0) || !std::isfinite(kappa))
    fail(Status::Internal, "dense Bingham: q = ", q, ", ld = ", ld, ", kappa = ", kappa);
  const double dq = static_cast<double>(q);
  const auto [m, spread] = centre(q, c, ld);
  // A matrix built from noisy values (KT's deflation by a noisy eigenvalue at a tiny epsilon)
  // can overflow: a numerical failure of the release, reported, not an internal error.
  if (!std::isfinite(m) || !std::isfinite(spread))
    fail(Status::Numerical, "the Bingham sampler's matrix C is not finite (its trace or its "
         "spread overflows): the noise is too large for the release to be computed");
  const double frobenius = kappa * spread;  // |A|_F
  // Every eigenvalue of the trace-free A is at most this in absolute value.
  const double bound = std::sqrt((dq - 1.0) / dq) * frobenius;
  if (bingham_uniform_envelope_applies(q, bound)) {
    envelope_ = BinghamEnvelope::Uniform;
    return accept_uniform(rng, q, c, ld, kappa, m, spread, y);
  }
  const double mean_square = frobenius * frobenius / dq;
  const double second_order =
      std::isfinite(mean_square) ? bingham_envelope_u_second_order(q, mean_square) : 0.0;
  if (std::isfinite(second_order) && bingham_second_order_applies(q, mean_square, second_order) &&
      envelope_factor(q, c, ld, kappa, m, second_order, factor_)) {
    envelope_ = BinghamEnvelope::SecondOrder;
    return accept(rng, q, second_order, y);
  }
  // A strong exponent: u from C's largest eigenvalues by Lanczos and the rest by their moments,
  // where q is large enough that this costs less than A's eigenvalues.
  const double estimate =
      q > kLanczosFrom ? bingham_envelope_u_lanczos(q, c, ld, kappa, factor_) : 0.0;
  if (estimate > 0.0) {
    envelope_ = BinghamEnvelope::Lanczos;
    return accept(rng, q, estimate, y);
  }
  // The optimal u from A's eigenvalues (no eigenvectors), u = b - 2 a_min with b the envelope root
  // of the spectrum shifted to a smallest eigenvalue of 0.
  Matrix a(q, q);
  for (int64_t j = 0; j < q; ++j)
    for (int64_t i = 0; i < q; ++i)
      a(i, j) =
          i == j ? kappa * (m - c[j + j * ld]) : -kappa * (i < j ? c[i + j * ld] : c[j + i * ld]);
  std::vector<double> spectrum = linalg::eigvalsh(a);
  const double smallest = spectrum.front();
  for (double &value : spectrum) value = std::max(0.0, value - smallest);
  const double b = bingham_envelope_b(spectrum), exact = b - 2.0 * smallest;
  if (exact <= kMaxEnvelopeCondition * b && envelope_factor(q, c, ld, kappa, m, exact, factor_)) {
    envelope_ = BinghamEnvelope::ExactRoot;
    return accept(rng, q, exact, y);
  }
  // (u I + 2 A) / u too ill-conditioned for its factor to stand for it (its smallest eigenvalue
  // is b / u), or the factor failed in rounding: the draw from A's eigenbasis, where the
  // envelope is diagonal and exact at any spread.
  envelope_ = BinghamEnvelope::Eigenbasis;
  return BinghamSampler(a, max_tries_).sample(rng, y);
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
                                            double kappa, double m, double spread, double *y) {
  work_.resize(static_cast<size_t>(q));
  // t = y^T A y = -kappa y^T (C - m I) y is computed as t' = t 2^(a + b) from kappa 2^a and
  // (C - m I) 2^b, exact powers of two that bring both to order 1: A' = kappa 2^a (C - m I) 2^b
  // and t' are then normal numbers, whose rounding (at most about 2 q eps |A'|_F) the margin
  // covers. Unscaled, C's entries near the largest double overflow y^T (C - m I) y, and entries
  // of A below the smallest normal round absolutely, beyond a margin relative to |A|_F. The
  // diagonal's C_jj - m is exact where it is subnormal, and scaling by 2^b is exact.
  const int a = kappa > 0.0 ? -std::ilogb(kappa) : 0;
  const int b = spread > 0.0 ? -std::ilogb(spread) : 0;
  const double scaled_kappa = std::ldexp(kappa, a);
  centred_.resize(static_cast<size_t>(q * q));
  double frobenius2 = 0.0, trace = 0.0;
  for (int64_t j = 0; j < q; ++j) {
    for (int64_t i = 0; i < j; ++i) {
      const double x = scaled_kappa * std::ldexp(c[i + j * ld], b);
      centred_[static_cast<size_t>(i + j * q)] = x;
      frobenius2 += 2.0 * x * x;
    }
    const double x = scaled_kappa * std::ldexp(c[j + j * ld] - m, b);
    centred_[static_cast<size_t>(j + j * q)] = x;
    frobenius2 += x * x;
    trace += x;
  }
  // Every eigenvalue of A' is within sqrt((q - 1) / q) |A'|_F of tr(A') / q, which is 0 but for
  // the rounding of m (absolute where m is subnormal): any lower bound of t' keeps the ratio
  // below 1, and the draws' law is that of the target whatever the bound.
  const double dq = static_cast<double>(q), frobenius = std::sqrt(frobenius2);
  const double lower = -(std::sqrt((dq - 1.0) / dq) * frobenius + std::fabs(trace) / dq +
                         4.0 * dq * std::numeric_limits<double>::epsilon() * frobenius);
  for (int64_t tries = 1; tries <= max_tries_; ++tries) {
    double norm2 = 0.0;
    do {
      standard_normals(rng, y, q);
      norm2 = 0.0;
      for (int64_t i = 0; i < q; ++i) norm2 += y[i] * y[i];
    } while (!(norm2 > 0.0 && std::isfinite(norm2)));
    linalg::symv_upper(q, 1.0, centred_.data(), q, y, 0.0, work_.data());
    double quadratic = 0.0;
    for (int64_t i = 0; i < q; ++i) quadratic += y[i] * work_[static_cast<size_t>(i)];
    const double t = -(quadratic / norm2);
    if (lower - t > 0.0)
      fail(Status::Internal, "Bingham envelope violated: y^T A y = ", std::ldexp(t, -(a + b)),
           " below ", std::ldexp(lower, -(a + b)));
    const double log_ratio = std::ldexp(lower - t, -(a + b));
    if (std::log(uniform01(rng)) < log_ratio) {
      const double inv = 1.0 / std::sqrt(norm2);
      for (int64_t i = 0; i < q; ++i) y[i] *= inv;
      return tries;
    }
  }
  fail(Status::NoConvergence, "Bingham sampler: no proposal accepted in ", max_tries_, " tries");
}

}  // namespace dpcov::random
