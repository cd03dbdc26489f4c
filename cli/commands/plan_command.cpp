#include "plan_command.hpp"

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>

#include "../analysis/default_fit.hpp"
#include "../analysis/gram_fit_plan.hpp"
#include "../analysis/regression_forecast.hpp"
#include "../analysis/text_table.hpp"
#include "../cli_error.hpp"
#include "../io/adassp_receipt.hpp"
#include "../io/regression_unit_rows.hpp"
#include "../io/json_text.hpp"
#include "../io/regression_rows.hpp"
#include "../library_status.hpp"
#include "../options/input_options.hpp"
#include "../options/mechanism_options.hpp"
#include "zcdp_release.hpp"

namespace dpcov::cli {

namespace {

struct PlanOptions {
  MechanismOptions mechanism;
  std::optional<double> bound;
  int64_t dims = 0;
  int64_t rows = 0;
  bool json = false;
  std::string numerics = "default";
  std::optional<double> k_bound;      // coinpress, coinpress_mean
  std::optional<int64_t> steps;       // coinpress, coinpress_mean
  std::optional<double> mean_radius;  // coinpress_mean, coinpress --center
  bool center = false;                // coinpress
  std::optional<double> label_bound;  // adassp: |y| <= B_Y
  bool regress = false;               // adassp: the fit `dpcov regress` runs by default
  std::string errors = "robust";      // adassp --regress: regress's --errors
  double level = 0.95;                // of the regression forecast's interval
  double fill = 1.0;                  // of the forecast's reference design
  std::string privacy_unit;           // the zCDP row mechanisms: --privacy-unit COLUMN
  int64_t max_rows_per_unit = 0;      // --max-rows-per-unit K

