// The lock that serialises the runs charging one --ledger file: an exclusive flock(2) on a lock
// file beside it (FILE.lock, FILE the path resolved, ledger_path.hpp, so that every name of the
// ledger locks the same file), held by LedgerFile from before the file is read (the budget check)
// until the run has settled its charge. A second run on the same ledger waits for it, saying so
// on standard error, and then reads the file the first one left. The lock is not on the ledger
// itself: that file is replaced by rename, so a lock on it would stay on the replaced copy.
// SIGINT, SIGTERM and SIGHUP are deferred (interrupt.hpp) while the lock is held or waited for:
// the run ends at its next check, removing the lock file, and a wait ends at once.
#pragma once

#include <string>

#include "../io/interrupt.hpp"

namespace dpcov::cli {

class LedgerLock {
 public:
  // Creates and locks `path` (the ledger's path + ".lock"), waiting while another run holds it.
  // Throws CliError(kExitIo) if the lock file cannot be created or locked, CliError(128 + the
  // signal) if a signal ends the wait.
  explicit LedgerLock(const std::string &ledger_path);
  // Removes the lock file, then unlocks it: a run waiting on the removed file sees that it is no
  // longer the one at the path and locks the path anew, so no file is left behind and no two
  // runs hold the lock at once. Only a run killed by SIGKILL (or a crash) leaves it (empty; the
  // next run uses and removes it).
  ~LedgerLock();
  LedgerLock(const LedgerLock &) = delete;
  LedgerLock &operator=(const LedgerLock &) = delete;

 private:
  InterruptDeferral deferral_;  // made first, ended last
  std::string path_;
  int fd_ = -1;
};

}  // namespace dpcov::cli
