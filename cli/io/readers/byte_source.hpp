// A file or standard input read with read(2) in large blocks, with a small look-ahead for format
// detection and positioned reads for inputs that need them (Fortran-order .npy). A regular file
// can instead be mapped into memory whole, which spares the copy out of the page cache; its
// consumed pages are then dropped from the resident set as the reading advances, so that memory
// stays bounded whatever the file size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dpcov::cli {

class ByteSource {
 public:
  // Opens `path`, or standard input if `path` is "-". Throws CliError(kExitIo) on failure.
  explicit ByteSource(const std::string &path);
  ~ByteSource();
  ByteSource(const ByteSource &) = delete;
  ByteSource &operator=(const ByteSource &) = delete;

  // The name used in messages: the path, or "<stdin>".
  const std::string &name() const { return name_; }
  // True for a regular file: its size is known and read_at() works.
  bool is_regular_file() const { return size_.has_value(); }
  std::optional<uint64_t> size() const { return size_; }
  // Bytes delivered so far by read() and read_at(), for progress reports.
  uint64_t bytes_read() const { return bytes_read_; }

  // The first bytes of the input (up to n), without consuming them: read() returns them again.
  std::string_view peek(size_t n);
  // Reads until `n` bytes arrived or the input ended; returns the count (< n only at the end).
  size_t read(char *dst, size_t n);
  // Reads exactly `n` bytes at absolute `offset` (regular files only); a short read is an error.
  void read_at(char *dst, size_t n, uint64_t offset);

  // Maps the input from its current position to its end, if it is a non-empty regular file of
  // which read() has consumed nothing, and returns the mapped bytes; afterwards the input is read
  // through them and consumed(), never read(). Returns an empty view (and changes nothing) for a
  // pipe, a terminal, an empty or size-less file (as in /proc) or if the system refuses the
  // mapping: read() then serves. A file truncated by another process while mapped ends the
  // process with SIGBUS, as for any program reading a mapped file.
  std::string_view map();
  // Declares the first `offset` mapped bytes consumed: they count in bytes_read(), and once
  // kReleaseBytes more are consumed their pages leave the resident set (the page cache keeps
  // them; a later access reads them back, so this bounds memory without limiting access).
  void consumed(uint64_t offset) {
    bytes_read_ = offset;
    if (offset >= released_ + kReleaseBytes) release(offset);
  }

  // Consumed mapped bytes kept resident between two releases: large enough that the release
  // calls cost nothing next to parsing, small next to the memory target.
  static constexpr uint64_t kReleaseBytes = uint64_t{8} << 20;

 private:
  size_t read_some(char *dst, size_t n);
  void release(uint64_t offset);

  std::string name_;
  int fd_ = -1;
  bool owns_fd_ = false;
  std::optional<uint64_t> size_;
  uint64_t bytes_read_ = 0;
  std::vector<char> peeked_;  // look-ahead bytes not yet returned by read()
  size_t peeked_pos_ = 0;
  uint64_t start_ = 0;           // file offset of the descriptor when opened (regular files)
  char *map_ = nullptr;          // the page-aligned mapping, or null
  size_t map_length_ = 0;
  size_t map_skip_ = 0;          // bytes of the mapping's first page before start_
  uint64_t released_ = 0;        // mapped bytes (from start_) whose pages were dropped
};

}  // namespace dpcov::cli
