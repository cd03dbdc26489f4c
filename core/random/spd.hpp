// Validation of the symmetric (positive definite) matrices the samplers take as parameters.
#pragma once

#include "../matrix.hpp"

namespace dpcov::random {

// `m` is square, at least 1 x 1, small enough for BLAS, finite and exactly symmetric; otherwise
// throws DPCOV_E_DIMENSION / DPCOV_E_TOO_LARGE / DPCOV_E_NON_FINITE / DPCOV_E_INVALID_ARGUMENT
// with a message naming `name`.
void check_symmetric_parameter(const Matrix &m, const char *name);

// check_symmetric_parameter(), then the lower Cholesky factor; throws
// DPCOV_E_NOT_POSITIVE_DEFINITE if `m` is not positive definite.
Matrix checked_cholesky(const Matrix &m, const char *name);

// The lower Cholesky factor, or an empty Matrix if `m` is not positive definite (for
// log-densities, where that means "outside the support" rather than an error).
Matrix cholesky_or_empty(const Matrix &m);

}  // namespace dpcov::random
