// Grouping the rows of privacy units that do not arrive contiguous, in bounded memory, into the
// order the library's unit policy is stated in (dpcov/gram.h, dpcov_unit_rows_keep): units in
// order of their first row in the input, each unit's rows in input order, so that a seed keeps the
// same rows here as in Python, which groups in memory the same way. Each row goes with its unit id
// and its position in the input to one of P spill files chosen by a hash of the id, in a private
// temporary directory (mode 0700, removed with its files when the grouping ends, on success or
// failure), so that every unit lies in one file. Each file is then read back alone, its rows
// ordered by their unit's first position (stable: a unit keeps its rows' input order) and written
// back as a sorted run; the P runs are merged unit by unit, and the units delivered with ids
// renumbered 0, 1, 2, ... in that order: the ids serve the grouping only, and the library sees them
// contiguous and increasing. Cost (docs/privacy-units.md): two writes and two reads of about
// (d + 2) 8 bytes per row; memory for one file's rows and their order, n / P rows of about
// (d + 4) 8 bytes, then one stdio buffer and one row per run during the merge.
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

  // Appends `rows` rows (row-major, `cols` columns) with their unit ids; the rows' positions in
  // the input follow those of the rows added before.
  void add(const int64_t *ids, const double *rows, int64_t count);

  // Delivers every spilled row, units in order of their first row in the input: `emit(ids, rows)`
  // with batches of whole units (ids renumbered 0, 1, 2, ..., increasing across batches), rows
  // row-major. Ends the spill: its files are removed as they are read.
  using Emit = std::function<void(const std::vector<int64_t> &, const std::vector<double> &)>;
  void replay(const Emit &emit);

  int64_t rows() const { return rows_; }

 private:
  void sort_run(size_t p);
  void merge_runs(const Emit &emit);
  void remove_all() noexcept;

  int64_t cols_;
  std::string dir_;
  std::vector<std::string> paths_;
  std::vector<std::FILE *> files_;
  std::vector<char> record_;
  int64_t rows_ = 0;
};

}  // namespace dpcov::cli
