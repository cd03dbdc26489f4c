// The CLI's use of the library's row bounding (dpcov/gram.h, dpcov_row_bounding): the CLI never
// measures or scales a row itself. A row the library refuses comes back as data (its index in the
// chunk, the measure over the bound), which the messages here turn into the user's file position.
#pragma once

#include <cstdint>
#include <vector>

#include <dpcov.h>

#include "readers/row_reader.hpp"

namespace dpcov::cli {

// The spec with the library's defaults and `bound`, `policy` (replace-one).
dpcov_row_bounding row_bounding(double bound, int32_t policy);


// The library's bounding of one chunk of `reader` (dpcov_row_bounding_apply) into `out`
// (row-major, info.dim columns). A refused row is reported by `report` (which throws) at its own
// position; any other failure names the chunk. Returns the counters of the chunk.
using RefusalReport = void (*)(const RowReader &, const Chunk &, const dpcov_row_refusal &,
                               const dpcov_row_bounding &);
dpcov_gram_info bound_chunk(const RowReader &reader, const Chunk &chunk,
                            const dpcov_row_bounding &spec, std::vector<double> &out,
                            RefusalReport report);

}  // namespace dpcov::cli
