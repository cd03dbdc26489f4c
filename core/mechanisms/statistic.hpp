// The Gram statistic a mechanism receives and the matrices it returns: validation and the exact
// symmetric arithmetic shared by the additive mechanisms.
#pragma once

#include "../matrix.hpp"
#include "request.hpp"

namespace dpcov::mechanisms {

// Checks that `gram` can be the Gram matrix of request.n rows of norm <= request.bound: d x d,
// finite, exactly symmetric, diagonal >= 0 and trace <= n B^2 (each row adds its squared norm to the
// trace; a relative 1e-9 allows for the rounding of the accumulation). A valid statistic never
// fails these checks, so refusing the others reveals nothing about valid data. Throws
// Status::Dimension, Status::NonFinite, Status::InvalidArgument or Status::NormBound.
void check_gram_statistic(ConstMatrixView gram, const Request &request);

// Checks that a released matrix given to a log-density is d x d, finite and exactly symmetric.
void check_released(ConstMatrixView released, int64_t dim);

// base + noise computed on the upper triangle and mirrored, so the result is exactly symmetric.
Matrix add_mirrored(ConstMatrixView base, const Matrix &noise);

// released - base computed on the upper triangle and mirrored.
Matrix subtract_mirrored(ConstMatrixView released, ConstMatrixView base);

// c I, d x d: the Wishart scale matrices.
Matrix scaled_identity(int64_t dim, double c);

}  // namespace dpcov::mechanisms
