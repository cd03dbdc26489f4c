// The steps every release of the command takes, in this order, whatever its family: the Gram
// mechanisms (`release`), the zCDP mechanisms on the rows (`release -m dly_*, coinpress*`) and
// AdaSSP (`regress` on raw rows):
//   1. the plan, computed once from public values, and the ledger, which refuses a release over
//      its cap before any row is read or noise drawn (checked_ledger; charges_with_bound_step
//      when a private bound step comes first);
//   2. the generator, the witness of its state and the guard that charges any failure after the
//      first draw, with the warning a fixed seed needs (ReleaseDraws);
//   3. the rows, read through the library's bounding into an accumulator or a buffer (io/);
//   4. each drawing step's status checked: a failure after a draw is charged once
//      (ReleaseDraws::check);
//   5. the release's own charges, recorded before anything is written (ReleaseDraws::charge);
//   6. the public receipt beside the output and the curator-only diagnostics (write_outputs).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <dpcov.h>

#include "../ledger/ledger_file.hpp"
#include "../options/rng_option.hpp"

namespace dpcov::cli {

// The ledger of --ledger (none when `options` names no file), read or started from its caps,
// with the release's planned charges (`planned`, given the ledger: its accounting decides how a
// bound step composes with the release) checked against its cap. Throws CliError(kExitPrivacy)
// for a release over the cap, and whatever LedgerFile throws.
std::unique_ptr<LedgerFile> checked_ledger(
    const LedgerOptions &options,
    const std::function<std::vector<LedgerCharge>(const LedgerFile &)> &planned);

// The charges of `release` after a private bound step that spent `bound_epsilon` (0: none): a
// basic or zCDP ledger (or none) is charged two releases, the bound step (epsilon-DP) and then
// `release`; an advanced ledger one release of both epsilons together (rounded up; in zCDP terms
// rho plus the bound step's epsilon^2 / 2, rounded up), whose per-release budget is that of a
// whole release.
std::vector<LedgerCharge> charges_with_bound_step(const LedgerFile *ledger, double bound_epsilon,
                                                  LedgerCharge release);

// How a command warns that a fixed seed makes its noise removable: `dpcov COMMAND: warning:
// OPTION fixes the noise; ...`, printed even under --quiet.
struct SeedWarning {
  const char *command;
  const char *option;
};

// The draws of one release: its generator (seeded by `seed`, else from the operating system's
// entropy), the witness of the generator's state and the guard that charges `planned()` to the
// ledger (if any) when the command fails after the first draw, whatever the failure (DrawGuard;
// with a ledger the charge is written ahead, pending, when this is made). `output` names the
// release in the ledger. Made before the first draw and kept until the outputs are written.
class ReleaseDraws {
 public:
  ReleaseDraws(LedgerFile *ledger, std::function<std::vector<LedgerCharge>()> planned,
               const std::optional<uint64_t> &seed, std::string output, SeedWarning warning);
  ReleaseDraws(const ReleaseDraws &) = delete;
  ReleaseDraws &operator=(const ReleaseDraws &) = delete;

  dpcov_rng *rng() const { return rng_.get(); }

  // release_check with the planned charges: a failure after a draw is charged once, then
  // reported with `context`.
  void check(dpcov_status status, const std::string &context) const;

  // Records the release's own `charges` in the ledger (if any), named by `output`: before any
  // output is written, so that a failure after this leaves the budget spent and no release, never
  // a release the ledger does not know.
  void charge(const std::vector<LedgerCharge> &charges, const std::string &output) const;

 private:
  LedgerFile *ledger_;
  std::function<std::vector<LedgerCharge>()> planned_;
  std::string output_;
  RngHandle rng_;
  DrawWitness since_;  // made before guard_, which refers to it
  DrawGuard guard_;
};

}  // namespace dpcov::cli
