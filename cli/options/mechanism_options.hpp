// Options shared by `dpcov release` and `dpcov plan`: the mechanism, its privacy parameters and
// settings, and the receipt as JSON and as text.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <dpcov.h>
#include <nlohmann/json.hpp>

namespace dpcov::cli {

// The names of a library enumeration's values, in the order --help lists them.
using NamedValues = std::vector<std::pair<std::string, int32_t>>;

// The library's mechanisms by name (the library numbers them from 1, names each and never
// reuses an id).
NamedValues library_mechanisms();

// --neighbour's and --calibration's names and their library values.
const NamedValues &neighbour_values();
const NamedValues &calibration_values();

// The names of `table`, for CLI::IsMember.
std::vector<std::string> names_of(const NamedValues &table);

// The value of `name` in `table`. Throws CliError(kExitUsage) naming `option` and the known names.
int32_t value_of(const NamedValues &table, const std::string &name, const char *option);

// The name of `value` in `table`, or "unknown (value)".
std::string name_of(const NamedValues &table, int32_t value);

struct MechanismOptions {
  std::string mechanism;
  double epsilon = 0.0;
  std::optional<double> delta;
  std::string neighbour = "replace-one";
  std::string calibration = "default";
  std::optional<double> lambda_min;
  std::string lambda_min_scope = "domain";
  bool audit_only_not_private = false;
  std::string budget_split = "default";
  std::optional<double> beta;
  std::optional<int64_t> rank;
  std::optional<int64_t> projection_rows;
  std::optional<int64_t> posterior_dof;
  // Set where the mechanism gets a share of the user's --epsilon: the epsilon asked for and what
  // spends the rest (a phrase), so that a failed precondition names both (share_context).
  std::optional<double> requested_epsilon;
  std::string rest_spent_by;
};

// "at epsilon E" for a mechanism called at `epsilon`, and where that is a share of the user's
// --epsilon `requested`, ", the release's share of the requested --epsilon R (`rest_spent_by`)":
// a theorem's precondition on epsilon fails at the share, which the library's message names
// alone.
std::string share_context(double epsilon, std::optional<double> requested,
                          const std::string &rest_spent_by);

// Registers --mechanism, --epsilon, --delta and the mechanism settings on `command`.
void add_mechanism_options(CLI::App &command, MechanismOptions &options);

// A mechanism ready to call: its id, settings and the delta to pass.
struct MechanismChoice {
  int32_t id = 0;
  dpcov_mechanism_params params{};
  double delta = 0.0;
};

// Resolves names to library values. Throws CliError(kExitUsage) for an unknown name.
MechanismChoice resolve_mechanism(const MechanismOptions &options);

struct PlanDeleter {
  void operator()(dpcov_plan *plan) const { dpcov_plan_destroy(&plan); }
};
using PlanHandle = std::unique_ptr<dpcov_plan, PlanDeleter>;

// The plan of a release for d columns and n rows (0: counted at the release) with exact or
// idealized numerics, kept by the library (dpcov_plan_create): planned once, read for its receipt
// and grid, and released from (dpcov_plan_release_gram) with its constants as computed. On
// failure, throws the command's error (a missing --delta is named as such). Run before any data
// is read, so that a release that cannot happen fails at once.
PlanHandle make_plan(const MechanismChoice &choice, const MechanismOptions &options, int64_t dim,
                     int64_t rows, double bound, bool exact);

// `plan` moved to the bound B chosen after it (dpcov_plan_create_at_bound: exact numerics keep
// the grid, so nothing is searched again).
PlanHandle plan_at_bound(const dpcov_plan *plan, double bound);

// A plan's receipt, and the grid of a plan with exact numerics.
dpcov_receipt plan_receipt(const dpcov_plan *plan);
dpcov_exact_grid plan_grid(const dpcov_plan *plan);

// The receipt of make_plan(..., exact = false).
dpcov_receipt plan_mechanism(const MechanismChoice &choice, const MechanismOptions &options,
                             int64_t dim, int64_t rows, double bound);

// --numerics of release and plan: "exact" (floating-point-safe, dpcov/exact.h; analyze_gauss and
// laplace_sym only), "idealized" (floating-point noise), or "default".
void add_numerics_option(CLI::App &command, std::string &numerics);

// Whether `numerics` selects exact numerics for `choice`: "exact" for the two mechanisms that
// have them (kExitUsage for any other), "idealized" never, "default" for laplace_sym only (the
// exact mode's cost at d = 1000 is within 3x of the idealized one for it, not for analyze_gauss:
// bench/exact_bench.cpp, docs/random.md).
bool exact_numerics(const std::string &numerics, const MechanismChoice &choice,
                    const MechanismOptions &options);

// The receipt and grid of make_plan(..., exact = true).
dpcov_receipt plan_exact(const MechanismChoice &choice, const MechanismOptions &options,
                         int64_t dim, int64_t rows, double bound, dpcov_exact_grid *grid);

// The grid and integer noise law of an exact release, for its receipt.
nlohmann::ordered_json exact_grid_json(const dpcov_exact_grid &grid);

// Every field of a receipt, with names for the enumerations.
nlohmann::ordered_json receipt_json(const dpcov_receipt &receipt);

// What of a release's receipt may be published (dpcov_receipt_public): receipt_json without the
// curator-only fields (the Bingham proposal counts, and n when the neighbour relation keeps it
// private), with "n_public" saying which.
nlohmann::ordered_json public_receipt_json(const dpcov_receipt &receipt);

// The curator-only fields of a release's receipt, under a label saying not to publish them.
nlohmann::ordered_json curator_receipt_json(const dpcov_receipt &receipt);

// The receipt as aligned "name  value" lines, for a terminal.
std::string receipt_text(const nlohmann::ordered_json &receipt);

// The names of the library's mechanisms, comma-separated, for --help.
std::string mechanism_list();

}  // namespace dpcov::cli
