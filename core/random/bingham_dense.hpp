// Bingham draws for a dense exponent without its eigendecomposition: the density proportional to
// exp(kappa y^T C y) on S^{q-1}, C symmetric, by the Kent-Ganeiber-Mardia sampler (bingham.hpp)
// with its angular central Gaussian envelope factored by Cholesky. Iterative eigenvector sampling
// draws one such vector per step from a matrix it only compresses, never diagonalises.
// proofs/iev.md, "The step sampler".
//
// With A = kappa (m I - C), m = tr(C) / q (adding a multiple of I changes no draw), tr A = 0.
// For any u > 0 with u I + 2 A positive definite, U^T U = (u I + 2 A) / u: proposals
// y = z / |z|, z = U^{-1} g, g ~ N(0, I_q) (ACG(U^T U)), accepted with probability
// exp((q/2)(log1p(delta) - delta)), delta = u |g|^2 / (q |z|^2) - 1 = (u + 2 y^T A y - q) / q,
// are exactly Bingham(A): the proposal density is proportional to (1 + delta)^{-q/2}, times the
// acceptance probability it is proportional to exp(-y^T A y). The acceptance probability is at
// most 1 for every u (ln(1 + x) <= x), so u only sets how many proposals a draw takes; the
// fewest in expectation at the root of sum_j 1 / (u + 2 a_j) = 1 over A's eigenvalues a_j (the
// envelope equation of bingham.hpp, shifted by the smallest eigenvalue).
#pragma once

#include <cstdint>
#include <vector>

#include "bingham.hpp"
#include "rng.hpp"

namespace dpcov::random {

// The root u >= q of u^3 - q u^2 - 4 q s = 0, s >= 0 finite: the envelope equation expanded to
// second order in the eigenvalues of a trace-free A with mean square s = |A|_F^2 / q,
// q / u + 4 q s / u^3 = 1. Where every |2 a_j| <= u / 2 it is within a few percent of the exact
// root (tests/unit/bingham_dense_test.cpp bounds what it costs in proposals).
double bingham_envelope_u_second_order(int64_t q, double mean_square);

// u for a strong exponent, with the Cholesky factor U of (u I + 2 A) / u (q x q, upper) left in
// `factor`; 0 where it finds none it can vouch for. The root of the envelope equation over a model
// of A's spectrum: its smallest eigenvalues from C's largest Ritz values after 10 Lanczos steps
// (those converged to a quarter over kappa) and the rest by their mean and variance (from
// tr A = 0 and |A|_F), to second order. u is kept where the exact left side,
// tr((u I + 2 A)^{-1}) = |U^{-1}|_F^2 / u, is within 0.02 of 1; where it exceeds the model's (mass
// near a_1 that Lanczos misses: a multiple top eigenvalue) the weight of a_1 is raised to match
// and the root taken once more; otherwise 0. C: the upper triangle of a q x q block (leading
// dimension ld).
double bingham_envelope_u_lanczos(int64_t q, const double *c, int64_t ld, double kappa,
                                  std::vector<double> &factor);

// Whether the second-order root is used for A of squared Frobenius norm q * mean_square: when
// 2 sqrt((q - 1) / q) |A|_F <= u / 2, which bounds every |2 a_j| by u / 2 for a trace-free A
// (its largest |a_j| is at most sqrt((q - 1) / q) |A|_F).
bool bingham_second_order_applies(int64_t q, double mean_square, double u);

// Whether a draw uses uniform proposals, accepted with probability exp(-(y^T A y - L)) for
// L = -bound <= the smallest eigenvalue of A: when the expected number of proposals, at most
// exp(bound) (Jensen: the mean of y^T A y over the sphere is tr(A) / q = 0), is below
// 1 + q / 8, about where q proposals' quadratic forms (2 q^2 flops each) cost the envelope's
// Cholesky factor (q^3 / 3). `bound` >= max_j |a_j|.
bool bingham_uniform_envelope_applies(int64_t q, double eigenvalue_bound);

enum class BinghamEnvelope {
  Uniform,      // uniform proposals
  SecondOrder,  // ACG at the second-order u
  Lanczos,      // ACG at the Lanczos model's u
  ExactRoot,    // ACG at the exact u, from A's eigenvalues
  Eigenbasis,   // BinghamSampler on A
};

class DenseBinghamSampler {
 public:
  // max_tries >= 1 (Status::InvalidArgument otherwise): proposals per draw before
  // Status::NoConvergence.
  explicit DenseBinghamSampler(int64_t max_tries = kBinghamDefaultMaxTries);

  // One draw into y[0..q-1] (unit norm) from the density proportional to exp(kappa y^T C y), C the
  // symmetric q x q matrix whose upper triangle is the column-major block at c (leading dimension
  // ld >= q). kappa >= 0 and C finite (the caller's: Status::Internal otherwise). A weak
  // exponent takes uniform proposals (bingham_uniform_envelope_applies); otherwise the ACG
  // envelope with the second-order u; where that does not apply (strong exponents) the Lanczos
  // estimate of u, and where its factor fails the exact root, from A's eigenvalues;
  // where the envelope's factorisation then fails in rounding, the draw is BinghamSampler's on A
  // (its eigenvectors). Returns the number of proposals (>= 1).
  int64_t sample(Rng &rng, int64_t q, const double *c, int64_t ld, double kappa, double *y);

  // The envelope of the last draw.
  BinghamEnvelope last_envelope() const { return envelope_; }

 private:
  int64_t accept(Rng &rng, int64_t q, double u, double *y);
  int64_t accept_uniform(Rng &rng, int64_t q, const double *c, int64_t ld, double kappa, double m,
                         double spread, double *y);

  std::vector<double> factor_;
  std::vector<double> work_;
  std::vector<double> centred_;
  BinghamEnvelope envelope_ = BinghamEnvelope::Uniform;
  int64_t max_tries_;
};

}  // namespace dpcov::random
