// The released statistics of an AdaSSP fit as the interval entry points read them
// (dpcov_adassp_bootstrap_intervals, dpcov_adassp_intervals, dpcov_adassp_sandwich_intervals,
// dpcov_adassp_profile_intervals):
// validated once, in one place, and their results written finite or not at all.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "../core/matrix.hpp"
#include "../core/mechanisms/adassp.hpp"
#include "dpcov/adassp.h"

namespace dpcov::capi {

// The released statistics and the receipt's noise scales and bounds, validated, for the
// interval entry points.
struct ReleasedStatistics {
  Matrix xtx;
  std::vector<double> xty;
  mechanisms::AdasspReceipt receipt;
};

// Checks the receipt (struct size; a row-level fit), released_xty, p against the receipt, level
// in (0, 1) and the matrix argument, and copies them. Throws the checks' statuses.
ReleasedStatistics read_statistics(int32_t layout, int64_t p, const double *released_xtx,
                                   int64_t ld_xtx, const double *released_xty,
                                   const dpcov_adassp_receipt *receipt, double level);

// read_statistics, and the generator of the draws checked not null.
ReleasedStatistics read_release(int32_t layout, int64_t p, const double *released_xtx,
                                int64_t ld_xtx, const double *released_xty,
                                const dpcov_adassp_receipt *receipt, const dpcov_rng *rng,
                                double level);

// A square p x p argument, finite and symmetric, copied.
Matrix read_square(int32_t layout, int64_t p, const double *a, int64_t lda, const char *name);

// Checks every result finite, then copies each to its output where the output is not NULL.
void write_intervals(int64_t p, std::initializer_list<const std::vector<double> *> results,
                     std::initializer_list<double *> outputs);

}  // namespace dpcov::capi
