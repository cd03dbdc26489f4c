#include "byte_source.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "../cli_error.hpp"

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
    // A hint only: the kernel may read further ahead for a sequential scan.
    (void)::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
  }
}

ByteSource::~ByteSource() {
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

}  // namespace dpcov::cli
