// `--ledger FILE`: a privacy budget ledger kept in a JSON file (dpcov/ledger.h). The file holds the
// cap, the accounting and one entry per release; it is replayed into a dpcov_ledger, so the library
// decides what fits. A release that would exceed the cap is refused before any data is read; the
// file is replaced atomically, and only after the release succeeded.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <dpcov.h>
#include <nlohmann/json.hpp>

namespace dpcov::cli {

struct LedgerOptions {
  std::string path;                      // empty: no ledger
  std::optional<double> epsilon_cap;     // for a new ledger file
  std::optional<double> delta_cap;       // for a new ledger file
  std::string accounting = "basic";      // for a new ledger file: basic or zcdp
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

  // Throws CliError(kExitPrivacy) if the release `receipt` describes would exceed the cap.
  void check(const dpcov_receipt &receipt) const;
  // Records the release and replaces the file atomically. `output` names what was released.
  void charge(const dpcov_receipt &receipt, const std::string &output);
  // The ledger's accounting: "basic" or "zcdp".
  std::string accounting() const { return file_.at("accounting").get<std::string>(); }
  // The ledger's state for a receipt: cap, spent, remaining.
  nlohmann::ordered_json summary() const;

 private:
  std::string path_;
  nlohmann::ordered_json file_;
  dpcov_ledger *ledger_ = nullptr;
};

}  // namespace dpcov::cli
