#include "unit_rows.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "../library_status.hpp"
#include "progress.hpp"
#include "unit_spill.hpp"
#include "unit_stream.hpp"

namespace dpcov::cli {

namespace {

// Units handed to the library per call: enough for about kBlockRows output rows (at least one
// unit), so that a spill file of small units is not one call per unit and the output of a call,
// k rows per unit, stays a block however many units the file holds.
constexpr int64_t kBlockRows = 4096;

// The rows the units of one spill batch keep, exactly k each (dpcov_unit_rows_keep), appended
// to the spool a group of whole units at a time.
void keep_batch(const std::vector<int64_t> &ids, const std::vector<double> &rows, int64_t cols,
                int64_t k, dpcov_rng *rng, const RereadableInput::Append &append, UnitRows &out,
                std::vector<double> &kept) {
  const int64_t group_units = std::max<int64_t>(1, kBlockRows / k);
  const auto n = static_cast<int64_t>(ids.size());
  int64_t first = 0;
  while (first < n) {
    int64_t end = first, units = 0;
    while (end < n && (units < group_units || ids[static_cast<size_t>(end)] ==
                                                  ids[static_cast<size_t>(end - 1)])) {
      if (end == first || ids[static_cast<size_t>(end)] != ids[static_cast<size_t>(end - 1)])
        ++units;
      ++end;
    }
    kept.resize(static_cast<size_t>(units * k * cols));
    int64_t truncated = 0;
    library_check(dpcov_unit_rows_keep(rng, k, DPCOV_ROW_MAJOR, end - first, cols,
                                       rows.data() + first * cols, cols,
                                       ids.data() + first, kept.data(), units * k, cols,
                                       &truncated),
                  "drawing the rows the privacy units keep");
    append(kept.data(), units * k);
    out.units += units;
    out.truncated += truncated;
    out.padded += units * k - (end - first) + truncated;
    first = end;
  }
}

}  // namespace

UnitRows keep_unit_rows(RowReader &reader, int64_t unit_index, int64_t max_rows_per_unit,
                        dpcov_rng *rng, bool quiet) {
  const int64_t cols = reader.dim() - 1;
  UnitSpill spill(cols, spill_partitions(reader.total_bytes()));
  Progress progress(!quiet, reader.total_bytes());
  Chunk chunk;
  std::vector<double> rows;
  std::vector<int64_t> ids;
  int64_t seen = 0;
  while (reader.next_chunk(chunk)) {
    rows.clear();
    ids.clear();
    for (int64_t i = 0; i < chunk.rows; ++i)
      ids.push_back(split_row(reader, chunk, i, unit_index, rows));
    spill.add(ids.data(), rows.data(), chunk.rows);
    seen += chunk.rows;
    progress.update(reader.bytes_read(), seen);
  }
  progress.finish();
  std::vector<std::string> names = reader.column_names();
  names.erase(names.begin() + unit_index);
  UnitRows out;
  out.input = std::make_unique<RereadableInput>(
      reader.name(), names, reader.describe(), [&](const RereadableInput::Append &append) {
        std::vector<double> kept;
        // Each batch holds whole units, their ids increasing, in order of first appearance
        // (unit_spill.hpp).
        spill.replay([&](const std::vector<int64_t> &batch_ids, const std::vector<double> &batch) {
          keep_batch(batch_ids, batch, cols, max_rows_per_unit, rng, append, out, kept);
        });
      });
  return out;
}

}  // namespace dpcov::cli
