#include "binary_reader.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

#include "../../cli_error.hpp"
#include "column_selection.hpp"

namespace dpcov::cli {

namespace {

static_assert(std::endian::native == std::endian::little,
              "the binary readers assume a little-endian host");

// The element of type T stored at `at` (byte-swapped first if `swap`), as a double.
template <class T>
double load_as(const char *at, bool swap) {
  T value;
  std::memcpy(&value, at, sizeof(T));
  if (swap) {
    if constexpr (sizeof(T) == 2) {
      uint16_t u;
      std::memcpy(&u, &value, 2);
      u = __builtin_bswap16(u);
      std::memcpy(&value, &u, 2);
    } else if constexpr (sizeof(T) == 4) {
      uint32_t u;
      std::memcpy(&u, &value, 4);
      u = __builtin_bswap32(u);
      std::memcpy(&value, &u, 4);
    } else if constexpr (sizeof(T) == 8) {
      uint64_t u;
      std::memcpy(&u, &value, 8);
      u = __builtin_bswap64(u);
      std::memcpy(&value, &u, 8);
    }
  }
  return static_cast<double>(value);
}

using Loader = double (*)(const char *, bool);

Loader loader_for(const ElementType &type) {
  switch (type.kind) {
    case 'f': return type.size == 4 ? &load_as<float> : &load_as<double>;
    case 'i':
      switch (type.size) {
        case 1: return &load_as<int8_t>;
        case 2: return &load_as<int16_t>;
        case 4: return &load_as<int32_t>;
        default: return &load_as<int64_t>;
      }
    default:
      switch (type.size) {
        case 1: return &load_as<uint8_t>;
        case 2: return &load_as<uint16_t>;
        case 4: return &load_as<uint32_t>;
        default: return &load_as<uint64_t>;
      }
  }
}

}  // namespace

BinaryReader::BinaryReader(std::unique_ptr<ByteSource> source, const BinaryLayout &layout,
                           const std::vector<std::string> &columns, int64_t chunk_rows)
    : source_(std::move(source)), layout_(layout), chunk_rows_(chunk_rows) {
  if (layout_.cols > kMaxFileColumns)
    fail(kExitInputData, source_->name(), ": ", layout_.cols,
         " columns per row; dpcov reads at most ", kMaxFileColumns, " and releases at most ",
         kMaxColumns);
  picked_ = resolve_columns(columns, layout_.cols, {});
  dim_ = static_cast<int64_t>(picked_.size());
  for (size_t k = 0; k < picked_.size(); ++k) {
    identity_ = identity_ && picked_[k] == static_cast<int64_t>(k);
    names_.push_back(default_column_name(picked_[k]));
  }
  identity_ = identity_ && dim_ == layout_.cols;
  if (chunk_rows_ == 0) chunk_rows_ = default_chunk_rows(dim_);
  direct_ = identity_ && !layout_.fortran_order && layout_.type.kind == 'f' &&
            layout_.type.size == 8 && !layout_.type.big_endian;
  if (layout_.fortran_order && !source_->is_regular_file())
    fail(kExitInputData, source_->name(),
         ": a Fortran-order (column-major) .npy array cannot be streamed row by row from a pipe; "
         "give the file path instead, or save it in C order "
         "(numpy.save(path, numpy.ascontiguousarray(a)))");
}

bool BinaryReader::next_chunk(Chunk &chunk) {
  chunk.dim = dim_;
  chunk.first_row = rows_done_;
  chunk.values.resize(static_cast<size_t>(chunk_rows_ * dim_));
  chunk.lines.clear();
  int64_t wanted = chunk_rows_;
  if (layout_.rows) wanted = std::min(wanted, *layout_.rows - rows_done_);
  int64_t rows = 0;
  if (!ended_ && wanted > 0) {
    if (layout_.fortran_order) {
      read_column_major(wanted, chunk.values.data());
      rows = wanted;
    } else {
      rows = read_row_major(wanted, chunk.values.data());
    }
    check_finite(chunk.values.data(), rows, rows_done_);
  }
  rows_done_ += rows;
  if (!ended_ && layout_.rows && rows_done_ == *layout_.rows) expect_end();
  chunk.rows = rows;
  return rows > 0;
}

int64_t BinaryReader::read_row_major(int64_t rows, double *out) {
  const auto row_bytes = static_cast<size_t>(layout_.cols * layout_.type.size);
  const size_t wanted = static_cast<size_t>(rows) * row_bytes;
  char *target = direct_ ? reinterpret_cast<char *>(out) : nullptr;
  if (!direct_) {
    staging_.resize(wanted);
    target = staging_.data();
  }
  const size_t got = source_->read(target, wanted);
  if (got < wanted) {
    ended_ = true;
    if (layout_.rows)
      fail(kExitInputData, source_->name(), ": the input ends after ",
           layout_.data_offset + static_cast<uint64_t>(rows_done_) * row_bytes + got,
           " bytes, inside row ", rows_done_ + static_cast<int64_t>(got / row_bytes) + 1, " of ",
           *layout_.rows, " (truncated file?)");
    if (got % row_bytes != 0)
      fail(kExitInputData, source_->name(), ": the input ends inside row ",
           rows_done_ + static_cast<int64_t>(got / row_bytes) + 1, ": its size, ",
           static_cast<uint64_t>(rows_done_) * row_bytes + got,
           " bytes, is not a multiple of the row size ", row_bytes, " (", layout_.cols,
           " float64 columns: is --dims right?)");
    rows = static_cast<int64_t>(got / row_bytes);
  }
  if (!direct_) {
    const Loader load = loader_for(layout_.type);
    const bool swap = layout_.type.big_endian;
    const int size = layout_.type.size;
    for (int64_t r = 0; r < rows; ++r) {
      const char *row = staging_.data() + static_cast<size_t>(r) * row_bytes;
      for (int64_t k = 0; k < dim_; ++k)
        out[r * dim_ + k] = load(row + picked_[static_cast<size_t>(k)] * size, swap);
    }
  }
  return rows;
}

void BinaryReader::read_column_major(int64_t rows, double *out) {
  const int size = layout_.type.size;
  const size_t block = static_cast<size_t>(rows) * static_cast<size_t>(size);
  staging_.resize(block);
  const Loader load = loader_for(layout_.type);
  const bool swap = layout_.type.big_endian;
  for (int64_t k = 0; k < dim_; ++k) {
    const auto column = static_cast<uint64_t>(picked_[static_cast<size_t>(k)]);
    const uint64_t offset =
        layout_.data_offset +
        (column * static_cast<uint64_t>(*layout_.rows) + static_cast<uint64_t>(rows_done_)) *
            static_cast<uint64_t>(size);
    source_->read_at(staging_.data(), block, offset);
    for (int64_t r = 0; r < rows; ++r) out[r * dim_ + k] = load(staging_.data() + r * size, swap);
  }
}

void BinaryReader::expect_end() {
  ended_ = true;
  if (layout_.fortran_order) return;  // the size was checked against the header when opening
  char extra = 0;
  if (source_->read(&extra, 1) != 0)
    fail(kExitInputData, source_->name(), ": unexpected bytes after the ", *layout_.rows, " x ",
         layout_.cols, " array its header announces");
}

void BinaryReader::check_finite(const double *out, int64_t rows, int64_t first_row) const {
  for (int64_t i = 0; i < rows * dim_; ++i) {
    if (std::isfinite(out[i])) continue;
    const int64_t r = i / dim_;
    const int64_t column = picked_[static_cast<size_t>(i % dim_)];
    fail(kExitInputData, source_->name(), ": row ", first_row + r + 1, ", column ", column + 1,
         ": value ", out[i], " is not finite: NaN and infinity are refused, rows must be finite");
  }
}

std::string BinaryReader::row_location(const Chunk &chunk, int64_t i) const {
  return concat(source_->name(), ": row ", chunk.first_row + i + 1);
}

nlohmann::ordered_json BinaryReader::describe() const {
  nlohmann::ordered_json d = {{"path", source_->name()}, {"format", layout_.format}};
  if (layout_.format == "npy") {
    d["npy_version"] = layout_.npy_version;
    d["dtype"] = layout_.type.descr();
    d["fortran_order"] = layout_.fortran_order;
  }
  d["file_columns"] = layout_.cols;
  d["bytes"] = source_->bytes_read();
  return d;
}

std::unique_ptr<BinaryReader> open_npy(std::unique_ptr<ByteSource> source,
                                       const std::vector<std::string> &columns,
                                       int64_t chunk_rows) {
  const NpyHeader header = read_npy_header(*source);
  BinaryLayout layout;
  layout.format = "npy";
  layout.npy_version = header.version_major;
  layout.type = header.type;
  layout.fortran_order = header.fortran_order;
  layout.rows = header.rows;
  layout.cols = header.cols;
  layout.data_offset = header.data_offset;
  if (source->size()) {
    const uint64_t expected = header.data_offset + static_cast<uint64_t>(header.rows) *
                                                       static_cast<uint64_t>(header.cols) *
                                                       static_cast<uint64_t>(header.type.size);
    if (*source->size() != expected)
      fail(kExitInputData, source->name(), ": the file has ", *source->size(),
           " bytes but its header announces a ", header.rows, " x ", header.cols, ' ',
           header.type.descr(), " array, ", expected, " bytes in all",
           *source->size() < expected ? " (truncated file?)" : "");
  }
  return std::make_unique<BinaryReader>(std::move(source), layout, columns, chunk_rows);
}

std::unique_ptr<BinaryReader> open_raw(std::unique_ptr<ByteSource> source, int64_t cols,
                                       const std::vector<std::string> &columns,
                                       int64_t chunk_rows) {
  BinaryLayout layout;
  layout.format = "raw";
  layout.cols = cols;
  const uint64_t row_bytes = static_cast<uint64_t>(cols) * 8;
  if (source->size()) {
    if (*source->size() % row_bytes != 0)
      fail(kExitInputData, source->name(), ": the file size, ", *source->size(),
           " bytes, is not a multiple of the row size ", row_bytes, " (", cols,
           " float64 columns: is --dims right?)");
    layout.rows = static_cast<int64_t>(*source->size() / row_bytes);
  }
  return std::make_unique<BinaryReader>(std::move(source), layout, columns, chunk_rows);
}

}  // namespace dpcov::cli
