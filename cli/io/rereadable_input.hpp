// An input that a command reads once per pass over its rows. A regular file is opened again for
// each pass (and so is a FIFO under --spool never). Standard input and any other input that
// cannot be read again (a pipe, a FIFO) is spooled instead: its first pass writes each parsed chunk to a RowSpool, and every later pass
// reads the spool in chunks of the first pass's size, so that it delivers the same chunks of the
// same doubles as a file read again would, parsing nothing. Memory: one chunk and the reader's
// buffers; disk: one write and one read per later pass of n x d x 8 bytes (docs/input.md).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "readers/open_input.hpp"
#include "readers/row_reader.hpp"

namespace dpcov::cli {

struct SpoolState;

class RereadableInput {
 public:
  // `passes_again`: whether the command may read the input more than once (else nothing is
  // spooled). `count_public`: whether the number of rows may appear in a message (n public under
  // the release's neighbour relation), as the spool's refusal on a full disk would have it.
  // Throws what open_input() throws, CliError(kExitIo) if a spool is needed and cannot be made,
  // and CliError(kExitUsage) for standard input read again under --spool never.
  RereadableInput(const InputOptions &options, bool passes_again, bool count_public);
  // Rows the command makes itself (the rows privacy units keep, io/unit_rows.hpp): `fill` calls
  // its argument with row-major rows of column_names.size() columns, which are spooled; every
  // pass, the first too, reads the spool. `name` and `description` stand for the input in
  // messages and in the curator file. Throws CliError(kExitIo) if the spool cannot be made or
  // written (a full disk).
  using Append = std::function<void(const double *rows, int64_t count)>;
  RereadableInput(const std::string &name, const std::vector<std::string> &column_names,
                  const nlohmann::ordered_json &description,
                  const std::function<void(const Append &)> &fill);
  ~RereadableInput();
  RereadableInput(const RereadableInput &) = delete;
  RereadableInput &operator=(const RereadableInput &) = delete;

  // The first call: the reader of the first pass (spooling what it reads, if the input needs
  // it). Each later call: a reader of another pass, from the start of the rows; the first pass
  // must have read every row (else CliError(kExitInternal)). A spool that could not be written
  // (a full disk) ends the first pass with CliError(kExitIo) saying how many bytes it needed.
  std::unique_ptr<RowReader> open();

  // Whether the later passes read a spool.
  bool spooled() const { return spool_ != nullptr; }

 private:
  InputOptions options_;
  std::unique_ptr<RowReader> first_;
  std::shared_ptr<SpoolState> spool_;
};

}  // namespace dpcov::cli
