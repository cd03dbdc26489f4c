#include "plan_command.hpp"

#include <cstdio>
#include <memory>
#include <optional>

#include "../cli_error.hpp"
#include "../io/json_text.hpp"
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
};

void print_plan(const nlohmann::ordered_json &plan, bool json) {
  const std::string text = json ? json_text(plan) : receipt_text(plan);
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
  const double rho = zcdp_checked_rho(z);
  nlohmann::ordered_json plan = plan_zcdp(z, rho, o.dims, o.rows).receipt;
  plan["library_version"] = dpcov_version_string();
  print_plan(plan, o.json);
}

void run_plan(const PlanOptions &o) {
  if (is_zcdp_rows_mechanism(o.mechanism.mechanism)) return run_zcdp_plan(o);
  if (o.k_bound || o.steps) fail(kExitUsage, "--k-bound and --steps apply to coinpress only");
  if (o.mean_radius) fail(kExitUsage, "--mean-radius applies to coinpress_mean only");
  if (o.center) fail(kExitUsage, "--center applies to coinpress only");
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
  print_plan(plan, o.json);
}

}  // namespace

void add_plan_command(CLI::App &app, std::function<void()> &run) {
  auto options = std::make_shared<PlanOptions>();
  CLI::App *command = app.add_subcommand(
      "plan",
      "The receipt of the release that would run (every constant), reading no data; fails as "
      "the release would for a violated precondition. The zCDP mechanisms on the rows (dly_*, "
      "coinpress, coinpress_mean) print the rho their (epsilon, delta) gives and every "
      "data-independent constant of their plan.");
  add_mechanism_options(*command, options->mechanism);
  command->add_option("--bound", options->bound,
                      "Euclidean norm bound B of every row (> 0; required, except for coinpress "
                      "and coinpress_mean)");
  command->add_option("--dims", options->dims, "Number of columns d")
      ->required()
      ->check(CLI::PositiveNumber);
  command->add_option("--rows", options->rows, "Number of rows n (>= 1 for the zCDP mechanisms)")
      ->required()
      ->check(CLI::NonNegativeNumber);
  command->add_flag("--json", options->json, "Print the receipt as JSON");
  add_numerics_option(*command, options->numerics);
  add_zcdp_options(*command, options->k_bound, options->steps, options->mean_radius,
                   options->center);
  command->callback([&run, options] { run = [options] { run_plan(*options); }; });
}

}  // namespace dpcov::cli
