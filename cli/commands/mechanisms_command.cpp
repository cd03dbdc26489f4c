#include "mechanisms_command.hpp"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <dpcov.h>
#include <nlohmann/json.hpp>

#include "../analysis/text_table.hpp"
#include "../cli_error.hpp"
#include "../io/json_text.hpp"
#include "../options/mechanism_registry.hpp"
#include "audit_command.hpp"
#include "compare_command.hpp"

namespace dpcov::cli {

namespace {

struct MechanismsOptions {
  bool json = false;
};

// How the command line runs a mechanism: the commands and their options. What a mechanism is
// (privacy model, neighbours, numerics, preconditions, output, theorem) comes from the library's
// registry.
struct Usage {
  std::string command;
  std::string options;
};

// The Gram mechanisms' option flags, by the registry's option bit that each sets; a bit with no
// flag (the graphical-lasso rho) is one the command line cannot give.
constexpr std::pair<int32_t, const char *> kOptionFlags[] = {
    {DPCOV_MECHANISM_OPTION_LAMBDA_MIN, "--lambda-min (required), --lambda-min-scope"},
    {DPCOV_MECHANISM_OPTION_SPECTRAL, "--rank, --budget-split, --beta"},
    {DPCOV_MECHANISM_OPTION_PROJECTION_ROWS, "--projection-rows (required)"},
    {DPCOV_MECHANISM_OPTION_POSTERIOR_DOF, "--posterior-dof (required)"},
    {DPCOV_MECHANISM_OPTION_AUDIT_UNLOCK, "--audit-only-not-private"},
    {DPCOV_MECHANISM_OPTION_CALIBRATION, "--calibration"},
};

// The mechanisms with entry points of their own, which their own commands and flags run.
const std::map<std::string, Usage> kOwnEntryPoints = {
    {"adassp",
     {"regress DATA --epsilon (raw rows), audit --unit-rows",
      "--label, --bound, --label-bound (required)"}},
    {"dly",
     {"release, plan, compare, audit as dly_gauss, dly_separate, dly_adaptive, "
      "dly_adaptive_paper",
      "--bound (required)"}},
    {"coinpress", {"release, plan, compare, audit", "--k-bound (required), --steps, --center"}},
    {"coinpress_mean",
     {"release, plan, audit", "--mean-radius (required), --k-bound, --steps"}},
    {"private_bound",
     {"release --bound auto, regress --bound-epsilon",
      "--bound-rule, --bound-clipped (release); --bound-quantile (regress)"}},
};

// A Gram mechanism's usage, from its registry entry: the commands that take it and the flags of
// the options it reads.
Usage gram_usage(const dpcov_mechanism_entry &registry) {
  if (!command_line_runs(registry)) return {"none (the library's entry points only)", ""};
  Usage usage{"release, plan", ""};
  if (compare_runs(registry)) usage.command += ", compare";
  if (audit_runs(registry)) usage.command += ", audit";
  std::vector<std::string> flags;
  for (const auto &[bit, flag] : kOptionFlags)
    if (registry.options & bit) flags.emplace_back(flag);
  if (registry.numerics & DPCOV_MECHANISM_NUMERICS_EXACT) flags.emplace_back("--numerics");
  for (const auto &flag : flags) usage.options += (usage.options.empty() ? "" : ", ") + flag;
  return usage;
}

// The registry's privacy models as the command prints them, by their C values.
constexpr std::pair<int32_t, const char *> kPrivacyLabels[] = {
    {DPCOV_MECHANISM_PRIVACY_PURE, "pure eps"},
    {DPCOV_MECHANISM_PRIVACY_APPROXIMATE, "(eps, delta)"},
    {DPCOV_MECHANISM_PRIVACY_ZCDP, "(eps, delta) from rho-zCDP"},
    {DPCOV_MECHANISM_PRIVACY_NOT_PRIVATE, "NOT DP (audit only)"},
};

const char *privacy_label(int32_t model) {
  for (const auto &[value, label] : kPrivacyLabels)
    if (value == model) return label;
  return "unknown";
}

std::vector<std::string> bits(int32_t set, const char *first, const char *second) {
  std::vector<std::string> names;
  if (set & 1) names.emplace_back(first);
  if (set & 2) names.emplace_back(second);
  return names;
}

std::string join(const std::vector<std::string> &parts) {
  std::string out;
  for (const auto &part : parts) out += (out.empty() ? "" : ", ") + part;
  return out;
}

struct Entry {
  dpcov_mechanism_entry registry;
  Usage usage;
  std::vector<std::string> neighbours;
  std::vector<std::string> numerics;
};

Entry describe(const dpcov_mechanism_entry &registry) {
  Usage usage;
  if (registry.family == DPCOV_MECHANISM_FAMILY_GRAM) {
    usage = gram_usage(registry);
  } else {
    const auto found = kOwnEntryPoints.find(registry.name);
    if (found == kOwnEntryPoints.end())
      fail(kExitInternal, "the library lists a mechanism with entry points of its own that this "
           "command does not know: ", registry.name);
    usage = found->second;
  }
  return {registry, usage, bits(registry.neighbours, "replace-one", "add-remove"),
          bits(registry.numerics, "idealized", "exact")};
}

nlohmann::ordered_json entry_json(const Entry &e) {
  return {{"id", e.registry.id},
          {"name", e.registry.name},
          {"privacy", privacy_label(e.registry.privacy_model)},
          {"neighbours", e.neighbours},
          {"numerics", e.numerics},
          {"command", e.usage.command},
          {"preconditions", e.registry.preconditions},
          {"output", e.registry.summary},
          {"options", e.usage.options},
          {"theorem", e.registry.theorem},
          {"exact_theorem", e.registry.exact_theorem},
          {"proof", e.registry.proof},
          {"header", e.registry.header},
          {"unit_proof", e.registry.unit_proof},
          {"unit_refusal", e.registry.unit_refusal}};
}

std::string entry_text(const Entry &e) {
  std::string text = concat(e.registry.id < 10 ? " " : "", e.registry.id, "  ", e.registry.name,
                            "  [", privacy_label(e.registry.privacy_model), "]\n");
  text += concat("      neighbours:     ", join(e.neighbours), "\n");
  text += concat("      numerics:       ", join(e.numerics), "\n");
  text += concat("      command:        ", e.usage.command, "\n");
  text += concat("      preconditions:  ", e.registry.preconditions, "\n");
  text += concat("      output:         ", e.registry.summary, "\n");
  if (!e.usage.options.empty()) text += concat("      options:        ", e.usage.options, "\n");
  text += concat("      theorem:        ", e.registry.theorem, "\n");
  if (*e.registry.exact_theorem)
    text += concat("      exact numerics: ", e.registry.exact_theorem, "\n");
  text += *e.registry.unit_proof
              ? concat("      privacy units:  ", e.registry.unit_proof, "\n")
              : concat("      privacy units:  refused: ", e.registry.unit_refusal, "\n");
  return text;
}

void run_mechanisms(const MechanismsOptions &o) {
  std::vector<Entry> entries;
  for (const dpcov_mechanism_entry &registry : registry_entries())
    entries.push_back(describe(registry));
  if (o.json) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto &e : entries) out.push_back(entry_json(e));
    print_stdout(json_text(out));
    return;
  }
  std::string text;
  for (const auto &e : entries) text += entry_text(e);
  print_stdout(text);
}

}  // namespace

void add_mechanisms_command(CLI::App &app, std::function<void()> &run) {
  auto options = std::make_shared<MechanismsOptions>();
  CLI::App *command = app.add_subcommand(
      "mechanisms",
      "Lists every mechanism of the library's registry: id, name, privacy type (pure eps, "
      "(eps, delta), (eps, delta) from rho-zCDP, or NOT DP audit targets), neighbour relations, "
      "numerics, the commands that run it, preconditions, output, the theorem its receipts "
      "carry, and its proof for privacy units or why it refuses them. What a mechanism is comes from the library (dpcov_mechanism_info), not from trial "
      "plans.");
  command->add_flag("--json", options->json, "Print the list as JSON");
  command->callback([&run, options] { run = [options] { run_mechanisms(*options); }; });
}

}  // namespace dpcov::cli
