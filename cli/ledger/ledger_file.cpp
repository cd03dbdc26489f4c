#include "ledger_file.hpp"

#include <exception>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <new>
#include <sys/stat.h>
#include <unistd.h>

#include "../cli_error.hpp"
#include "../io/json_text.hpp"
#include "ledger_chain.hpp"
#include "ledger_path.hpp"
#include "../library_status.hpp"
#include "../io/writers/atomic_file.hpp"
#include "../io/writers/matrix_writer.hpp"

namespace dpcov::cli {

namespace {

int32_t accounting_value(const std::string &name) {
  if (name == "basic") return DPCOV_ACCOUNTING_BASIC;
  if (name == "zcdp") return DPCOV_ACCOUNTING_ZCDP;
  if (name == "advanced") return DPCOV_ACCOUNTING_ADVANCED;
  fail(kExitUsage, "--accounting must be basic, zcdp or advanced, got ", name);
}

bool exists(const std::string &path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0;
}

}  // namespace

LedgerFile::LedgerFile(const LedgerOptions &o)
    : path_(resolve_ledger_path(o.path)), lock_(path_) {
  // While this run waited for the lock, another may have linked the file or moved a link.
  if (resolve_ledger_path(o.path) != path_)
    fail(kExitIo, o.path, ": the ledger's path changed while waiting for its lock; run again");
  if (exists(path_)) {
    std::ifstream in(path_, std::ios::binary);
    if (!in) fail(kExitIo, path_, ": cannot open the ledger");
    // Kept byte for byte: a refund puts back exactly this.
    original_.emplace(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (in.bad()) fail(kExitIo, path_, ": cannot read the ledger");
    double eps = 0.0, delta = 0.0;
    try {
      file_ = nlohmann::ordered_json::parse(*original_);
      eps = file_.at("epsilon_cap").get<double>();
      delta = file_.at("delta_cap").get<double>();
      // charge() appends to the list: anything else is refused now, before a release.
      if (!file_.at("charges").is_array())
        fail(kExitInputData, path_, ": not a dpcov ledger (charges is not a list)");
      chain_ = verify_chain(file_, path_);
      adopted_ = file_.at("charges").size();
    } catch (const nlohmann::json::exception &e) {
      fail(kExitInputData, path_, ": not a dpcov ledger (", json_failure(e), ")");
    }
    if ((o.epsilon_cap && *o.epsilon_cap != eps) || (o.delta_cap && *o.delta_cap != delta))
      fail(kExitUsage, path_, ": the ledger's cap is (", eps, ", ", delta,
           "); a cap is set when the ledger is created and never changed");
    if (o.accounting && file_.contains("accounting") && file_["accounting"] != *o.accounting)
      fail(kExitUsage, path_, ": the ledger's accounting is ", file_["accounting"].dump(),
           ", not ", *o.accounting, "; it is set when the ledger is created and never changed");
    warn_unverified();
    try {
      ledger_ = replay();
    } catch (const nlohmann::json::exception &e) {
      fail(kExitInputData, path_, ": not a dpcov ledger (", json_failure(e), ")");
    } catch (const CliError &e) {
      // A cap, an accounting or a recorded charge that the library refuses is in the file, not
      // on the command line: the file is malformed (exit 2), whatever the library's status.
      if (e.code() == kExitIo) throw;
      const std::string what = e.what();
      if (what.compare(0, path_.size(), path_) == 0) throw CliError(kExitInputData, what);
      fail(kExitInputData, path_, ": ", what);
    }
    return;
  }
  if (!o.epsilon_cap)
    fail(kExitUsage, path_, " does not exist: a new ledger needs its total budget, ",
         "--ledger-epsilon (and --ledger-delta for (epsilon, delta) mechanisms)");
  const double delta = o.delta_cap.value_or(0.0);
  library_check(dpcov_ledger_create(&ledger_, accounting_value(o.accounting.value_or("basic")), *o.epsilon_cap, delta),
                "creating the ledger");
  check_writable(path_);
  // The sealed fields come first, and the chain's own after them (filled by seal_ledger).
  file_ = {{"ledger", "dpcov privacy budget: every release charged against the cap"},
           {"format", nullptr},
           {"accounting", o.accounting.value_or("basic")},
           {"epsilon_cap", *o.epsilon_cap},
           {"delta_cap", delta},
           {"seal", nullptr},
           {"charges", nlohmann::ordered_json::array()}};
  seal_ledger(file_, std::nullopt);
}

void LedgerFile::warn_unverified() const {
  if (chain_.unchained)
    std::fprintf(stderr, "dpcov: warning: the ledger %s has no hash chain (it was written by an "
                 "earlier dpcov): its cap and its %zu charges are taken as written, and sealed as "
                 "such (\"adopted_charges\") at its next charge; edits made before then cannot "
                 "be detected\n", path_.c_str(), adopted_);
  if (chain_.unlinked > 0)
    std::fprintf(stderr, "dpcov: warning: the ledger %s: its last %zu charges have no link (they "
                 "were added by hand): they are counted, and linked at its next charge\n",
                 path_.c_str(), chain_.unlinked);
}

LedgerFile::~LedgerFile() { dpcov_ledger_destroy(&ledger_); }

dpcov_ledger *LedgerFile::replay() const {
  dpcov_ledger *ledger = nullptr;
  library_check(dpcov_ledger_create(&ledger,
                                    accounting_value(file_.at("accounting").get<std::string>()),
                                    file_.at("epsilon_cap").get<double>(),
                                    file_.at("delta_cap").get<double>()),
                path_);
  try {
    for (const auto &entry : file_.at("charges"))
      library_check(apply_charge(ledger, charge_of(entry)), concat(path_, ": replaying a charge"));
  } catch (...) {
    dpcov_ledger_destroy(&ledger);
    throw;
  }
  return ledger;
}

void LedgerFile::check(const std::vector<LedgerCharge> &charges) const {
  // On a copy: the releases after the first are checked against what the earlier ones leave.
  dpcov_ledger *scratch = replay();
  try {
    for (const LedgerCharge &c : charges)
      library_check(apply_charge(scratch, c), concat("ledger ", path_));
  } catch (...) {
    dpcov_ledger_destroy(&scratch);
    throw;
  }
  dpcov_ledger_destroy(&scratch);
}

nlohmann::ordered_json LedgerFile::summary() const {
  dpcov_ledger_spent s{};
  s.struct_size = sizeof s;
  library_check(dpcov_ledger_get_spent(ledger_, &s), "reading the ledger");
  return {{"releases", s.charges},
          {"epsilon", s.epsilon},
          {"delta", s.delta},
          {"rho", s.rho},
          {"epsilon_cap", s.epsilon_cap},
          {"delta_cap", s.delta_cap}};
}

void LedgerFile::write() {
  // A hard link made during the run would keep the old contents as a second ledger.
  refuse_hard_links(path_, path_);
  file_["spent"] = summary();
  if (chain_.unchained)
    seal_ledger(file_, adopted_);
  else
    link_charges(file_);
  chain_ = ChainState{};
  AtomicFile out(path_);
  write_text(out.stream(), json_text(file_), path_);
  out.commit();
  sync_directory(path_);
}

void LedgerFile::reserve(const std::vector<LedgerCharge> &charges, const std::string &output) {
  nlohmann::ordered_json entries = nlohmann::ordered_json::array();
  for (const LedgerCharge &c : charges) {
    nlohmann::ordered_json entry = entry_of(c, output);
    entry["state"] = "pending";
    entries.push_back(std::move(entry));
  }
  try {
    check(charges);
    for (const LedgerCharge &c : charges)
      library_check(apply_charge(ledger_, c), concat("ledger ", path_));
    for (const auto &entry : entries) file_["charges"].push_back(entry);
    reserved_ = entries.size();
    pending_ = true;
    write();
  } catch (const std::exception &e) {
    // Before any draw: the release stops here, so nothing is spent.
    fail(kExitLedger, "LEDGER NOT CHARGED: the ledger ", path_, " could not record the "
         "release's charge before its draw (", e.what(), "). Nothing was drawn and nothing "
         "released; the ledger is as it was, unless only syncing its directory failed, in which "
         "case it holds ", entries.size() == 1 ? "this entry" : "these entries",
         ", marked pending (an over-count, the safe side): ", entries.dump());
  }
}

void LedgerFile::refund() noexcept {
  if (!pending_) return;
  pending_ = false;
  try {
    if (original_) {
      AtomicFile out(path_);
      write_text(out.stream(), *original_, path_);
      out.commit();
    } else if (::unlink(path_.c_str()) != 0) {
      fail(kExitIo, path_, ": cannot remove: ", std::strerror(errno));
    }
    sync_directory(path_);
  } catch (const std::exception &e) {
    std::fprintf(stderr,
                 "dpcov: LEDGER NOT REFUNDED: the release failed before drawing any noise, but "
                 "the charge recorded before its draw could not be removed from the ledger %s "
                 "(%s). The ledger over-counts the budget spent (the safe side): remove its "
                 "last %zu entries marked \"state\": \"pending\" by hand to refund them (the "
                 "hash chain allows removing pending entries from its end, nothing else)\n",
                 path_.c_str(), e.what(), reserved_);
  }
}

void LedgerFile::charge(const std::vector<LedgerCharge> &charges, const std::string &output) {
  charged_ = true;
  const bool reserved = pending_;
  pending_ = false;
  nlohmann::ordered_json entries = nlohmann::ordered_json::array();
  for (const LedgerCharge &c : charges) entries.push_back(entry_of(c, output));
  try {
    if (reserved) {
      // The release's own entries replace the pending ones, which the replay then no longer has.
      auto &list = file_["charges"];
      list.erase(list.end() - static_cast<std::ptrdiff_t>(reserved_), list.end());
      dpcov_ledger *without = replay();
      dpcov_ledger_destroy(&ledger_);
      ledger_ = without;
    }
    check(charges);
    for (const LedgerCharge &c : charges)
      library_check(apply_charge(ledger_, c), concat("ledger ", path_));
    for (const auto &entry : entries) file_["charges"].push_back(entry);
    write();
  } catch (const std::exception &e) {
    if (reserved)
      // The file still holds the pending entries: the budget spent is counted.
      fail(kExitLedger, "LEDGER NOT CHARGED: noise was drawn but the ledger ", path_,
           " could not record the release's own charge (", e.what(), "). Nothing was released; "
           "the charge recorded before the draw stays in the ledger, marked \"state\": "
           "\"pending\", and counts against its cap. If the release's ",
           entries.size() == 1 ? "entry differs" : "entries differ",
           " from it, add them after it (the hash chain refuses an entry edited in place; the "
           "pending one then over-counts, the safe side): ", entries.dump());
    // The noise is drawn: whatever failed, the ledger no longer tells what was spent.
    fail(kExitLedger, "LEDGER NOT CHARGED: noise was drawn but the ledger ", path_,
         " could not record it (", e.what(), "). Nothing was released, yet the ledger now "
         "understates the budget spent: before any other release charged to it, add ",
         entries.size() == 1 ? "this entry" : "these entries", " to its \"charges\" list: ",
         entries.dump());
  }
}

DrawWitness::DrawWitness(const dpcov_rng *rng) : rng_(rng) {
  library_check(dpcov_rng_state_save(rng, start_.data(), start_.size()),
                "saving the generator's state");
}

bool DrawWitness::drawn() const {
  std::array<unsigned char, DPCOV_RNG_STATE_SIZE> now{};
  return dpcov_rng_state_save(rng_, now.data(), now.size()) != DPCOV_OK || now != start_;
}

void release_check(dpcov_status status, LedgerFile *ledger,
                   const std::vector<LedgerCharge> &charges, const std::string &output,
                   const std::string &context, const DrawWitness &since) {
  if (status == DPCOV_OK) return;
  // The message is read before charging: the ledger's own library calls (and the witness's)
  // replace it.
  const std::string message = dpcov_last_error_message();
  if (ledger && (since.drawn() || failed_after_draw(status))) {
    try {
      ledger->charge(charges, concat(output, " (not written: the release failed after its draw, ",
                                     dpcov_status_string(status), ")"));
    } catch (const CliError &e) {
      // kExitLedger: the release's own failure is told too.
      throw CliError(e.code(), concat(e.what(), "\n  the release had failed: ", context, ": ",
                                      dpcov_status_string(status), ": ", message));
    }
  }
  library_fail(status, context, message);
}

DrawGuard::DrawGuard(LedgerFile *ledger, const DrawWitness &since,
                     std::function<std::vector<LedgerCharge>()> charges, std::string output)
    : ledger_(ledger), since_(since), charges_(std::move(charges)), output_(std::move(output)),
      exceptions_(std::uncaught_exceptions()) {
  if (!ledger_) return;
  deferral_.emplace();
  // Write-ahead, before the release's first draw: a process killed after it leaves the charge.
  ledger_->reserve(charges_(), output_);
}

namespace {

// A charge that failed inside a DrawGuard (one per run: a release is charged once).
UnrecordedCharge &unrecorded() {
  static UnrecordedCharge charge;
  return charge;
}

}  // namespace

const UnrecordedCharge &unrecorded_charge() { return unrecorded(); }

DrawGuard::~DrawGuard() {
  if (!ledger_ || ledger_->charged()) return;
  // Nothing drawn: the charge written ahead is refunded (a failure, or a command that ended
  // without releasing).
  if (!since_.drawn()) {
    ledger_->refund();
    return;
  }
  if (std::uncaught_exceptions() <= exceptions_) return;
  try {
    ledger_->charge(charges_(), concat(output_, " (not written: the command failed after the "
                                                "release's first draw)"));
  } catch (const std::exception &e) {
    // Set first: the message's copy may fail for want of memory, the exit code must not.
    unrecorded().failed = true;
    try {
      unrecorded().message = e.what();
    } catch (const std::bad_alloc &) {
    }
  }
}

void add_ledger_options(CLI::App &command, LedgerOptions &options) {
  command.add_option("--ledger", options.path,
                     "Privacy budget ledger (JSON): the release is charged to it, and refused "
                     "before any data is read if it would exceed the ledger's cap; the file is "
                     "written ahead: before the noise is drawn the charge is recorded, marked "
                     "pending, so that a process killed after the draw leaves it counted; the "
                     "file is put back byte for byte on any failure before the draw; a release "
                     "that fails after drawing its noise is charged, once, and writes nothing; "
                     "exit 7 if a charge cannot be recorded. The ledger is the file the path "
                     "resolves to (a symbolic link reaches the same ledger; a link to a missing "
                     "ledger and a file with a second hard link are refused); runs on it are "
                     "serialised by a lock on FILE.lock beside it: a second run waits for the "
                     "first to end. The file's cap is sealed and its charges chained by a hash: a "
                     "hand edit, a deleted charge or a raised cap is refused when it is read (this "
                     "detects edits; it does not stop a curator who rewrites the whole chain)");
  command.add_option("--ledger-epsilon", options.epsilon_cap,
                     "Total epsilon of a new ledger (when the --ledger file does not exist yet)");
  command.add_option("--ledger-delta", options.delta_cap,
                     "Total delta of a new ledger (default 0)");
  command.add_option("--accounting", options.accounting,
                     "Composition of a new ledger: basic (epsilons and deltas add up; default), "
                     "zcdp (Gaussian and pure releases by zero-concentrated DP: tighter for "
                     "many releases) or advanced (Dwork-Rothblum-Vadhan advanced composition, "
                     "every mechanism: the first release fixes the epsilon and delta each "
                     "release may spend, and so how many fit)")
      ->check(CLI::IsMember({"basic", "zcdp", "advanced"}));
}

}  // namespace dpcov::cli
