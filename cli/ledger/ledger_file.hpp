// `--ledger FILE`: a privacy budget ledger kept in a JSON file (dpcov/ledger.h). The file holds the
// cap, the accounting and one entry per release; it is replayed into a dpcov_ledger, so the library
// decides what fits. A release that would exceed the cap is refused before any data is read; the
// file is replaced atomically and durably before the release's first draw with the charge marked
// pending (write-ahead: no way of ending the process after the draw leaves it uncounted), then
// after the release succeeded or failed after drawing its noise (release_check, DrawGuard), or
// put back as it was if the release failed before any draw. Runs on one file are serialised by a
// lock (ledger_lock.hpp), held by a LedgerFile from before it reads the file until it is destroyed.
// The ledger is the file the path resolves to, whatever name reaches it (ledger_path.hpp).
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <dpcov.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "../io/interrupt.hpp"
#include "ledger_chain.hpp"
#include "ledger_entry.hpp"
#include "ledger_lock.hpp"

namespace dpcov::cli {

struct LedgerOptions {
  std::string path;                      // empty: no ledger
  std::optional<double> epsilon_cap;     // for a new ledger file
  std::optional<double> delta_cap;       // for a new ledger file
  // For a new ledger file: basic (the default), zcdp or advanced; an existing file's must match.
  std::optional<std::string> accounting;
};

class LedgerFile {
 public:
  // Reads `options.path` (or starts a new ledger from the caps when the file does not exist).
  // Throws CliError: kExitUsage (no caps for a new file, caps that differ from the file's),
  // kExitInputData (a malformed file), kExitIo.
  explicit LedgerFile(const LedgerOptions &options);
  ~LedgerFile();
  LedgerFile(const LedgerFile &) = delete;
  LedgerFile &operator=(const LedgerFile &) = delete;

  // Throws CliError(kExitPrivacy) if the releases `receipts` describe, one after the other,
  // would exceed the cap. Changes nothing.
  void check(const std::vector<LedgerCharge> &charges) const;
  // Records the releases and replaces the file atomically. `output` names what was released.
  // Every charge is of noise already drawn, so a charge that fails (the file cannot be replaced,
  // the library refuses it) throws CliError(kExitLedger) whatever the cause: the release is not
  // written, and the message says the ledger now understates the budget spent and gives the
  // entries to add to it by hand.
  // After reserve(), the entries it recorded are replaced by these; if that fails they stay in
  // the file (pending, counted), and the message says so.
  void charge(const std::vector<LedgerCharge> &charges, const std::string &output);
  // Write-ahead: records `charges`, each entry marked "state": "pending", and replaces the file
  // atomically and durably (the file and its directory synced) before the release's first draw
  // (DrawGuard), so that whatever ends the process after the draw (SIGKILL, a crash, a power
  // loss) leaves the charge counted: a pending entry is charged like any other when the file is
  // read. charge() replaces the pending entries by the release's own; refund() removes them.
  // Throws CliError(kExitLedger) if the file cannot be replaced: nothing is drawn then.
  void reserve(const std::vector<LedgerCharge> &charges, const std::string &output);
  // For a failure before any draw: puts back the file reserve() replaced, byte for byte (removes
  // it if reserve() created it). Never throws: a refund that fails is reported on standard error
  // with the entries to remove by hand (the ledger then over-counts, the safe side).
  void refund() noexcept;
  // Whether reserve() recorded a charge that neither charge() nor refund() has settled.
  bool pending() const { return pending_; }
  // Whether this run has charged the ledger or tried to (charge() was called): a release is
  // charged once, by whichever of release_check, its own charge or DrawGuard comes first, and a
  // charge that failed is not tried again.
  bool charged() const { return charged_; }
  // The ledger's accounting: "basic", "zcdp" or "advanced".
  std::string accounting() const { return file_.at("accounting").get<std::string>(); }
  // The ledger's state for a receipt: cap, spent, remaining.
  nlohmann::ordered_json summary() const;

 private:
  // A new dpcov_ledger with the file's cap and its charges replayed (the caller destroys it).
  dpcov_ledger *replay() const;
  // file_ with its "spent" updated from a replay, its charges linked (sealed first if it had no
  // chain), written atomically and durably.
  void write();
  // The warnings for what the chain does not vouch for: a file without one, charges added by hand.
  void warn_unverified() const;

