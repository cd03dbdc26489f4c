#include "release_command.hpp"

#include <cmath>
#include <cstdio>
#include <fast_float/fast_float.h>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include <dpcov.h>

#include "../cli_error.hpp"
#include "../options/column_bounds_option.hpp"
#include "../options/constant_column_option.hpp"
#include "../io/gram_stream.hpp"
#include "../io/row_bounding.hpp"
#include "../io/unit_stream.hpp"
#include "../ledger/ledger_file.hpp"
#include "../options/private_bound_option.hpp"
#include "../library_status.hpp"
#include "../io/rereadable_input.hpp"
#include "../options/input_options.hpp"
#include "../options/mechanism_options.hpp"
#include "../options/unit_plan.hpp"
#include "../io/write_outputs.hpp"
#include "release_pipeline.hpp"
#include "zcdp_release.hpp"

namespace dpcov::cli {

namespace {

struct ReleaseOptions {
  InputOptions input;
  OutputOptions output;
  MechanismOptions mechanism;
  std::string bound_text;  // --bound: a number, or "auto"
  AutoBoundOptions auto_bound;
  std::string bounds;
  bool add_constant = false;  // --add-constant: rows [B, x] (constant_column_option.hpp)
  bool clip = false;
  bool reject = false;
  std::optional<uint64_t> seed;
  bool quiet = false;
  LedgerOptions ledger;
  std::string numerics = "default";
  std::optional<double> k_bound;  // coinpress
  std::optional<int64_t> steps;   // coinpress
  std::optional<double> mean_radius;  // coinpress_mean, coinpress --center
  bool center = false;                // coinpress
  std::string privacy_unit;           // --privacy-unit COLUMN
  int64_t max_rows_per_unit = 0;      // --max-rows-per-unit K
};

// --bound's value: 0 when absent, a checked number, or 0 with `automatic` set for "auto".
double parse_bound(const std::string &text, bool &automatic) {
  automatic = text == "auto";
  if (text.empty() || automatic) return 0.0;
  double value = 0.0;
  const auto result = fast_float::from_chars(text.data(), text.data() + text.size(), value);
  if (result.ec != std::errc() || result.ptr != text.data() + text.size())
    fail(kExitUsage, "--bound must be a finite number > 0 or 'auto', got '", text, "'");
  check_bound(value, "--bound");
  return value;
}

// An empty input is refused only where n is public (replace-one): under add/remove the empty
// dataset is a neighbour of every one-row dataset, so refusing it would tell the two apart; it is
// released like any other (a Gram matrix of zeros plus noise).
void refuse_empty_if_n_public(const dpcov_gram_info &info, const ReleaseOptions &o,
                              const RowReader &rows) {
  if (info.rows == 0 && o.mechanism.neighbour == "replace-one")
    fail(kExitInputData, rows.name(), ": the input has no rows to release");
}

// The zCDP mechanisms on the rows (zcdp_release.hpp) take a public --bound (or, for coinpress,
// --k-bound) and none of the Gram path's options.
void run_rows_release(const ReleaseOptions &o) {
  const std::string &name = o.mechanism.mechanism;
  if (!o.bounds.empty() || o.bound_text == "auto" || o.auto_bound.epsilon ||
      o.auto_bound.quantile != AutoBoundOptions{}.quantile || o.auto_bound.clipped ||
      o.auto_bound.rule != AutoBoundOptions{}.rule)
    fail(kExitUsage, name, " takes a public --bound B (coinpress: --k-bound K), not --bounds "
         "or --bound auto");
  if (o.add_constant)
    fail(kExitUsage, "--add-constant applies to the Gram mechanisms (--bound B or --bound auto), "
         "not ", name, ", which releases the rows' own covariance or mean");
  if (o.numerics != "default")
    fail(kExitUsage, "--numerics applies to the Gram mechanisms, not ", name,
         " (idealized numerics)");
  ZcdpReleaseOptions z;
  z.input = o.input;
  z.output = o.output;
  z.mechanism = o.mechanism;
  bool automatic = false;
  z.bound = parse_bound(o.bound_text, automatic);
  z.k_bound = o.k_bound;
  z.steps = o.steps;
  z.mean_radius = o.mean_radius;
  z.center = o.center;
  if (o.reject) z.policy.value = DPCOV_BOUND_REJECT;
  z.seed = o.seed;
  z.quiet = o.quiet;
  z.ledger = o.ledger;
  z.privacy_unit = o.privacy_unit;
  z.max_rows_per_unit = o.max_rows_per_unit;
  // The ledger is read too: an output must not replace it either.
  std::vector<ReadFile> inputs = {o.input.path};
  if (!o.ledger.path.empty()) inputs.emplace_back(o.ledger.path, "ledger");
  check_outputs(o.output, inputs, /*curator=*/true);
  run_zcdp_release(z);
}

// The checks of the Gram path's options that need no input, each a usage error.
void check_gram_options(const ReleaseOptions &o, bool automatic, double public_bound) {
  if (o.k_bound || o.steps) fail(kExitUsage, "--k-bound and --steps apply to coinpress only");
  if (o.mean_radius) fail(kExitUsage, "--mean-radius applies to coinpress_mean only");
  if (o.center) fail(kExitUsage, "--center applies to coinpress (pca and glasso centre a released "
                     "matrix themselves)");
  const bool scaled = !o.bounds.empty();
  if (scaled && o.add_constant)
    fail(kExitUsage, "--add-constant does not apply to --bounds, which puts a constant column '",
         kConstantColumn, "' in front already");
  if (automatic && o.mechanism.neighbour != "replace-one" && !o.auto_bound.clipped)
    fail(kExitUsage, "--bound auto aims at a quantile of the row norms, which needs n public: use "
         "--neighbour replace-one, a target number of clipped rows (--bound-clipped M, no n "
         "needed), or a public --bound");
  if (automatic && o.reject)
    fail(kExitUsage, "--reject does not apply to --bound auto: rows above the chosen bound are "
         "clipped to it");
  if (!automatic && (o.auto_bound.epsilon || o.auto_bound.clipped ||
                     o.auto_bound.quantile != AutoBoundOptions{}.quantile ||
                     o.auto_bound.rule != AutoBoundOptions{}.rule))
    fail(kExitUsage, "--bound-epsilon, --bound-quantile, --bound-clipped and --bound-rule apply to "
         "--bound auto only");
  if (scaled && (public_bound != 0.0 || automatic))
    fail(kExitUsage, "--bound and --bounds exclude each other: with --bounds the norm bound of the "
         "scaled rows is sqrt(d + 1)");
  if (!scaled && public_bound == 0.0 && !automatic)
    fail(kExitUsage, "a release needs a public bound: --bound B (Euclidean norm of every row), "
         "--bound auto (chosen from the data with a share of the budget) or --bounds "
         "LOW:HIGH,... (a range per column, in the data's units)");
  if (scaled && o.reject)
    fail(kExitUsage, "--reject does not apply to --bounds: values outside their range are clamped "
         "(and counted)");
  if (!o.privacy_unit.empty() && (scaled || o.reject))
    fail(kExitUsage, "--privacy-unit takes --bound B or --bound auto (clip, or --drop under "
         "add-remove): not --bounds or --reject (docs/privacy-units.md)");
}

// Everything a Gram release fixes before it reads a row: the shape of the rows the accumulator
// sees, their public norm bound, the numerics and the plan (computed from d and B alone).
struct GramPlan {
  bool scaled = false;     // --bounds: rows [1, z]
  bool automatic = false;  // --bound auto
  bool exact = false;
  double bound_epsilon = 0.0;  // --bound auto's share of the budget
  MechanismOptions mechanism;  // with the release's own epsilon
  MechanismChoice choice;
  BoundPolicy policy;
  ColumnBounds bounds;
  std::vector<std::string> data_columns;
  std::vector<std::string> columns;  // of the release: [const,] data columns
  int64_t d = 0;
  double row_bound = 0.0;  // B on the data rows (1 until --bound auto chooses it)
  double bound = 0.0;      // the norm bound of the rows (or units) the accumulator sees
  int64_t unit_index = -1;  // --privacy-unit: the unit column among the input's
  dpcov_exact_grid grid{sizeof(dpcov_exact_grid), 0, 0, 0.0, 0, 0};
  dpcov_receipt planned{};
  // The library's plan, made once: the accumulator takes its grid and the release its constants
  // (n is counted at the release).
  PlanHandle handle;

