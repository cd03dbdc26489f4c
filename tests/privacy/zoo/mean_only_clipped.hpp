// Models a library that computes a covariance as the scatter of the raw rows about a mean of
// clipped rows: the mean's clipping is what its sensitivity analysis looked at, but the scatter
// sum (x_i - mu)(x_i - mu)^T reads the rows unclipped, so one far row moves it without bound while
// the noise is sized for rows of norm B.
//
// Broken: rows clipped for the mean only. Corrected: rows clipped to B, then the mean and the
// scatter of the clipped rows. Both add Gaussian noise (analytic Gaussian) for the scatter's
// replace-one sensitivity over rows of norm B, (sqrt(2) + 4) B^2 (the change of x x^T, at most
// sqrt(2) B^2, plus that of n mu mu^T, at most n 2 (2 B / n) B). The pair: d = 2, B = 1, 10 rows;
// row 0 is 0 -> 10 e_1.
#pragma once

#include "zoo_case.hpp"

namespace dpcov::audit::zoo {

ZooCase mean_only_clipped(Variant variant, double epsilon, double delta);

}  // namespace dpcov::audit::zoo