  ForecastRequest forecast() const { return {static_cast<double>(rows), level, fill}; }
};

// regress's decisions (plan --regress) as a paragraph of the text output.
std::string decisions_text(const nlohmann::ordered_json &d) {
  std::string text = concat(
      "dpcov regress's fit (public values only): errors ", d["errors"].get<std::string>(),
      ", the fit at epsilon ", format_number(d["fit_epsilon"].get<double>()), ", delta ",
      format_number(d["fit_delta"].get<double>()));
  if (d["errors"] == "robust")
    text += concat(" (the meat at epsilon ", format_number(d["meat_epsilon"].get<double>()),
                   ", delta ", format_number(d["meat_delta"].get<double>()), ")");
  if (d.contains("lambda_min_released"))  // AdaSSP's steps
    text += concat("; lambda_min step ", d["lambda_min_released"].get<bool>() ? "yes" : "no",
                   "; y'y for the intervals ",
                   d["label_square_released"].get<bool>() ? "yes" : "no");
  text += "\n";
  for (const auto &why : d["reasons"]) text += concat("  ", why.get<std::string>(), "\n");
  return text;
}

// The receipt, then (in text) regress's decisions and the regression forecast as paragraphs of
// their own.
void print_plan(nlohmann::ordered_json plan, bool json) {
  std::string forecast;
  if (!json && plan.contains("regress")) {
    forecast = decisions_text(plan["regress"]);
    plan.erase("regress");
  }
  if (!json && plan.contains("regression_forecast")) {
    const nlohmann::ordered_json f = plan["regression_forecast"];
    plan.erase("regression_forecast");
    forecast += f.is_string() ? concat("regression forecast: none: ", f.get<std::string>(), "\n")
                              : f["text"].get<std::string>();
  } else if (plan.contains("regression_forecast") && plan["regression_forecast"].is_object()) {
    plan["regression_forecast"].erase("text");
  }
  const std::string text = json ? json_text(plan) : receipt_text(plan) + forecast;
  if (std::fputs(text.c_str(), stdout) < 0 || std::fflush(stdout) != 0)
    fail(kExitIo, "<stdout>: write error");
}

// The zCDP mechanisms on the rows (zcdp_release.hpp): the constants of dpcov_dly_plan,
// dpcov_coinpress_plan or dpcov_coinpress_mean_plan, with the rho that the (epsilon, delta) gives.
void run_zcdp_plan(const PlanOptions &o) {
  if (o.numerics != "default")
    fail(kExitUsage, "--numerics applies to the Gram mechanisms, not ", o.mechanism.mechanism,
         " (idealized numerics)");
  if (o.rows < 1)
    fail(kExitUsage, o.mechanism.mechanism, " needs --rows n >= 1 (n is public under its "
         "replace-one guarantee), got ", o.rows);
  ZcdpReleaseOptions z;
  z.mechanism = o.mechanism;
  if (o.bound) {
    check_bound(*o.bound, "--bound");
    z.bound = *o.bound;
  }
  z.k_bound = o.k_bound;
  z.steps = o.steps;
  z.mean_radius = o.mean_radius;
  z.center = o.center;
  z.privacy_unit = o.privacy_unit;
  z.max_rows_per_unit = o.max_rows_per_unit;
  const double rho = zcdp_checked_rho(z);
  // With units --rows counts them (U, public under unit replace-one) and the mechanism runs on
  // their k U rows at the rows' rho, as the release does.
  const int64_t k = o.privacy_unit.empty() ? 1 : o.max_rows_per_unit;
  const double row_rho = zcdp_unit_row_rho(z, rho);
  if (o.rows > INT64_MAX / k)
    fail(kExitUsage, "--rows ", o.rows, " units of ", k, " rows overflow a 64-bit count");
  nlohmann::ordered_json plan = plan_zcdp(z, row_rho, o.dims, k * o.rows).receipt;
  if (!o.privacy_unit.empty()) state_unit_budget(plan, z, rho);
  plan["library_version"] = dpcov_version_string();
  print_plan(plan, o.json);
}

// The forecast as the receipt carries it: an object (its text kept for the text output) or the
// reason there is none.
nlohmann::ordered_json forecast_entry(const std::optional<dpcov_regression_forecast> &f,
                                      const std::string &why_not) {
  if (!f) return why_not;
  nlohmann::ordered_json j = forecast_json(*f);
  j["text"] = forecast_text(*f);
  return j;
}

// What `dpcov regress` decides at --rows from public values (default_fit.hpp): the plan of the
// fit it runs and of the fit its forecast describes (as regress prints it: the fit that runs,
// a slope's, or where y'y is not released the plan with y'y that decided so), and the decisions,
// with their reasons.
struct RegressPlan {
  dpcov_adassp_receipt fit{};
  dpcov_adassp_receipt forecast{};
  bool intercept = true;  // the forecast is a slope's
  nlohmann::ordered_json decisions;
};

RegressPlan plan_regress_fit(const PlanOptions &o, const dpcov_adassp_params &params) {
  if (!o.privacy_unit.empty())
    fail(kExitUsage, "--regress plans a fit at the level of rows; a unit fit has no intervals "
         "and takes no decision: plan it without --regress");
  if (o.rows < 1) fail(kExitUsage, "--regress needs --rows n >= 1: regress decides at its n");
  check_bound(*o.bound, "--bound");
  check_bound(*o.label_bound, "--label-bound");
  DefaultFitQuery q;
  q.regressors = o.dims + 1;
  // The balanced rows regress fits (proofs/balanced_rows.md): their bounds, whatever --bound.
  q.bound_x = regressor_norm_bound({*o.bound, *o.bound, *o.label_bound, true}, o.dims);
  q.label_bound = 1.0;
  q.budget = o.mechanism.epsilon;
  q.delta = *o.mechanism.delta;
  q.params = params;
  q.rows = o.rows;
  q.level = o.level;
  q.robust = o.errors == "robust";
  const DefaultFit d = decide_default_fit(q);
  nlohmann::ordered_json reasons = nlohmann::ordered_json::array();
  for (const std::string *why : {&d.small_n_split, &d.label_square_refusal, &d.robust_skipped})
    if (!why->empty()) reasons.push_back(*why);
  RegressPlan plan;
  plan.decisions = {{"errors", d.robust ? "robust" : "homoscedastic"},
               {"fit_epsilon", d.epsilon},
               {"fit_delta", d.delta},
               {"meat_epsilon", d.robust ? d.sandwich.meat_epsilon : 0.0},
               {"meat_delta", d.robust ? d.sandwich.meat_delta : 0.0},
               {"lambda_min_released", d.params.without_lambda_min == 0},
               {"label_square_released", d.params.release_label_square == 1},
               {"reasons", reasons}};
  plan.fit = default_fit_plan(q, d);
  plan.intercept = d.label_square_refusal.empty();
  DefaultFit deciding = d;
  deciding.params.release_label_square = 1;
  plan.forecast = plan.intercept ? plan.fit : default_fit_plan(q, deciding);
  return plan;
}

// AdaSSP, the default regression on raw rows: its plan with y'y released (what the noise-aware
// intervals need) and the forecast of its fit; --dims counts the regressors, an intercept
// included. With --regress: the plan of the fit `dpcov regress --bound B` runs by default on
// --dims features at --rows (an intercept on top, p + 1 balanced regressors of norm sqrt(1 + p),
// robust errors' share, the small-n split and y'y as decided) and the forecast of a slope.
void run_adassp_plan(const PlanOptions &o) {
  if (!o.bound || !o.label_bound)
    fail(kExitUsage, "adassp needs --bound (B_X: ||x|| <= B_X, an intercept's 1 included, or "
         "with --regress the features' bound B) and --label-bound (B_Y: |y| <= B_Y)");
  if (!o.mechanism.delta) fail(kExitUsage, "adassp needs --delta");
  dpcov_adassp_params params{};
  library_check(dpcov_adassp_params_default(&params), "AdaSSP defaults");
  params.neighbour = value_of(neighbour_values(), o.mechanism.neighbour, "--neighbour");
  params.release_label_square = 1;
  // Privacy units: every sensitivity K times the row-level one, and no intervals (no y'y).
  const bool units = !o.privacy_unit.empty();
  if (units) {
    params.max_rows_per_unit = o.max_rows_per_unit;
    params.release_label_square = 0;
  }
  dpcov_adassp_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  std::optional<RegressPlan> regress;
  if (o.regress) {
    regress = plan_regress_fit(o, params);
    receipt = regress->fit;
  } else {
    library_check_parameters(dpcov_adassp_plan(o.dims, *o.bound, *o.label_bound,
                                               o.mechanism.epsilon, *o.mechanism.delta, &params,
                                               &receipt),
                             "adassp plan");
  }
  nlohmann::ordered_json plan = adassp_receipt_json(receipt);
  plan["command"] = "plan";
  plan["library_version"] = dpcov_version_string();
  if (regress) plan["regress"] = regress->decisions;
  if (units)
    plan["privacy_unit"] = {{"column", o.privacy_unit},
                            {"max_rows_per_unit", o.max_rows_per_unit}};
  plan["regression_forecast"] =
      units         ? nlohmann::ordered_json(kUnitsNoIntervals)
      : regress     ? forecast_entry(adassp_forecast(regress->forecast,
                                                     {static_cast<double>(o.rows), o.level,
                                                      o.fill, regress->intercept}), "")
      : o.rows >= 1 ? forecast_entry(adassp_forecast(receipt, o.forecast()), "")
                    : nlohmann::ordered_json("--rows is 0");
  print_plan(plan, o.json);
}

// A Gram mechanism's fit as `dpcov regress -m M --bound B --label-bound B_Y` runs it on --dims
// features at --rows (plan_gram_fit: an intercept, regress's default numerics, the robust errors'
// share of the budget): the release's plan at the fit's share, the decisions, and the forecast of
// a regression on that release.
void run_gram_regress_plan(const PlanOptions &o) {
  if (!o.bound || !o.label_bound)
    fail(kExitUsage, "--regress needs --bound (the features' bound B) and --label-bound (B_Y)");
  if (o.rows < 1) fail(kExitUsage, "--regress needs --rows n >= 1: regress decides at its n");
  check_bound(*o.bound, "--bound");
  check_bound(*o.label_bound, "--label-bound");
  MechanismOptions m = o.mechanism;
  const MechanismChoice choice = resolve_mechanism(m);
  GramFitQuery q;
  q.mechanism = m.mechanism;
  q.numerics = o.numerics;
  q.bounds = {*o.bound, *o.bound, *o.label_bound, true, false};
  q.features = o.dims;
  q.neighbour = choice.params.neighbour;
  q.robust = o.errors == "robust";
  q.epsilon = m.epsilon;
  q.delta = choice.delta;
  const GramFitPlan g = plan_gram_fit(q);
  m.epsilon = g.epsilon;
  m.delta = g.delta;
  if (g.robust) {
    m.requested_epsilon = o.mechanism.epsilon;
    m.rest_spent_by = "the robust intervals' meat spends the rest; --errors homoscedastic gives "
                      "the release all of it";
  }
  const MechanismChoice fit = resolve_mechanism(m);
  dpcov_exact_grid grid{};
  grid.struct_size = sizeof grid;
  const dpcov_receipt receipt =
      g.exact ? plan_exact(fit, m, g.dim, o.rows, g.row_bound, &grid)
              : plan_mechanism(fit, m, g.dim, o.rows, g.row_bound);
  nlohmann::ordered_json plan = public_receipt_json(receipt);
  if (g.exact) plan["exact_grid"] = exact_grid_json(grid);
  plan["command"] = "plan";
  plan["library_version"] = dpcov_version_string();
  plan["regress"] = {{"errors", g.robust ? "robust" : "homoscedastic"},
                     {"fit_epsilon", g.epsilon},
                     {"fit_delta", g.delta},
                     {"meat_epsilon", g.robust ? g.split.meat_epsilon : 0.0},
                     {"meat_delta", g.robust ? g.split.meat_delta : 0.0},
                     {"reasons", nlohmann::ordered_json::array()}};
  std::string why_not;
  plan["regression_forecast"] =
      forecast_entry(release_forecast(receipt, o.forecast(), why_not), why_not);
  print_plan(plan, o.json);
}

void run_plan(const PlanOptions &o) {
  if (o.privacy_unit.empty() != (o.max_rows_per_unit == 0))
    fail(kExitUsage, "--privacy-unit COLUMN and --max-rows-per-unit K go together");
  // Checked here for every mechanism, not only where a forecast reads them.
  if (!(o.level > 0.0 && o.level < 1.0))
    fail(kExitUsage, "--level must be in (0, 1), got ", o.level);
  if (!(o.fill > 0.0 && o.fill <= 1.0)) fail(kExitUsage, "--fill must be in (0, 1], got ", o.fill);
  if (is_zcdp_rows_mechanism(o.mechanism.mechanism)) return run_zcdp_plan(o);
  if (o.mechanism.mechanism == "adassp") return run_adassp_plan(o);
  if (!o.privacy_unit.empty())
    fail(kExitUsage, "plan --privacy-unit applies to adassp, dly_*, coinpress and "
         "coinpress_mean; the Gram mechanisms' unit plans are made by the release "
         "(docs/privacy-units.md)");
  if (o.k_bound || o.steps) fail(kExitUsage, "--k-bound and --steps apply to coinpress only");
  if (o.mean_radius) fail(kExitUsage, "--mean-radius applies to coinpress_mean only");
  if (o.center) fail(kExitUsage, "--center applies to coinpress only");
  if (o.regress) {
    return run_gram_regress_plan(o);
  }
  if (o.label_bound) fail(kExitUsage, "--label-bound applies to adassp and --regress only");
  if (o.errors != "robust") fail(kExitUsage, "--errors applies to --regress only");
  if (!o.bound)
    fail(kExitUsage, "--bound is required: ", o.mechanism.mechanism.empty() ? "the mechanism"
         : o.mechanism.mechanism, " needs the public Euclidean norm bound B of every row");
  check_bound(*o.bound, "--bound");
  const MechanismChoice choice = resolve_mechanism(o.mechanism);
  const bool exact = exact_numerics(o.numerics, choice, o.mechanism);
  dpcov_exact_grid grid{};
  grid.struct_size = sizeof grid;
  const dpcov_receipt receipt =
      exact ? plan_exact(choice, o.mechanism, o.dims, o.rows, *o.bound, &grid)
            : plan_mechanism(choice, o.mechanism, o.dims, o.rows, *o.bound);
  nlohmann::ordered_json plan = public_receipt_json(receipt);
  if (exact) plan["exact_grid"] = exact_grid_json(grid);
  plan["command"] = "plan";
  plan["library_version"] = dpcov_version_string();
  std::string why_not = "--rows is 0";
  plan["regression_forecast"] = forecast_entry(
      o.rows >= 1 ? release_forecast(receipt, o.forecast(), why_not) : std::nullopt, why_not);
  print_plan(plan, o.json);
}

// plan reads no data: a status the library gives for data (a dimension too large, a count out of
// range) can only come from the options that describe the data, so it is a usage error (exit 1),
// not one of input data (exit 2).
void run_plan_of_options(const PlanOptions &o) {
  try {
    run_plan(o);
  } catch (const CliError &e) {
    if (e.code() != kExitInputData) throw;
    throw CliError(kExitUsage, e.what());
  }
}

}  // namespace

void add_plan_command(CLI::App &app, std::function<void()> &run) {
  auto options = std::make_shared<PlanOptions>();
  CLI::App *command = app.add_subcommand(
      "plan",
      "The receipt of the release that would run (every constant), reading no data; fails as "
      "the release would for a violated precondition. The zCDP mechanisms on the rows (dly_*, "
      "coinpress, coinpress_mean) print the rho their (epsilon, delta) gives and every "
      "data-independent constant of their plan. For analyze_gauss, laplace_sym, "
      "wishart_additive and adassp (AdaSSP at --bound B_X, --label-bound B_Y, --dims p "
      "regressors; --regress plans the balanced fit `dpcov regress` runs) it also forecasts a "
      "regression at --rows: the n at which the privacy noise equals the sampling noise and "
      "the expected interval width (docs/forecast.md).");
  add_mechanism_options(*command, options->mechanism);
  command->add_option("--bound", options->bound,
                      "Euclidean norm bound B of every row (> 0; required, except for coinpress "
                      "and coinpress_mean)");
  command->add_option("--dims", options->dims, "Number of columns d")
      ->required()
      ->check(CLI::PositiveNumber);
  command->add_option("--rows", options->rows,
                      "Number of rows n (>= 1 for the zCDP mechanisms; with --privacy-unit the "
                      "number of units U, and n = K U)")
      ->required()
      ->check(CLI::NonNegativeNumber);
  command->add_flag("--json", options->json, "Print the receipt as JSON");
  command->add_option("--label-bound", options->label_bound,
                      "adassp and --regress: the bound B_Y on the label, |y| <= B_Y (required "
                      "there)");
  command->add_flag("--regress", options->regress,
                    "Plan the fit `dpcov regress -m M --bound B --label-bound B_Y` runs on --dims "
                    "features at --rows, an intercept counted on top, with regress's decisions "
                    "from public values (JSON `regress`). adassp: --dims + 1 balanced regressors "
                    "[1, x sqrt(p) / B] of norm sqrt(1 + p), the small-n split, y'y, the robust "
                    "errors' share; the "
                    "forecast is a slope's (--fill: the features' mean squared norm over B^2). "
                    "A Gram mechanism (analyze_gauss, laplace_sym, wishart_additive): the release "
                    "of the balanced rows [1, x sqrt(p) / B, y / B_y] at the fit's share of the "
                    "budget, regress's numerics");
  command->add_option("--errors", options->errors,
                      "--regress: the errors regress's intervals allow for, robust "
                      "(default) or homoscedastic, as regress's --errors")
      ->check(CLI::IsMember({"robust", "homoscedastic"}));
  command->add_option("--level", options->level,
                      "Confidence level of the regression forecast's interval width, in (0, 1) "
                      "(default 0.95)");
  command->add_option("--fill", options->fill,
                      "The forecast's reference design: the rows' mean squared norm over the "
                      "squared bound, in (0, 1] (default 1: rows on the bound)");
  command->add_option("--privacy-unit", options->privacy_unit,
                      "dly_*, coinpress, coinpress_mean: the release's unit column; the plan is "
                      "then per unit (exactly --max-rows-per-unit rows each, at rho / K^2 per "
                      "row; docs/privacy-units.md)");
  command->add_option("--max-rows-per-unit", options->max_rows_per_unit,
                      "With --privacy-unit: K, the rows each unit keeps (1 to 2^20)");
  add_numerics_option(*command, options->numerics);
  add_zcdp_options(*command, options->k_bound, options->steps, options->mean_radius,
                   options->center);
  command->callback([&run, options] { run = [options] { run_plan_of_options(*options); }; });
}

}  // namespace dpcov::cli
