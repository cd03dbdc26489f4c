#include "unit_rows.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "../library_status.hpp"
#include "progress.hpp"
#include "unit_spill.hpp"
#include "unit_stream.hpp"

namespace dpcov::cli {

namespace {

// A uniform integer in [0, n), n >= 1: draws below the largest multiple of n that fits in 2^64
// are reduced mod n, the others drawn again, so every value has the same probability.
uint64_t uniform_below(dpcov_rng *rng, uint64_t n) {
  const uint64_t excess = (UINT64_MAX % n + 1) % n;  // 2^64 mod n
  for (;;) {
    uint64_t u = 0;
    library_check(dpcov_rng_next_u64(rng, &u), "drawing the rows a privacy unit keeps");
    if (excess == 0 || u <= UINT64_MAX - excess) return u % n;
  }
}

// Appends rows to the spool in blocks of kBlockRows, so that a unit's rows are not one write each.
class BlockWriter {
 public:
  BlockWriter(const RereadableInput::Append &append, int64_t cols)
      : append_(append), cols_(cols) {}
  BlockWriter(const BlockWriter &) = delete;
  BlockWriter &operator=(const BlockWriter &) = delete;

  // Appends one row, or a zero row when `row` is null.
  void row(const double *row) {
    const size_t at = block_.size();
    block_.resize(at + static_cast<size_t>(cols_), 0.0);
    if (row != nullptr) std::copy(row, row + cols_, block_.begin() + static_cast<ptrdiff_t>(at));
    if (++rows_ == kBlockRows) flush();
  }
  void flush() {
    if (rows_ > 0) append_(block_.data(), rows_);
    block_.clear();
    rows_ = 0;
  }

 private:
  static constexpr int64_t kBlockRows = 4096;
  const RereadableInput::Append &append_;
  int64_t cols_;
  std::vector<double> block_;
  int64_t rows_ = 0;
};

// Keeps exactly k rows of the unit of `count` rows at `rows`: a uniformly random k-subset (the
// first k places of a partial Fisher-Yates shuffle of the row indices) when count > k, else every
// row and k - count zero rows.
void keep_unit(const double *rows, int64_t count, int64_t cols, int64_t k, dpcov_rng *rng,
               BlockWriter &out, UnitRows &counts, std::vector<int64_t> &order) {
  if (count <= k) {
    for (int64_t i = 0; i < count; ++i) out.row(rows + i * cols);
    for (int64_t i = count; i < k; ++i) out.row(nullptr);
    counts.padded += k - count;
    return;
  }
  order.resize(static_cast<size_t>(count));
  std::iota(order.begin(), order.end(), int64_t{0});
  for (int64_t i = 0; i < k; ++i) {
    const auto j = i + static_cast<int64_t>(uniform_below(rng, static_cast<uint64_t>(count - i)));
    std::swap(order[static_cast<size_t>(i)], order[static_cast<size_t>(j)]);
    out.row(rows + order[static_cast<size_t>(i)] * cols);
  }
  counts.truncated += count - k;
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
        BlockWriter writer(append, cols);
        std::vector<int64_t> order;
        // Each batch holds whole units, their ids increasing (unit_spill.hpp).
        spill.replay([&](const std::vector<int64_t> &batch_ids, const std::vector<double> &batch) {
          size_t start = 0;
          while (start < batch_ids.size()) {
            size_t end = start;
            while (end < batch_ids.size() && batch_ids[end] == batch_ids[start]) ++end;
            keep_unit(batch.data() + start * static_cast<size_t>(cols),
                      static_cast<int64_t>(end - start), cols, max_rows_per_unit, rng, writer,
                      out, order);
            ++out.units;
            start = end;
          }
        });
        writer.flush();
      });
  return out;
}

}  // namespace dpcov::cli
