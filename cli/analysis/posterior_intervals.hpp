// AdaSSP's intervals with an answer at every n (dpcov_adassp_intervals): the parametric
// bootstrap where the released X'X~ allows it, else the noise-aware posterior
// (proofs/adassp_posterior.md), with the coefficients that cannot support a conclusion flagged.
#pragma once

#include <cstdint>
#include <vector>

#include <dpcov.h>

#include "regression_intervals.hpp"

namespace dpcov::cli {

// Fills `out` (its vectors sized p = receipt.num_regressors, n > p) from dpcov_adassp_intervals
// with `draws` draws of `rng`: the method that answered, the conclusive flags, and NaN intervals
// for a coefficient whose interval covers every value that matters (the outcome of every surface).
void adassp_intervals_at_every_n(const std::vector<double> &xtx, const std::vector<double> &xty,
                                 int64_t n, const dpcov_adassp_receipt &receipt, double level,
                                 int64_t draws, int64_t intercept_column, dpcov_rng *rng,
                                 NoiseAware &out);

// One line for standard error naming the coefficients that cannot support a conclusion, or ""
// when every one can.
std::string inconclusive_warning(const NoiseAware &a, const std::vector<std::string> &terms);

}  // namespace dpcov::cli
