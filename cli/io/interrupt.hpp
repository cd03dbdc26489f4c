// SIGINT (Ctrl-C), SIGTERM and SIGHUP while a release charged to a ledger runs (from when its
// ledger's lock is taken, ledger_lock.hpp) and while outputs are written (write_outputs). Ended at
// once by the signal, a command would leave its ledger's lock file, its pending charge unsettled
// (a refund or the release's own entries never written) and its temporary files behind; so while
// an InterruptDeferral lives the signal is only noted, and the command ends at its next check
// (check_interrupted: each chunk read, before writing an output) as a failure, which DrawGuard
// charges if the noise is drawn. main() then raises the signal again with its default action, so
// the caller sees the command killed by it (also when it came while complete outputs were being
// written). SIGKILL cannot be deferred: the charge DrawGuard wrote ahead of the draw
// (LedgerFile::reserve) then stays in the ledger, pending.
#pragma once

#include <csignal>

namespace dpcov::cli {

class InterruptDeferral {
 public:
  InterruptDeferral();
  ~InterruptDeferral();
  InterruptDeferral(const InterruptDeferral &) = delete;
  InterruptDeferral &operator=(const InterruptDeferral &) = delete;

 private:
  struct sigaction previous_[3];
};

// Throws CliError(128 + signal) if a deferred signal has arrived; nothing otherwise.
void check_interrupted();

// The deferred signal that ended the command, 0 if none.
int interrupted_signal();

}  // namespace dpcov::cli
