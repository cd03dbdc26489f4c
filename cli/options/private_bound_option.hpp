// `release --bound auto`: the norm bound chosen from the data, eps_B-DP, over a public geometric
// grid (dpcov/private_bound.h, proofs/private_bound.md): by default the sparse vector scan upward
// from the smallest candidate (dpcov_private_bound_scan), or with --bound-rule exponential the
// exponential mechanism (dpcov_private_bound_select), which lands far above the data at small n.
// A first pass over the input counts the row norms per grid cell; the choice aims at the quantile
// --bound-quantile of the norms, i.e. at floor((1 - q) n) rows above B, which needs n public
// (replace-one), or at --bound-clipped m rows above B, which needs no n (either relation). The
// release then spends the rest of the budget.
#pragma once

#include <optional>
#include <string>

#include <dpcov.h>
#include <nlohmann/json.hpp>

#include "../io/readers/row_reader.hpp"

namespace dpcov::cli {

struct AutoBoundOptions {
  std::optional<double> epsilon;  // --bound-epsilon; default DPCOV_BOUND_STEP_SHARE * --epsilon
  double quantile = DPCOV_AUTO_BOUND_QUANTILE;  // --bound-quantile, in (0, 1]
  // --bound-clipped: a public target number m of rows above B instead of the quantile. It needs
  // no n, so it also serves add/remove, where n is private.
  std::optional<int64_t> clipped;
  // --bound-rule: "scan" (the default) or "exponential".
  std::string rule = "scan";
};

struct AutoBound {
  double bound = 0.0;
  double epsilon = 0.0;
  // The public record: method, epsilon spent, quantile, grid, chosen bound.
  nlohmann::ordered_json json;
};

// Refuses (CliError(kExitUsage)) a --bound-quantile the library does not take: outside (0, 1].
void check_bound_quantile(double quantile);

// The bound --epsilon `total` leaves for `options`: checks the quantile or the clipped target and
// that the bound's epsilon is > 0 and below `total`. Throws CliError(kExitUsage).
double auto_bound_epsilon(const AutoBoundOptions &options, double total);

// What the release may spend after the bound's `bound_epsilon` (dpcov_bound_step_rest: the largest
// double e with bound_epsilon + e <= total exactly).
double release_epsilon(double total, double bound_epsilon);

// bound_epsilon + epsilon rounded up (dpcov_bound_step_total): what the two steps spend together,
// for an accounting that charges them as one release (advanced composition, whose per-release
// budget they share).
double epsilon_together(double bound_epsilon, double epsilon);

// Reads every row of `reader` (the first pass), counts the norms per grid cell and chooses B with
// `epsilon` from `rng`. Throws CliError(kExitInputData) for an input without rows.
AutoBound choose_auto_bound(RowReader &reader, const AutoBoundOptions &options, double epsilon,
                            dpcov_rng *rng);

// The same at the level of privacy units (proofs/private_bound.md, "Privacy units"): every row of
// `reader`, the unit in column `unit_index`, grouped by unit in bounded memory; the library counts
// each unit once by its largest row norm, and the target (--bound-clipped M, or the quantile of U
// units) counts units.
AutoBound choose_auto_bound_units(RowReader &reader, int64_t unit_index,
                                  const AutoBoundOptions &options, double epsilon,
                                  dpcov_rng *rng);

}  // namespace dpcov::cli
