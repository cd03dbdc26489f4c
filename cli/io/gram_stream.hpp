// Streams an input through a libdpcov Gram accumulator, chunk by chunk: memory O(d^2 + chunk).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <dpcov.h>

#include "../options/column_bounds_option.hpp"
#include "readers/row_reader.hpp"

namespace dpcov::cli {

struct GramDeleter {
  void operator()(dpcov_gram *gram) const { dpcov_gram_destroy(&gram); }
};
using GramHandle = std::unique_ptr<dpcov_gram, GramDeleter>;

struct ExactGramDeleter {
  void operator()(dpcov_exact_gram *acc) const { dpcov_exact_gram_destroy(&acc); }
};
using ExactGramHandle = std::unique_ptr<dpcov_exact_gram, ExactGramDeleter>;

// The --clip / --reject / --drop choice, with its spelling for receipts.
struct BoundPolicy {
  int32_t value = DPCOV_BOUND_CLIP;
  const char *name() const;
};

// Reads every row of `reader` into a new accumulator with norm bound `bound` under `policy`,
// showing progress unless `quiet`. The library decides which rows are over the bound; a row it
// rejects is reported at its file position (CliError(kExitInputData)).
GramHandle accumulate_gram(RowReader &reader, double bound, BoundPolicy policy, bool quiet);

// Reads every row of `reader` into the exact accumulator `acc` (dpcov/exact.h; its bound
// `bound`), as accumulate_gram() does: memory O(d^2 + chunk), whatever the number of rows.
void accumulate_exact_gram(RowReader &reader, dpcov_exact_gram *acc, double bound, bool quiet);

// Reads every row of `reader`, scales it into the box by the public per-column `bounds` with the
// library's row bounding (as accumulate_scaled_gram() does) and adds the rows [1, z] to the exact
// accumulator `acc` (d + 1 columns, the scaled rows' norm bound, which keeps every one whole).
// Returns the number of values outside their range (curator only).
int64_t accumulate_exact_scaled_gram(RowReader &reader, const ColumnBounds &bounds,
                                     dpcov_exact_gram *acc, bool quiet);

// Reads every row of `reader`, scales it into the box by the public per-column `bounds`
// (dpcov_column_bounds_scale_rows: [1, z] with z in [-1, 1]) and adds it to a new accumulator of
// d + 1 columns with the scaled rows' norm bound. `clamped` receives the number of values outside
// their range (curator only).
GramHandle accumulate_scaled_gram(RowReader &reader, const ColumnBounds &bounds, bool quiet,
                                  int64_t &clamped);

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

// The accumulator's counters.
dpcov_gram_info gram_info(const dpcov_gram *gram);
dpcov_gram_info gram_info(const dpcov_exact_gram *acc);

}  // namespace dpcov::cli