  // The plan at the current bound; it fails now, before any row is read, if the release cannot
  // happen (with --bound auto, B only scales the constants: the plan at B = 1 fails exactly when
  // the real one would).
  void plan() {
    handle = make_plan(choice, mechanism, d, 0, bound, exact);
    read_plan();
  }
  // The plan moved to the bound --bound auto chose: with exact numerics its grid is kept, not
  // searched again.
  void move_to_bound() {
    handle = plan_at_bound(handle.get(), bound);
    read_plan();
  }
  void read_plan() {
    planned = plan_receipt(handle.get());
    if (exact) grid = plan_grid(handle.get());
  }
  // With --add-constant the rows are [B, x] with ||x|| <= B: norm bound sqrt(2) B.
  void set_row_bound(double value, bool add_constant) {
    row_bound = value;
    bound = add_constant ? constant_column_norm_bound(row_bound) : row_bound;
  }
};

// The options' part of the plan: checks, the budget's split and the mechanism.
GramPlan plan_options(const ReleaseOptions &o) {
  GramPlan plan;
  plan.scaled = !o.bounds.empty();
  const double public_bound = parse_bound(o.bound_text, plan.automatic);
  check_gram_options(o, plan.automatic, public_bound);
  // The bound's share of the budget, and the release's: the rest.
  plan.mechanism = o.mechanism;
  if (plan.automatic) {
    plan.bound_epsilon = auto_bound_epsilon(o.auto_bound, o.mechanism.epsilon);
    plan.mechanism.epsilon = release_epsilon(o.mechanism.epsilon, plan.bound_epsilon);
    plan.mechanism.requested_epsilon = o.mechanism.epsilon;
    plan.mechanism.rest_spent_by = "the private bound's step spends the rest";
  }
  plan.choice = resolve_mechanism(plan.mechanism);
  if (o.reject) plan.policy.value = DPCOV_BOUND_REJECT;
  plan.row_bound = plan.automatic ? 1.0 : public_bound;
  return plan;
}

dpcov_row_bounding release_bounding(const GramPlan &plan, const ReleaseOptions &o);

// A mechanism that takes units by group privacy is planned at the per-row budget (unit_plan.hpp),
// so its plan is checked there and not at the unit-level budget (the additive Wishart's epsilon < 1
// holds for epsilon / k where it fails for epsilon).
void plan_group_units(GramPlan &plan, int64_t max_rows_per_unit) {
  const GroupUnitsRows rows = group_units_rows(plan.choice, plan.mechanism, max_rows_per_unit);
  plan.handle = make_plan(rows.choice, rows.options, plan.d, 0, plan.bound, plan.exact);
  plan.read_plan();
  state_unit_guarantee(plan.planned, plan.choice, plan.mechanism.epsilon, max_rows_per_unit);
}

void plan_at_row_bound(GramPlan &plan, const ReleaseOptions &o, bool first);

// The input's part: the columns, the rows the accumulator sees, their bound, the numerics and
// the plan itself.
void plan_rows(GramPlan &plan, const ReleaseOptions &o, const RowReader &reader) {
  plan.data_columns = reader.column_names();
  if (!o.privacy_unit.empty()) {
    plan.unit_index = unit_column_index(reader, o.privacy_unit);
    plan.data_columns.erase(plan.data_columns.begin() + plan.unit_index);
    require_unit_mechanism(plan.choice.id, o.mechanism.mechanism);
  }
  if (o.add_constant)
    for (const std::string &name : plan.data_columns)
      if (name == kConstantColumn)
        fail(kExitUsage, reader.name(), ": the input has a column named '", kConstantColumn,
             "' already, which --add-constant would put in front; select the data columns with "
             "--columns, or name that column with `pca --constant` / `regress --intercept`");
  if (plan.scaled) plan.bounds = parse_column_bounds(o.bounds, plan.data_columns);
  // With --bounds the rows are [1, z] and with --add-constant [B, x]: one more column.
  const int64_t data_dim = static_cast<int64_t>(plan.data_columns.size());
  plan.d = data_dim + (plan.scaled || o.add_constant ? 1 : 0);
  plan.set_row_bound(plan.row_bound, o.add_constant);
  // The mechanisms square the bound: sqrt(2) B must keep a finite square, as --bound's own does.
  if (!(plan.bound <= std::sqrt(std::numeric_limits<double>::max())))
    fail(kExitUsage, "--bound ", plan.row_bound, " is too large for --add-constant: the square "
         "of sqrt(2) B overflows");
  if (plan.scaled)
    library_check(dpcov_column_bounds_norm_bound(reader.dim(), &plan.bound),
                  "the scaled rows' bound");
  plan.columns = plan.data_columns;
  if (plan.scaled || o.add_constant) plan.columns.insert(plan.columns.begin(), kConstantColumn);
  plan.exact = exact_numerics(o.numerics, plan.choice, plan.mechanism);
  plan_at_row_bound(plan, o, /*first=*/true);
}

// The plan at the rows' bound plan.row_bound, first from the options or again at the bound
// --bound auto chose. Units: the release is planned at the bound of a unit's contribution,
// sqrt(k) times the rows' (the library's value), or by group privacy at the per-row budget.
void plan_at_row_bound(GramPlan &plan, const ReleaseOptions &o, bool first) {
  if (plan.unit_index >= 0 && units_by_group_privacy(plan.choice.id))
    return plan_group_units(plan, o.max_rows_per_unit);
  if (plan.unit_index >= 0)
    plan.bound = unit_contribution_bound(release_bounding(plan, o),
                                         static_cast<int64_t>(plan.data_columns.size()));
  if (first)
    plan.plan();
  else
    plan.move_to_bound();
}

// With --bounds and exact numerics, the value the constant 1 of the rows [1, z] holds on the grid
// (unit B 2^-k with B = sqrt(d + 1) rounded up): the same integer round(2^k / B) in every row,
// a little off 1 (proofs/column_bounds.md, "Exact numerics").
double scaled_grid_constant(const GramPlan &plan) {
  return exact_grid_constant(1.0, plan.bound, plan.grid.bits);
}

// The released matrix in the units a user reads: unchanged, or, with --bounds, the second moment
// of [1, x] in the columns' own units (T S T^T; dpcov_column_bounds_transform). With exact
// numerics the constant column held c = scaled_grid_constant() in every row: its row and column
// are divided by c first (post-processing), which makes them the second moment's of [1, z].
void to_user_units(const GramPlan &plan, std::vector<double> &released) {
  if (!plan.scaled) return;
  const int64_t d = plan.d;
  if (plan.exact) {
    const double c = scaled_grid_constant(plan);
    // The same operations on (0, j) and (j, 0): the matrix stays exactly symmetric.
    for (int64_t j = 0; j < d; ++j) released[static_cast<size_t>(j)] /= c;
    for (int64_t i = 0; i < d; ++i) released[static_cast<size_t>(i * d)] /= c;
  }
  library_check(dpcov_column_bounds_transform(d - 1, plan.bounds.lower.data(),
                                              plan.bounds.upper.data(), DPCOV_UNITS_USER,
                                              DPCOV_ROW_MAJOR, released.data(), d, released.data(),
                                              d),
                "mapping the release to the columns' units");
}

using ReleaseCheck = std::function<void(dpcov_status, const std::string &)>;

// The library's bounding of the release's rows: the norm bound B under the policy, the constant
// column [B, x] (--add-constant) or the box [1, z] (--bounds). The plan's accumulator
// (dpcov_gram_create_planned) takes the release's numerics, mechanism, epsilon, delta and
// neighbour relation from the plan, so that with exact numerics it holds the exact integer Gram
// matrix on the plan's grid.
dpcov_row_bounding release_bounding(const GramPlan &plan, const ReleaseOptions &o) {
  // Column bounds ignore B; the library still reads a valid one.
  dpcov_row_bounding spec = row_bounding(plan.scaled ? 1.0 : plan.row_bound, plan.policy.value);
  if (o.add_constant) spec.constant = plan.row_bound;
  if (plan.scaled) {
    spec.lower = plan.bounds.lower.data();
    spec.upper = plan.bounds.upper.data();
  }
  if (o.max_rows_per_unit > 0) {
    // An accumulator of privacy units is made from this spec, not from the plan (a plan's
    // accumulator bounds rows, not units): it takes the release's fields itself.
    spec.numerics = plan.exact ? DPCOV_NUMERICS_EXACT : DPCOV_NUMERICS_IDEALIZED;
    spec.max_rows_per_unit = o.max_rows_per_unit;
    if (plan.exact) {
      spec.mechanism = plan.choice.id;
      spec.epsilon = plan.mechanism.epsilon;
      spec.delta = plan.choice.delta;
    }
  }
  return spec;
}

// Streams `rows` through the library's bounded accumulator (memory O(d^2 + chunk), exact or
// idealized) and releases from it into `released`; returns its counters (curator only).
dpcov_gram_info accumulate_and_release(const GramPlan &plan, const ReleaseOptions &o,
                                       RowReader &rows, dpcov_rng *rng,
                                       std::vector<double> &released, dpcov_receipt &receipt,
                                       const ReleaseCheck &checked) {
  const GramHandle gram =
      plan.unit_index >= 0
          ? accumulate_units(rows, release_bounding(plan, o), plan.unit_index, rng, o.quiet)
          : accumulate_bounded(rows, release_bounding(plan, o), o.quiet, plan.handle.get());
  const dpcov_gram_info info = gram_info(gram.get());
  refuse_empty_if_n_public(info, o, rows);
  // Units by group privacy are drawn at a per-row budget that a plan does not hold: the library
  // plans them at the release, from the unit-level budget the plan was checked and charged with.
  const dpcov_status status =
      plan.unit_index >= 0 && units_by_group_privacy(plan.choice.id)
          ? dpcov_mechanism_release_gram(plan.choice.id, gram.get(), plan.mechanism.epsilon,
                                         plan.choice.delta, &plan.choice.params, rng,
                                         DPCOV_ROW_MAJOR, released.data(), plan.d, &receipt)
          : dpcov_plan_release_gram(plan.handle.get(), gram.get(), rng, DPCOV_ROW_MAJOR,
                                    released.data(), plan.d, &receipt);
  checked(status, concat("releasing with ", o.mechanism.mechanism,
                         plan.exact ? " (exact numerics)" : ""));
  return info;
}

// Printed even under --quiet: clipping and clamping are never silent. The counts are the
// curator's; under add-remove n is private, so only the clipped count is printed (as the Python
// warnings do).
void warn_curator(const dpcov_gram_info &info, double row_bound, bool n_public) {
  if (info.clipped > 0)
    std::fprintf(stderr,
                 "dpcov release: warning: %s rows have a norm over --bound %g and were "
                 "scaled down to it, which shrinks the release towards 0%s (curator only: not "
                 "for publication)\n",
                 n_public ? concat(info.clipped, " of ", info.rows).c_str()
                          : concat(info.clipped).c_str(),
                 row_bound,
                 n_public && info.clipped == info.rows ? "; EVERY row was clipped: the bound is "
                                                         "far below the data's scale"
                                                       : "");
  if (info.clamped > 0)
    std::fprintf(stderr,
                 "dpcov release: warning: %lld values lie outside their --bounds range and were "
                 "clamped to it, which biases the release towards the range (curator only: not "
                 "for publication)\n",
                 static_cast<long long>(info.clamped));
}

// The public receipt: public parameters and values derived from the release only (the counts
// and the input's description go to the curator file).
nlohmann::ordered_json public_sidecar(const GramPlan &plan, const ReleaseOptions &o,
                                      const dpcov_receipt &receipt,
                                      const std::optional<AutoBound> &chosen) {
  const dpcov_exact_grid &grid = plan.grid;
  nlohmann::ordered_json sidecar = public_receipt_json(receipt);
  sidecar["command"] = "release";
  sidecar["library_version"] = dpcov_version_string();
  sidecar["columns"] = plan.columns;
  sidecar["policy"] = plan.scaled ? "clamp to --bounds" : plan.policy.name();
  if (plan.scaled) {
    sidecar["scaling"] = plan.bounds.json(plan.data_columns);
    if (plan.exact) sidecar["scaling"]["exact_grid_constant"] = scaled_grid_constant(plan);
  }
  if (o.add_constant)
    sidecar["constant_column"] = constant_column_json(
        plan.exact ? exact_grid_constant(plan.row_bound, plan.bound, grid.bits)
                   : plan.row_bound,
        plan.row_bound, plan.bound);
  if (o.seed) sidecar["seed"] = *o.seed;
  if (chosen) {
    sidecar["bound_selection"] = chosen->json;
    sidecar["epsilon_total"] = epsilon_together(plan.bound_epsilon, receipt.epsilon);
  }
  if (plan.exact) sidecar["exact_grid"] = exact_grid_json(grid);
  // The unit and k are public; the number of units is the receipt's n (withheld under
  // add-remove), the rows kept are not published.
  if (plan.unit_index >= 0)
    sidecar["privacy_unit"] = {{"column", o.privacy_unit},
                               {"max_rows_per_unit", receipt.max_rows_per_unit},
                               {"row_bound", plan.row_bound}};
  return sidecar;
}

void run_release(const ReleaseOptions &o) {
  if (o.privacy_unit.empty() != (o.max_rows_per_unit == 0))
    fail(kExitUsage, "--privacy-unit COLUMN and --max-rows-per-unit K go together");
  if (is_zcdp_rows_mechanism(o.mechanism.mechanism)) return run_rows_release(o);
  GramPlan plan = plan_options(o);
  // The ledger is read too: an output must not replace it either.
  std::vector<ReadFile> inputs = {o.input.path};
  if (!o.ledger.path.empty()) inputs.emplace_back(o.ledger.path, "ledger");
  if (plan.scaled && is_bounds_file(o.bounds)) inputs.emplace_back(o.bounds, "bounds file");
  check_outputs(o.output, inputs, /*curator=*/true);
  // --bound auto reads the input twice (the bound, then the release): standard input is spooled.
  RereadableInput input(o.input, plan.automatic, o.mechanism.neighbour == "replace-one");
  std::unique_ptr<RowReader> reader = input.open();
  plan_rows(plan, o, *reader);
  // The ledger refuses a release over its cap now, before any data is read or noise drawn. With
  // --bound auto, basic and zCDP ledgers are charged two releases, the bound step (epsilon-DP)
  // and the mechanism; an advanced ledger one, of both epsilons (charges_with_bound_step).
  const auto charges_of = [&](const LedgerFile *ledger, const dpcov_receipt &release) {
    return charges_with_bound_step(ledger, plan.bound_epsilon, release);
  };
  const std::unique_ptr<LedgerFile> ledger = checked_ledger(
      o.ledger, [&](const LedgerFile &file) { return charges_of(&file, plan.planned); });
  // A release that fails after its draw is charged the plan: after any draw since here, so with
  // --bound auto, whose bound step has drawn already, any failure of it.
  const ReleaseDraws draws(ledger.get(), [&] { return charges_of(ledger.get(), plan.planned); },
                           o.seed, o.output.path, {"release", "--seed"});
  const ReleaseCheck checked = [&](dpcov_status status, const std::string &context) {
    draws.check(status, context);
  };

  // --bound auto: the first pass chooses B on the rows' own norms; the release reads the file
  // again. --add-constant then puts B in front of each row clipped to B (the library's bounding).
  std::optional<AutoBound> chosen;
  if (plan.automatic) {
    // With privacy units each unit counts once, by its largest row norm (proofs/private_bound.md,
    // "Privacy units"), and the target counts units.
    chosen = plan.unit_index >= 0
                 ? choose_auto_bound_units(*reader, plan.unit_index, o.auto_bound,
                                           plan.bound_epsilon, draws.rng())
                 : choose_auto_bound(*reader, o.auto_bound, plan.bound_epsilon, draws.rng());
    plan.set_row_bound(chosen->bound, o.add_constant);
    // A failure from here on is charged the plan at the chosen B, the release's own: the plan at
    // B = 1 has the same epsilon and delta, but its rho (sensitivity and sigma each rounded) can
    // differ in the last place (1.2e-16 below at B = 110.5), and the ledger records its fields.
    plan_at_row_bound(plan, o, /*first=*/false);
    reader = input.open();
  }
  std::vector<double> released(static_cast<size_t>(plan.d * plan.d));
  dpcov_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  const dpcov_gram_info counts =
      accumulate_and_release(plan, o, *reader, draws.rng(), released, receipt, checked);
  warn_curator(counts, plan.row_bound, receipt.neighbour == DPCOV_NEIGHBOUR_REPLACE_ONE);
  to_user_units(plan, released);

  nlohmann::ordered_json sidecar = public_sidecar(plan, o, receipt, chosen);
  // Charged before the outputs are written: a failure after this point leaves the budget spent
  // and no release, never a release the ledger does not know.
  draws.charge(charges_of(ledger.get(), receipt), o.output.path);
  if (ledger) sidecar["ledger"] = ledger->summary();
  nlohmann::ordered_json curator = curator_receipt_json(receipt);
  curator["input"] = reader->describe();
  curator["clipped"] = counts.clipped;
  curator["dropped"] = counts.dropped;
  if (plan.scaled) curator["clamped_values"] = counts.clamped;
  if (plan.unit_index >= 0) {
    curator["units"] = counts.units;
    curator["rows_truncated_by_max_rows_per_unit"] = counts.truncated;
  }
  write_outputs(o.output, released.data(), plan.d, plan.d, plan.columns, sidecar, curator);
  if (!o.quiet)
    std::fprintf(stderr,
                 "dpcov release: %s, epsilon %g, delta %g, %lld columns, bound %g; curator only "
                 "(not for publication): %lld %s, %lld clipped%s\n",
                 o.mechanism.mechanism.c_str(), receipt.epsilon, receipt.delta,
                 static_cast<long long>(plan.d), receipt.bound,
                 static_cast<long long>(receipt.n), plan.unit_index >= 0 ? "units" : "rows",
                 static_cast<long long>(counts.clipped),
                 plan.scaled ? concat(", ", counts.clamped, " values clamped").c_str() : "");
}

}  // namespace

void add_release_command(CLI::App &app, std::function<void()> &run) {
  auto options = std::make_shared<ReleaseOptions>();
  CLI::App *command = app.add_subcommand(
      "release",
      "A differentially private release of the Gram matrix G = A^T A of the norm-bounded rows, "
      "with a public JSON receipt (mechanism, theorem, epsilon and delta spent, every constant) "
      "beside it and the curator-only diagnostics (exact n, clipped rows, input size) in "
      "MATRIX.curator.json, which must not be published. The zCDP mechanisms dly_gauss, "
      "dly_separate, dly_adaptive, dly_adaptive_paper (Dong, Liang & Yi 2022; --bound B) and "
      "coinpress (Biswas et al. 2020; --k-bound K) read the input once per pass in bounded "
      "memory, run at the largest rho whose (epsilon, delta) fits (--delta required), and write "
      "n times their estimate of X^T X / n (n public). An input read more than once (these, "
      "--bound auto) that is standard input, a pipe or a FIFO is spooled once, parsed, to a "
      "private temporary file under $TMPDIR (n x d x 8 bytes, removed on exit) that the later "
      "passes read.");
  add_input_options(*command, options->input);
  add_spool_option(*command, options->input.spool);
  add_output_options(*command, options->output);
  add_mechanism_options(*command, options->mechanism);
  auto *bound = command->add_option(
      "--bound", options->bound_text,
      "Euclidean norm bound B of every row (> 0), or 'auto': B chosen from the data, "
      "differentially private, with --bound-epsilon of the budget (proofs/private_bound.md; the "
      "input read twice; replace-one, or either relation with --bound-clipped)");
  command->add_option("--bound-epsilon", options->auto_bound.epsilon,
                      "With --bound auto: the epsilon spent on choosing B, out of --epsilon "
                      "(default a tenth of it); the release spends the rest");
  command->add_option("--bound-quantile", options->auto_bound.quantile,
                      "With --bound auto: the quantile of the row norms B aims at (default 0.95; "
                      "rows above B are clipped)");
  command->add_option("--bound-rule", options->auto_bound.rule,
                      "With --bound auto: how B is chosen over the public grid: 'scan' (default; "
                      "the sparse vector technique, stopping at the first candidate with about the "
                      "target number of rows above it) or 'exponential' (the exponential mechanism, "
                      "which at small n often lands far above the data)")
      ->check(CLI::IsMember({"scan", "exponential"}));
  command->add_option("--bound-clipped", options->auto_bound.clipped,
                      "With --bound auto: aim at this public number of rows above B instead of a "
                      "quantile; it needs no n, so it also works under --neighbour add-remove");
  auto *bounds = command->add_option(
      "--bounds", options->bounds,
      "Public range of each column in the data's own units: LOW:HIGH for all columns, one "
      "LOW:HIGH per column (comma-separated, in order), NAME=LOW:HIGH for each, or a CSV file of "
      "'column,min,max' lines (e.g. data/diabetes_bounds.csv). Each column is "
      "mapped to [-1, 1] (values outside are clamped, and counted), a constant column 'const' is "
      "put in front, and the norm bound is sqrt(d + 1); the matrix is written back in the data's "
      "units (the second moment of [const, x]: n, column sums, cross products) for `pca --center`, "
      "`glasso --center` and `regress --intercept const`");
  bound->excludes(bounds);
  command->add_flag(
      "--add-constant", options->add_constant,
      "With --bound B or --bound auto: put a constant column 'const' holding B in front of every "
      "row (each row first clipped to norm B), so that the norm bound is sqrt(2) B and `pca "
      "--center`, `glasso --center` and `regress --intercept const` work on the release without a "
      "column of ones in the data; the receipt records the column (--bounds adds one itself)");
  auto *clip = command->add_flag("--clip", options->clip,
                                 "Scale rows over the bound down to norm B (default)");
  auto *reject = command->add_flag("--reject", options->reject,
                                   "Fail on the first row over the bound, naming its position");
  clip->excludes(reject);
  command->add_option("--privacy-unit", options->privacy_unit,
                      "Column naming each row's privacy unit (a person; ids as text in CSV, "
                      "integers in .npy and raw input; any order, grouped when not contiguous): "
                      "the guarantee is then per unit, with at most --max-rows-per-unit rows of "
                      "each kept (chosen at random) and the release at sqrt(K) B (analyze_gauss, "
                      "laplace_sym, inverse_gauss) or by group privacy at the rows' bound "
                      "(wishart_additive, jl_ridge, inverse_wishart; dly_* and coinpress* with "
                      "exactly K rows per unit, zero rows padding; docs/privacy-units.md)");
  command->add_option("--max-rows-per-unit", options->max_rows_per_unit,
                      "With --privacy-unit: K, the rows kept per unit (1 to 2^20); the noise "
                      "grows with K");
  command->add_option("--seed", options->seed,
                      "Fixed generator seed: reproducible noise for experiments and tests only "
                      "(anyone who knows it can remove the noise); default: OS entropy");
  command->add_flag("-q,--quiet", options->quiet, "No progress display and no summary line");
  add_numerics_option(*command, options->numerics);
  add_zcdp_options(*command, options->k_bound, options->steps, options->mean_radius,
                   options->center);
  add_ledger_options(*command, options->ledger);
  command->callback([&run, options] {
    // A CSV unit column is read as text identifiers (string ids; equal texts are one unit).
    options->input.key_column = options->privacy_unit;
    run = [options] { run_release(*options); };
  });
}

}  // namespace dpcov::cli
