// The hot loops of the secular equation in iterative eigenvector sampling, each built twice: for
// the x86-64 baseline (SSE2) and for AVX2, chosen once at run time. The root finder's pass over
// the poles (a third of a release at d = 50-100), the eigenvector columns rebuilt for the backward
// rotations and the Loewner products (together a tenth to an eighth at d = 50-200). Both builds
// perform the same IEEE operations in the same order (no FMA: the AVX2 build does not enable it),
// so results do not depend on the machine; tests/unit/secular_test.cpp checks the two bit for
// bit.
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

// pole_sums for two roots at once: out[0] and delta_a as pole_sums(w, lambda, origin_a, shift_a,
// delta_a, split_a, m) gives them, out[1] and delta_b likewise for the second root, bit for bit
// (each root's operations in the same order). One root's pass ends in a chain of dependent
// steps (its sums, then the root finder's square root and divisions) that leaves the core idle;
// two roots' passes in one loop, then their two steps, keep it busy.
void pole_sums_two(const double *w, const double *lambda, int64_t m, double origin_a,
                   double shift_a, double *delta_a, int64_t split_a, double origin_b,
                   double shift_b, double *delta_b, int64_t split_b, SplitPoleSums *out);
void pole_sums_two_portable(const double *w, const double *lambda, int64_t m, double origin_a,
                            double shift_a, double *delta_a, int64_t split_a, double origin_b,
                            double shift_b, double *delta_b, int64_t split_b, SplitPoleSums *out);
void pole_sums_two_avx2(const double *w, const double *lambda, int64_t m, double origin_a,
                        double shift_a, double *delta_a, int64_t split_a, double origin_b,
                        double shift_b, double *delta_b, int64_t split_b, SplitPoleSums *out);

// One unit eigenvector of a secular problem in place: col_i = loewner_i / delta_i with
// delta_i = (poles_i - origin) - shift (the distances pole_sums writes), i < m, then every entry
// times 1 / ||col||, the squares summed in four interleaved partial sums (i mod 4; the tail after
// the last whole group of four adds to the first). Explicit four-wide vectors: the compiler's
// baseline build left these divisions scalar, one at a time through the divider.
void eigenvector_column(const double *poles, const double *loewner, double origin, double shift,
                        int64_t m, double *col);
void eigenvector_column_portable(const double *poles, const double *loewner, double origin,
                                 double shift, int64_t m, double *col);
void eigenvector_column_avx2(const double *poles, const double *loewner, double origin,
                             double shift, int64_t m, double *col);

// One root's factors of Loewner's products for coordinates begin <= j < end:
// num_j *= -delta_k[j] and den_j *= pole - lambda_j.
void loewner_factors(double *num, double *den, const double *delta_k, double pole,
                     const double *lambda, int64_t begin, int64_t end);
void loewner_factors_portable(double *num, double *den, const double *delta_k, double pole,
                              const double *lambda, int64_t begin, int64_t end);
void loewner_factors_avx2(double *num, double *den, const double *delta_k, double pole,
                          const double *lambda, int64_t begin, int64_t end);

}  // namespace dpcov::linalg::detail
