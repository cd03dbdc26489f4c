// Streams an input whose rows belong to privacy units (`--privacy-unit COLUMN`) through a libdpcov
// accumulator of units (dpcov_gram_add_unit_rows): the unit column is taken out of each chunk as
// the rows' integer ids, the other columns are the rows. Memory O(d^2 + k d + chunk).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <dpcov.h>

#include "gram_stream.hpp"
#include "readers/row_reader.hpp"

namespace dpcov::cli {

// The unit column's index among the reader's delivered columns; CliError(kExitUsage) when it is
// not one of them.
int64_t unit_column_index(const RowReader &reader, const std::string &name);

// CliError(kExitUsage) unless mechanism `id` (named `name` on the command line) releases from an
// accumulator of privacy units: its registry entry names a unit proof.
void require_unit_mechanism(int32_t id, const std::string &name);

// The public bound of the units' contributions for `spec` (with max_rows_per_unit set) on rows
// of `cols` raw columns, as the library computes it (dpcov_gram_info::bound): what a release
// from such an accumulator is planned at.
double unit_contribution_bound(const dpcov_row_bounding &spec, int64_t cols);

// Reads every row of `reader` into a new accumulator of units bounded as `spec` says, the unit of
// each row in column `unit_index` (integers, each unit's rows contiguous, units in increasing
// order), drawing the rows kept per unit from `rng` (the release's generator), and closes the last
// unit. A unit id that is not an integer, or that goes back, is reported at its file position
// (CliError(kExitInputData)).
GramHandle accumulate_units(RowReader &reader, const dpcov_row_bounding &spec, int64_t unit_index,
                            dpcov_rng *rng, bool quiet);

}  // namespace dpcov::cli
