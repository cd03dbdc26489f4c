// `dpcov release` of Dong-Liang-Yi and CoinPress (the covariance, centred or not, and the mean)
// from an input read once per pass (dpcov/row_passes.h) instead of held: memory O(d^2 + chunk)
// whatever the number of rows. A first read counts the rows (n is public and fixes the plan) and
// bounds them as the in-memory release does; then each pass the library's session asks for reads
// the input again in chunks: a file opened again, standard input or a pipe from its spool
// (io/rereadable_input.hpp). coinpress --center runs the mean's passes, then the covariance's over
// the rows centred on the released mean by the library as each chunk is added.
#pragma once

#include <cstdint>
#include <vector>

#include <dpcov.h>

#include "../io/gram_stream.hpp"
#include "../io/rereadable_input.hpp"
#include "zcdp_release.hpp"

namespace dpcov::cli {

// The private mean coinpress --center centred the rows on, and its receipt.
struct CentringMean {
  std::vector<double> mean;
  dpcov_coinpress_mean_receipt receipt{};
};

// The release by `plan` (dly_*, or coinpress with or without --center) of the n rows of `input`,
// whose first pass (the count) was read already, each pass reading it again. The first session
// draws from a copy of `rng`'s state, and `rng` is then advanced, so that it has moved on from the
// noise the sessions spend (and a failure from then on is charged); a centred covariance session
// continues the mean session's generator, so the pair draws what the in-memory mean and
// covariance releases draw from one generator. Writes the estimate of X^T X / n (d x d,
// row-major) to `released`, the receipt of the mechanism run to `dly` or `coinpress`, and with
// --center the mean to `centring`. Returns the library's status; `released` is untouched on
// failure. Throws CliError for an input that cannot be read again.
dpcov_status zcdp_release_passes(const ZcdpReleaseOptions &o, RereadableInput &input,
                                 const ZcdpPlan &plan, int64_t n, int64_t d, dpcov_rng *rng,
                                 double *released, dpcov_dly_receipt *dly,
                                 dpcov_coinpress_receipt *coinpress, CentringMean *centring);

// coinpress_mean by passes over `input` as zcdp_release_passes() runs them: the private mean (d
// values) to `mean` and its receipt.
dpcov_status coinpress_mean_passes(const ZcdpReleaseOptions &o, RereadableInput &input,
                                   const ZcdpPlan &plan, int64_t n, int64_t d, dpcov_rng *rng,
                                   double *mean, dpcov_coinpress_mean_receipt *receipt);

}  // namespace dpcov::cli
