// An output file that appears complete or not at all: written to a temporary file in the target's
// directory, flushed to disk, then renamed over the target. Dropped without commit() (an error,
// an exception), the temporary file is removed and the target is untouched. The new file keeps
// the permission bits of the one it replaces (a new one gets 0666 less the umask).
#pragma once

#include <cstdio>
#include <string>

namespace dpcov::cli {

class AtomicFile {
 public:
  // Creates the temporary file. Throws CliError(kExitIo) if the directory is not writable.
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  AtomicFile(const AtomicFile &) = delete;
  AtomicFile &operator=(const AtomicFile &) = delete;

  std::FILE *stream() { return stream_; }
  // Flushes, syncs and renames the temporary file to the target. Throws CliError(kExitIo).
  void commit();

 private:
  std::string path_;
  std::string temp_path_;
  std::FILE *stream_ = nullptr;
};

// Throws CliError(kExitIo) unless a file can be created at `path` (its directory exists and is
// writable, and what is there already, if anything, is a regular file), so that a long run does
// not end in a failure to write its result, nor replace a device or a pipe by a file.
void check_writable(const std::string &path);

// Syncs the directory that holds `path` (after a rename into it or an unlink from it), so that the
// new name survives a power loss as the file's contents do. Throws CliError(kExitIo).
void sync_directory(const std::string &path);

}  // namespace dpcov::cli
