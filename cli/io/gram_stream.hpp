// Streams an input through a libdpcov Gram accumulator, chunk by chunk: memory O(d^2 + chunk).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <dpcov.h>

#include "readers/row_reader.hpp"

namespace dpcov::cli {

struct GramDeleter {
  void operator()(dpcov_gram *gram) const { dpcov_gram_destroy(&gram); }
};
using GramHandle = std::unique_ptr<dpcov_gram, GramDeleter>;

// The --clip / --reject / --drop choice, with its spelling for receipts.
struct BoundPolicy {
  int32_t value = DPCOV_BOUND_CLIP;
  const char *name() const;
};

// Reads every row of `reader` into a new accumulator with norm bound `bound` under `policy`,
// showing progress unless `quiet`. The library decides which rows are over the bound; a row it
// rejects is reported at its file position (CliError(kExitInputData)).
GramHandle accumulate_gram(RowReader &reader, double bound, BoundPolicy policy, bool quiet);

// Reads every row of `reader` into a new accumulator bounded as `spec` says
// (dpcov_gram_create_bounded: the library's row bounding, with a constant column or column bounds,
// and, for a named analyze_gauss or laplace_sym release with exact numerics, the exact integer
// Gram matrix on that release's grid), showing progress unless `quiet`: memory O(d^2 + chunk),
// whatever the number of rows. A row the library refuses is reported at its file position
// (CliError(kExitInputData)).
// With `plan`, the accumulator of that release (dpcov_gram_create_planned: its grid is the
// plan's, not searched again).
GramHandle accumulate_bounded(RowReader &reader, const dpcov_row_bounding &spec, bool quiet,
                              const dpcov_plan *plan = nullptr);

// Every row of an input in memory, row-major, for a release that needs the rows themselves
// (the zCDP row mechanisms): memory O(n d), against O(d^2) for the accumulators.
struct RowBuffer {
  std::vector<double> values;
  int64_t rows = 0;
  int64_t clipped = 0;  // rows over the bound (curator only)
};

// Reads every row of `reader`, showing progress unless `quiet`. Under --reject a row over `bound`
// is reported at its file position (CliError(kExitInputData)); under --clip it is counted (the
// library scales it down when it releases).
RowBuffer read_rows(RowReader &reader, double bound, BoundPolicy policy, bool quiet);

// A chunk's status from the library: a failure is reported at the refused row's file position
// (the chunk's first row when none is named).
void check_chunk(dpcov_status status, const RowReader &reader, const Chunk &chunk,
                 const dpcov_row_refusal &refusal);

// read_rows() without holding the rows: `values` stays empty (for releases that read the input
// again for each pass over it).
RowBuffer count_rows(RowReader &reader, double bound, BoundPolicy policy, bool quiet);

// The accumulator's counters.
dpcov_gram_info gram_info(const dpcov_gram *gram);

}  // namespace dpcov::cli
