// The root finder's pass over the poles of a secular equation, the hot loop of iterative
// eigenvector sampling (a third of a release at d = 50-100), built twice: for the x86-64 baseline
// (SSE2) and for AVX2, chosen once at run time. Both builds perform the same IEEE operations in
// the same order (no FMA: the AVX2 build does not enable it), so results do not depend on the
// machine; tests/unit/secular_test.cpp checks the two bit for bit.
#pragma once

#include <cstdint>

namespace dpcov::linalg::detail {

struct PoleSums {
  double value, slope;
};

// The sums over the poles above the root (j < split) and below it (split <= j < m).
struct SplitPoleSums {
  PoleSums above, below;
};

// sum_j w_j / delta_j and sum_j w_j / delta_j^2 over j < split and over split <= j < m, writing
// delta_j = (lambda_j - origin) - shift for j < m on the way. lambda decreases, and the poles
// before `split` lie above the point origin + shift, the others below (elsewhere the sums are
// still right, at one division per pole). Each term is within 2 eps (value) and 3.5 eps (slope)
// of its exact value, against 1 and 1.5 eps for a division per pole.
SplitPoleSums pole_sums(const double *w, const double *lambda, double origin, double shift,
                        double *delta, int64_t split, int64_t m);

// The two builds pole_sums chooses between; pole_sums_avx2 only where has_avx2().
SplitPoleSums pole_sums_portable(const double *w, const double *lambda, double origin,
                                 double shift, double *delta, int64_t split, int64_t m);
SplitPoleSums pole_sums_avx2(const double *w, const double *lambda, double origin, double shift,
                             double *delta, int64_t split, int64_t m);
bool has_avx2();

}  // namespace dpcov::linalg::detail