  // The file the --ledger path resolves to (ledger_path.hpp): read, locked and replaced as such.
  std::string path_;
  // Held from before the file is read until this object is destroyed (the command's end): no
  // other run reads or charges the file in between.
  LedgerLock lock_;
  std::optional<std::string> original_;  // the file's bytes when read (none: a new ledger)
  size_t reserved_ = 0;                   // reserve()'s entries, at the end of "charges"
  bool pending_ = false;

  nlohmann::ordered_json file_;
  ChainState chain_;    // what reading the file's hash chain found (ledger_chain.hpp)
  size_t adopted_ = 0;  // the charges of a file read without a chain
  dpcov_ledger *ledger_ = nullptr;
  bool charged_ = false;
};

// The state of a release's generator when the release began (dpcov_rng_state_save): whether the
// release has drawn noise since is whether the state changed. Every entry point draws from the
// caller's generator itself and never rewinds it (dpcov/rng.h), and neither engine comes back to
// a state (PCG64's period is 2^128, ChaCha20's count of words produced only grows), so the
// comparison is exact whatever the status and whichever step of the release drew.
class DrawWitness {
 public:
  // Saves the state of `rng` (a valid generator; kExitInternal if the library refuses it).
  explicit DrawWitness(const dpcov_rng *rng);
  // True if the generator has advanced since the witness was made, or if its state cannot be
  // read (charging is then the safe side).
  bool drawn() const;

 private:
  const dpcov_rng *rng_;
  std::array<unsigned char, DPCOV_RNG_STATE_SIZE> start_{};
};

// Checks the status of a release by the library: a failure after the release's first draw (its
// generator advanced since `since` was made, whatever the status) is charged to `ledger`, if any,
// with `charges` (the release's planned charge) before library_fail reports it with `context`.
// Noise once drawn is consumed and a refusal is an output of it: retrying until a release
// succeeds must spend the budget each time. A failure that left the generator as it was (a bad
// argument, found before any draw) is not charged, unless its status is one that only a draw can
// lead to (failed_after_draw: a second guard, see there). `output` names the release in the
// ledger.
void release_check(dpcov_status status, LedgerFile *ledger,
                   const std::vector<LedgerCharge> &charges, const std::string &output,
                   const std::string &context, const DrawWitness &since);

// Charges a release that fails after its first draw whatever the failure, not only a status
// release_check sees: an exception thrown between a draw and the release call (the input changed
// between the two passes of --bound auto, the exact path's memory limit, an IO or usage error)
// ends the command too, and the noise drawn is consumed all the same. Made right after `since`;
// destroyed by a throw (more uncaught exceptions than when it was made) after the generator
// advanced, with nothing charged to `ledger` yet, it charges `charges()` before the failure is
// reported. Nothing is written then: the outputs come after the charge. A destructor cannot
// replace the failure in flight, so a charge that fails here (kExitLedger) is kept for main(),
// which reports it after that failure and exits with kExitLedger (unrecorded_charge). With a
// ledger, SIGINT, SIGTERM and SIGHUP are deferred while the guard lives (interrupt.hpp): they end
// the command at its next check, as a failure the guard charges if the noise is drawn.
class DrawGuard {
 public:
  DrawGuard(LedgerFile *ledger, const DrawWitness &since,
            std::function<std::vector<LedgerCharge>()> charges, std::string output);
  ~DrawGuard();
  DrawGuard(const DrawGuard &) = delete;
  DrawGuard &operator=(const DrawGuard &) = delete;

 private:
  LedgerFile *ledger_;
  const DrawWitness &since_;
  std::function<std::vector<LedgerCharge>()> charges_;
  std::string output_;
  int exceptions_;
  std::optional<InterruptDeferral> deferral_;  // made last, restored after the charge
};

// A charge that failed inside a DrawGuard: main() reports it after the failure that ended the
// command and exits with kExitLedger instead of that failure's code.
struct UnrecordedCharge {
  bool failed = false;
  std::string message;  // the CliError(kExitLedger)'s (empty if even that could not be kept)
};
const UnrecordedCharge &unrecorded_charge();

// Registers --ledger, --ledger-epsilon, --ledger-delta and --accounting on `command`.
void add_ledger_options(CLI::App &command, LedgerOptions &options);

}  // namespace dpcov::cli
