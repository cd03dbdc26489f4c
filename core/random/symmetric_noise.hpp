// Symmetric noise matrices: iid entries on the upper triangle (diagonal included), mirrored.
#pragma once

#include "../matrix.hpp"
#include "rng.hpp"

namespace dpcov::random {

// Fills the square matrix `out` (its current size, d >= 1) with N(0, sigma^2) entries on the upper
// triangle, drawn column by column (j = 0..d-1, i = 0..j), and mirrors them so out(i, j) and
// out(j, i) are the same double. Throws Status::Dimension, Status::InvalidArgument /
// Status::NonFinite (sigma not finite and > 0).
void symmetric_gaussian_noise(Rng &rng, double sigma, Matrix &out);

// As above with Laplace(scale) entries, density exp(-|x| / b) / (2 b).
void symmetric_laplace_noise(Rng &rng, double scale, Matrix &out);

// ln density of the d(d+1)/2 upper-triangle entries (diagonal included) of `noise`:
// sum_{i<=j} [-x_ij^2 / (2 sigma^2) - ln(sigma sqrt(2 pi))]; -infinity if `noise` is not exactly
// symmetric (outside the support). Throws on a non-square or non-finite `noise` and bad sigma.
double symmetric_gaussian_log_density(const Matrix &noise, double sigma);

// sum_{i<=j} [-|x_ij| / b - ln(2 b)]; -infinity if not exactly symmetric.
double symmetric_laplace_log_density(const Matrix &noise, double scale);

}  // namespace dpcov::random
