#include "rereadable_input.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../cli_error.hpp"
#include "row_spool.hpp"

namespace dpcov::cli {

// What the first pass learnt of the input, for the passes that read the spool.
struct SpoolState {
  explicit SpoolState(const std::string &input_name) : file(input_name), name(input_name) {}

  RowSpool file;
  std::string name;
  int64_t dim = 0;
  std::vector<std::string> column_names;
  int64_t rows = 0;
  int64_t chunk_rows = 0;  // the first pass's chunks: all of this size but the last
  bool complete = false;
  nlohmann::ordered_json description;  // the input's, at its end
};

namespace {

// The first pass: the input's own reader, each chunk appended to the spool as it is delivered
// (before the command bounds or otherwise changes it in place).
class SpoolingReader final : public RowReader {
 public:
  SpoolingReader(std::unique_ptr<RowReader> input, std::shared_ptr<SpoolState> spool,
                 bool count_public)
      : input_(std::move(input)), spool_(std::move(spool)), count_public_(count_public) {
    spool_->dim = input_->dim();
    spool_->column_names = input_->column_names();
  }

  const std::string &name() const override { return input_->name(); }
  int64_t dim() const override { return input_->dim(); }
  const std::vector<std::string> &column_names() const override { return input_->column_names(); }
  std::string row_location(const Chunk &chunk, int64_t i) const override {
    return input_->row_location(chunk, i);
  }
  uint64_t bytes_read() const override { return input_->bytes_read(); }
  std::optional<uint64_t> total_bytes() const override { return input_->total_bytes(); }
  nlohmann::ordered_json describe() const override { return input_->describe(); }

  bool next_chunk(Chunk &chunk) override {
    SpoolState &s = *spool_;
    if (!input_->next_chunk(chunk)) {
      s.complete = true;
      s.description = input_->describe();
      return false;
    }
    if (!s.file.append(chunk.values.data(), static_cast<size_t>(chunk.rows * chunk.dim)))
      refuse_full_spool(chunk);
    s.rows += chunk.rows;
    s.chunk_rows = std::max(s.chunk_rows, chunk.rows);
    return true;
  }

 private:
  // The spool did not fit: its space is given back, and with n public the rest of the input is
  // read (parsed, not kept) so that the message can say how many bytes the spool needs. Nothing
  // has been drawn: every command reads its first pass whole before its first draw.
  [[noreturn]] void refuse_full_spool(Chunk &chunk) {
    SpoolState &s = *spool_;
    const uint64_t written = s.file.bytes();
    s.file.discard();
    const auto row_bytes = static_cast<uint64_t>(s.dim) * sizeof(double);
    const std::string where = concat("cannot spool the rows of ", s.name, " (read more than once) "
                                     "to a private temporary file under ", s.file.directory(),
                                     ": ", s.file.reason());
    const std::string advice = "nothing was released: free space there, set TMPDIR to a file "
                               "system with room, or give a file path (a file is read again "
                               "instead of spooled)";
    if (!count_public_)
      fail(kExitIo, where, "; the spool needs ", row_bytes, " bytes per row (", s.dim,
           " columns x 8); ", advice);
    auto rows = static_cast<uint64_t>(s.rows + chunk.rows);
    while (input_->next_chunk(chunk)) rows += static_cast<uint64_t>(chunk.rows);
    fail(kExitIo, where, "; the spool needs ", rows * row_bytes, " bytes (", rows, " rows x ",
         s.dim, " columns x 8), of which ", written, " were written; ", advice);
  }

  std::unique_ptr<RowReader> input_;
  std::shared_ptr<SpoolState> spool_;
  bool count_public_;
};

// A later pass: the spooled rows, in chunks of the first pass's size.
class SpoolReader final : public RowReader {
 public:
  explicit SpoolReader(std::shared_ptr<const SpoolState> spool) : spool_(std::move(spool)) {}

  const std::string &name() const override { return spool_->name; }
  int64_t dim() const override { return spool_->dim; }
  const std::vector<std::string> &column_names() const override { return spool_->column_names; }
  std::string row_location(const Chunk &chunk, int64_t i) const override {
    return concat(spool_->name, ": row ", chunk.first_row + i + 1);
  }
  uint64_t bytes_read() const override {
    return static_cast<uint64_t>(done_ * spool_->dim) * sizeof(double);
  }
  std::optional<uint64_t> total_bytes() const override { return spool_->file.bytes(); }
  nlohmann::ordered_json describe() const override { return spool_->description; }

  bool next_chunk(Chunk &chunk) override {
    const SpoolState &s = *spool_;
    chunk.dim = s.dim;
    chunk.first_row = done_;
    chunk.lines.clear();
    chunk.rows = std::min(s.chunk_rows, s.rows - done_);
    chunk.values.resize(static_cast<size_t>(s.chunk_rows * s.dim));
    s.file.read(chunk.values.data(), static_cast<size_t>(chunk.rows * s.dim),
                static_cast<uint64_t>(done_ * s.dim));
    done_ += chunk.rows;
    return chunk.rows > 0;
  }

 private:
  std::shared_ptr<const SpoolState> spool_;
  int64_t done_ = 0;
};

}  // namespace

RereadableInput::RereadableInput(const InputOptions &options, bool passes_again,
                                 bool count_public)
    : options_(options), first_(open_input(options)) {
  // A regular file (its size known) named by its path can be opened again; standard input even
  // redirected from a file is read on from where the first pass ended, so it is spooled too.
  if (!passes_again || (options.path != "-" && first_->total_bytes().has_value())) return;
  if (options.spool == "never") {
    if (options.path == "-")
      fail(kExitUsage, "--spool never: standard input cannot be opened again for the next pass; "
           "give a file or a FIFO, or drop --spool never");
    return;
  }
  spool_ = std::make_shared<SpoolState>(first_->name());
  first_ = std::make_unique<SpoolingReader>(std::move(first_), spool_, count_public);
}

RereadableInput::RereadableInput(const std::string &name,
                                 const std::vector<std::string> &column_names,
                                 const nlohmann::ordered_json &description,
                                 const std::function<void(const Append &)> &fill)
    : spool_(std::make_shared<SpoolState>(name)) {
  SpoolState &s = *spool_;
  s.dim = static_cast<int64_t>(column_names.size());
  s.column_names = column_names;
  s.description = description;
  // The passes' chunks: as a reader's, bounded whatever the number of rows.
  s.chunk_rows = 4096;
  fill([&s](const double *rows, int64_t count) {
    if (!s.file.append(rows, static_cast<size_t>(count * s.dim)))
      fail(kExitIo, "cannot spool the rows the privacy units keep to a private temporary file "
           "under ", s.file.directory(), ": ", s.file.reason(), "; nothing was released: free "
           "space there or set TMPDIR to a file system with room");
    s.rows += count;
  });
  s.complete = true;
}

RereadableInput::~RereadableInput() = default;

std::unique_ptr<RowReader> RereadableInput::open() {
  if (first_) return std::move(first_);
  if (!spool_) return open_input(options_);
  if (!spool_->complete)
    fail(kExitInternal, spool_->name, ": a later pass began before the first had read every row");
  return std::make_unique<SpoolReader>(spool_);
}

}  // namespace dpcov::cli
