// The interface every input format implements: a stream of row-major chunks of rows.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace dpcov::cli {

// The library releases at most 46340 columns: d * d must fit a 32-bit BLAS integer.
inline constexpr int64_t kMaxColumns = 46340;
// Columns a file may hold, of which --columns then picks at most kMaxColumns. Checked before
// anything is allocated per column, so that a row of millions of columns is refused at once.
inline constexpr int64_t kMaxFileColumns = int64_t{1} << 16;

// Rows per chunk when none is requested: 65536 rows (per-call overhead then vanishes), fewer for
// wide rows so that a chunk stays within 16 MiB of doubles.
inline int64_t default_chunk_rows(int64_t dim) {
  constexpr int64_t kRows = 65536;
  constexpr int64_t kDoubles = int64_t{1} << 21;
  return std::clamp<int64_t>(kDoubles / dim, 1, kRows);
}

// A block of consecutive data rows, row-major (row i, column j at values[i * dim + j]).
struct Chunk {
  int64_t rows = 0;
  int64_t dim = 0;
  int64_t first_row = 0;       // 0-based index of the first row among all data rows of the input
  std::vector<double> values;  // capacity for the reader's chunk size, rows * dim in use
  std::vector<int64_t> lines;  // text inputs only: the 1-based file line of each row
};

class RowReader {
 public:
  virtual ~RowReader() = default;

  // The input's name in messages: its path, or "<stdin>".
  virtual const std::string &name() const = 0;
  // Number of columns delivered (after --columns).
  virtual int64_t dim() const = 0;
  // A name for each delivered column: the header name, or "column K" (K 1-based in the file).
  virtual const std::vector<std::string> &column_names() const = 0;
  // Replaces `chunk` with the next rows (at most the reader's chunk size); false at the end of
  // the input, with chunk.rows == 0. Throws CliError naming the file position of any bad field.
  virtual bool next_chunk(Chunk &chunk) = 0;
  // "file:LINE" (text) or "file: row R" (binary) for row i of `chunk`, 1-based, for messages.
  virtual std::string row_location(const Chunk &chunk, int64_t i) const = 0;
  // Bytes consumed so far and the total if known, for the progress display.
  virtual uint64_t bytes_read() const = 0;
  virtual std::optional<uint64_t> total_bytes() const = 0;
  // Facts about the input for receipts: {"path", "format", format-specific settings}.
  virtual nlohmann::ordered_json describe() const = 0;
};

}  // namespace dpcov::cli
