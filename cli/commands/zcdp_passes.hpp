// `dpcov release` of Dong-Liang-Yi and CoinPress from an input read once per pass
// (dpcov/row_passes.h) instead of held: memory O(d^2 + chunk) whatever the number of rows. A first
// read counts the rows (n is public and fixes the plan) and bounds them as the in-memory release
// does; then each pass the library's session asks for reads the input again in chunks: a file
// opened again, standard input or a pipe from its spool (io/rereadable_input.hpp). coinpress
// --center holds the rows it centres: it keeps the in-memory release.
#pragma once

#include <cstdint>

#include <dpcov.h>

#include "../io/gram_stream.hpp"
#include "../io/rereadable_input.hpp"
#include "zcdp_release.hpp"

namespace dpcov::cli {

// Whether the release of `o` reads its input once per pass: dly_* and coinpress without --center.
bool zcdp_rereads_input(const ZcdpReleaseOptions &o);

// The release by `plan` (dly_*, or coinpress without --center) of the n rows of `input`, whose
// first pass (the count) was read already, each pass reading it again. The session draws from a
// copy of `rng`'s state, and `rng` is then advanced, so that it has moved on from the noise the
// session spends (and a failure from then on is charged). Writes the estimate of X^T X / n
// (d x d, row-major) to `released` and the receipt of the mechanism run to `dly` or `coinpress`.
// Returns the library's status; `released` is untouched on failure. Throws CliError for an input
// that cannot be read again.
dpcov_status zcdp_release_passes(const ZcdpReleaseOptions &o, RereadableInput &input,
                                 const ZcdpPlan &plan, int64_t n, int64_t d, dpcov_rng *rng,
                                 double *released, dpcov_dly_receipt *dly,
                                 dpcov_coinpress_receipt *coinpress);

}  // namespace dpcov::cli
