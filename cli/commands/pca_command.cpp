#include "pca_command.hpp"

#include <algorithm>
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

// The components of a matrix, and what is known of their error.
struct Pca {
  LoadedMatrix release;  // as loaded
  LoadedMatrix drawn;    // centred as asked, the noise's mean included: the subspace bound's input
  LoadedMatrix m;        // centred as asked from the release minus its noise's mean
  bool mean_removed = false;  // the noise has a mean other than 0, removed in m
  int64_t k = 0;
  double trace = 0.0;
  // Of all d eigenvalues: the explained ratios' denominator (the positive ones' sum), how many
  // are negative and the smallest; and the columns whose (centred) variance reads negative.
  double positive_sum = 0.0, smallest = 0.0;
  int64_t negative = 0;
  std::vector<std::string> negative_variances;
  std::vector<double> values, vectors, ratio;  // k; d x k row-major; k
  SubspaceError error;
  // --compare: the other matrix and the distance between the two top-k subspaces.
  std::optional<LoadedMatrix> other;
  double sin_spectral = 0.0, sin_frobenius = 0.0;
  std::vector<double> angles;
};

Pca compute_pca(const PcaOptions &o) {
  Pca p;
  p.release = load_matrix(o.source);
  p.drawn = centre_as_asked(p.release, o.centre);
  const LoadedMatrix unbiased = noise_mean_removed(p.release);
  p.mean_removed = unbiased.values != p.release.values;
  p.m = centre_as_asked(unbiased, o.centre);
  const LoadedMatrix &m = p.m;
  const int64_t d = m.dim;
  const int64_t k = o.k == 0 ? std::min<int64_t>(d, 3) : o.k;
  if (k < 1 || k > d) fail(kExitUsage, "-k must be in [1, ", d, "] for ", m.path, ", got ", k);
  p.k = k;
  for (int64_t i = 0; i < d; ++i) {
    const double variance = m.values[static_cast<size_t>(i * d + i)];
    p.trace += variance;
    if (variance < 0.0) p.negative_variances.push_back(m.names[static_cast<size_t>(i)]);
  }
  // Every eigenpair once (d is a matrix's side, small), the top k kept. The explained-variance
  // ratios are those of the PSD projection of the matrix: in [0, 1].
  std::vector<double> vectors(static_cast<size_t>(d * d));
  p.values.resize(static_cast<size_t>(d));
  p.ratio.resize(static_cast<size_t>(d));
  library_check(dpcov_pca_top_k(DPCOV_ROW_MAJOR, d, m.values.data(), d, d, p.values.data(),
                                vectors.data(), d, p.ratio.data()),
                concat(m.path, ": principal components"));
  for (const double value : p.values) {
    p.positive_sum += std::max(value, 0.0);
    p.negative += value < 0.0 ? 1 : 0;
  }
  p.smallest = p.values.back();
  p.values.resize(static_cast<size_t>(k));
  p.ratio.resize(static_cast<size_t>(k));
  p.vectors.resize(static_cast<size_t>(d * k));
  for (int64_t i = 0; i < d; ++i)
    for (int64_t j = 0; j < k; ++j)
      p.vectors[static_cast<size_t>(i * k + j)] = vectors[static_cast<size_t>(i * d + j)];
  p.error = subspace_error(p.release, p.drawn, k, o.seed);
  p.angles.resize(static_cast<size_t>(k));
  if (!o.compare.empty()) {
    MatrixSource source;
    source.path = o.compare;
    p.other = load_matrix(source);
    // A centred release has lost its constant column, so it has the size of the uncentred Gram
    // of the same data; their subspaces are not comparable.
    const bool other_uncentred = p.other->receipt.is_object() &&
                                 p.other->receipt.value("command", nlohmann::ordered_json()) == "gram";
    if (m.centred && other_uncentred)
      fail(kExitUsage, o.compare, " is an uncentred Gram matrix (`dpcov gram`) but ", m.path,
           " was centred from its constant column, so their subspaces are not comparable: compare "
           "against the data's centred covariance (a d x d matrix with divisor n)");
    if (p.other->dim != d)
      fail(kExitInputData, o.compare, " is ", p.other->dim, " x ", p.other->dim, " but ", m.path,
           " is ", d, " x ", d);
    library_check(dpcov_pca_subspace_distance(DPCOV_ROW_MAJOR, d, m.values.data(), d,
                                              p.other->values.data(), d, k, &p.sin_spectral,
                                              &p.sin_frobenius, p.angles.data()),
                  concat(m.path, " against ", o.compare, ": subspace distance"));
  }
  return p;
}

