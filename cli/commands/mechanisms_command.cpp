#include "mechanisms_command.hpp"

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <dpcov.h>
#include <nlohmann/json.hpp>

#include "../analysis/text_table.hpp"
#include "../cli_error.hpp"
#include "../io/json_text.hpp"
#include "../options/mechanism_options.hpp"

namespace dpcov::cli {

namespace {

struct MechanismsOptions {
  bool json = false;
};

// What the receipt does not carry: the preconditions and the output of each mechanism, as
// documented in capi/include/dpcov/mechanism.h. Privacy type, neighbour relations and theorem
// are asked from the library itself (below).
struct Description {
  const char *preconditions;
  const char *output;
  const char *options;
  // For a mechanism that dpcov_mechanism_plan() cannot plan (it needs arguments of its own entry
  // point): its neighbour relations and theorem, else empty.
  const char *neighbours = "";
  const char *theorem = "";
};

const std::map<std::string, Description> kDescriptions = {
    {"analyze_gauss",
     {"eps > 0, 0 < delta < 1 (classical calibration: eps < 1)", "G + Gaussian, may be indefinite",
      "--calibration"}},
    {"laplace_sym", {"eps > 0", "G + Laplace, may be indefinite", "--calibration"}},
    {"wishart_additive",
     {"0 < eps < 1, 0 < delta < 1/e", "G + Wishart, positive definite", ""}},
    {"inverse_gauss",
     {"eps > 0, 0 < delta < 1, public bound lambda_min(G) >= theta^2 > 0",
      "G^-1 + Gaussian, may be indefinite", "--lambda-min (required), --lambda-min-scope"}},
    {"wishart_jiang",
     {"none: refused unless --audit-only-not-private", "G + Wishart, positive definite", ""}},
    {"iev",
     {"eps > 0", "rank-k PSD (top k eigenpairs)", "--rank, --budget-split, --beta, --calibration"}},
    {"kt_rank1",
     {"eps > 0", "rank-k PSD (rank-one deflation)", "--rank, --budget-split, --beta, --calibration"}},
    {"jl_ridge",
     {"0 < eps <= 1, 0 < delta < 1/e", "S^T S / r ~ G + w^2 I, PSD (PD for r >= d)",
      "--projection-rows (required)"}},
    {"jl_ridge_sigma_min",
     {"eps/2 <= 1, delta/2 < 1/e", "S^T S / r with w lowered by a private sigma_min test, PSD",
      "--projection-rows (required)"}},
    {"inverse_wishart",
     {"m >= d, 0 < eps <= 1, 0 < delta < 1/e", "inverse-Wishart posterior sample, PD",
      "--posterior-dof (required)"}},
    {"inverse_wishart_sigma_min",
     {"m >= d, eps/2 <= 1, delta/2 < 1/e", "inverse-Wishart sample after a sigma_min test, PD",
      "--posterior-dof (required)"}},
    {"ols_jl",
     {"eps/2 <= 1, delta/2 < 1/e; refuses (exit 3) when sigma_min(A) is too small",
      "S^T S / r of R A (no regulariser), for t-tests with r - p dof",
      "--projection-rows (required)"}},
    {"glasso_output_wishart",
     {"none: refused unless unlocked; needs rho, so only dpcov_private_glasso_release() runs it",
      "graphical-lasso precision matrix + Wishart, PD", "not available from the command line",
      "replace-one",
      "Wang, Huai, Xu, GlobalSIP 2018, Alg. 1 (as published; not DP); proofs/glasso_output.md"}},
};

// The mechanisms that read the rows themselves (cli/commands/zcdp_release.cpp): private under
// rho-zCDP, run at the largest rho whose (eps, delta) fits, with no mechanism id of
// dpcov_mechanism_plan() (they have entry points of their own), so they are described here.
struct RowMechanism {
  const char *name;
  Description description;
};

const RowMechanism kRowMechanisms[] = {
    {"dly_gauss",
     {"eps > 0, 0 < delta < 1, n public", "n (X^T X / n + Gaussian), may be indefinite",
      "--bound (required)", "replace-one",
      "Dong, Liang & Yi, NeurIPS 2022 (Gauss branch) under rho-zCDP; proofs/dong_liang_yi.md"}},
    {"dly_separate",
     {"eps > 0, 0 < delta < 1, n public",
      "n (eigenvalues and eigenvectors released separately), PSD", "--bound (required)",
      "replace-one", "Dong, Liang & Yi, NeurIPS 2022, Alg. 1 under rho-zCDP; proofs/dong_liang_yi.md"}},
    {"dly_adaptive",
     {"eps > 0, 0 < delta < 1, n public",
      "n (Gauss or Separate, chosen by a private trace; private clipping radius)",
      "--bound (required)", "replace-one",
      "Dong, Liang & Yi, NeurIPS 2022, Alg. 3, with dpcov's split, radius and branch rule; "
      "proofs/dong_liang_yi.md"}},
    {"dly_adaptive_paper",
     {"eps > 0, 0 < delta < 1, n public", "as dly_adaptive, with the paper's split and rules",
      "--bound (required)", "replace-one",
      "Dong, Liang & Yi, NeurIPS 2022, Alg. 3 as published; proofs/dong_liang_yi.md"}},
    {"coinpress",
     {"eps > 0, 0 < delta < 1, n public; utility needs Gaussian-like rows",
      "n (iterative covariance estimate), PSD", "--k-bound (required), --steps", "replace-one",
      "Biswas, Dong, Kamath & Ullman, NeurIPS 2020, Alg. 2-3 under rho-zCDP; proofs/coinpress.md"}},
    {"coinpress_mean",
     {"eps > 0, 0 < delta < 1, n public; utility needs Gaussian-like rows",
      "n (the private mean, 1 x d)", "--mean-radius (required), --k-bound, --steps", "replace-one",
      "Biswas, Dong, Kamath & Ullman, NeurIPS 2020, MVM iterated by MVMRec under rho-zCDP; "
      "proofs/coinpress_mean.md"}},
};

// Settings under which the plan of `id` succeeds at the probe's sizes: the required options get
// admissible values (d = 2, so m = 2 and r = 4 are valid).
dpcov_mechanism_params probe_params(const std::string &name, int32_t neighbour) {
  MechanismOptions options;
  options.mechanism = name;
  options.epsilon = 0.5;
  dpcov_mechanism_params params = resolve_mechanism(options).params;
  params.neighbour = neighbour;
  if (name == "inverse_gauss") params.lambda_min_bound = 1.0;
  if (name == "jl_ridge" || name == "jl_ridge_sigma_min" || name == "ols_jl")
    params.projection_rows = 4;
  if (name == "inverse_wishart" || name == "inverse_wishart_sigma_min") params.posterior_dof = 2;
  return params;
}

struct Entry {
  int32_t id = 0;  // 0: a mechanism on the rows, with no id of dpcov_mechanism_plan()
  std::string name;
  std::string privacy;
  std::vector<std::string> neighbours;
  std::string theorem;
  Description description{};
};

Entry describe(const std::string &name) {
  MechanismOptions options;
  options.mechanism = name;
  options.epsilon = 0.5;
  Entry entry;
  entry.id = resolve_mechanism(options).id;
  entry.name = name;
  // The probe: d = 2, n = 10, B = 1, eps = 1/2 and delta = 1e-6 meet every precondition.
  constexpr int64_t kDim = 2;
  constexpr int64_t kRows = 10;
  constexpr double kEpsilon = 0.5;
  constexpr double kDelta = 1e-6;
  for (const auto &[label, neighbour] :
       {std::pair<const char *, int32_t>{"replace-one", DPCOV_NEIGHBOUR_REPLACE_ONE},
        std::pair<const char *, int32_t>{"add-remove", DPCOV_NEIGHBOUR_ADD_REMOVE}}) {
    dpcov_mechanism_params params = probe_params(name, neighbour);
    dpcov_receipt receipt{};
    receipt.struct_size = sizeof receipt;
    dpcov_status status =
        dpcov_mechanism_plan(entry.id, kDim, kRows, 1.0, kEpsilon, kDelta, &params, &receipt);
    if (status == DPCOV_E_NOT_PRIVATE) {
      // A known non-private mechanism: unlocked, its plan gives the receipt (not_dp = 1).
      entry.privacy = "NOT DP (audit only)";
      params.audit_only_not_private = 1;
      status =
          dpcov_mechanism_plan(entry.id, kDim, kRows, 1.0, kEpsilon, kDelta, &params, &receipt);
    }
    if (status != DPCOV_OK) continue;
    if (entry.neighbours.empty()) entry.theorem = receipt.theorem;
    entry.neighbours.push_back(label);
    if (!entry.privacy.empty()) continue;
    if (receipt.not_dp)
      entry.privacy = "NOT DP (audit only)";
    else
      entry.privacy = receipt.delta == 0.0 ? "pure eps" : "(eps, delta)";
  }
  const auto found = kDescriptions.find(name);
  entry.description = found != kDescriptions.end()
                          ? found->second
                          : Description{"see capi/include/dpcov/mechanism.h",
                                        "see capi/include/dpcov/mechanism.h", ""};
  if (entry.neighbours.empty() && *entry.description.neighbours)
    entry.neighbours.push_back(entry.description.neighbours);
  if (entry.theorem.empty()) entry.theorem = entry.description.theorem;
  if (entry.privacy.empty()) entry.privacy = "see capi/include/dpcov/mechanism.h";
  return entry;
}

std::vector<std::string> split_list(const std::string &list) {
  std::vector<std::string> names;
  size_t start = 0;
  while (start <= list.size()) {
    const size_t end = list.find(", ", start);
    names.push_back(list.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 2;
  }
  return names;
}

std::string join(const std::vector<std::string> &parts, const char *separator) {
  std::string out;
  for (const auto &part : parts) out += (out.empty() ? "" : separator) + part;
  return out;
}

Entry describe_row_mechanism(const RowMechanism &m) {
  Entry entry;
  entry.name = m.name;
  entry.privacy = "(eps, delta) from rho-zCDP";
  entry.neighbours = {m.description.neighbours};
  entry.theorem = m.description.theorem;
  entry.description = m.description;
  return entry;
}

void run_mechanisms(const MechanismsOptions &o) {
  std::vector<Entry> entries;
  for (const auto &name : split_list(mechanism_list())) entries.push_back(describe(name));
  for (const auto &m : kRowMechanisms) entries.push_back(describe_row_mechanism(m));
  if (o.json) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto &e : entries)
      out.push_back({{"id", e.id ? nlohmann::ordered_json(e.id) : nlohmann::ordered_json()},
                     {"name", e.name},
                     {"privacy", e.privacy},
                     {"neighbours", e.neighbours},
                     {"preconditions", e.description.preconditions},
                     {"output", e.description.output},
                     {"options", e.description.options},
                     {"theorem", e.theorem}});
    print_stdout(json_text(out));
    return;
  }
  std::string text;
  for (const auto &e : entries) {
    const std::string id = e.id ? concat(e.id) : "--";
    text += concat(id.size() < 2 ? " " : "", id, "  ", e.name, "  [", e.privacy, "]\n");
    text += concat("      neighbours:     ", join(e.neighbours, ", "), "\n");
    text += concat("      preconditions:  ", e.description.preconditions, "\n");
    text += concat("      output:         ", e.description.output, "\n");
    if (*e.description.options) text += concat("      options:        ", e.description.options, "\n");
    text += concat("      theorem:        ", e.theorem, "\n");
  }
  print_stdout(text);
}

}  // namespace

void add_mechanisms_command(CLI::App &app, std::function<void()> &run) {
  auto options = std::make_shared<MechanismsOptions>();
  CLI::App *command = app.add_subcommand(
      "mechanisms",
      "Lists every mechanism: id, name, privacy type (pure eps, (eps, delta), or NOT DP audit "
      "targets), neighbour relations, preconditions, output type and the theorem behind its "
      "constants. Privacy type, neighbours and theorem come from the library's own plans; the "
      "zCDP mechanisms on the rows (no id) are listed last.");
  command->add_flag("--json", options->json, "Print the list as JSON");
  command->callback([&run, options] { run = [options] { run_mechanisms(*options); }; });
}

}  // namespace dpcov::cli
