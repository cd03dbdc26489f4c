// Streams an input through a libdpcov Gram accumulator, chunk by chunk: memory O(d^2 + chunk).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

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

// The accumulator's counters.
dpcov_gram_info gram_info(const dpcov_gram *gram);

}  // namespace dpcov::cli
