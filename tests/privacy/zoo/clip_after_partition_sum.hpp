// Models a library that splits the rows into partitions (chunks processed in parallel, or the
// groups of a grouped release), sums each partition's X^T X and clips the sum (scaled down to a
// trace of at most m B^2 for m rows) instead of clipping each row to norm B before summing. The
// clip bounds a partition's average row, not any one row: a row of norm sqrt(m) B among m - 1
// zero rows passes unclipped, and changing it moves X^T X by m times the sensitivity the noise
// covers.
//
// Broken: partition sums clipped. Corrected: rows clipped to B, then summed. Both add Analyze
// Gauss noise for rows of norm B (replace-one, analytic Gaussian). The pair: d = 2, B = 1, two
// partitions of m = 4 rows; row 0 of the first is 2 e_1 -> 2 e_2, its other rows zero.
#pragma once

#include "zoo_case.hpp"

namespace dpcov::audit::zoo {

ZooCase clip_after_partition_sum(Variant variant, double epsilon, double delta);

}  // namespace dpcov::audit::zoo
