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

namespace dpcov::cli {

namespace {

struct MechanismsOptions {
  bool json = false;
};

// What the registry does not hold because it is the command line's: how a command runs each
// mechanism, its preconditions and output in words, and its options. What a mechanism is (privacy
// model, neighbours, numerics, theorem) comes from the library's registry.
struct Usage {
  const char *command;
  const char *preconditions;
  const char *output;
  const char *options;
};

const std::map<std::string, Usage> kUsage = {
    {"analyze_gauss",
     {"release, plan, compare, audit", "eps > 0, 0 < delta < 1 (classical calibration: eps < 1)",
      "G + Gaussian, may be indefinite", "--calibration, --numerics"}},
    {"laplace_sym",
     {"release, plan, compare, audit", "eps > 0", "G + Laplace, may be indefinite",
      "--calibration, --numerics"}},
    {"wishart_additive",
     {"release, plan, compare, audit", "0 < eps < 1, 0 < delta < 1/e",
      "G + Wishart, positive definite", ""}},
    {"inverse_gauss",
     {"release, plan, audit", "eps > 0, 0 < delta < 1, public bound lambda_min(G) >= theta^2 > 0",
      "G^-1 + Gaussian, may be indefinite", "--lambda-min (required), --lambda-min-scope"}},
    {"wishart_jiang",
     {"release, plan, compare, audit", "none: refused unless --audit-only-not-private",
      "G + Wishart, positive definite", ""}},
    {"iev",
     {"release, plan, compare", "eps > 0", "rank-k PSD (top k eigenpairs)",
      "--rank, --budget-split, --beta, --calibration"}},
    {"kt_rank1",
     {"release, plan, compare", "eps > 0", "rank-k PSD (rank-one deflation)",
      "--rank, --budget-split, --beta, --calibration"}},
    {"jl_ridge",
     {"release, plan, compare, audit", "0 < eps <= 1, 0 < delta < 1/e",
      "S^T S / r ~ G + w^2 I, PSD (PD for r >= d)", "--projection-rows (required)"}},
    {"jl_ridge_sigma_min",
     {"release, plan, compare, audit", "eps/2 <= 1, delta/2 < 1/e",
      "S^T S / r with w lowered by a private sigma_min test, PSD", "--projection-rows (required)"}},
    {"inverse_wishart",
     {"release, plan, compare, audit", "m >= d, 0 < eps <= 1, 0 < delta < 1/e",
      "inverse-Wishart posterior sample, PD", "--posterior-dof (required)"}},
    {"inverse_wishart_sigma_min",
     {"release, plan, compare, audit", "m >= d, eps/2 <= 1, delta/2 < 1/e",
      "inverse-Wishart sample after a sigma_min test, PD", "--posterior-dof (required)"}},
    {"ols_jl",
     {"release, plan, compare, audit",
      "eps/2 <= 1, delta/2 < 1/e; refuses (exit 3) when sigma_min(A) is too small",
      "S^T S / r of R A (no regulariser), for t-tests with r - p dof",
      "--projection-rows (required)"}},
    {"glasso_output_wishart",
     {"none (dpcov_private_glasso_release() in the library)",
      "none: refused unless unlocked; needs rho", "graphical-lasso precision matrix + Wishart, PD",
      ""}},
    {"adassp",
     {"regress DATA --epsilon (raw rows)", "eps > 0, 0 < delta < 1, bounds on x and y",
      "ridge coefficients from X'X, X'y and lambda_min perturbed once",
      "--label, --bound, --label-bound (required)"}},
    {"dly",
     {"release, plan, compare, audit as dly_gauss, dly_separate, dly_adaptive, "
      "dly_adaptive_paper",
      "eps > 0, 0 < delta < 1, n public", "n (X^T X / n + noise): Gauss may be indefinite, "
      "Separate PSD, Adaptive chooses by a private trace", "--bound (required)"}},
    {"coinpress",
     {"release, plan, compare, audit",
      "eps > 0, 0 < delta < 1, n public; utility needs Gaussian-like rows",
      "n (iterative covariance estimate), PSD", "--k-bound (required), --steps, --center"}},
    {"coinpress_mean",
     {"release, plan, audit", "eps > 0, 0 < delta < 1, n public; utility needs Gaussian-like rows",
      "the private mean, 1 x d", "--mean-radius (required), --k-bound, --steps"}},
    {"private_bound",
     {"release --bound auto, regress --bound-epsilon", "eps_B > 0; a public grid of candidates",
      "a norm bound B from the grid",
      "--bound-rule, --bound-clipped (release); --bound-quantile (regress)"}},
};

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
  const auto found = kUsage.find(registry.name);
  if (found == kUsage.end())
    fail(kExitInternal, "the library lists a mechanism this command does not know: ",
         registry.name);
  return {registry, found->second,
          bits(registry.neighbours, "replace-one", "add-remove"),
          bits(registry.numerics, "idealized", "exact")};
}

nlohmann::ordered_json entry_json(const Entry &e) {
  return {{"id", e.registry.id},
          {"name", e.registry.name},
          {"privacy", privacy_label(e.registry.privacy_model)},
          {"neighbours", e.neighbours},
          {"numerics", e.numerics},
          {"command", e.usage.command},
          {"preconditions", e.usage.preconditions},
          {"output", e.usage.output},
          {"options", e.usage.options},
          {"theorem", e.registry.theorem},
          {"exact_theorem", e.registry.exact_theorem},
          {"proof", e.registry.proof},
          {"header", e.registry.header}};
}

std::string entry_text(const Entry &e) {
  std::string text = concat(e.registry.id < 10 ? " " : "", e.registry.id, "  ", e.registry.name,
                            "  [", privacy_label(e.registry.privacy_model), "]\n");
  text += concat("      neighbours:     ", join(e.neighbours), "\n");
  text += concat("      numerics:       ", join(e.numerics), "\n");
  text += concat("      command:        ", e.usage.command, "\n");
  text += concat("      preconditions:  ", e.usage.preconditions, "\n");
  text += concat("      output:         ", e.usage.output, "\n");
  if (*e.usage.options) text += concat("      options:        ", e.usage.options, "\n");
  text += concat("      theorem:        ", e.registry.theorem, "\n");
  if (*e.registry.exact_theorem)
    text += concat("      exact numerics: ", e.registry.exact_theorem, "\n");
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
      "numerics, the commands that run it, preconditions, output and the theorem its receipts "
      "carry. What a mechanism is comes from the library (dpcov_mechanism_info), not from trial "
      "plans.");
  command->add_flag("--json", options->json, "Print the list as JSON");
  command->callback([&run, options] { run = [options] { run_mechanisms(*options); }; });
}

}  // namespace dpcov::cli
