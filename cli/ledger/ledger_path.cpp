#include "ledger_path.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "../cli_error.hpp"

namespace dpcov::cli {

namespace {

// realpath(3) of `path`; empty (errno set) when it cannot be resolved.
std::string real_path_of(const std::string &path) {
  const std::unique_ptr<char, decltype(&std::free)> real(::realpath(path.c_str(), nullptr),
                                                         &std::free);
  return real ? std::string(real.get()) : std::string();
}

std::string link_target(const std::string &path) {
  char target[PATH_MAX];
  const ssize_t size = ::readlink(path.c_str(), target, sizeof target);
  return size < 0 ? std::string("?") : std::string(target, static_cast<size_t>(size));
}

}  // namespace

void refuse_hard_links(const std::string &real_path, const std::string &path) {
  struct stat info {};
  if (::stat(real_path.c_str(), &info) != 0 || !S_ISREG(info.st_mode) || info.st_nlink <= 1)
    return;
  fail(kExitUsage, path, ": the ledger file has ", static_cast<long long>(info.st_nlink),
       " hard links: every charge replaces the file by a new one under this name, so its other "
       "names would keep the old contents and become a second ledger with the whole budget. Keep "
       "one name: remove the other links (find them with find -samefile ", real_path,
       "), and use a symbolic link where a second name is needed");
}

std::string resolve_ledger_path(const std::string &path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) == 0) {
    const std::string real = real_path_of(path);
    if (real.empty()) {
      if (S_ISLNK(info.st_mode) && errno == ENOENT)
        fail(kExitUsage, path, ": is a symbolic link to ", link_target(path),
             ", which does not exist: a ledger is created by its own path (give the target's "
             "path), never through a link");
      fail(kExitIo, path, ": cannot resolve the ledger's path: ", std::strerror(errno));
    }
    refuse_hard_links(real, path);
    return real;
  }
  if (errno != ENOENT)
    fail(kExitIo, path, ": cannot read the ledger: ", std::strerror(errno));
  // A new ledger: its directory resolved, so that a later run that reaches the same file by
  // another name locks the same lock file.
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  const std::string real_dir = real_path_of(dir);
  // A missing directory is reported when the file is created (check_writable).
  if (real_dir.empty() || name.empty() || name == "." || name == "..") return path;
  return real_dir == "/" ? "/" + name : real_dir + "/" + name;
}

}  // namespace dpcov::cli
