// The Bingham distribution on S^{q-1}, density proportional to exp(-x^T A x), by the
// Kent-Ganeiber-Mardia rejection sampler with an angular central Gaussian envelope (Kent,
// Ganeiber, Mardia, "A new unified approach for the simulation of a wide class of directional
// distributions", J. Comput. Graph. Stat. 27(2), 2018, section 4.2; constants.md section 9).
#pragma once

#include <cstdint>
#include <vector>

#include "../matrix.hpp"
#include "rng.hpp"

namespace dpcov::random {

// Default cap on proposals per draw. The expected number is O(q^{1/2}) (KGM), a few for the
// dimensions dpcov handles; 10^6 failures in a row means a bug or a hostile input, not bad luck.
inline constexpr int64_t kBinghamDefaultMaxTries = 1000000;

class BinghamSampler {
 public:
  // a: q x q, finite, exactly symmetric (any eigenvalues: adding c I does not change the
  // distribution, so the spectrum is shifted to make the smallest eigenvalue 0). max_tries >= 1.
  // Throws Status::Dimension, Status::TooLarge, Status::NonFinite, Status::InvalidArgument,
  // Status::Numerical (eigen-decomposition failed).
  explicit BinghamSampler(const Matrix &a, int64_t max_tries = kBinghamDefaultMaxTries);
  // A = diag(a_diagonal), given in its eigenbasis: no decomposition, and rotate() is the identity.
  // For callers that already hold the spectrum. Throws Status::Dimension (empty),
  // Status::NonFinite, Status::InvalidArgument (max_tries).
  explicit BinghamSampler(const std::vector<double> &a_diagonal,
                          int64_t max_tries = kBinghamDefaultMaxTries);

  int64_t dim() const { return static_cast<int64_t>(lambda_.size()); }
  // The envelope: b solves sum_i 1 / (b + 2 lambda_i) = 1 on [1, q] (lambda the shifted
  // eigenvalues), Omega = I + 2 A / b, ln M = -(q - b) / 2 + (q / 2) ln(q / b).
  double b() const { return b_; }
  double log_m() const { return log_m_; }
  const std::vector<double> &shifted_eigenvalues() const { return lambda_; }

  // One ACG(Omega) proposal y (unit norm) in the eigenbasis of A; returns t = y^T Lambda y, which
  // is x^T A x (shifted A) for the same point x in the original coordinates.
  double propose(Rng &rng, double *y) const;
  // ln[ exp(-t) (1 + 2 t / b)^{q/2} / M ], the KGM acceptance ratio for a proposal with x^T A x =
  // t (x^T Omega x = 1 + 2 t / b), evaluated as (q/2) (log1p(delta) - delta) with
  // delta = (b + 2 t - q) / q, an algebraically identical form that is <= 0 in floating point
  // too (ln(1 + delta) <= delta), so no cancellation between large terms at large q.
  double log_accept_ratio(double t) const;
  // x = V y: from the eigenbasis back to the original coordinates.
  void rotate(const double *y, double *x) const;

  // One draw into out[0..q-1]. Returns the number of proposals used (>= 1; rejections are that
  // minus one). Throws Status::NoConvergence after max_tries proposals without acceptance.
  int64_t sample(Rng &rng, double *out) const;
  // n >= 0 draws into the columns of out (column-major, leading dimension ld_out >= q): the
  // draws of n calls of sample(), from the same generator words, rotated to the original
  // coordinates together by one matrix product (BLAS level 3, the matrix read once for all of
  // them). Returns the proposals used in total. Throws like sample().
  int64_t sample_columns(Rng &rng, int64_t n, double *out, int64_t ld_out) const;

 private:
  // Proposals into y (the eigenbasis) until one is accepted; returns their number.
  int64_t accept(Rng &rng, double *y) const;
  // Shifts the eigenvalues of A (in lambda_) so that the smallest is 0 and sets b, ln M and the
  // proposal's standard deviations.
  void set_envelope();

  std::vector<double> lambda_;
  // Eigenvectors of A as columns; empty when A was given diagonal (rotate() is then a copy).
  Matrix vectors_;
  std::vector<double> proposal_sd_;
  double b_ = 0.0;
  double log_m_ = 0.0;
  int64_t max_tries_;
};

// One draw of Bingham(a) into out[0..q-1]; returns the number of proposals. See BinghamSampler.
int64_t bingham(Rng &rng, const Matrix &a, double *out,
                int64_t max_tries = kBinghamDefaultMaxTries);

// The root b of sum_i 1 / (b + 2 lambda_i) = 1 for lambda_i >= 0 with min lambda_i = 0, found by
// Newton's method from b = 1 to working precision (the left side decreases and is convex in b,
// is >= 0 at b = 1 because one term is 1/b, and <= 0 at b = q). Any b in (0, q] gives a valid
// envelope; the root minimises the expected number of proposals.
double bingham_envelope_b(const std::vector<double> &shifted_eigenvalues);

}  // namespace dpcov::random
