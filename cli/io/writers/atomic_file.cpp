#include "atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "../../cli_error.hpp"

namespace dpcov::cli {

namespace {

std::string directory_of(const std::string &path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_name_of(const std::string &path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

void check_writable(const std::string &path) {
  const std::string dir = directory_of(path);
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    fail(kExitIo, path, ": cannot write in directory ", dir, ": ", std::strerror(errno));
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return;
  if (S_ISDIR(st.st_mode)) fail(kExitIo, path, ": is a directory");
  // The complete file is renamed over the path, which would replace a device (/dev/null, as
  // root) or a pipe rather than write to it.
  if (!S_ISREG(st.st_mode))
    fail(kExitIo, path, ": is not a regular file (a device, pipe or socket), which writing "
         "atomically would replace: write to a file, or to standard output with -o -");
}

void sync_directory(const std::string &path) {
  const std::string dir = directory_of(path);
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  const bool synced = fd >= 0 && ::fsync(fd) == 0;
  const int error = errno;
  if (fd >= 0) ::close(fd);
  if (!synced) fail(kExitIo, path, ": cannot sync directory ", dir, ": ", std::strerror(error));
}

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  check_writable(path_);
  // Hidden, beside the target so that rename() stays within one file system.
  const std::string dir = directory_of(path_);
  std::string pattern = dir + "/." + base_name_of(path_) + ".tmp-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) fail(kExitIo, path_, ": cannot create a temporary file in ", dir, ": ",
                   std::strerror(errno));
  temp_path_ = name.data();
  // mkstemp creates the file private (0600); the result keeps the permissions of the file it
  // replaces (a ledger kept private stays so, also when a refund writes it back), or gets the
  // usual ones.
  struct stat replaced {};
  const mode_t mask = ::umask(0);
  ::umask(mask);
  (void)::fchmod(fd, ::stat(path_.c_str(), &replaced) == 0 ? replaced.st_mode & 0777
                                                            : 0666 & ~mask);
  stream_ = ::fdopen(fd, "wb");
  if (stream_ == nullptr) {
    ::close(fd);
    ::unlink(temp_path_.c_str());
    fail(kExitIo, path_, ": cannot open a stream: ", std::strerror(errno));
  }
  // Large writes: the output is written once, sequentially.
  std::setvbuf(stream_, nullptr, _IOFBF, size_t{1} << 20);
}

AtomicFile::~AtomicFile() {
  if (stream_ != nullptr) {
    std::fclose(stream_);
    ::unlink(temp_path_.c_str());
  }
}

void AtomicFile::commit() {
  std::FILE *stream = stream_;
  stream_ = nullptr;
  const bool written =
      std::ferror(stream) == 0 && std::fflush(stream) == 0 && ::fsync(::fileno(stream)) == 0;
  const int saved = errno;
  const bool closed = std::fclose(stream) == 0;
  if (!written || !closed || std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    const int error = !written ? saved : errno;
    ::unlink(temp_path_.c_str());
    fail(kExitIo, path_, ": cannot write: ", std::strerror(error));
  }
}

}  // namespace dpcov::cli
