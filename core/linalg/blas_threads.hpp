// The number of threads the BLAS runs on, which callers read to choose between a BLAS routine and
// a single-threaded kernel of their own; dpcov never sets it (docs/threading.md).
#pragma once

namespace dpcov::linalg {

int blas_threads();

}  // namespace dpcov::linalg
