// Grouping the rows of privacy units that do not arrive contiguous, in bounded memory: each row
// goes with its unit id to one of P spill files chosen by a hash of the id, in a private temporary
// directory (mode 0700, removed with its files when the grouping ends, on success or failure), so
// that every unit lies in one file. Each file is then read back alone, its rows ordered by id
// (stable: a unit keeps its rows' input order) and delivered unit after unit with ids renumbered
// 0, 1, 2, ... in delivery order: the ids serve the grouping only, and the library sees them
// contiguous and increasing. Cost: one write and one read of (d + 1) 8 bytes per row, and memory
// for one file's rows and their order, n / P rows of about (d + 2) 8 bytes (docs/privacy-units.md).
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dpcov::cli {

// P from the input's size when known: files of about 64 MiB of input each, at least 16 and at
// most 1024; 256 when the size is unknown (a pipe).
int64_t spill_partitions(std::optional<uint64_t> input_bytes);

class UnitSpill {
 public:
  // A new private directory under $TMPDIR (else /tmp) holding `partitions` empty spill files for
  // rows of `cols` columns. Throws CliError(kExitIo) when it cannot be made.
  UnitSpill(int64_t cols, int64_t partitions);
  ~UnitSpill();
  UnitSpill(const UnitSpill &) = delete;
  UnitSpill &operator=(const UnitSpill &) = delete;

  // Appends `rows` rows (row-major, `cols` columns) with their unit ids.
  void add(const int64_t *ids, const double *rows, int64_t count);

  // Delivers every spilled row, file after file, each file's units in increasing order of their
  // input ids: `emit(ids, rows)` with batches of whole units (ids renumbered, increasing across
  // batches), rows row-major. Ends the spill: its files are removed as they are read.
  using Emit = std::function<void(const std::vector<int64_t> &, const std::vector<double> &)>;
  void replay(const Emit &emit);

  int64_t rows() const { return rows_; }

 private:
  void remove_all() noexcept;

  int64_t cols_;
  std::string dir_;
  std::vector<std::string> paths_;
  std::vector<std::FILE *> files_;
  std::vector<char> record_;
  int64_t rows_ = 0;
};

}  // namespace dpcov::cli
