#include "plan_command.hpp"

#include <cstdio>
#include <memory>

#include "../cli_error.hpp"
#include "../json_text.hpp"
#include "input_options.hpp"
#include "mechanism_options.hpp"

namespace dpcov::cli {

namespace {

struct PlanOptions {
  MechanismOptions mechanism;
  double bound = 0.0;
  int64_t dims = 0;
  int64_t rows = 0;
  bool json = false;
  std::string numerics = "default";
};

void run_plan(const PlanOptions &o) {
  check_bound(o.bound, "--bound");
  const MechanismChoice choice = resolve_mechanism(o.mechanism);
  const bool exact = exact_numerics(o.numerics, choice, o.mechanism);
  dpcov_exact_grid grid{};
  grid.struct_size = sizeof grid;
  const dpcov_receipt receipt =
      exact ? plan_exact(choice, o.mechanism, o.dims, o.rows, o.bound, &grid)
            : plan_mechanism(choice, o.mechanism, o.dims, o.rows, o.bound);
  nlohmann::ordered_json plan = public_receipt_json(receipt);
  if (exact) plan["exact_grid"] = exact_grid_json(grid);
  plan["command"] = "plan";
  plan["library_version"] = dpcov_version_string();
  const std::string text = o.json ? json_text(plan) : receipt_text(plan);
  if (std::fputs(text.c_str(), stdout) < 0 || std::fflush(stdout) != 0)
    fail(kExitIo, "<stdout>: write error");
}

}  // namespace

void add_plan_command(CLI::App &app, std::function<void()> &run) {
  auto options = std::make_shared<PlanOptions>();
  CLI::App *command = app.add_subcommand(
      "plan",
      "The receipt of the release that would run (every constant), reading no data; fails as "
      "the release would for a violated precondition.");
  add_mechanism_options(*command, options->mechanism);
  command->add_option("--bound", options->bound, "Euclidean norm bound B of every row (> 0)")
      ->required();
  command->add_option("--dims", options->dims, "Number of columns d")
      ->required()
      ->check(CLI::PositiveNumber);
  command->add_option("--rows", options->rows, "Number of rows n")
      ->required()
      ->check(CLI::NonNegativeNumber);
  command->add_flag("--json", options->json, "Print the receipt as JSON");
  add_numerics_option(*command, options->numerics);
  command->callback([&run, options] { run = [options] { run_plan(*options); }; });
}

}  // namespace dpcov::cli
