#include "row_spool.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "../cli_error.hpp"

namespace dpcov::cli {

namespace {

// Holds the signals that end a command (and SIGINT's siblings) while the spool's names exist;
// those that arrived meanwhile are delivered when it ends, after the names are gone.
class HeldSignals {
 public:
  HeldSignals() {
    sigset_t held;
    sigemptyset(&held);
    for (const int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&held, s);
    pthread_sigmask(SIG_BLOCK, &held, &previous_);
  }
  ~HeldSignals() { pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }
  HeldSignals(const HeldSignals &) = delete;
  HeldSignals &operator=(const HeldSignals &) = delete;

 private:
  sigset_t previous_;
};

bool disk_full(int error) { return error == ENOSPC || error == EDQUOT || error == EFBIG; }

}  // namespace

RowSpool::RowSpool(const std::string &input_name) : input_name_(input_name) {
  const char *tmp = std::getenv("TMPDIR");
  directory_ = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
  std::string dir = directory_ + "/dpcov-spool-XXXXXX";
  const HeldSignals held;
  // mkdtemp makes the directory with mode 0700 and the file is 0600: the raw rows stay the
  // curator's while they have names, and have none once the descriptor is open.
  if (mkdtemp(dir.data()) == nullptr)
    fail(kExitIo, "cannot make a private temporary directory under ", directory_,
         " to spool the rows of ", input_name_, ", which are read more than once: ",
         std::strerror(errno), " (set TMPDIR to a writable directory, or give a file path)");
  const std::string path = dir + "/rows";
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  const int error = errno;
  if (fd_ >= 0) ::unlink(path.c_str());
  ::rmdir(dir.c_str());
  if (fd_ < 0)
    fail(kExitIo, "cannot make the spool file ", path, " for the rows of ", input_name_, ": ",
         std::strerror(error));
}

RowSpool::~RowSpool() { discard(); }

void RowSpool::discard() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

bool RowSpool::append(const double *values, size_t count) {
  const char *bytes = reinterpret_cast<const char *>(values);
  size_t left = count * sizeof(double);
  while (left > 0) {
    const ssize_t wrote = ::write(fd_, bytes, left);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote < 0) {
      reason_ = std::strerror(errno);
      if (disk_full(errno)) return false;
      fail(kExitIo, "cannot write the spool of ", input_name_, " under ", directory_, ": ",
           reason_);
    }
    bytes += wrote;
    left -= static_cast<size_t>(wrote);
    bytes_ += static_cast<uint64_t>(wrote);
  }
  return true;
}

void RowSpool::read(double *out, size_t count, uint64_t first) const {
  char *bytes = reinterpret_cast<char *>(out);
  size_t left = count * sizeof(double);
  auto offset = static_cast<off_t>(first * sizeof(double));
  while (left > 0) {
    const ssize_t got = ::pread(fd_, bytes, left, offset);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0)
      fail(kExitIo, "cannot read the spool of ", input_name_, " under ", directory_, ": ",
           got < 0 ? std::strerror(errno) : "it ended early");
    bytes += got;
    offset += got;
    left -= static_cast<size_t>(got);
  }
}

}  // namespace dpcov::cli
