#include "receipt_replan.hpp"

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>

#include <dpcov.h>

#include "../cli_error.hpp"
#include "../options/constant_column_option.hpp"
#include "../options/mechanism_registry.hpp"
#include "../options/mechanism_options.hpp"
#include "../options/unit_plan.hpp"
#include "../io/row_bounding.hpp"
#include "../io/unit_stream.hpp"
#include "../commands/zcdp_release.hpp"

namespace dpcov::cli {

namespace {

using Json = nlohmann::ordered_json;

// The receipt's public parameters, read with their types checked: a parameter the plan needs
// that is missing or of the wrong type is named.
class Parameters {
 public:
  Parameters(const Json &receipt, const std::string &path) : receipt_(receipt), path_(path) {}

  const Json &at(const std::string &key) const {
    if (!receipt_.contains(key))
      fail(kExitInputData, path_, ": the receipt lacks \"", key, "\", which its constants are "
           "planned from");
    return receipt_[key];
  }
  std::string text(const std::string &key) const {
    const Json &value = at(key);
    if (!value.is_string()) bad(key, "a string");
    return value.get<std::string>();
  }
  double real(const std::string &key) const {
    const Json &value = at(key);
    if (!value.is_number() || !std::isfinite(value.get<double>())) bad(key, "a finite number");
    return value.get<double>();
  }
  int64_t count(const std::string &key) const {
    const Json &value = at(key);
    if (!(value.is_number_unsigned() && value.get<uint64_t>() <= uint64_t{INT64_MAX}) &&
        !(value.is_number_integer() && value.get<int64_t>() >= 0))
      bad(key, "a non-negative integer");
    return value.get<int64_t>();
  }
  bool has(const std::string &key) const { return receipt_.contains(key); }
  const std::string &path() const { return path_; }