// What the subspace bound is against after `release --bound auto`: the rows as clipped at the
// privately chosen B. The clipped rows' own effect is not in it.
constexpr const char *kClippedCoverage =
    "the bound is against the rows as clipped at the privately chosen bound (the receipt's "
    "bound_selection), not the unclipped data: rows above it moved the subspace by an amount it "
    "does not hold; aim further in the tail to make that small (release --bound-quantile 0.999, "
    "as Python's PrivatePCA(bound=\"auto\"), or --bound-clipped with a few rows)";

bool privately_bounded(const LoadedMatrix &release) {
  return release.receipt.is_object() && release.receipt.contains("bound_selection");
}

// What the subspace bound is against after `release --privacy-unit`: the rows each unit kept.
constexpr const char *kUnitCoverage =
    "the bound is against the rows the release kept (at most --max-rows-per-unit of each unit's "
    "rows, chosen at random), not every row of the data: the rows dropped per unit (the curator "
    "file's rows_truncated_by_max_rows_per_unit) moved the subspace by an amount it does not hold";

// The caveats of the subspace bound, one per line; empty when it covers the rows as bounded.
std::vector<std::string> coverage_caveats(const LoadedMatrix &release) {
  std::vector<std::string> out;
  if (privately_bounded(release)) out.emplace_back(kClippedCoverage);
  if (release.units) out.emplace_back(kUnitCoverage);
  return out;
}

std::string covers_json(const LoadedMatrix &release) {
  const std::vector<std::string> caveats = coverage_caveats(release);
  if (caveats.empty()) return "the rows as bounded for the release (no bound chosen privately)";
  std::string out;
  for (const std::string &caveat : caveats) out += (out.empty() ? "" : "; ") + caveat;
  return out;
}

void print_pca_json(const Pca &p, const PcaOptions &o) {
  const LoadedMatrix &m = p.m;
  const int64_t d = m.dim, k = p.k;
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
  out["trace"] = p.trace;
  out["eigenvalues"] = p.values;
  out["explained_ratio"] = p.ratio;
  out["positive_eigenvalue_sum"] = p.positive_sum;
  out["negative_eigenvalues"] = p.negative;
  out["smallest_eigenvalue"] = p.smallest;
  out["negative_variances"] = p.negative_variances;
  nlohmann::ordered_json loadings = nlohmann::ordered_json::object();
  for (int64_t i = 0; i < d; ++i) {
    std::vector<double> row(p.vectors.begin() + i * k, p.vectors.begin() + (i + 1) * k);
    loadings[m.names[static_cast<size_t>(i)]] = row;
  }
  out["eigenvectors"] = loadings;
  const SubspaceError &error = p.error;
  if (error.computed)
    out["subspace_error"] = {{"sin_theta_bound", error.bound}, {"noise_norm", error.noise_norm},
                             {"eigengap", error.gap}, {"noise_swamps_signal", error.swamped != 0},
                             {"plug_in", m.centred},
                             {"covers", covers_json(p.release)}};
  else if (!error.skipped.empty())
    out["subspace_error_skipped"] = error.skipped;
  if (p.other) {
    out["compare"] = {{"matrix", o.compare},
                      {"sin_theta_spectral", p.sin_spectral},
                      {"sin_theta_frobenius", p.sin_frobenius},
                      {"principal_angles_radians", p.angles}};
  }
  print_stdout(json_text(out));
}

