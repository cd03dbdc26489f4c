// Shifts of a released matrix by a multiple of the identity, from the papers' experiments.
// Functions of a release and public constants only: they cost no privacy.
#pragma once

#include <cstdint>

#include "../matrix.hpp"

namespace dpcov::postprocess {

// Y + c I, exactly symmetric if Y is.
Matrix add_identity(const Matrix &y, double c);

// Whether a symmetric matrix is positive definite (its Cholesky factorisation succeeds).
bool is_positive_definite(const Matrix &y);

// Sheffet's "scaled" Analyze Gauss (ALT 2019, Sec. 6, technique 4): if the release is not positive
// definite, add c I. The paper's value of c is lost from the seed text; dpcov uses the one-sided
// high-probability bound on the noise E (symmetric, iid N(0, sigma^2) upper triangle):
//   P[lambda_min(E) < -c] <= nu  for  c = sigma (2 sqrt(d) + 2 sqrt(ln(1/nu))),
// so G + E + c I is positive definite with probability >= 1 - nu whatever G >= 0 is
// (proofs/analyze_gauss.md, "Post-processing"). Throws Status::InvalidArgument unless sigma is
// finite > 0 and nu in (0, 1).
double analyze_gauss_pd_shift(double sigma, int64_t dim, double nu);

// Y if Y is positive definite, else Y + analyze_gauss_pd_shift(sigma, d, nu) I. `shift_added`
// receives the c added (0 if none).
Matrix shift_analyze_gauss(const Matrix &y, double sigma, double nu, double &shift_added);

// Y - k c I: removes the mean k c I of W_d(k, c I), so the result is unbiased for G (it may be
// indefinite). Sheffet ALT 2019 Sec. 4.
Matrix subtract_wishart_mean(const Matrix &y, double dof, double scale);

// Lemma A.3 of Sheffet (ALT 2019), from Davidson & Szarek (2001) Thm II.13: for W ~ W_d(k, c I),
// lambda_min(W) >= c (sqrt(k) - sqrt(d) - sqrt(2 ln(2/nu)))_+^2 with probability >= 1 - nu.
// Throws Status::InvalidArgument unless dof > d - 1, scale finite > 0 and nu in (0, 1).
double davidson_szarek_shift(double dof, int64_t dim, double scale, double nu);

// Sheffet's Sec. 4.1 rule: Y - k c I if that is positive definite, else
// Y - davidson_szarek_shift(...) I if that is, else Y unchanged. `shift_subtracted` receives the
// multiple of I subtracted (0 if none).
Matrix shift_wishart(const Matrix &y, double dof, double scale, double nu,
                     double &shift_subtracted);

}  // namespace dpcov::postprocess
