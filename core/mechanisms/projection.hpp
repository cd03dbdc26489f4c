// What Sheffet's Johnson-Lindenstrauss and inverse-Wishart mechanisms share (ALT 2019, Alg. 1, 2,
// 4, 5; ICML 2017, Alg. 1): the ridge block w I, the Gaussian sketch S = R A_w drawn from the
// second-moment matrix alone, its density, and the private test on the least singular value.
#pragma once

#include <cstdint>
#include <functional>

#include "../matrix.hpp"
#include "../random/rng.hpp"
#include "receipt.hpp"
#include "request.hpp"

namespace dpcov::mechanisms {

// G + w2 I on the upper triangle, mirrored (exactly symmetric).
Matrix add_ridge(ConstMatrixView gram, double w2);

// An r x d matrix with iid rows N(0, M): S = Z F^T with Z iid N(0, 1) and F F^T = M (F from the
// eigen-decomposition of M, eigenvalues clamped at 0, so M may be singular). When M = A_w^T A_w,
// S has exactly the law of R A_w with R an r x (n + d) matrix of iid N(0, 1), since the rows of
// R A_w are iid N(0, A_w^T A_w): the release needs only the Gram matrix, not the rows.
Matrix gaussian_sketch(random::Rng &rng, int64_t r, const Matrix &m);

// S^T S / r, exactly symmetric: the released second-moment estimate.
Matrix sketch_second_moment(const Matrix &s);

// ln of the density of the sketch S (r x d, iid rows N(0, M), M positive definite) at s:
// -(r d / 2) ln(2 pi) - (r / 2) ln|M| - tr(M^{-1} S^T S) / 2 (constants.md section 5.1). Throws
// Status::NotPositiveDefinite unless M is.
double sketch_log_density(const Matrix &s, const Matrix &m);

// ln of the density of S^T S / r at `released` (d x d): r S^T S / r = S^T S ~ W_d(r, M), so the
// value is the Wishart log-density at r * released plus (d (d + 1) / 2) ln r (the Jacobian of the
// scaling on symmetric matrices). Throws Status::Precondition if r < d (S^T S is then singular
// and has no density on symmetric matrices; use sketch_log_density on S itself).
double second_moment_log_density(ConstMatrixView released, int64_t r, const Matrix &m);

// Fills the test fields of a propose-test-release receipt: the (eps/2, delta/2) test share and
// the Laplace scale b = 4 B^2 / eps and shift b ln(1/delta) of the whole budget.
void plan_sigma_min_test(Receipt &receipt);

// s2 = lambda_min(G) + Z - shift, Z ~ Lap(scale): the private test value.
double private_sigma_min_squared(ConstMatrixView gram, const Receipt &receipt, random::Rng &rng);

// ln of the density of the test value s2 given G (Laplace around lambda_min(G) - shift).
double sigma_min_test_log_density(double s2, ConstMatrixView gram, const Receipt &receipt);

// ln P[s2 <= threshold] given G: s2 <= threshold exactly when Z <= x = threshold + shift -
// lambda_min(G), so the value is ln F(x / b) with F the Laplace(0, 1) distribution function,
// x / b - ln 2 for x <= 0 and log1p(-e^{-x/b} / 2) above (no cancellation in either branch).
double sigma_min_test_log_probability_at_most(double threshold, ConstMatrixView gram,
                                              const Receipt &receipt);

// The w appended after the test (Alg. 2 and 5, step 2): w^2 = max(0, threshold - max(s2, 0)),
// rounded up, so that sigma_min([A; w I])^2 >= s2 + w^2 >= threshold whenever s2 <= sigma_min^2.
double appended_w_after_test(double s2, double threshold_w2);

// The projection rows r of a request, checked: >= 1. Throws Status::Dimension.
int64_t checked_projection_rows(const Request &request);

// Produces the sketch R [A; w I] for a chosen w >= 0: drawn from the Gram matrix by
// gaussian_sketch, or read from a SketchAccumulator.
using SketchMaker = std::function<Matrix(double w, random::Rng &rng)>;

// The maker that draws from the statistic: S ~ rows N(0, G + w^2 I), with w^2 rounded up.
SketchMaker sketch_from_gram(ConstMatrixView gram, int64_t r);

}  // namespace dpcov::mechanisms
