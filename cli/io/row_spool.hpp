// A private temporary file of parsed rows (native float64, row-major, d x 8 bytes per row): what a
// command that passes over its input more than once reads again when the input itself cannot be
// read again (standard input, a pipe, a FIFO). It is made in a new directory of mode 0700 under
// $TMPDIR (else /tmp), with mode 0600, and both names are removed at once, before any row is
// written: the open descriptor keeps the data, and the system frees it when the process ends
// however it ends (an error, a signal, SIGKILL). Signals are held during the moment both names
// exist, so an interrupted command leaves nothing behind either. docs/input.md gives the costs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace dpcov::cli {

class RowSpool {
 public:
  // Makes the spool for the rows of `input_name` (for messages). Throws CliError(kExitIo) when
  // the directory or the file cannot be made.
  explicit RowSpool(const std::string &input_name);
  ~RowSpool();
  RowSpool(const RowSpool &) = delete;
  RowSpool &operator=(const RowSpool &) = delete;

  // Appends `count` doubles. Returns false, having written what fitted, if the file system is
  // full or the process's file size limit is reached (errno ENOSPC, EDQUOT or EFBIG; reason()
  // then names it); throws CliError(kExitIo) on any other write error.
  bool append(const double *values, size_t count);
  // Gives the spool's disk space back at once (after a failed append): nothing is read from it
  // afterwards.
  void discard() noexcept;
  // Reads `count` doubles starting at double `first` (all of them written before).
  void read(double *out, size_t count, uint64_t first) const;

  uint64_t bytes() const { return bytes_; }
  // Where the spool was made ($TMPDIR or /tmp), for messages.
  const std::string &directory() const { return directory_; }
  // Why the last append failed (strerror of its errno).
  const std::string &reason() const { return reason_; }

 private:
  std::string input_name_;
  std::string directory_;
  std::string reason_;
  int fd_ = -1;
  uint64_t bytes_ = 0;
};

}  // namespace dpcov::cli