// The eigenvalues with the explained ratios, and the subspace error bound.
std::string spectrum_text(const Pca &p) {
  const LoadedMatrix &m = p.m;
  const int64_t k = p.k;
  std::string text = concat("Top ", k, " principal components of ", m.path);
  if (!m.mechanism().empty()) text += concat(" (", m.mechanism(), ")");
  if (p.mean_removed) text += ", less the mean its mechanism's noise adds";
  text += concat(m.centred ? ", centred (covariance)" : ", uncentred (second moment)", ", trace ",
                 format_number(p.trace, 6), "\n\n");
  TextTable spectrum({"component", "eigenvalue", "explained", "cumulative"});
  double cumulative = 0.0;
  for (int64_t i = 0; i < k; ++i) {
    const double r = p.ratio[static_cast<size_t>(i)];
    cumulative += r;
    spectrum.add_row({concat("PC", i + 1), format_number(p.values[static_cast<size_t>(i)], 6),
                      format_number(r, 4), format_number(cumulative, 4)});
  }
  text += spectrum.render();
  text += concat("explained: max(eigenvalue, 0) over the sum of the positive eigenvalues, ",
                 format_number(p.positive_sum, 6), " (the ratios of the matrix projected onto the "
                 "PSD cone), in [0, 1]\n");
  if (p.negative > 0)
    text += concat("warning: ", p.negative, " of the ", m.dim, " eigenvalues are negative (the "
                   "smallest ", format_number(p.smallest, 6), "), so the trace is below their "
                   "positive sum: the privacy noise swamps the data in those directions\n");
  if (!p.negative_variances.empty()) {
    std::string names;
    for (const std::string &name : p.negative_variances) names += (names.empty() ? "" : ", ") + name;
    text += concat("warning: the ", m.centred ? "centred variance" : "second moment", " of ",
                   names, " reads negative: the privacy noise swamps ",
                   p.negative_variances.size() == 1 ? "that column" : "those columns", "\n");
  }
  const SubspaceError &error = p.error;
  if (error.computed) {
    text += concat("subspace error: ||sin Theta||_2 <= ", format_number(error.bound, 3),
                   " between this release's top ", k, " subspace and the data's, with probability "
                   "about 0.95 (Davis-Kahan; eigengap ", format_number(error.gap, 4),
                   ", noise norm ", format_number(error.noise_norm, 4),
                   m.centred ? "; plug-in: the noise norm of the centring is simulated at the "
                               "release" : "", ")\n");
    for (const std::string &caveat : coverage_caveats(p.release))
      text += concat("covers: ", caveat, "\n");
    if (error.swamped)
      text += "warning: the privacy noise swamps the signal (the eigengap is below twice the "
              "noise norm): these components may be arbitrary.\n";
  } else if (!error.skipped.empty()) {
    text += concat("subspace error: not computed: ", error.skipped, "\n");
  }
  return text;
}

void print_pca_text(const Pca &p, const PcaOptions &o) {
  const LoadedMatrix &m = p.m;
  const int64_t d = m.dim, k = p.k;
  std::string text = spectrum_text(p);
  std::vector<std::string> header{"loadings"};
  for (int64_t i = 0; i < k; ++i) header.push_back(concat("PC", i + 1));
  TextTable loadings(header);
  for (int64_t i = 0; i < d; ++i) {
    std::vector<std::string> row{m.names[static_cast<size_t>(i)]};
    for (int64_t j = 0; j < k; ++j)
      row.push_back(format_number(p.vectors[static_cast<size_t>(i * k + j)], 3));
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
  if (p.other) {
    text += concat("\nTop-", k, " subspace against ", o.compare, ":\n", "  sin theta (spectral)   ",
                   format_number(p.sin_spectral, 6), "\n  sin theta (Frobenius)  ",
                   format_number(p.sin_frobenius, 6), "\n  principal angles (deg) ");
    for (int64_t i = 0; i < k; ++i)
      text += (i ? ", " : "") + format_number(p.angles[static_cast<size_t>(i)] * 180.0 / std::numbers::pi, 4);
    text += "\n";
  }
  print_stdout(text);
}

void run_pca(const PcaOptions &o) {
  const Pca p = compute_pca(o);
  if (o.json)
    print_pca_json(p, o);
  else
    print_pca_text(p, o);
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
