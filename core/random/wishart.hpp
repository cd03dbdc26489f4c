// Wishart and inverse Wishart variates and their log-densities (constants.md section 9).
#pragma once

#include <cstdint>

#include "../matrix.hpp"
#include "rng.hpp"

namespace dpcov::random {

// The Bartlett factor: a d x d lower-triangular T with T_ii = sqrt(chi2(dof - i)) (i = 0..d-1,
// i.e. chi2_{k-i+1} counting from 1) and T_ij ~ N(0, 1) below the diagonal, all independent, drawn
// column by column. T T^T ~ W_d(dof, I) (Bartlett 1933; Anderson, An Introduction to Multivariate
// Statistical Analysis, Thm 7.2.1, which holds for real dof > d - 1).
// Throws Status::Dimension (d < 1), Status::NonFinite, Status::Precondition (dof <= d - 1).
Matrix bartlett_factor(Rng &rng, double dof, int64_t d);

// W ~ W_d(dof, scale), density at constants.md section 9, by W = (L T)(L T)^T with scale = L L^T
// and T the Bartlett factor: cost O(d^3) whatever dof is (no sum of dof outer products). Real
// dof > d - 1. The result is exactly symmetric.
// Throws Status::Dimension, Status::TooLarge, Status::NonFinite, Status::InvalidArgument
// (scale not exactly symmetric), Status::NotPositiveDefinite, Status::Precondition
// (dof <= d - 1).
Matrix wishart(Rng &rng, double dof, const Matrix &scale);

// X ~ W^{-1}_d(psi, dof), i.e. X^{-1} ~ W_d(dof, psi^{-1}), density
// |psi|^{m/2} |X|^{-(m+d+1)/2} exp(-tr(psi X^{-1})/2) / (2^{md/2} Gamma_d(m/2)) with m = dof.
// With psi = U U^T (Cholesky) and T the Bartlett factor, X = (U T^{-T})(U T^{-T})^T: two
// triangular operations, no explicit inverse of psi. Same errors as wishart(), plus
// Status::Numerical if a Bartlett diagonal underflows to 0 (possible only for dof - d + 1 below
// about 1e-2).
Matrix inverse_wishart(Rng &rng, double dof, const Matrix &psi);

// ln Gamma_d(a) = d (d - 1) / 4 ln(pi) + sum_{j=1..d} ln Gamma(a + (1 - j) / 2), a > (d - 1) / 2.
double log_multivariate_gamma(int64_t d, double a);

// ln of the W_d(dof, scale) density at w (seed 003 Def. 2): -infinity if w is not symmetric and
// positive definite. Validates dof and scale as wishart() does; Status::Dimension if w is not
// d x d; Status::NonFinite if w has NaN or infinity.
double wishart_log_density(const Matrix &w, double dof, const Matrix &scale);

// ln of the W^{-1}_d(psi, dof) density at x; -infinity outside the support. Errors as
// wishart_log_density().
double inverse_wishart_log_density(const Matrix &x, double dof, const Matrix &psi);

}  // namespace dpcov::random
