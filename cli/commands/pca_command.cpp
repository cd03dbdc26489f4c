#include "pca_command.hpp"

#include <cmath>
#include <numbers>
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
#include "../options/rng_option.hpp"

namespace dpcov::cli {

namespace {

struct PcaOptions {
  MatrixSource source;
  int64_t k = 0;
  std::string compare;
  bool json = false;
  CentreOptions centre;
  std::optional<uint64_t> seed;  // of the simulated noise-norm quantile (default: OS entropy)
};

// How far the released top-k subspace can be from the data's (Davis-Kahan with the noise's
// spectral-norm quantile), for a release whose mechanism has a known noise law; `skipped` says
// why there is none when the reason is worth telling.
struct SubspaceError {
  bool computed = false;
  double bound = 0.0, noise_norm = 0.0, gap = 0.0;
  int32_t swamped = 0;
  std::string skipped;
};

SubspaceError subspace_error(const LoadedMatrix &release, const LoadedMatrix &m, int64_t k,
                             const std::optional<uint64_t> &seed) {
  SubspaceError error;
  const std::optional<dpcov_receipt> receipt = noise_receipt(release);
  if (!receipt || !m.is_private_release() || k >= m.dim) return error;
  // The noise law is that of the release as drawn, in the units it was drawn in.
  if (release.receipt.is_object() && release.receipt.contains("scaling")) {
    error.skipped = "the release was mapped to the data's units (per-column scaling), which "
                    "changes the subspace; the bound holds only in the units of the noise";
    return error;
  }
  // The quantile is simulated: with --seed every draw comes from the seeded generator, so a
  // seeded run prints the same bound every time.
  const RngHandle owner = make_rng(seed);
  dpcov_rng *rng = owner.get();
  // The centred matrix's bound comes from the (d + 1) x (d + 1) release it was centred from.
  const dpcov_status status =
      m.centred ? dpcov_pca_centred_subspace_error_bound(
                      DPCOV_ROW_MAJOR, release.dim, release.values.data(), release.dim,
                      &*receipt, m.constant_column, m.constant, release.rows.value_or(0), k, 0.95, 200,
                      rng, &error.noise_norm, &error.gap, &error.bound, &error.swamped)
                : dpcov_pca_subspace_error_bound(DPCOV_ROW_MAJOR, m.dim, m.values.data(), m.dim,
                                                 &*receipt, k, 0.95, 200, rng, &error.noise_norm,
                                                 &error.gap, &error.bound, &error.swamped);
  if (status == DPCOV_E_PRECONDITION) {
    error.skipped = dpcov_last_error_message();
  } else if (status != DPCOV_E_INVALID_ARGUMENT) {
    library_check(status, concat(m.path, ": subspace error bound"));
    error.computed = true;
  }
  return error;
}

void run_pca(const PcaOptions &o) {
  const LoadedMatrix release = load_matrix(o.source);
  const LoadedMatrix m = centre_as_asked(release, o.centre);
  const int64_t d = m.dim;
  const int64_t k = o.k == 0 ? std::min<int64_t>(d, 3) : o.k;
  if (k < 1 || k > d) fail(kExitUsage, "-k must be in [1, ", d, "] for ", m.path, ", got ", k);

  double trace = 0.0;
  for (int64_t i = 0; i < d; ++i) trace += m.values[static_cast<size_t>(i * d + i)];
  std::vector<double> values(static_cast<size_t>(k));
  std::vector<double> vectors(static_cast<size_t>(d * k));
  std::vector<double> ratio(static_cast<size_t>(k));
  // The explained-variance ratios are those of the PSD projection of the matrix: in [0, 1].
  library_check(dpcov_pca_top_k(DPCOV_ROW_MAJOR, d, m.values.data(), d, k, values.data(),
                                vectors.data(), k, ratio.data()),
                concat(m.path, ": principal components"));

  const SubspaceError error = subspace_error(release, m, k, o.seed);

  std::optional<LoadedMatrix> other;
  double sin_spectral = 0.0;
  double sin_frobenius = 0.0;
  std::vector<double> angles(static_cast<size_t>(k));
  if (!o.compare.empty()) {
    MatrixSource source;
    source.path = o.compare;
    other = load_matrix(source);
    if (other->dim != d)
      fail(kExitInputData, o.compare, " is ", other->dim, " x ", other->dim, " but ", m.path,
           " is ", d, " x ", d);
    library_check(dpcov_pca_subspace_distance(DPCOV_ROW_MAJOR, d, m.values.data(), d,
                                              other->values.data(), d, k, &sin_spectral,
                                              &sin_frobenius, angles.data()),
                  concat(m.path, " against ", o.compare, ": subspace distance"));
  }

  if (o.json) {
    nlohmann::ordered_json out;
    out["command"] = "pca";
    out["matrix"] = m.path;
    out["mechanism"] = m.mechanism();
    out["k"] = k;
    if (m.centred) {
      out["centred"] = true;
      nlohmann::ordered_json mean = nlohmann::ordered_json::object();
      for (int64_t i = 0; i < d; ++i) mean[m.names[static_cast<size_t>(i)]] = m.mean[static_cast<size_t>(i)];
      out["mean"] = mean;
    }
    out["trace"] = trace;
    out["eigenvalues"] = values;
    out["explained_ratio"] = ratio;
    nlohmann::ordered_json loadings = nlohmann::ordered_json::object();
    for (int64_t i = 0; i < d; ++i) {
      std::vector<double> row(vectors.begin() + i * k, vectors.begin() + (i + 1) * k);
      loadings[m.names[static_cast<size_t>(i)]] = row;
    }
    out["eigenvectors"] = loadings;
    if (error.computed)
      out["subspace_error"] = {{"sin_theta_bound", error.bound}, {"noise_norm", error.noise_norm},
                               {"eigengap", error.gap}, {"noise_swamps_signal", error.swamped != 0},
                               {"plug_in", m.centred}};
    else if (!error.skipped.empty())
      out["subspace_error_skipped"] = error.skipped;
    if (other) {
      out["compare"] = {{"matrix", o.compare},
                        {"sin_theta_spectral", sin_spectral},
                        {"sin_theta_frobenius", sin_frobenius},
                        {"principal_angles_radians", angles}};
    }
    print_stdout(json_text(out));
    return;
  }

  std::string text = concat("Top ", k, " principal components of ", m.path);
  if (!m.mechanism().empty()) text += concat(" (", m.mechanism(), ")");
  text += concat(m.centred ? ", centred (covariance)" : ", uncentred (second moment)", ", trace ",
                 format_number(trace, 6), "\n\n");
  TextTable spectrum({"component", "eigenvalue", "explained", "cumulative"});
  double cumulative = 0.0;
  for (int64_t i = 0; i < k; ++i) {
    const double r = ratio[static_cast<size_t>(i)];
    cumulative += r;
    spectrum.add_row({concat("PC", i + 1), format_number(values[static_cast<size_t>(i)], 6),
                      format_number(r, 4), format_number(cumulative, 4)});
  }
  text += spectrum.render();
  text += "explained: max(eigenvalue, 0) over the sum of the positive eigenvalues (the ratios of "
          "the matrix projected onto the PSD cone), in [0, 1]\n";
  if (error.computed) {
    text += concat("subspace error: ||sin Theta||_2 <= ", format_number(error.bound, 3),
                   " between this release's top ", k, " subspace and the data's, with probability "
                   "about 0.95 (Davis-Kahan; eigengap ", format_number(error.gap, 4),
                   ", noise norm ", format_number(error.noise_norm, 4),
                   m.centred ? "; plug-in: the noise norm of the centring is simulated at the "
                               "release" : "", ")\n");
    if (error.swamped)
      text += "warning: the privacy noise swamps the signal (the eigengap is below twice the "
              "noise norm): these components may be arbitrary.\n";
  } else if (!error.skipped.empty()) {
    text += concat("subspace error: not computed: ", error.skipped, "\n");
  }
  std::vector<std::string> header{"loadings"};
  for (int64_t i = 0; i < k; ++i) header.push_back(concat("PC", i + 1));
  TextTable loadings(header);
  for (int64_t i = 0; i < d; ++i) {
    std::vector<std::string> row{m.names[static_cast<size_t>(i)]};
    for (int64_t j = 0; j < k; ++j)
      row.push_back(format_number(vectors[static_cast<size_t>(i * k + j)], 3));
    loadings.add_row(row);
  }
  text += "\n" + loadings.render();
  if (m.centred) {
    std::string means;
    for (int64_t i = 0; i < d; ++i)
      means += concat(i ? ", " : "", m.names[static_cast<size_t>(i)], " ",
                      format_number(m.mean[static_cast<size_t>(i)], 6));
    text += concat("mean: ", means, "\ncentred from the release's constant column "
                   "(post-processing; error terms: proofs/centring.md)\n");
  }
  if (other) {
    text += concat("\nTop-", k, " subspace against ", o.compare, ":\n", "  sin theta (spectral)   ",
                   format_number(sin_spectral, 6), "\n  sin theta (Frobenius)  ",
                   format_number(sin_frobenius, 6), "\n  principal angles (deg) ");
    for (int64_t i = 0; i < k; ++i)
      text += (i ? ", " : "") + format_number(angles[static_cast<size_t>(i)] * 180.0 / std::numbers::pi, 4);
    text += "\n";
  }
  print_stdout(text);
}

}  // namespace

void add_pca_command(CLI::App &app, std::function<void()> &run) {
  auto options = std::make_shared<PcaOptions>();
  CLI::App *command = app.add_subcommand(
      "pca",
      "Top-k eigenvalues and eigenvectors of a released matrix with the fraction of the trace "
      "each explains; --compare gives the sin-theta distance and principal angles between the "
      "top-k subspaces of two matrices. Post-processing: costs no privacy.");
  add_matrix_source_options(*command, options->source);
  command->add_option("-k,--components", options->k, "Number of components, 1..d (default min(d, 3))")
      ->check(CLI::PositiveNumber);
  command->add_option("--compare", options->compare,
                      "Another d x d matrix (e.g. the exact Gram from `dpcov gram`) to compare "
                      "top-k subspaces with");
  command->add_flag("--json", options->json, "Print the results as JSON");
  command->add_option("--seed", options->seed,
                      "Seed of the simulated noise-norm quantile of the subspace error bound "
                      "(default: OS entropy); costs no privacy");
  add_centre_options(*command, options->centre);
  command->callback([&run, options] { run = [options] { run_pca(*options); }; });
}

}  // namespace dpcov::cli
