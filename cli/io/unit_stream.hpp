// Streams an input whose rows belong to privacy units (`--privacy-unit COLUMN`) through a libdpcov
// accumulator of units (dpcov_gram_add_unit_rows): the unit column is taken out of each chunk as
// the rows' integer ids, the other columns are the rows.
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

// Why mechanism `id` refuses privacy units, its registry entry's unit_refusal ("" when it takes
// them).
std::string unit_refusal_of(int32_t id);

// CliError(kExitUsage), quoting unit_refusal_of(id), unless mechanism `id` (named `name` on the
// command line) releases from an accumulator of privacy units: its registry entry names a unit
// proof.
void require_unit_mechanism(int32_t id, const std::string &name);

// Splits chunk row i of `reader` into its unit id (the integer-valued entry in column
// `unit_index`, |id| < 2^53, where doubles hold every integer; else CliError(kExitInputData) at
// the row's file position), returned, and the other columns, appended to `rows`.
int64_t split_row(const RowReader &reader, const Chunk &chunk, int64_t i, int64_t unit_index,
                  std::vector<double> &rows);

// The public bound of the units' contributions for `spec` (with max_rows_per_unit set) on rows
// of `cols` raw columns, as the library computes it (dpcov_gram_info::bound): what a release
// from such an accumulator is planned at.
double unit_contribution_bound(const dpcov_row_bounding &spec, int64_t cols);

// Reads every row of `reader` into a new accumulator of units bounded as `spec` says, the unit of
// each row in column `unit_index` (integer ids below 2^53), drawing the rows kept per unit from
// `rng` (the release's generator), and closes the last unit. Units whose rows are contiguous and
// in increasing order of id stream in O(d^2 + k d + chunk) memory; any other order is grouped
// through spill files (unit_spill.hpp), in memory for one spill file's rows, and drawn in order of
// first appearance from the generator's state before the stream, as a sorted input is. A unit id
// that is not
// an integer is reported at its file position (CliError(kExitInputData)).
GramHandle accumulate_units(RowReader &reader, const dpcov_row_bounding &spec, int64_t unit_index,
                            dpcov_rng *rng, bool quiet);

}  // namespace dpcov::cli
