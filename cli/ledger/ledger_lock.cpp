#include "ledger_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "../cli_error.hpp"

namespace dpcov::cli {

namespace {

// How often a waiting run tries the lock again (a short wait beside a release's run time).
constexpr useconds_t kPollMicroseconds = 20 * 1000;

// Whether the open file `fd` is the file now at `path` (not one a previous holder removed).
bool still_at(int fd, const std::string &path) {
  struct stat held {}, now {};
  return ::fstat(fd, &held) == 0 && ::stat(path.c_str(), &now) == 0 &&
         held.st_dev == now.st_dev && held.st_ino == now.st_ino;
}

}  // namespace

LedgerLock::LedgerLock(const std::string &ledger_path) : path_(ledger_path + ".lock") {
  bool told = false;
  for (;;) {
    const int fd = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0)
      fail(kExitIo, ledger_path, ": cannot create the ledger's lock file ", path_, ": ",
           std::strerror(errno));
    // Polled rather than blocking: a signal (deferred, interrupt.hpp) must end the wait.
    while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      if (error == EINTR) continue;
      if (error != EWOULDBLOCK) {
        ::close(fd);
        fail(kExitIo, ledger_path, ": cannot lock ", path_, ": ", std::strerror(error));
      }
      if (!told)
        std::fprintf(stderr, "dpcov: waiting for the ledger %s: another run holds its lock %s\n",
                     ledger_path.c_str(), path_.c_str());
      told = true;
      if (interrupted_signal() != 0) {
        // Not ours to remove: the holder does.
        ::close(fd);
        check_interrupted();
      }
      ::usleep(kPollMicroseconds);
    }
    if (still_at(fd, path_)) {
      fd_ = fd;
      return;
    }
    ::close(fd);
  }
}

LedgerLock::~LedgerLock() {
  ::unlink(path_.c_str());
  ::close(fd_);
}

}  // namespace dpcov::cli
