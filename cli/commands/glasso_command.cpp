#include "glasso_command.hpp"

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <dpcov.h>
#include <nlohmann/json.hpp>

#include "../analysis/released_matrix.hpp"
#include "../analysis/text_table.hpp"
#include "../cli_error.hpp"
#include "../io/json_text.hpp"
#include "../library_status.hpp"
#include "../options/input_options.hpp"
#include "../io/write_outputs.hpp"

namespace dpcov::cli {

namespace {

struct GlassoOptions {
  MatrixSource source;
  OutputOptions output;
  double rho = -1.0;
  bool as_is = false;
  bool off_diagonal_only = false;
  std::optional<double> tol;        // the library's default when not given
  std::optional<int64_t> max_iter;
  bool json = false;
  CentreOptions centre;
};

const char *start_name(int32_t start) {
  switch (start) {
    case DPCOV_GLASSO_START_WARM: return "warm";
    case DPCOV_GLASSO_START_COVARIANCE: return "covariance";
    case DPCOV_GLASSO_START_SOFT_THRESHOLD: return "soft-threshold";
    default: return "unknown";
  }
}

// The solver's settings: the library's defaults but for those given, checked as it checks them.
dpcov_glasso_params solver_params(const GlassoOptions &o) {
  dpcov_glasso_params params{};
  library_check(dpcov_glasso_params_default(&params), "graphical lasso defaults");
  if (o.off_diagonal_only) params.penalize_diagonal = 0;
  if (o.tol) {
    check_positive_finite(*o.tol, "--tol");
    params.tol = *o.tol;
  }
  if (o.max_iter) {
    if (*o.max_iter < 1) fail(kExitUsage, "--max-iter must be >= 1, got ", *o.max_iter);
    params.max_iter = *o.max_iter;
  }
  return params;
}

void run_glasso(const GlassoOptions &o) {
  if (!(std::isfinite(o.rho) && o.rho >= 0.0))
    fail(kExitUsage, "--rho must be a finite number >= 0, got ", o.rho);
  check_outputs(o.output, {{o.source.path, "release"}, {matrix_receipt_path(o.source), "receipt"}});
  // The release's estimate of the Gram matrix (its mechanism's noise mean removed), as pca reads.
  const LoadedMatrix m = centre_as_asked(noise_mean_removed(load_matrix(o.source)), o.centre);
  const int64_t d = m.dim;

  // The objective is on the covariance scale S = G / n (Wang, Huai and Xu 2018, eq. 1), and rho
  // is on that scale too; --as-is takes the matrix to be S already, and a centred one is.
  std::vector<double> s = m.values;
  if (!o.as_is && !m.centred) {
    if (!m.rows)
      fail(kExitUsage, m.path,
           ": the number of rows n is unknown (no receipt beside it, or n is private and withheld): "
           "pass --rows, or --as-is if the matrix is already on the covariance scale");
    if (*m.rows == 0) fail(kExitInputData, m.path, ": n = 0 rows: cannot scale by 1/n");
    for (double &x : s) x /= static_cast<double>(*m.rows);
  }

  const dpcov_glasso_params params = solver_params(o);
  std::vector<double> precision(static_cast<size_t>(d * d));
  dpcov_glasso_info info{};
  info.struct_size = sizeof info;
  library_check(dpcov_glasso_solve(DPCOV_ROW_MAJOR, d, s.data(), d, o.rho, &params, nullptr, 0,
                                   precision.data(), d, nullptr, 0, &info),
                concat(m.path, ": graphical lasso at rho ", o.rho));

  int64_t edges = 0;
  for (int64_t i = 0; i < d; ++i)
    for (int64_t j = i + 1; j < d; ++j)
      if (precision[static_cast<size_t>(i * d + j)] != 0.0) ++edges;
  const int64_t pairs = d * (d - 1) / 2;

  nlohmann::ordered_json result = {{"command", "glasso"},
                                   {"matrix", m.path},
                                   {"mechanism", m.mechanism()},
                                   {"rho", o.rho},
                                   {"scale", o.as_is ? "as-is" : m.centred ? "centred covariance (1/n)" : "divided by n"},
                                   {"n", m.rows ? nlohmann::ordered_json(*m.rows) : nlohmann::ordered_json()},
                                   {"penalize_diagonal", params.penalize_diagonal != 0},
                                   {"tol", params.tol},
                                   {"max_iter", params.max_iter},
                                   {"iterations", info.iterations},
                                   {"kkt_residual", info.kkt_residual},
                                   {"duality_gap", info.duality_gap},
                                   {"start", start_name(info.start)},
                                   {"support_edges", edges},
                                   {"possible_edges", pairs}};
  if (m.centred) result["centred"] = true;
  if (o.output.path != "-") {
    nlohmann::ordered_json sidecar = result;
    sidecar["columns"] = m.names;
    sidecar["source_receipt"] = m.receipt.is_object() ? m.receipt : nlohmann::ordered_json();
    write_outputs(o.output, precision.data(), d, d, m.names, sidecar);
  }

  if (o.json) {
    result["output"] = o.output.path == "-" ? nlohmann::ordered_json() : nlohmann::ordered_json(o.output.path);
    if (o.output.path == "-") result["precision"] = precision;
    print_stdout(json_text(result));
    return;
  }
  std::string text = concat("Graphical lasso of ", m.path, " at rho ", o.rho, " (",
                            o.as_is ? "matrix as given" : m.centred ? "centred covariance" : "S = G / n", ", diagonal ",
                            params.penalize_diagonal ? "penalised" : "not penalised", ")\n");
  text += concat("  support        ", edges, " of ", pairs, " off-diagonal pairs\n");
  text += concat("  iterations     ", info.iterations, "\n");
  text += concat("  KKT residual   ", format_number(info.kkt_residual, 3), " (tol ",
                 format_number(params.tol, 3), ")\n");
  text += concat("  duality gap    ", format_number(info.duality_gap, 3), "\n");
  text += concat("  start          ", start_name(info.start), "\n");
  if (o.output.path != "-")
    text += concat("  precision      written to ", o.output.path, "\n");
  else {
    text += "\n";
    std::vector<std::string> header{"precision"};
    header.insert(header.end(), m.names.begin(), m.names.end());
    TextTable table(header);
    for (int64_t i = 0; i < d; ++i) {
      std::vector<std::string> row{m.names[static_cast<size_t>(i)]};
      for (int64_t j = 0; j < d; ++j) {
        const double x = precision[static_cast<size_t>(i * d + j)];
        row.push_back(x == 0.0 ? "." : format_number(x, 3));
      }
      table.add_row(row);
    }
    text += table.render();
  }
  print_stdout(text);
}

}  // namespace

void add_glasso_command(CLI::App &app, std::function<void()> &run) {
  auto options = std::make_shared<GlassoOptions>();
  CLI::App *command = app.add_subcommand(
      "glasso",
      "The graphical lasso: a sparse precision (inverse covariance) matrix from a released "
      "matrix, minimising -log det T + tr(S T) + rho sum |T_ij| with S = G / n. Prints the "
      "support size, iterations and KKT residual; -o writes the precision matrix (CSV or .npy) "
      "with a JSON sidecar. Post-processing: costs no privacy.");
  add_matrix_source_options(*command, options->source);
  command->add_option("-o,--output", options->output.path,
                      "Precision matrix: .csv or .npy, written atomically with OUTPUT.json "
                      "(default: printed)");
  command->add_option("--rho", options->rho, "Penalty rho >= 0, on the scale of S")->required();
  command->add_flag("--as-is", options->as_is,
                    "Use the matrix itself as S instead of G / n (it is already a covariance)");
  command->add_flag("--off-diagonal-only", options->off_diagonal_only,
                    "Do not penalise the diagonal (scikit-learn's objective; the default "
                    "penalises every entry, as R's glasso)");
  command
      ->add_option("--tol", options->tol,
                   "Stopping tolerance on the KKT residual, a finite number > 0 (default 1e-6)");
  command->add_option("--max-iter", options->max_iter, "Cap on the sweeps, >= 1 (default 1000)");
  command->add_flag("--json", options->json, "Print the results as JSON");
  add_centre_options(*command, options->centre);
  command->callback([&run, options] { run = [options] { run_glasso(*options); }; });
}

}  // namespace dpcov::cli
