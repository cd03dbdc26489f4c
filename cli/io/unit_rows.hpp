// The rows privacy units keep for a mechanism that reads rows rather than a Gram matrix and whose
// n is public (replace-one): Dong-Liang-Yi and CoinPress (proofs/unit_group_privacy.md, "Row
// mechanisms"). Each unit keeps exactly k rows, as the library's dpcov_unit_rows_keep chooses
// them: a uniformly random k-subset of its rows, drawn with the release's generator, or all of
// them and zero rows up to k; so n = k U is public with the number of units U, and a unit's rows
// all replaced is k rows replaced. The truncation happens once, before any pass: the rows kept
// are written to a private spool (row_spool.hpp) that every pass reads again, so each pass sees
// the same k rows of each unit. The grouping is the Gram path's (unit_spill.hpp), units in order
// of first appearance as the library's policy states them: two writes and two reads of about
// (d + 2) 8 bytes per row, memory for one spill file's rows; then one write of k U d 8 bytes and
// one read of it per pass.
#pragma once

#include <cstdint>
#include <memory>

#include <dpcov.h>

#include "readers/row_reader.hpp"
#include "rereadable_input.hpp"

namespace dpcov::cli {

struct UnitRows {
  std::unique_ptr<RereadableInput> input;  // the k U rows kept, without the unit column
  int64_t units = 0;      // U (public under replace-one)
  int64_t truncated = 0;  // rows left out by the k limit (curator only)
  int64_t padded = 0;     // zero rows added to units of fewer than k rows (curator only)
};

// Reads every row of `reader` (the unit in column `unit_index`, integer ids below 2^53), groups
// them by unit and keeps exactly `max_rows_per_unit` rows of each, drawn from `rng`.
UnitRows keep_unit_rows(RowReader &reader, int64_t unit_index, int64_t max_rows_per_unit,
                        dpcov_rng *rng, bool quiet);

}  // namespace dpcov::cli
