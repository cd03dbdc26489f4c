#include "byte_source.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "../../cli_error.hpp"

namespace dpcov::cli {

ByteSource::ByteSource(const std::string &path) {
  if (path == "-") {
    name_ = "<stdin>";
    fd_ = STDIN_FILENO;
  } else {
    name_ = path;
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) fail(kExitIo, path, ": cannot open: ", std::strerror(errno));
    owns_fd_ = true;
  }
  struct stat st {};
  if (::fstat(fd_, &st) != 0) fail(kExitIo, name_, ": cannot stat: ", std::strerror(errno));
  if (S_ISDIR(st.st_mode)) fail(kExitIo, name_, ": is a directory");
  if (S_ISREG(st.st_mode)) {
    size_ = static_cast<uint64_t>(st.st_size);
    // Standard input redirected from a file may start past the beginning of the file.
    const off_t position = ::lseek(fd_, 0, SEEK_CUR);
    start_ = position > 0 ? static_cast<uint64_t>(position) : 0;
    // A hint only: the kernel may read further ahead for a sequential scan.
    (void)::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
  }
}

ByteSource::~ByteSource() {
  if (map_ != nullptr) ::munmap(map_, map_length_);
  if (owns_fd_) ::close(fd_);
}

size_t ByteSource::read_some(char *dst, size_t n) {
  for (;;) {
    const ssize_t got = ::read(fd_, dst, n);
    if (got >= 0) return static_cast<size_t>(got);
    if (errno != EINTR) fail(kExitIo, name_, ": read error: ", std::strerror(errno));
  }
}

std::string_view ByteSource::peek(size_t n) {
  const size_t have = peeked_.size() - peeked_pos_;
  if (have < n) {
    peeked_.erase(peeked_.begin(), peeked_.begin() + static_cast<std::ptrdiff_t>(peeked_pos_));
    peeked_pos_ = 0;
    size_t filled = peeked_.size();
    peeked_.resize(n);
    while (filled < n) {
      const size_t got = read_some(peeked_.data() + filled, n - filled);
      if (got == 0) break;
      filled += got;
    }
    peeked_.resize(filled);
  }
  return {peeked_.data() + peeked_pos_, std::min(n, peeked_.size() - peeked_pos_)};
}

size_t ByteSource::read(char *dst, size_t n) {
  size_t done = 0;
  if (peeked_pos_ < peeked_.size()) {
    done = std::min(n, peeked_.size() - peeked_pos_);
    std::memcpy(dst, peeked_.data() + peeked_pos_, done);
    peeked_pos_ += done;
  }
  while (done < n) {
    const size_t got = read_some(dst + done, n - done);
    if (got == 0) break;
    done += got;
  }
  bytes_read_ += done;
  return done;
}

void ByteSource::read_at(char *dst, size_t n, uint64_t offset) {
  if (!is_regular_file()) fail(kExitInternal, name_, ": positioned read on a stream");
  size_t done = 0;
  while (done < n) {
    const ssize_t got = ::pread(fd_, dst + done, n - done, static_cast<off_t>(offset + done));
    if (got < 0) {
      if (errno == EINTR) continue;
      fail(kExitIo, name_, ": read error: ", std::strerror(errno));
    }
    if (got == 0)
      fail(kExitInputData, name_, ": file ends at byte ", offset + done, ", before the ",
           n - done, " more bytes its header announces");
    done += static_cast<size_t>(got);
  }
  bytes_read_ += done;
}

std::string_view ByteSource::map() {
  if (!size_.has_value() || *size_ <= start_ || bytes_read_ != 0 || map_ != nullptr) return {};
  const auto page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const uint64_t first = start_ / page * page;
  const auto length = static_cast<size_t>(*size_ - first);
  if (length != *size_ - first) return {};  // larger than the address space
  void *mapping = ::mmap(nullptr, length, PROT_READ, MAP_PRIVATE, fd_, static_cast<off_t>(first));
  if (mapping == MAP_FAILED) return {};
  // Hints only: read ahead far, and let the kernel evict pages behind the scan first.
  (void)::madvise(mapping, length, MADV_SEQUENTIAL);
  map_ = static_cast<char *>(mapping);
  map_length_ = length;
  map_skip_ = static_cast<size_t>(start_ - first);
  return {map_ + map_skip_, length - map_skip_};
}

void ByteSource::release(uint64_t offset) {
  // Only whole pages strictly before `offset`: the page holding it is still being read.
  const auto page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const uint64_t from = (map_skip_ + released_) / page * page;
  const uint64_t to = (map_skip_ + offset) / page * page;
  if (to > from) (void)::madvise(map_ + from, static_cast<size_t>(to - from), MADV_DONTNEED);
  released_ = offset;
}

}  // namespace dpcov::cli