 private:
  [[noreturn]] void bad(const std::string &key, const char *expected) const {
    fail(kExitInputData, path_, ": malformed receipt: \"", key, "\" must be ", expected);
  }
  const Json &receipt_;
  const std::string &path_;
};

std::string shown(const Json &value) { return excerpt(value.dump(), 200); }

// Every entry of `planned` (recursively into objects) must be in `found` and equal to it; the
// keys in `skip` are compared elsewhere or are texts, not constants.
void compare(const Json &planned, const Json &found, const std::string &prefix,
             const std::initializer_list<const char *> &skip, const std::string &path) {
  for (const auto &[key, value] : planned.items()) {
    bool skipped = false;
    for (const char *name : skip) skipped = skipped || key == name;
    if (skipped) continue;
    const std::string field = prefix + key;
    if (!found.is_object() || !found.contains(key))
      fail(kExitInputData, path, ": the receipt lacks \"", field, "\"; its public parameters "
           "give ", shown(value), ": refusing a receipt whose constants cannot be checked");
    const Json &entry = found[key];
    if (value.is_object()) {
      compare(value, entry, field + ".", {}, path);
      continue;
    }
    // JSON has no infinity: a receipt writes +infinity (IEV's clip_upper under add/remove) as null.
    const bool unbounded = value.is_number_float() && !std::isfinite(value.get<double>());
    if (unbounded ? !entry.is_null() : entry != value)
      fail(kExitInputData, path, ": the receipt's \"", field, "\" is ", shown(entry),
           " but its public parameters give ", shown(value),
           " (re-planned by this library): the receipt was edited or belongs to another release; "
           "refusing to compute from its constants");
  }
}

// A plan's own failure is the receipt's: its parameters are not a release this library makes.
template <class Plan>
auto planned_or_refused(const std::string &path, const Plan &plan) {
  try {
    return plan();
  } catch (const CliError &e) {
    fail(kExitInputData, path, ": the receipt's public parameters cannot be planned again by "
         "this library: ", excerpt(e.what(), 400));
  }
}

// The mechanism options a release of the library's mechanisms was run with, from its receipt
// (names as receipt_json() writes them; a setting a mechanism does not take keeps its default).
MechanismOptions library_options(const Parameters &p, const std::string &mechanism, bool exact) {
  MechanismOptions o;
  o.mechanism = mechanism;
  o.epsilon = p.real("epsilon");
  o.delta = p.real("delta");
  o.neighbour = p.text("neighbour");
  // Exact numerics have their own calibration, which the exact plan chooses.
  o.calibration = exact ? "default" : p.text("calibration");
  o.lambda_min_scope = p.text("lambda_min_scope");
  if (p.real("lambda_min_bound") != 0.0) o.lambda_min = p.real("lambda_min_bound");
  o.budget_split = p.text("budget_split");
  if (p.real("beta") != 0.0) o.beta = p.real("beta");
  if (p.count("rank") != 0) o.rank = p.count("rank");
  if (p.count("projection_rows") != 0) o.projection_rows = p.count("projection_rows");
  // The options the registry entry reads: m, which the receipt records as its dof, and the
  // unlock of a mechanism that is not private.
  const std::optional<int32_t> id = gram_mechanism_id(mechanism);
  const auto reads = [&id](int32_t option) { return id && reads_option(*id, option); };
  if (reads(DPCOV_MECHANISM_OPTION_POSTERIOR_DOF)) {
    const double dof = p.real("dof");
    if (!(dof >= 1.0 && dof < 0x1p62 && dof == std::floor(dof)))
      fail(kExitInputData, p.path(), ": malformed receipt: \"dof\" of ", mechanism,
           " must be its integer degrees of freedom m");
    o.posterior_dof = static_cast<int64_t>(dof);
  }
  o.audit_only_not_private = reads(DPCOV_MECHANISM_OPTION_AUDIT_UNLOCK);
  return o;
}

// The records a release adds to the library's receipt when --add-constant or --bounds shaped
// its rows: both follow from the norm bound and the rows' bound.
// A release of privacy units of up to k rows at the bound of a unit's contribution
// (`by_unit_bound`) has the norm bound of k rows at the rows' bound B (with --add-constant, of k
// rows [B, x]); one by group privacy has the rows' own. Returns B.
double check_unit_bound(const Json &receipt, const Parameters &p, const dpcov_receipt &planned,
                        int64_t units, bool by_unit_bound) {
  const Parameters unit(p.at("privacy_unit"), p.path());
  const double row_bound = unit.real("row_bound");
  if (!(row_bound > 0.0))
    fail(kExitInputData, p.path(), ": malformed receipt: \"privacy_unit.row_bound\" must be > 0");
  const bool constant = receipt.contains("constant_column");
  double bound = constant ? constant_column_norm_bound(row_bound) : row_bound;
  if (by_unit_bound) {
    dpcov_row_bounding spec = row_bounding(row_bound, DPCOV_BOUND_CLIP);
    if (constant) spec.constant = row_bound;
    spec.max_rows_per_unit = units;
    bound = unit_contribution_bound(spec, planned.dim - (constant ? 1 : 0));
  }
  if (bound != planned.bound)
    fail(kExitInputData, p.path(), ": the receipt's \"bound\" is ", planned.bound,
         " but units of up to ", units, " rows of norm bound ", row_bound, " give ", bound);
  return row_bound;
}

// With privacy units (`unit_row_bound` > 0: the rows' bound B) the constant column's is B, and
// its norm bound the release's (checked by check_unit_bound), which is also the grid's.
void check_row_records(const Json &receipt, const Parameters &p, const dpcov_receipt &planned,
                       const dpcov_exact_grid *grid, double unit_row_bound) {
  if (receipt.contains("constant_column")) {
    const double row_bound = Parameters(receipt["constant_column"], p.path()).real("row_bound");
    if (!(row_bound > 0.0))
      fail(kExitInputData, p.path(), ": malformed receipt: \"constant_column.row_bound\" must "
           "be > 0");
    if (unit_row_bound > 0.0 && row_bound != unit_row_bound)
      fail(kExitInputData, p.path(), ": the receipt's constant column is at the rows' bound ",
           row_bound, " but its privacy unit at ", unit_row_bound);
    const double norm_bound =
        unit_row_bound > 0.0 ? planned.bound : constant_column_norm_bound(row_bound);
    const double value = grid ? exact_grid_constant(row_bound, norm_bound, grid->bits)
                              : row_bound;
    compare(constant_column_json(value, row_bound, norm_bound), receipt["constant_column"],
            "constant_column.", {"method"}, p.path());
    if (norm_bound != planned.bound)
      fail(kExitInputData, p.path(), ": the receipt's \"bound\" is ", planned.bound,
           " but its constant column's row bound ", row_bound, " gives ", norm_bound);
  }
  if (receipt.contains("scaling")) {
    double norm_bound = 0.0;
    if (dpcov_column_bounds_norm_bound(planned.dim - 1, &norm_bound) != DPCOV_OK)
      fail(kExitInputData, p.path(), ": the receipt's --bounds scaling of ", planned.dim - 1,
           " columns has no norm bound: ", dpcov_last_error_message());
    if (norm_bound != planned.bound)
      fail(kExitInputData, p.path(), ": the receipt's \"bound\" is ", planned.bound,
           " but its --bounds scaling of ", planned.dim - 1, " columns gives ", norm_bound);
    // With exact numerics the constant 1 held one grid value in every row, which the release
    // divided out (proofs/column_bounds.md): an edited value would misstate that division.
    if (grid)
      compare(Json{{"exact_grid_constant",
                    exact_grid_constant(1.0, norm_bound, grid->bits)}},
              receipt["scaling"], "scaling.", {}, p.path());
  }
}

// Releases of version 0.1 made before the analytic Gaussian's sigma became its unit sigma scaled
// up (proofs/analyze_gauss.md, "Scaling") searched sigma at the sensitivity's own mantissa: a
// certified sigma of the same (epsilon, delta, sensitivity), equal to this library's to the
// search's relative 1e-12 but not bit for bit. Such a receipt's sigma is accepted within a
// relative 4e-12 (two searches' tolerance and their certification steps); any larger difference
// is an edited receipt or another release, and refused by the comparison that follows.
void accept_earlier_analytic_sigma(Json &expected, const Json &receipt) {
  if (!expected.contains("calibration") || expected["calibration"] != "analytic-gaussian" ||
      !expected.contains("sigma") || !receipt.contains("sigma") || !receipt["sigma"].is_number())
    return;
  const double planned = expected["sigma"].get<double>();
  const double found = receipt["sigma"].get<double>();
  if (std::fabs(found - planned) <= 4e-12 * planned) expected["sigma"] = receipt["sigma"];
}

// Returns whether the mechanism is private (the plan's not_dp).
bool check_library_receipt(const Json &receipt, const Parameters &p, const std::string &mechanism,
                           int64_t dim) {
  const bool exact = p.text("numerics") == "exact";
  const MechanismOptions options = library_options(p, mechanism, exact);
  const int64_t n = p.has("n") ? p.count("n") : 0;  // withheld under add/remove
  const double bound = p.real("bound");
  // Privacy units of up to k rows, planned as `release` plans them (unit_plan.hpp).
  const int64_t units =
      p.has("privacy_unit") ? Parameters(p.at("privacy_unit"), p.path()).count("max_rows_per_unit")
                            : 0;
  bool group_units = false;
  dpcov_exact_grid grid{};
  grid.struct_size = sizeof grid;
  const dpcov_receipt planned = planned_or_refused(p.path(), [&] {
    const MechanismChoice choice = resolve_mechanism(options);
    group_units = units > 0 && units_by_group_privacy(choice.id);
    if (!group_units)
      return exact ? plan_exact(choice, options, dim, n, bound, &grid)
                   : plan_mechanism(choice, options, dim, n, bound);
    const GroupUnitsRows rows = group_units_rows(choice, options, units);
    dpcov_receipt r = exact ? plan_exact(rows.choice, rows.options, dim, 0, bound, &grid)
                            : plan_mechanism(rows.choice, rows.options, dim, 0, bound);
    state_unit_guarantee(r, choice, options.epsilon, units);
    r.n = n;
    return r;
  });
  Json expected = public_receipt_json(planned);
  // The sigma_min variants' w comes from their released test value: 0 in a plan.
  if (planned.test_epsilon > 0.0) expected.erase("appended_w");
  accept_earlier_analytic_sigma(expected, receipt);
  compare(expected, receipt, "",
          {"theorem", "privacy_claim", "differentially_private", "seed_fixed", "generator",
           "test_value", "test_passed", "privacy_model", "rho"},
          p.path());
  if (exact) compare(exact_grid_json(grid), p.at("exact_grid"), "exact_grid.", {}, p.path());
  const double unit_row_bound =
      units > 0 ? check_unit_bound(receipt, p, planned, units, !group_units) : 0.0;
  check_row_records(receipt, p, planned, exact ? &grid : nullptr, unit_row_bound);
  return planned.not_dp == 0;
}

// The options a zCDP release (dly_*, coinpress, coinpress_mean) was run with, from its receipt.
ZcdpReleaseOptions zcdp_options(const Parameters &p, const std::string &mechanism) {
  ZcdpReleaseOptions o;
  o.mechanism.mechanism = mechanism;
  o.mechanism.delta = p.real("delta");
  if (mechanism == "coinpress_mean") {
    o.mean_radius = p.real("mean_radius");
    const double scale = p.real("scale");  // sqrt(K): the square root of its square is itself
    o.k_bound = scale * scale;
    o.steps = p.count("steps");
  } else if (mechanism == "coinpress") {
    o.k_bound = p.real("k_bound");
    o.steps = p.count("steps");
    if (p.has("centring")) {
      o.center = true;
      o.mean_radius = Parameters(p.at("centring"), p.path()).real("mean_radius");
    }
  } else {
    o.bound = p.real("bound");
  }
  if (p.has("privacy_unit")) {
    const Parameters unit(p.at("privacy_unit"), p.path());
    o.privacy_unit = unit.text("column");
    o.max_rows_per_unit = unit.count("max_rows_per_unit");
  }
  return o;
}

void check_zcdp_receipt(const Json &receipt, const Parameters &p, const std::string &mechanism) {
  const ZcdpReleaseOptions options = zcdp_options(p, mechanism);
  // With privacy units the plan is at the per-row rho and the receipt states the unit's.
  const double rho = p.real("rho");
  const ZcdpPlan plan = planned_or_refused(p.path(), [&] {
    return plan_zcdp(options, zcdp_unit_row_rho(options, rho), p.count("dim"), p.count("n"));
  });
  Json expected = plan.receipt;
  if (!options.privacy_unit.empty()) state_unit_budget(expected, options, rho);
  // dly_adaptive's first look may settle the radius (a released outcome): then no trace and no
  // second look are released, and the covariance gets their budget, 511 rho / 512, which only
  // the release computes (dong_liang_yi.h).
  if (p.has("first_look_settled") && p.at("first_look_settled") == true) {
    expected.erase("rho_covariance");
    expected["trace_sigma"] = 0.0;
    expected["histogram_sigma"] = 0.0;
  }
  // CoinPress takes no row norm bound: its prefix's 0, absent from receipts written before the
  // common prefix, which still read.
  if (expected["bound"] == 0.0 && !receipt.contains("bound")) expected.erase("bound");
  compare(expected, receipt, "",
          {"command", "library_version", "theorem", "privacy_claim", "privacy_model", "output",
           "differentially_private", "seed_fixed", "generator"},
          p.path());
}

bool is_library_mechanism(const std::string &name) { return gram_mechanism_id(name).has_value(); }

// A seeded release is not private for whoever knows the seed; a mechanism known not to be
// private never is: the flags the commands decide by must say so. A release run with --seed
// records the seed.
void check_privacy_flags(const Json &receipt, const Parameters &p, bool mechanism_private) {
  if (!p.at("seed_fixed").is_boolean())
    fail(kExitInputData, p.path(), ": malformed receipt: \"seed_fixed\" must be true or false");
  const bool seeded = p.at("seed_fixed") == true;
  if (p.has("seed") && !seeded)
    fail(kExitInputData, p.path(), ": the receipt records a \"seed\" but its \"seed_fixed\" is "
         "false");
  const auto expect = [&](const char *key, bool value) {
    if (p.has(key) && p.at(key) != value)
      fail(kExitInputData, p.path(), ": the receipt's \"", key, "\" is ", shown(receipt[key]),
           " but its mechanism", seeded ? " and fixed seed" : "", " give ", value ? "true" : "false");
  };
  expect("differentially_private", mechanism_private && !seeded);
  expect("mechanism_differentially_private", mechanism_private);
}

}  // namespace

void check_receipt_constants(const Json &receipt, const std::string &path, int64_t dim) {
  if (!receipt.is_object() || !receipt.contains("mechanism") || !receipt["mechanism"].is_string())
    return;
  // glasso's sidecar names its source's mechanism but holds none of its constants.
  if (receipt.contains("command") && receipt["command"] == "glasso") return;
  const std::string mechanism = receipt["mechanism"].get<std::string>();
  const Parameters p(receipt, path);
  if (is_library_mechanism(mechanism)) {
    check_privacy_flags(receipt, p, check_library_receipt(receipt, p, mechanism, dim));
  } else if (is_zcdp_rows_mechanism(mechanism)) {
    check_zcdp_receipt(receipt, p, mechanism);
    check_privacy_flags(receipt, p, true);
  }
}

}  // namespace dpcov::cli
