// The symmetric eigen-decomposition by LAPACK's divide and conquer (dsyevd), where eigh uses
// MRRR (dsyevr): 10-25% faster for the full decomposition at d = 50-200 with Debian's OpenBLAS
// (bench/results/iev_vs_reference.md), for callers that want every eigenvector. Its own header
// so that the widely included blas.hpp does not change.
#pragma once

#include "blas.hpp"

namespace dpcov::linalg {

// As eigh: values ascending, orthonormal vectors as columns, Status::Numerical if LAPACK fails.
SymmetricEigen eigh_divide_and_conquer(const Matrix &a);

}  // namespace dpcov::linalg
