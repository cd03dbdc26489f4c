// A file or standard input read with read(2) in large blocks, with a small look-ahead for format
// detection and positioned reads for inputs that need them (Fortran-order .npy).
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

 private:
  size_t read_some(char *dst, size_t n);

  std::string name_;
  int fd_ = -1;
  bool owns_fd_ = false;
  std::optional<uint64_t> size_;
  uint64_t bytes_read_ = 0;
  std::vector<char> peeked_;  // look-ahead bytes not yet returned by read()
  size_t peeked_pos_ = 0;
};

}  // namespace dpcov::cli
