// Post-processing by the spectrum of a released symmetric matrix. Functions of a release only:
// they cost no privacy.
#pragma once

#include "../matrix.hpp"

namespace dpcov::postprocess {

// V diag(clamp(lambda_i, lower, upper)) V^T for the eigendecomposition Y = V diag(lambda) V^T,
// exactly symmetric. lower <= upper; either may be infinite. With [0, n B^2] this is Amin et al.'s
// clipping (NeurIPS 2019, Sec. 4): the Gram matrix of n rows of norm <= B has its spectrum there.
// Throws Status::InvalidArgument (lower > upper or NaN), Status::Numerical.
Matrix clip_eigenvalues(const Matrix &y, double lower, double upper);

// The nearest positive semidefinite matrix in Frobenius norm: negative eigenvalues set to 0
// (Higham 1988).
Matrix project_psd(const Matrix &y);

}  // namespace dpcov::postprocess
