// Validation of the symmetric (positive definite) matrices the samplers take as parameters.
#pragma once

#include "../matrix.hpp"

namespace dpcov::random {

// `m` is square, at least 1 x 1, small enough for BLAS, finite and exactly symmetric; otherwise
// throws Status::Dimension / Status::TooLarge / Status::NonFinite / Status::InvalidArgument
// with a message naming `name`.
void check_symmetric_parameter(const Matrix &m, const char *name);

// check_symmetric_parameter(), then the lower Cholesky factor; throws
// Status::NotPositiveDefinite if `m` is not positive definite.
Matrix checked_cholesky(const Matrix &m, const char *name);

// The lower Cholesky factor, or an empty Matrix if `m` is not positive definite (for
// log-densities, where that means "outside the support" rather than an error).
Matrix cholesky_or_empty(const Matrix &m);

}  // namespace dpcov::random
