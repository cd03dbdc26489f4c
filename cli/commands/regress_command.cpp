#include "regress_command.hpp"

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
#include "../options/column_bounds_option.hpp"
#include "../options/constant_column_option.hpp"
#include "../library_status.hpp"
#include "regress_raw.hpp"

namespace dpcov::cli {

namespace {

struct RegressOptions {
  MatrixSource source;
  RawRegressOptions raw;  // --epsilon: MATRIX is raw data rows, fitted privately
  std::string label;
  std::vector<std::string> features;
  std::string intercept;
  double ridge = 0.0;
  double level = 0.95;
  bool json = false;
  bool plug_in = false;          // also print the table that treats the release as exact data
  int64_t bootstrap = 999;       // draws of the noise-aware intervals
  std::optional<uint64_t> seed;  // of the bootstrap generator (default: OS entropy)
};

// Noise-aware intervals of the OLS coefficients by parametric bootstrap
// (dpcov_ols_bootstrap_intervals): computed for a release whose mechanism has a known noise law.
// `refusal` says why there are none.
struct NoiseAware {
  bool computed = false;
  std::string refusal;
  std::vector<double> coef, se, p, lower, upper;
  double noise_norm = 0.0, kappa = 0.0;
};

NoiseAware noise_aware_intervals(const LoadedMatrix &m, const std::vector<double> &g,
                                 int64_t label, const std::vector<int64_t> &features,
                                 dpcov_regression_params params, size_t size,
                                 const RegressOptions &o) {
  NoiseAware out;
  const std::optional<dpcov_receipt> receipt = noise_receipt(m);
  if (!receipt) {
    out.refusal = concat("the receipt names no mechanism of this library ('", m.mechanism(), "')");
    return out;
  }
  params.ridge = 0.0;
  dpcov_rng *rng = nullptr;
  library_check(o.seed ? dpcov_rng_create_seeded(&rng, *o.seed, 0)
                       : dpcov_rng_create_from_entropy(&rng),
                "bootstrap generator");
  std::unique_ptr<dpcov_rng *, void (*)(dpcov_rng **)> owner(&rng, dpcov_rng_destroy);
  for (auto *v : {&out.coef, &out.se, &out.p, &out.lower, &out.upper}) v->resize(size);
  const dpcov_status status = dpcov_ols_bootstrap_intervals(
      DPCOV_ROW_MAJOR, m.dim, g.data(), m.dim, &*receipt, label, features.data(),
      static_cast<int64_t>(features.size()), &params, o.bootstrap, rng, out.coef.data(),
      out.se.data(), out.p.data(), out.lower.data(), out.upper.data(), &out.noise_norm,
      &out.kappa);
  if (status == DPCOV_E_PRECONDITION ||
      (status == DPCOV_E_INVALID_ARGUMENT &&
       std::string(dpcov_last_error_message()).find("no noise-aware") != std::string::npos)) {
    out.refusal = dpcov_last_error_message();
    return out;
  }
  library_check(status, concat(m.path, ": noise-aware intervals"));
  out.computed = true;
  return out;
}

// Intervals that account for the privacy noise of an Analyze Gauss release
// (dpcov_ols_analyze_gauss_intervals; proofs/ols_analyze_gauss.md), for the OLS coefficients (no
// ridge, whatever --ridge says): computed when the matrix is one. `refusal` says why there are none
// when the noise is too large.
struct Guaranteed {
  bool computed = false;
  std::string refusal;
  std::vector<double> lower, upper;
  std::vector<int32_t> reject;
  double eta = 0.0, kappa = 0.0;
};

Guaranteed guaranteed_intervals(const LoadedMatrix &m, const std::vector<double> &g,
                                int64_t label, const std::vector<int64_t> &features,
                                dpcov_regression_params params, size_t size) {
  Guaranteed out;
  if (m.mechanism() != "analyze_gauss" || !m.receipt.contains("sigma")) return out;
  params.ridge = 0.0;
  out.lower.resize(size);
  out.upper.resize(size);
  out.reject.resize(size);
  std::vector<double> coef(size);
  const dpcov_status status = dpcov_ols_analyze_gauss_intervals(
      DPCOV_ROW_MAJOR, m.dim, g.data(), m.dim, m.receipt["sigma"].get<double>(), *m.rows, label,
      features.data(), static_cast<int64_t>(features.size()), &params, coef.data(),
      out.lower.data(), out.upper.data(), nullptr, nullptr, out.reject.data(), &out.eta,
      &out.kappa);
  if (status == DPCOV_E_PRECONDITION) {
    out.refusal = dpcov_last_error_message();
    return out;
  }
  library_check(status, concat(m.path, ": guaranteed intervals"));
  out.computed = true;
  return out;
}

// A `release --bounds` matrix is the second moment of [1, x] in the data's units, but its noise was
// added to that of the scaled rows [1, z] (proofs/column_bounds.md). The regression runs there,
// where the noise law is the mechanism's, and the coefficients are mapped back: with
// x_j = c_j + h_j z_j, a slope b_j on z_j is h_y b_j / h_j on x_j (its interval and standard error
// scale alike, its t and p do not change), and the intercept is c_y + h_y a - sum_j b_j c_j. That
// intercept combines every coefficient, so its interval is not a map of the others: not given.
struct UnitMap {
  bool active = false;
  std::vector<double> centre, half;  // per matrix column; the constant column has (0, 1)
};

UnitMap unit_map(const LoadedMatrix &m, std::vector<double> &g) {
  UnitMap map;
  if (!m.receipt.is_object() || !m.receipt.contains("scaling")) return map;
  const ColumnBounds bounds = column_bounds_from_receipt(m.receipt["scaling"], m.receipt_path);
  const int64_t d = static_cast<int64_t>(bounds.lower.size());
  if (d + 1 != m.dim)
    fail(kExitInputData, m.receipt_path, ": the scaling has ", d, " columns, the matrix ", m.dim);
  library_check(dpcov_column_bounds_transform(d, bounds.lower.data(), bounds.upper.data(),
                                              DPCOV_UNITS_SCALED, DPCOV_ROW_MAJOR, m.values.data(),
                                              m.dim, g.data(), m.dim),
                concat(m.path, ": mapping to the scaled units"));
  map.active = true;
  map.centre.push_back(0.0);
  map.half.push_back(1.0);
  for (int64_t j = 0; j < d; ++j) {
    map.centre.push_back(bounds.lower[static_cast<size_t>(j)] / 2 + bounds.upper[static_cast<size_t>(j)] / 2);
    map.half.push_back(bounds.upper[static_cast<size_t>(j)] / 2 - bounds.lower[static_cast<size_t>(j)] / 2);
  }
  return map;
}

// Maps coefficients fitted in the scaled units to the data's (terms: the intercept first, then
// `features`). `spread` holds per-term quantities that scale with the slope (standard errors,
// interval ends); `invariant` those that do not (t, p). The intercept's are set to NaN.
void to_user_units(const UnitMap &map, int64_t label, bool intercept,
                   const std::vector<int64_t> &features, std::vector<double> &coef,
                   std::initializer_list<std::vector<double> *> spread,
                   std::initializer_list<std::vector<double> *> invariant) {
  if (!map.active || coef.empty()) return;
  const size_t first = intercept ? 1 : 0;
  const double hy = map.half[static_cast<size_t>(label)];
  double shift = 0.0;
  for (size_t i = 0; i < features.size(); ++i) {
    const auto j = static_cast<size_t>(features[i]);
    const double factor = hy / map.half[j];
    coef[first + i] *= factor;
    for (auto *v : spread) (*v)[first + i] *= factor;
    shift += coef[first + i] * map.centre[j];
  }
  if (!intercept) return;
  coef[0] = map.centre[static_cast<size_t>(label)] + hy * coef[0] - shift;
  for (auto *v : spread) (*v)[0] = NAN;
  for (auto *v : invariant) (*v)[0] = NAN;
}

// A `release --add-constant` matrix's constant column held B, not 1: the coefficient fitted on it
// is the intercept divided by B. Multiplies the intercept's entries (terms[0]) by B, which puts
// them in the label's units (t and p do not change). Returns B, or 1 for any other intercept.
double intercept_in_label_units(const LoadedMatrix &m, int64_t intercept,
                                std::initializer_list<std::vector<double> *> spread) {
  const ReceiptConstant recorded = receipt_constant(m.receipt, m.receipt_path);
  if (intercept < 0 || !recorded.found || recorded.name != m.names[static_cast<size_t>(intercept)])
    return 1.0;
  for (auto *v : spread)
    if (!v->empty()) v->front() *= recorded.value;
  return recorded.value;
}

// What the matrix's origin means for the inference printed with it.
std::string provenance_note(const LoadedMatrix &m) {
  if (m.mechanism() == "ols_jl")
    return "note: an ols_jl release: the intervals are exact (Student t) about the data's OLS "
           "estimate (Sheffet 2017, Alg. 1), not about the model's coefficients.";
  if (m.is_private_release())
    return "note: the standard errors, p-values and intervals treat the released matrix as exact "
           "data; they do not account for the privacy noise (see `dpcov compare` for its size).";
  if (m.receipt.is_object() && m.receipt.value("command", "") == "gram")
    return "note: this matrix is an exact Gram matrix: the results are NOT private.";
  return "note: no receipt: the origin of the matrix, and whether it is private, are unknown.";
}

void run_regress(const RegressOptions &o) {
  LoadedMatrix m = load_matrix(o.source);
  const int64_t d = m.dim;
  const int64_t label = resolve_column(m.names, o.label, "--label");
  int64_t intercept = -1;
  if (!o.intercept.empty()) intercept = resolve_column(m.names, o.intercept, "--intercept");
  std::vector<int64_t> features;
  if (o.features.empty()) {
    for (int64_t j = 0; j < d; ++j)
      if (j != label && j != intercept) features.push_back(j);
  } else {
    for (const auto &spec : o.features) features.push_back(resolve_column(m.names, spec, "--features"));
  }
  // Under add/remove the receipt withholds n; the intercept column the receipt records as
  // constant (value c) holds the released count S_cc / c^2, which is post-processing (as
  // Python's PrivateLinearRegression).
  std::string n_source;
  if (!m.rows && intercept >= 0) {
    const ReceiptConstant recorded = receipt_constant(m.receipt, m.receipt_path);
    if (recorded.found && recorded.name == m.names[static_cast<size_t>(intercept)]) {
      const double count = m.values[static_cast<size_t>(intercept * d + intercept)] /
                           (recorded.value * recorded.value);
      if (!(count >= 1.0) || !std::isfinite(count))
        fail(kExitPrivacy, m.path, ": the released count of column '", recorded.name,
             "' (its entry over its value squared) is below 1: the release is too noisy for a "
             "regression");
      m.rows = std::llround(count);
      n_source = concat(" (the released count of column '", recorded.name, "')");
    }
  }
  if (!m.rows)
    fail(kExitUsage, m.path,
         ": the number of rows n is unknown (no receipt beside it, or n is private under "
         "add/remove and the receipt withholds it): pass --rows only with a public n, or "
         "--intercept naming the receipt's constant column (its released count is used)");
  int64_t n = *m.rows;

  // ols_jl releases S^T S / r for an r-row projection S of the data: the regression on S has
  // r - p residual degrees of freedom (Sheffet 2017, Alg. 1), so G is rescaled to S^T S.
  std::vector<double> g = m.values;
  const UnitMap units = unit_map(m, g);
  if (units.active && (intercept != 0 || label == 0))
    fail(kExitUsage, m.path, ": a `release --bounds` matrix is regressed with --intercept ",
         m.names.front(), " (its scaling is affine, so a model without the intercept changes "
         "meaning) and a data column as --label");
  std::string dof_source = "n";
  if (m.mechanism() == "ols_jl" && m.receipt.contains("projection_rows")) {
    n = m.receipt["projection_rows"].get<int64_t>();
    for (double &x : g) x *= static_cast<double>(n);
    dof_source = "r (projection rows)";
  }

  dpcov_regression_params params{};
  library_check(dpcov_regression_params_default(&params), "regression defaults");
  params.intercept_column = intercept;
  params.ridge = o.ridge;
  params.level = o.level;
  const int64_t p = static_cast<int64_t>(features.size()) + (intercept >= 0 ? 1 : 0);
  const auto size = static_cast<size_t>(p > 0 ? p : 1);
  std::vector<std::string> terms;
  if (intercept >= 0) terms.push_back(m.names[static_cast<size_t>(intercept)]);
  for (int64_t j : features) terms.push_back(m.names[static_cast<size_t>(j)]);
  const double alpha = 1.0 - o.level;
  const std::string level_pct = format_number(100.0 * alpha, 3) + "%";

  // A private release (ols_jl aside, whose table is Sheffet's exact inference on the projection)
  // gets the noise-aware intervals; the table that treats it as exact data only on request.
  const bool release = m.is_private_release() && m.mechanism() != "ols_jl";
  const bool classical = !release || o.plug_in;
  std::vector<double> coef(size), se(size), t(size), pv(size), lo(size), hi(size);
  dpcov_regression_summary summary{};
  summary.struct_size = sizeof summary;
  if (classical) {
    const dpcov_status status = dpcov_regression_fit(
        DPCOV_ROW_MAJOR, d, g.data(), d, n, label, features.data(),
        static_cast<int64_t>(features.size()), &params, coef.data(), se.data(), t.data(),
        pv.data(), lo.data(), hi.data(), &summary);
    if (status == DPCOV_E_NOT_POSITIVE_DEFINITE)
      library_fail(status, concat(m.path, ": regression"),
                   concat(dpcov_last_error_message(),
                          o.ridge > 0 ? concat(" (that penalty is added to the current --ridge ",
                                               o.ridge, ")")
                                      : std::string()));
    library_check(status, concat(m.path, ": regression"));
  }
  std::vector<bool> reject(size);
  for (size_t i = 0; i < terms.size(); ++i) reject[i] = pv[i] < alpha;
  NoiseAware aware;
  Guaranteed sure;
  if (release) {
    aware = noise_aware_intervals(m, g, label, features, params, size, o);
    sure = guaranteed_intervals(m, g, label, features, params, size);
  }
  if (units.active) {
    to_user_units(units, label, true, features, coef, {&se, &lo, &hi}, {&t, &pv});
    const double hy = units.half[static_cast<size_t>(label)];
    summary.rss *= hy * hy;
    summary.residual_variance *= hy * hy;
    to_user_units(units, label, true, features, aware.coef, {&aware.se, &aware.lower, &aware.upper},
                  {&aware.p});
    if (sure.computed) {
      std::vector<double> sure_coef(size, 0.0);  // only the interval ends are reported
      to_user_units(units, label, true, features, sure_coef, {&sure.lower, &sure.upper}, {});
      sure.reject[0] = 0;
    }
  }
  const double intercept_constant =
      units.active ? 1.0
                   : intercept_in_label_units(m, intercept,
                                              {&coef, &se, &lo, &hi, &aware.coef, &aware.se,
                                               &aware.lower, &aware.upper, &sure.lower,
                                               &sure.upper});
  const char *plug_in_label = "plug-in: treats the release as exact data";
  const auto sign = [](double lower, double upper) {
    return lower > 0.0 ? "+" : upper < 0.0 ? "-" : "unclear";
  };

  if (o.json) {
    nlohmann::ordered_json out;
    out["command"] = "regress";
    out["matrix"] = m.path;
    out["receipt"] = m.receipt_path.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(m.receipt_path);
    out["mechanism"] = m.mechanism();
    out["label"] = m.names[static_cast<size_t>(label)];
    out["intercept"] = intercept >= 0 ? nlohmann::ordered_json(terms.front()) : nlohmann::ordered_json();
    if (intercept_constant != 1.0) out["intercept_constant"] = intercept_constant;
    out["n"] = *m.rows;
    if (!n_source.empty()) out["n_released_count"] = true;
    out["ridge"] = o.ridge;
    out["level"] = o.level;
    if (release) {
      if (aware.computed) {
        nlohmann::ordered_json rows = nlohmann::ordered_json::array();
        for (size_t i = 0; i < terms.size(); ++i)
          rows.push_back({{"term", terms[i]}, {"coef", aware.coef[i]}, {"std_error", aware.se[i]},
                          {"p", aware.p[i]}, {"ci_lower", aware.lower[i]},
                          {"ci_upper", aware.upper[i]},
                          {"sign", sign(aware.lower[i], aware.upper[i])}});
        out["noise_aware"] = {{"method", "parametric bootstrap"}, {"draws", o.bootstrap},
                              {"noise_norm", aware.noise_norm}, {"kappa", aware.kappa},
                              {"coefficients", rows}};
      } else {
        out["noise_aware"] = {{"refused", aware.refusal}};
      }
    }
    if (classical) {
      out["dof"] = summary.dof;
      out["rss"] = summary.rss;
      out["residual_variance"] = summary.residual_variance;
      out["t_critical"] = summary.t_critical;
      out["rss_clamped"] = summary.rss_clamped != 0;
      nlohmann::ordered_json rows = nlohmann::ordered_json::array();
      for (size_t i = 0; i < terms.size(); ++i) {
        nlohmann::ordered_json row = {{"term", terms[i]}, {"coef", coef[i]}, {"std_error", se[i]},
                                      {"t", t[i]}, {"p", pv[i]}, {"ci_lower", lo[i]},
                                      {"ci_upper", hi[i]}};
        if (release)
          row["basis"] = plug_in_label;
        else
          row["reject"] = static_cast<bool>(reject[i]);
        rows.push_back(row);
      }
      out[release ? "plug_in" : "coefficients"] = rows;
    }
    if (sure.computed) {
      nlohmann::ordered_json intervals = nlohmann::ordered_json::array();
      for (size_t i = 0; i < terms.size(); ++i)
        intervals.push_back({{"term", terms[i]}, {"ci_lower", sure.lower[i]},
                             {"ci_upper", sure.upper[i]}, {"reject", sure.reject[i] != 0}});
      out["guaranteed"] = {{"noise_norm_bound", sure.eta}, {"kappa", sure.kappa},
                           {"intervals", intervals}};
    } else if (!sure.refusal.empty()) {
      out["guaranteed"] = {{"refused", sure.refusal}};
    }
    print_stdout(json_text(out));
    return;
  }

  std::string text = concat("Regression of ", m.names[static_cast<size_t>(label)], " on ",
                            terms.size(), " term", terms.size() == 1 ? "" : "s", " from ", m.path);
  if (!m.mechanism().empty()) text += concat(" (", m.mechanism(), ")");
  text += concat("\n", "n = ", *m.rows, n_source, ", level = ", o.level);
  if (classical) text += concat(", residual dof = ", summary.dof, " (from ", dof_source, "), ridge = ", o.ridge);
  text += "\n\n";
  if (release) {
    if (aware.computed) {
      text += concat("Intervals that account for the sampling and the privacy noise (parametric "
                     "bootstrap, ", o.bootstrap, " draws; coverage measured, README \"Benchmarks\"), "
                     "noise norm ", format_number(aware.noise_norm), ", kappa ",
                     format_number(aware.kappa, 3), ":\n\n");
      TextTable table({"term", "coef", "std.err", "p", "ci.lower", "ci.upper",
                       "sign (" + format_number(100.0 * o.level, 3) + "% CI)"});
      for (size_t i = 0; i < terms.size(); ++i)
        table.add_row({terms[i], format_number(aware.coef[i]), format_number(aware.se[i]),
                       format_number(aware.p[i], 3), format_number(aware.lower[i]),
                       format_number(aware.upper[i]), sign(aware.lower[i], aware.upper[i])});
      text += table.render();
      text += "sign: '+' or '-' when the interval excludes 0; 'unclear': the data cannot tell.\n";
    } else {
      text += concat("Intervals that account for the privacy noise: none: ", aware.refusal,
                     ".\nAt n = ", *m.rows, " this release cannot support a conclusion about any "
                     "coefficient.\n");
    }
  }
  if (classical) {
    if (release)
      text += concat("\nPlug-in table (", plug_in_label, "; it ignores the privacy noise, so its "
                     "errors, p-values and intervals are too small):\n\n");
    std::vector<std::string> header = {"term", "coef", "std.err", "t", "p", "ci.lower", "ci.upper"};
    header.push_back(release ? "basis" : "reject H0 at " + level_pct);
    TextTable table(header);
    for (size_t i = 0; i < terms.size(); ++i)
      table.add_row({terms[i], format_number(coef[i]), format_number(se[i]), format_number(t[i]),
                     format_number(pv[i], 3), format_number(lo[i]), format_number(hi[i]),
                     release ? std::string("plug-in (release as exact)")
                             : std::string(reject[i] ? "yes" : "no")});
    text += table.render();
    text += concat("\nresidual variance ", format_number(summary.residual_variance), ", t critical ",
                   format_number(summary.t_critical), "\n");
    if (summary.rss_clamped)
      text += "warning: the residual sum of squares was negative (the release is indefinite) and "
              "was clamped to 0: the standard errors are 0.\n";
  } else if (release) {
    text += "(--plug-in also prints the table that treats the release as exact data.)\n";
  }
  if (units.active)
    text += "units: the data's (a `release --bounds`): fitted in the scaled units, where the "
            "noise was added, and mapped back; the intercept's interval is not available (nan).\n";
  else if (intercept >= 0 && intercept_constant != 1.0)
    text += concat("intercept: column '", terms.front(), "' held ", format_number(intercept_constant),
                   " in every row (`release --add-constant`); its coefficient, error and interval "
                   "are multiplied by it: the intercept in the label's units.\n");
  else if (intercept >= 0)
    text += concat("intercept: column '", terms.front(), "' must hold the same constant c in every "
                   "data row; its coefficient is the intercept divided by c.\n");
  if (!release) text += provenance_note(m) + "\n";
  if (sure.computed) {
    text += concat("\nGuaranteed intervals for the OLS coefficients (cover the model's "
                   "coefficients with probability >= ", o.level,
                   "; proofs/ols_analyze_gauss.md), noise bound ",
                   format_number(sure.eta), ", kappa ", format_number(sure.kappa, 3), ":\n\n");
    TextTable guaranteed({"term", "ci.lower", "ci.upper", "reject H0 at " + level_pct});
    for (size_t i = 0; i < terms.size(); ++i)
      guaranteed.add_row({terms[i], format_number(sure.lower[i]), format_number(sure.upper[i]),
                          sure.reject[i] ? "yes" : "no"});
    text += guaranteed.render();
  } else if (!sure.refusal.empty()) {
    text += concat("\nGuaranteed intervals for the OLS coefficients: ", sure.refusal, "\n");
  }
  print_stdout(text);
}

}  // namespace

void add_regress_command(CLI::App &app, std::function<void()> &run) {
  auto options = std::make_shared<RegressOptions>();
  CLI::App *command = app.add_subcommand(
      "regress",
      "Least squares (or ridge) regression from a released second-moment matrix G = A^T A: "
      "coefficients, standard errors, t-values, p-values, confidence intervals and the test of "
      "each coefficient = 0. Post-processing: costs no privacy.");
  add_matrix_source_options(*command, options->source);
  command->add_option("--label,-y", options->label, "Response column: name or 1-based number")
      ->required();
  command
      ->add_option("--features,-x", options->features,
                   "Feature columns, comma-separated names or numbers (default: every column but "
                   "the label and the intercept)")
      ->delimiter(',')
      ->type_name("LIST");
  command->add_option("--intercept", options->intercept,
                      "Column that held a constant (e.g. 1) in every data row before the "
                      "release: it becomes the unpenalised intercept (default: no intercept)");
  command->add_option("--ridge", options->ridge,
                      "Ridge penalty lambda >= 0 added to the features' diagonal (default 0)");
  command->add_option("--level", options->level,
                      "Confidence level of the intervals, in (0, 1) (default 0.95); H0 is "
                      "rejected when p < 1 - level");
  command->add_flag("--json", options->json, "Print the table as JSON");
  command->add_flag("--plug-in", options->plug_in,
                    "For a private release, also print the table that treats the release as "
                    "exact data (ignores the privacy noise; labelled on every line)");
  command->add_option("--bootstrap", options->bootstrap,
                      "Draws of the noise-aware intervals of a private release (default 999)");
  command->add_option("--seed", options->seed,
                      "Seed of the bootstrap draws (default: OS entropy); costs no privacy");
  add_raw_regress_options(*command, options->raw);
  command->callback([&run, options] {
    run = [options] {
      if (options->raw.requested()) {
        RawRegressOptions raw = options->raw;
        raw.level = options->level;
        raw.bootstrap = options->bootstrap;
        raw.bootstrap_seed = options->seed;
        run_regress_raw(options->source.path, options->label, options->features,
                        options->intercept, options->json, raw);
      }
      else if (!options->raw.ledger.path.empty())
        fail(kExitUsage, "--ledger charges a fit on raw rows (--epsilon); the regression on a "
             "released matrix is post-processing and costs no privacy");
      else
        run_regress(*options);
    };
  });
}

}  // namespace dpcov::cli
