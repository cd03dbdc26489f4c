// The eigen-decomposition of a diagonal matrix after a symmetric rank-one update, by the secular
// equation: O(q^2) instead of the O(q^3) of a dense decomposition, so that each step of the
// Kapralov-Talwar rank-one variant of iterative eigenvector sampling starts from the previous
// step's eigenbasis.
//
// Method (Golub 1973; Bunch, Nielsen, Sorensen 1978; Gu and Eisenstat, SIAM J. Matrix Anal. Appl.
// 16(1), 1995, as in LAPACK dlaed2/dlaed3/dlaed4): deflate the coordinates where y is negligible
// and pairs of (nearly) equal eigenvalues (a Givens rotation moves y's weight onto one of them);
// find each remaining eigenvalue mu as a root of c + sum_j y_j^2 / (lambda_j - mu) = 0 by a
// safeguarded two-pole rational model, tracking the distances lambda_j - mu from the nearer pole
// so that they are accurate to working precision; recompute y from the computed roots (Loewner's
// formula) so that the computed eigenvectors (lambda - mu)^{-1} y are numerically orthogonal.
// The result is the exact decomposition of a matrix within a few units of roundoff of the input
// (backward stable), and the vector actually used, y_used, differs from y by as much.
#pragma once

#include <cstdint>
#include <memory>
#include <memory_resource>
#include <vector>

#include "../matrix.hpp"

namespace dpcov::linalg {

struct SecularEigen {
  // Eigenvalues, descending.
  std::vector<double> values;
  // Orthonormal eigenvectors as columns, in the coordinates of the input (q rows).
  Matrix vectors;
  // The vector the decomposition is exact for (up to roundoff): y with its negligible components
  // set to zero and the rest recomputed from the roots. Same norm as y up to roundoff.
  std::vector<double> y_used;
};

// The same decomposition without its eigenvectors: the eigenvalues, y_used, and O(q) numbers
// from which secular_vectors() rebuilds the eigenvectors, the same bits on every call. A caller
// that applies the vectors only later (KT applies each step's after its last step) keeps O(q) numbers per decomposition instead of q^2.
struct SecularFactors {
  SecularFactors() = default;
  // Every vector allocated from `memory` (which must outlive the factors).
  explicit SecularFactors(std::pmr::memory_resource *memory)
      : values(memory), y_used(memory), poles(memory), loewner(memory), shifts(memory),
        kept(memory), origins(memory), sources(memory), rotations(memory) {}
  std::pmr::vector<double> values;  // eigenvalues, descending
  std::pmr::vector<double> y_used;  // as in SecularEigen
  // What secular_vectors() reads: the problem on the coordinates `kept` (poles strictly
  // decreasing, scaled by a power of two), y there recomputed from the roots (Loewner), root r's
  // distances to the poles as (poles_j - poles_{origins[r]}) - shifts[r] (the form the root finder
  // tracks them in, accurate near the nearer pole), the source of each eigenvector column (>= 0: a
  // root; < 0: the deflated coordinate -1 - source), and the deflating rotations to undo.
  struct Rotation {
    int64_t p, j;
    double c, s;
  };
  int64_t dim = 0;
  std::pmr::vector<double> poles, loewner, shifts;
  std::pmr::vector<int64_t> kept, origins, sources;
  std::pmr::vector<Rotation> rotations;
};

// The eigenvectors of `factors` as the columns of out (column-major, dim rows, values.size()
// columns, leading dimension ld >= dim): the `vectors` the SecularEigen functions return.
void secular_vectors(const SecularFactors &factors, double *out, int64_t ld);

// Scratch buffers that a sequence of decompositions shares: they grow to the largest problem seen
// and are reused, so that iterative eigenvector sampling does not allocate them again at every
// step. Their contents between calls
// mean nothing, so results are the same bits with or without one. Not thread-safe: one per thread.
class SecularWorkspace {
 public:
  SecularWorkspace();
  ~SecularWorkspace();
  SecularWorkspace(SecularWorkspace &&) noexcept;
  SecularWorkspace &operator=(SecularWorkspace &&) noexcept;
  struct Buffers;
  Buffers &buffers() { return *buffers_; }

 private:
  std::unique_ptr<Buffers> buffers_;
};

// rank_one_update_diagonal without the vectors; arguments and throws alike. The result's vectors
// come from `memory` (default: the heap), which must outlive them: a caller keeping many results
// (KT keeps one per step) takes them from one arena instead of nine heap allocations each.
SecularFactors rank_one_update_factors(const std::vector<double> &lambda, const double *y,
                                       double rho);
SecularFactors rank_one_update_factors(
    const std::vector<double> &lambda, const double *y, double rho, SecularWorkspace &workspace,
    std::pmr::memory_resource *memory = std::pmr::get_default_resource());

// diag(lambda) + rho y y^T: q x q orthonormal eigenvectors and their eigenvalues. lambda: q finite
// values, non-increasing; y and rho finite (y of any norm). Throws Status::InvalidArgument otherwise.
SecularEigen rank_one_update_diagonal(const std::vector<double> &lambda, const double *y,
                                      double rho);

}  // namespace dpcov::linalg
