#include "mechanism_options.hpp"

#include <cmath>
#include <sstream>
#include <utility>
#include <vector>

#include "../cli_error.hpp"
#include "../library_status.hpp"
#include "../commands/zcdp_release.hpp"
#include "../io/receipt_prefix_json.hpp"
#include "choice_names.hpp"
#include "mechanism_registry.hpp"

namespace dpcov::cli {

// The mechanisms dpcov_mechanism_plan() takes: the Gram family of the library's registry.
NamedValues library_mechanisms() { return gram_mechanisms(); }

namespace {

const NamedValues kNeighbours = {
    {"replace-one", DPCOV_NEIGHBOUR_REPLACE_ONE}, {"add-remove", DPCOV_NEIGHBOUR_ADD_REMOVE}};

const NamedValues kCalibrations = {
    {"default", DPCOV_CALIBRATION_DEFAULT},
    {"analytic-gaussian", DPCOV_CALIBRATION_ANALYTIC_GAUSSIAN},
    {"classical-gaussian", DPCOV_CALIBRATION_CLASSICAL_GAUSSIAN},
    {"laplace-upper-triangle", DPCOV_CALIBRATION_LAPLACE_UPPER_TRIANGLE},
    {"laplace-published", DPCOV_CALIBRATION_LAPLACE_PUBLISHED},
    {"theorem", DPCOV_CALIBRATION_THEOREM},
    {"bingham-published", DPCOV_CALIBRATION_BINGHAM_PUBLISHED},
    {"bingham-sensitivity", DPCOV_CALIBRATION_BINGHAM_SENSITIVITY}};

const std::vector<std::pair<std::string, int32_t>> kBudgetSplits = {
    {"default", DPCOV_BUDGET_SPLIT_DEFAULT},
    {"uniform", DPCOV_BUDGET_SPLIT_UNIFORM},
    {"adaptive", DPCOV_BUDGET_SPLIT_ADAPTIVE}};

const std::vector<std::pair<std::string, int32_t>> kSensitivityNorms = {
    {"none", DPCOV_SENSITIVITY_NONE}, {"l1", DPCOV_SENSITIVITY_L1}, {"l2", DPCOV_SENSITIVITY_L2}};

const std::vector<std::pair<std::string, int32_t>> kLambdaMinScopes = {
    {"domain", DPCOV_LAMBDA_MIN_DOMAIN}, {"input", DPCOV_LAMBDA_MIN_INPUT}};

}  // namespace

const NamedValues &neighbour_values() { return kNeighbours; }

const NamedValues &calibration_values() { return kCalibrations; }

std::vector<std::string> names_of(const NamedValues &table) {
  std::vector<std::string> names;
  for (const auto &entry : table) names.push_back(entry.first);
  return names;
}

int32_t value_of(const NamedValues &table,
                 const std::string &name, const char *option) {
  const std::vector<std::string> names = names_of(table);
  if (const std::optional<std::string> known = known_spelling(name, names))
    for (const auto &entry : table)
      if (entry.first == *known) return entry.second;
  fail_unknown_name(option, name, names);
}

std::string name_of(const NamedValues &table, int32_t value) {
  for (const auto &entry : table)
    if (entry.second == value) return entry.first;
  return concat("unknown (", value, ")");
}

void add_mechanism_options(CLI::App &command, MechanismOptions &options) {
  command.add_option("--mechanism,-m", options.mechanism,
                     "Mechanism: " + mechanism_list() + ", " + zcdp_rows_mechanism_list())
      ->required();
  command.add_option("--epsilon,-e", options.epsilon, "Privacy parameter epsilon (> 0)")
      ->required();
  command.add_option("--delta,-d", options.delta,
                     "Privacy parameter delta, required by (epsilon, delta) mechanisms");
  command.add_option("--neighbour", options.neighbour,
                     "Neighbouring datasets: replace-one (n public; default) or add-remove")
      ->transform(either_separator(names_of(kNeighbours)))
      ->check(CLI::IsMember(names_of(kNeighbours)));
  // Each mechanism option names the mechanisms whose registry entry reads it.
  command.add_option("--calibration", options.calibration,
                     names_reading(DPCOV_MECHANISM_OPTION_CALIBRATION) +
                         ": noise calibration, default, analytic-gaussian, classical-gaussian, "
                         "laplace-upper-triangle, laplace-published, bingham-published or "
                         "bingham-sensitivity (the others take default and theorem only)")
      ->transform(either_separator(names_of(kCalibrations)))
      ->check(CLI::IsMember(names_of(kCalibrations)));
  const std::string lambda_min = names_reading(DPCOV_MECHANISM_OPTION_LAMBDA_MIN);
  const std::string spectral = names_reading(DPCOV_MECHANISM_OPTION_SPECTRAL);
  command.add_option("--lambda-min", options.lambda_min,
                     lambda_min + ": public lower bound theta^2 on the smallest eigenvalue of G");
  command.add_option("--lambda-min-scope", options.lambda_min_scope,
                     lambda_min + ": the bound holds on the whole domain (default) or the input")
      ->check(CLI::IsMember(names_of(kLambdaMinScopes)));
  command.add_flag("--audit-only-not-private", options.audit_only_not_private,
                   names_reading(DPCOV_MECHANISM_OPTION_AUDIT_UNLOCK) +
                       ": run this NON-private mechanism as an audit target");
  command.add_option("--budget-split", options.budget_split,
                     spectral + ": split of epsilon over the eigenvectors, uniform or adaptive "
                     "(default: each mechanism's own, as `dpcov plan` shows)")
      ->check(CLI::IsMember(names_of(kBudgetSplits)));
  command.add_option("--beta", options.beta,
                     spectral + " with --budget-split adaptive: utility failure probability in "
                     "(0, 1) (default 0.05)");
  command.add_option("--rank", options.rank,
                     spectral + ": number of top eigenpairs released, 1..d (default d)");
  command.add_option("--projection-rows", options.projection_rows,
                     names_reading(DPCOV_MECHANISM_OPTION_PROJECTION_ROWS) +
                         ": projection rows r (required there)");
  command.add_option("--posterior-dof", options.posterior_dof,
                     names_reading(DPCOV_MECHANISM_OPTION_POSTERIOR_DOF) +
                         ": degrees of freedom m >= d (required there)");
}

MechanismChoice resolve_mechanism(const MechanismOptions &options) {
  MechanismChoice choice;
  std::vector<std::string> known = names_of(gram_mechanisms());
  if (!known_spelling(options.mechanism, known)) {
    for (const std::string &name : zcdp_rows_mechanisms()) known.push_back(name);
    fail_unknown_name("--mechanism", options.mechanism, known);
  }
  choice.id = value_of(gram_mechanisms(), options.mechanism, "--mechanism");
  if (!(std::isfinite(options.epsilon) && options.epsilon > 0.0))
    fail(kExitUsage, "--epsilon must be a finite number > 0, got ", options.epsilon);
  library_check(dpcov_mechanism_params_default(&choice.params), "mechanism defaults");
  choice.params.neighbour = value_of(kNeighbours, options.neighbour, "--neighbour");
  choice.params.calibration = value_of(kCalibrations, options.calibration, "--calibration");
  choice.params.lambda_min_scope =
      value_of(kLambdaMinScopes, options.lambda_min_scope, "--lambda-min-scope");
  if (options.lambda_min) choice.params.lambda_min_bound = *options.lambda_min;
  choice.params.audit_only_not_private = options.audit_only_not_private ? 1 : 0;
  choice.params.budget_split = value_of(kBudgetSplits, options.budget_split, "--budget-split");
  if (options.beta) choice.params.beta = *options.beta;
  if (options.rank) choice.params.rank = *options.rank;
  if (options.projection_rows) choice.params.projection_rows = *options.projection_rows;
  if (options.posterior_dof) choice.params.posterior_dof = *options.posterior_dof;
  choice.delta = options.delta.value_or(0.0);
  return choice;
}

void add_numerics_option(CLI::App &command, std::string &numerics) {
  command.add_option("--numerics", numerics,
                     "exact: floating-point-safe noise (rows on a 2^-k B grid, exact integer Gram, "
                     "discrete Gaussian or Laplace; analyze_gauss and laplace_sym only; streams the "
                     "rows in memory independent of n); idealized: floating-point noise (Mironov "
                     "2012); default: exact for analyze_gauss and laplace_sym (within 3x of the "
                     "idealized cost), idealized otherwise")
      ->check(CLI::IsMember({"default", "exact", "idealized"}));
}

bool exact_numerics(const std::string &numerics, const MechanismChoice &choice,
                    const MechanismOptions &options) {
  const bool has_exact =
      (registry_entry(choice.id).numerics & DPCOV_MECHANISM_NUMERICS_EXACT) != 0;
  if (numerics == "exact" && !has_exact)
    fail(kExitUsage, "--numerics exact exists for ", exact_mechanism_names(), " only, not ",
         options.mechanism);
  // The exact mode has its own calibration: an explicit --calibration keeps the idealized one.
  if (numerics == "exact" && options.calibration != "default")
    fail(kExitUsage, "--numerics exact has its own calibration (discrete Gaussian zCDP or "
         "discrete Laplace); drop --calibration ", options.calibration);
  if (numerics == "exact") return true;
  // The default is exact wherever it exists and costs at most 3x the idealized release at d =
  // 1000 (bench/exact_bench.cpp, docs/random.md): analyze_gauss 2.4x, laplace_sym 1.4x (CPU time).
  // An explicit --calibration asks for an idealized calibration, so it keeps the idealized path.
  return numerics == "default" && has_exact && options.calibration == "default";
}

dpcov_receipt plan_exact(const MechanismChoice &choice, const MechanismOptions &options,
                         int64_t dim, int64_t rows, double bound, dpcov_exact_grid *grid) {
  const PlanHandle plan = make_plan(choice, options, dim, rows, bound, /*exact=*/true);
  *grid = plan_grid(plan.get());
  return plan_receipt(plan.get());
}

nlohmann::ordered_json exact_grid_json(const dpcov_exact_grid &grid) {
  const bool gauss = grid.noise_law == DPCOV_INTEGER_NOISE_DISCRETE_GAUSSIAN;
  return {{"bits", grid.bits},
          {"unit", grid.unit},
          {"norm2_bound", grid.norm2_bound},
          {"integer_noise", gauss ? "discrete_gaussian" : "discrete_laplace"},
          {"integer_noise_law", gauss ? "P(x) proportional to exp(-x^2 / (2 noise_parameter))"
                                      : "P(x) proportional to exp(-|x| / noise_parameter)"},
          {"noise_parameter", grid.noise_parameter},
          {"released_values", "unit^2 times integers"}};
}

namespace {

// The command's error for a plan the library refused with `status` and `message`.
[[noreturn]] void fail_plan(const MechanismChoice &choice, const MechanismOptions &options,
                            int64_t dim, int64_t rows, double bound, dpcov_status status,
                            const std::string &message) {
  if (!options.delta) {
    // Pure-epsilon mechanisms accept delta = 0; if some delta would have been accepted, the
    // missing option is the problem, and is named as such.
    dpcov_receipt probe{};
    probe.struct_size = sizeof probe;
    constexpr double kProbeDelta = 1e-9;
    if (dpcov_mechanism_plan(choice.id, dim, rows, bound, options.epsilon, kProbeDelta,
                             &choice.params, &probe) == DPCOV_OK)
      fail(kExitUsage, "--delta is required: ", options.mechanism,
           " is an (epsilon, delta) mechanism (", message, ")");
  }
  const std::string context =
      concat(options.mechanism, " ",
             share_context(options.epsilon, options.requested_epsilon, options.rest_spent_by),
             options.delta ? concat(", delta ", *options.delta) : std::string());
  // A plan reads no data: a constant it cannot compute (it overflows, or its equation has no
  // representable solution) means parameters out of range, the caller's to change.
  if (status == DPCOV_E_NUMERICAL || status == DPCOV_E_NO_CONVERGENCE)
    fail(kExitUsage, context, ": parameters out of the range this mechanism's constants can be ",
         "computed in: ", message, " (", dpcov_status_string(status), ")");
  library_fail_parameters(status, context, message);
}

}  // namespace

std::string share_context(double epsilon, std::optional<double> requested,
                          const std::string &rest_spent_by) {
  if (!requested || *requested == epsilon) return concat("at epsilon ", epsilon);
  return concat("at epsilon ", epsilon, ", the release's share of the requested --epsilon ",
                *requested, " (", rest_spent_by, ")");
}

PlanHandle make_plan(const MechanismChoice &choice, const MechanismOptions &options, int64_t dim,
                     int64_t rows, double bound, bool exact) {
  dpcov_plan *raw = nullptr;
  const dpcov_status status =
      dpcov_plan_create(&raw, choice.id, exact ? DPCOV_NUMERICS_EXACT : DPCOV_NUMERICS_IDEALIZED,
                        dim, rows, bound, options.epsilon, choice.delta, &choice.params);
  if (status == DPCOV_OK) return PlanHandle(raw);
  const std::string message = dpcov_last_error_message();
  if (!exact) fail_plan(choice, options, dim, rows, bound, status, message);
  // The idealized plan's diagnostics first (a missing --delta is named as such): only on
  // failure, so that a release runs its calibration once.
  dpcov_receipt idealized{};
  idealized.struct_size = sizeof idealized;
  const dpcov_status s = dpcov_mechanism_plan(choice.id, dim, rows, bound, options.epsilon,
                                              choice.delta, &choice.params, &idealized);
  if (s != DPCOV_OK) fail_plan(choice, options, dim, rows, bound, s, dpcov_last_error_message());
  library_fail_parameters(
      status,
      concat(options.mechanism, " with exact numerics ",
             share_context(options.epsilon, options.requested_epsilon, options.rest_spent_by),
             options.delta ? concat(", delta ", *options.delta) : std::string()),
      message);
}

PlanHandle plan_at_bound(const dpcov_plan *plan, double bound) {
  dpcov_plan *raw = nullptr;
  library_check(dpcov_plan_create_at_bound(&raw, plan, bound),
                concat("the plan at the chosen bound ", bound));
  return PlanHandle(raw);
}

dpcov_receipt plan_receipt(const dpcov_plan *plan) {
  dpcov_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  library_check(dpcov_plan_get_receipt(plan, &receipt), "the plan's receipt");
  return receipt;
}

dpcov_exact_grid plan_grid(const dpcov_plan *plan) {
  dpcov_exact_grid grid{};
  grid.struct_size = sizeof grid;
  library_check(dpcov_plan_get_exact_grid(plan, &grid), "the plan's grid");
  return grid;
}

dpcov_receipt plan_mechanism(const MechanismChoice &choice, const MechanismOptions &options,
                             int64_t dim, int64_t rows, double bound) {
  return plan_receipt(make_plan(choice, options, dim, rows, bound, /*exact=*/false).get());
}

// What the release's guarantee amounts to, on one line: a seeded release is reproducible by
// anyone who knows the seed, so it is private only while the seed stays secret.
std::string privacy_claim(const dpcov_receipt &r) {
  if (r.not_dp != 0) return "not private: known counterexample (audit target only)";
  std::string claim = r.seed_fixed != 0 ? "reproducible: not private if the seed is known"
                      : r.generator == DPCOV_GENERATOR_NONE ? "plan: nothing released"
                                                            : "private";
  if (r.numerics == DPCOV_NUMERICS_IDEALIZED)
    claim += "; idealized numerics (floating-point noise, Mironov 2012)";
  else
    claim += "; exact numerics (integer noise from exact samplers on a 2^-k B grid)";
  return claim;
}

nlohmann::ordered_json receipt_json(const dpcov_receipt &r) {
  // A seeded release is not private for anyone who knows the seed: it never says
  // "differentially_private": true. Its mechanism is, which is what the analyses of the release
  // (noise-aware intervals, subspace bounds) need to know.
  nlohmann::ordered_json out = receipt_prefix_json(&r);
  out.update(nlohmann::ordered_json{
          {"differentially_private", r.not_dp == 0 && r.seed_fixed == 0},
          {"privacy_claim", privacy_claim(r)},
          {"calibration", name_of(kCalibrations, r.calibration)},
          {"dim", r.dim},
          {"sensitivity", r.sensitivity},
          {"sensitivity_norm", name_of(kSensitivityNorms, r.sensitivity_norm)},
          {"sigma", r.sigma},
          {"scale", r.scale},
          {"dof", r.dof},
          {"lambda_min_bound", r.lambda_min_bound},
          {"lambda_min_scope", name_of(kLambdaMinScopes, r.lambda_min_scope)},
          {"epsilon_eigenvalues", r.epsilon_eigenvalues},
          {"epsilon_step", r.epsilon_step},
          {"budget_split", name_of(kBudgetSplits, r.budget_split)},
          {"rank", r.rank},
          {"beta", r.beta},
          {"tau", r.tau},
          {"exponent_factor", r.exponent_factor},
          {"clip_upper", r.clip_upper},
          {"bingham_proposals", r.bingham_proposals},
          {"bingham_rejections", r.bingham_rejections},
          {"projection_rows", r.projection_rows},
          {"threshold_w2", r.threshold_w2},
          {"appended_w", r.appended_w},
          {"test_epsilon", r.test_epsilon},
          {"test_delta", r.test_delta},
          {"test_scale", r.test_scale},
          {"test_shift", r.test_shift},
          {"test_value", r.test_value},
          {"test_passed", r.test_passed != 0},
          {"glasso_rho", r.glasso_rho}});
  if (r.seed_fixed != 0) {
    nlohmann::ordered_json tagged;
    for (const auto &[key, value] : out.items()) {
      tagged[key] = value;
      if (key == "differentially_private") tagged["mechanism_differentially_private"] = r.not_dp == 0;
    }
    return tagged;
  }
  return out;
}


nlohmann::ordered_json public_receipt_json(const dpcov_receipt &receipt) {
  dpcov_receipt shown{};
  shown.struct_size = sizeof shown;
  library_check(dpcov_receipt_public(&receipt, &shown), "withholding the curator-only fields");
  nlohmann::ordered_json out = receipt_json(shown);
  out.erase("bingham_proposals");
  out.erase("bingham_rejections");
  const bool n_public = shown.n != DPCOV_RECEIPT_N_WITHHELD;
  if (!n_public) out.erase("n");
  out["n_public"] = n_public;
  return out;
}

nlohmann::ordered_json curator_receipt_json(const dpcov_receipt &receipt) {
  return {{"curator_only",
           "NOT FOR PUBLICATION: diagnostics that depend on the data outside the mechanism; "
           "publish the receipt beside the matrix instead"},
          {"n", receipt.n},
          {"bingham_proposals", receipt.bingham_proposals},
          {"bingham_rejections", receipt.bingham_rejections}};
}

std::string receipt_text(const nlohmann::ordered_json &receipt) {
  std::ostringstream out;
  for (const auto &[key, value] : receipt.items()) {
    out << "  " << key << std::string(key.size() < 24 ? 24 - key.size() : 1, ' ');
    out << (value.is_string() ? value.get<std::string>() : value.dump()) << '\n';
  }
  return out.str();
}

std::string mechanism_list() {
  std::string list;
  for (const auto &entry : gram_mechanisms()) list += (list.empty() ? "" : ", ") + entry.first;
  return list;
}

}  // namespace dpcov::cli
