// Eigen-decompositions of a diagonal matrix after one structured change, by the secular equation:
// its compression onto the orthogonal complement of a vector, and a symmetric rank-one update.
// Both cost O(q^2) instead of the O(q^3) of a dense decomposition, which is what makes iterative
// eigenvector sampling (Amin et al., NeurIPS 2019, Alg. 1, and the Kapralov-Talwar rank-one
// variant) run in milliseconds: each step starts from the previous step's eigenbasis.
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

// Compression of diag(lambda) onto y^perp: returns q - 1 orthonormal vectors spanning y_used^perp
// (q x (q - 1)) with V^T diag(lambda) V = diag(values). lambda: q finite values, non-increasing;
// y: q finite values of unit norm (within 1e-10). Throws Status::InvalidArgument otherwise.
SecularEigen compress_diagonal(const std::vector<double> &lambda, const double *y);

// diag(lambda) + rho y y^T: q x q orthonormal eigenvectors and their eigenvalues. lambda as above;
// y and rho finite (y of any norm). Throws Status::InvalidArgument otherwise.
SecularEigen rank_one_update_diagonal(const std::vector<double> &lambda, const double *y,
                                      double rho);

}  // namespace dpcov::linalg
