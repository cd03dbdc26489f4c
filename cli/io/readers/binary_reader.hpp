// Reader of binary matrices: NumPy .npy files and raw little-endian float64 streams.
//
// Row-major (C-order) data streams in one sequential pass, from files and from pipes alike.
// Column-major (Fortran-order) .npy data is read in column blocks with positioned reads: for each
// chunk of rows, one read per selected column. This keeps memory at one chunk, but needs a regular
// file; on a pipe such input is refused with a message saying how to convert it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "byte_source.hpp"
#include "npy_header.hpp"
#include "row_reader.hpp"

namespace dpcov::cli {

// Where the matrix lies in the input and how it is stored.
struct BinaryLayout {
  std::string format;           // "npy" or "raw", for receipts
  int npy_version = 0;          // 0 for raw
  ElementType type;
  bool fortran_order = false;
  std::optional<int64_t> rows;  // unknown only for a raw stream of unknown size
  int64_t cols = 0;
  uint64_t data_offset = 0;     // bytes before the first element (already consumed)
};

class BinaryReader final : public RowReader {
 public:
  BinaryReader(std::unique_ptr<ByteSource> source, const BinaryLayout &layout,
               const std::vector<std::string> &columns, int64_t chunk_rows);

  const std::string &name() const override { return source_->name(); }
  int64_t dim() const override { return dim_; }
  const std::vector<std::string> &column_names() const override { return names_; }
  bool next_chunk(Chunk &chunk) override;
  std::string row_location(const Chunk &chunk, int64_t i) const override;
  uint64_t bytes_read() const override { return source_->bytes_read(); }
  std::optional<uint64_t> total_bytes() const override { return source_->size(); }
  nlohmann::ordered_json describe() const override;

 private:
  // Reads the next `rows` rows (row-major in the file) into staging_ or straight into `out`.
  int64_t read_row_major(int64_t rows, double *out);
  void read_column_major(int64_t rows, double *out);
  // Checks that nothing follows the array in a stream.
  void expect_end();
  // Throws, naming the first non-finite value among rows [0, rows) of `out`.
  void check_finite(const double *out, int64_t rows, int64_t first_row) const;

  std::unique_ptr<ByteSource> source_;
  BinaryLayout layout_;
  std::vector<int64_t> picked_;  // 0-based file columns, in output order
  bool identity_ = true;
  bool direct_ = false;          // float64 little-endian, all columns in order: no conversion
  std::vector<std::string> names_;
  int64_t dim_ = 0;
  int64_t chunk_rows_;
  int64_t rows_done_ = 0;
  bool ended_ = false;
  std::vector<char> staging_;
};

// Opens a .npy input (the source positioned at its start).
std::unique_ptr<BinaryReader> open_npy(std::unique_ptr<ByteSource> source,
                                       const std::vector<std::string> &columns,
                                       int64_t chunk_rows);

// Opens a raw little-endian float64 input of `cols` columns; the row count is the file size
// divided by the row size (a partial last row is an error), or, for a stream, whatever arrives.
std::unique_ptr<BinaryReader> open_raw(std::unique_ptr<ByteSource> source, int64_t cols,
                                       const std::vector<std::string> &columns,
                                       int64_t chunk_rows);

}  // namespace dpcov::cli
