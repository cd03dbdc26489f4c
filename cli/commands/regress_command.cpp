#include "regress_command.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <dpcov.h>
#include <nlohmann/json.hpp>

#include "../analysis/default_fit.hpp"
#include "../analysis/posterior_intervals.hpp"
#include "../analysis/regression_forecast.hpp"
#include "../analysis/regression_intervals.hpp"
#include "../analysis/regression_units.hpp"
#include "../analysis/released_matrix.hpp"
#include "../analysis/robust_regression.hpp"
#include "../analysis/text_table.hpp"
#include "../cli_error.hpp"
#include "../io/adassp_receipt.hpp"
#include "../io/json_text.hpp"
#include "../io/rereadable_input.hpp"
#include "../io/regression_rows.hpp"
#include "../io/regression_unit_rows.hpp"
#include "../library_status.hpp"
#include "../options/column_bounds_option.hpp"
#include "../options/constant_column_option.hpp"
#include "../options/input_options.hpp"
#include "../options/mechanism_options.hpp"
#include "../options/raw_regress_options.hpp"
#include "regress_gram.hpp"
#include "release_pipeline.hpp"

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
  int64_t bootstrap = DPCOV_INTERVAL_DRAWS;  // draws of the noise-aware intervals
  std::optional<uint64_t> seed;  // of the bootstrap generator (default: OS entropy)

  BootstrapSettings bootstrap_settings() const { return {bootstrap, seed}; }

  // The options given that apply to a released matrix only.
  std::vector<std::string> matrix_only() const {
    std::vector<std::string> given;
    if (!intercept.empty()) given.push_back("--intercept");
    if (ridge != 0.0) given.push_back("--ridge");
    if (plug_in) given.push_back("--plug-in");
    if (source.rows) given.push_back("--rows");
    if (!source.receipt.empty()) given.push_back("--receipt");
    return given;
  }

  // The checks of a fit on raw rows, before anything is read: its options, and the intervals'
  // number of draws where it will compute intervals, so that a refused number spends nothing.
  RawRegressSettings raw_settings() const {
    RawRegressSettings settings = check_raw_regress(raw, matrix_only(), level);
    if (!raw.no_intervals && raw.privacy_unit.empty())
      library_check_parameters(dpcov_bootstrap_draws_check(level, bootstrap), "--bootstrap");
    return settings;
  }
};

constexpr const char *kPlugInLabel = "plug-in: treats the release as exact data";
// What the parametric bootstrap models (estimators/ols_bootstrap.hpp), said beside its intervals.
constexpr const char *kBootstrapAssumes =
    "a linear model with constant error variance, given the design (heteroscedastic or "
    "misspecified data can make the intervals too narrow)";

// Why a released matrix gets the homoscedastic bootstrap: the robust intervals need a meat
// released from the rows, which regress on a matrix does not have.
constexpr const char *kNoMeat =
    "no robust (sandwich) intervals: a released matrix has no rows to release the meat "
    "sum r^2 x x' from; `regress --epsilon` on the rows gives them";

constexpr const char *kSignNote =
    "sign: '+' or '-' when the interval excludes 0; 'unclear': the data cannot tell.\n";

// ---- The regression on a released matrix: post-processing, no privacy cost.

// A regression on a released matrix, from its columns to its tables.
struct MatrixRegression {
  LoadedMatrix m;
  int64_t label = -1;
  int64_t intercept = -1;  // the intercept column, or -1
  std::vector<int64_t> features;
  std::vector<std::string> terms;  // the intercept column first when there is one
  std::string n_source;            // how n was found, when not from the receipt's n
  int64_t n = 0;                   // the rows the residual degrees of freedom count
  std::string dof_source = "n";
  std::vector<double> g;           // the matrix the fit reads (scaled units, a projection's S^T S)
  UnitMap units;
  dpcov_regression_params params{};
  size_t size = 1;                 // coefficients (at least 1 for the library's outputs)
  // A private release (a projection's aside, whose table is exact inference on the projection)
  // gets the noise-aware intervals; the table that treats it as exact data only on request.
  bool release = false;
  bool classical = false;
  std::vector<double> coef, se, t, pv, lo, hi;
  std::vector<bool> reject;
  dpcov_regression_summary summary{};
  NoiseAware aware;
  Guaranteed sure;
  double intercept_constant = 1.0;
};

// The label, intercept and feature columns of `r.m`, and the names of the terms.
void resolve_terms(MatrixRegression &r, const RegressOptions &o) {
  const LoadedMatrix &m = r.m;
  r.label = resolve_column(m.names, o.label, "--label");
  if (!o.intercept.empty()) r.intercept = resolve_column(m.names, o.intercept, "--intercept");
  if (o.features.empty()) {
    for (int64_t j = 0; j < m.dim; ++j)
      if (j != r.label && j != r.intercept) r.features.push_back(j);
  } else {
    for (const auto &spec : o.features) r.features.push_back(resolve_column(m.names, spec, "--features"));
  }
  if (r.intercept >= 0) r.terms.push_back(m.names[static_cast<size_t>(r.intercept)]);
  for (int64_t j : r.features) r.terms.push_back(m.names[static_cast<size_t>(j)]);
}

// n for the inference. Under add/remove the receipt withholds n; the intercept column the receipt
// records as constant (value c) holds the released count S_cc / c^2 in the release's estimate of
// the Gram matrix (an additive Wishart's noise mean removed), which is post-processing (as
// Python's PrivateLinearRegression). A count at most the p coefficients leaves no residual degree
// of freedom.
void find_rows(MatrixRegression &r) {
  LoadedMatrix &m = r.m;
  if (!m.rows && r.intercept >= 0) {
    const ReceiptConstant recorded = receipt_constant(m.receipt, m.receipt_path);
    if (recorded.found && recorded.name == m.names[static_cast<size_t>(r.intercept)]) {
      const std::vector<double> estimate = noise_mean_removed(m).values;
      const double count = estimate[static_cast<size_t>(r.intercept * m.dim + r.intercept)] /
                           (recorded.value * recorded.value);
      const auto p = static_cast<long long>(r.features.size() + 1);
      if (!std::isfinite(count) || !(std::fabs(count) < 0x1p62) || std::llround(count) <= p)
        fail(kExitPrivacy, m.path, ": the released count of column '", recorded.name,
             "' (its entry over its value squared) is ", count, ", at most the ", p,
             " coefficients: the privacy noise swamps the count, and the release is too noisy "
             "for a regression");
      m.rows = std::llround(count);
      r.n_source = concat(" (the released count of column '", recorded.name, "')");
    }
  }
  if (!m.rows)
    fail(kExitUsage, m.path,
         ": the number of rows n is unknown (no receipt beside it, or n is private under "
         "add/remove and the receipt withholds it): pass --rows only with a public n, or "
         "--intercept naming the receipt's constant column (its released count is used)");
  r.n = *m.rows;
}

// The matrix the fit reads: in the scaled units of a `release --bounds` matrix; for a mechanism
// whose registry entry has DPCOV_MECHANISM_INFERENCE_PROJECTION_T, which releases S^T S / r for an
// r-row projection S of the data, S^T S itself, since the regression on S has r - p residual
// degrees of freedom (Sheffet 2017, Alg. 1).
void prepare_matrix(MatrixRegression &r) {
  const LoadedMatrix &m = r.m;
  r.g = m.values;
  r.units = unit_map(m, r.g);
  if (r.units.active && (r.intercept != 0 || r.label == 0))
    fail(kExitUsage, m.path, ": a `release --bounds` matrix is regressed with --intercept ",
         m.names.front(), " (its scaling is affine, so a model without the intercept changes "
         "meaning) and a data column as --label");
  if ((m.inference() & DPCOV_MECHANISM_INFERENCE_PROJECTION_T) &&
      m.receipt.contains("projection_rows")) {
    r.n = m.receipt["projection_rows"].get<int64_t>();
    for (double &x : r.g) x *= static_cast<double>(r.n);
    r.dof_source = "r (projection rows)";
  }
}

// The matrix the plug-in table reads: a release's estimate of the Gram matrix (its mechanism's
// noise mean removed, in the scaled units for a `release --bounds` matrix), as Python's plug_in_.
std::vector<double> plug_in_matrix(const MatrixRegression &r) {
  return r.release ? gram_estimate_of(r.m, r.g) : r.g;
}

// The table that treats the matrix as exact data (dpcov_regression_fit).
void fit_classical(MatrixRegression &r, const RegressOptions &o) {
  const LoadedMatrix &m = r.m;
  for (auto *v : {&r.coef, &r.se, &r.t, &r.pv, &r.lo, &r.hi}) v->resize(r.size);
  r.summary.struct_size = sizeof r.summary;
  if (r.classical) {
    const std::vector<double> g = plug_in_matrix(r);
    const dpcov_status status = dpcov_regression_fit(
        DPCOV_ROW_MAJOR, m.dim, g.data(), m.dim, r.n, r.label, r.features.data(),
        static_cast<int64_t>(r.features.size()), &r.params, r.coef.data(), r.se.data(),
        r.t.data(), r.pv.data(), r.lo.data(), r.hi.data(), &r.summary);
    if (status == DPCOV_E_NOT_POSITIVE_DEFINITE)
      library_fail(status, concat(m.path, ": regression"),
                   concat(dpcov_last_error_message(),
                          o.ridge > 0 ? concat(" (that penalty is added to the current --ridge ",
                                               o.ridge, ")")
                                      : std::string()));
    library_check(status, concat(m.path, ": regression"));
  }
  r.reject.resize(r.size);
  for (size_t i = 0; i < r.terms.size(); ++i) r.reject[i] = r.pv[i] < 1.0 - o.level;
}

// Every coefficient in the data's units: a `release --bounds` matrix's scaling undone, or a
// `release --add-constant` intercept multiplied by its constant.
void to_data_units(MatrixRegression &r) {
  if (r.units.active) {
    to_user_units(r.units, r.label, true, r.features, r.coef, {&r.se, &r.lo, &r.hi}, {&r.t, &r.pv});
    const double hy = r.units.half[static_cast<size_t>(r.label)];
    r.summary.rss *= hy * hy;
    r.summary.residual_variance *= hy * hy;
    to_user_units(r.units, r.label, true, r.features, r.aware.coef,
                  {&r.aware.se, &r.aware.lower, &r.aware.upper}, {&r.aware.p});
    if (r.sure.computed) {
      std::vector<double> sure_coef(r.size, 0.0);  // only the interval ends are reported
      to_user_units(r.units, r.label, true, r.features, sure_coef, {&r.sure.lower, &r.sure.upper},
                    {});
      r.sure.reject[0] = 0;
    }
    return;
  }
  r.intercept_constant = intercept_in_label_units(
      r.m, r.intercept,
      {&r.coef, &r.se, &r.lo, &r.hi, &r.aware.coef, &r.aware.se, &r.aware.lower, &r.aware.upper,
       &r.sure.lower, &r.sure.upper});
}

// What the matrix's origin means for the inference printed with it.
std::string provenance_note(const LoadedMatrix &m) {
  if (m.inference() & DPCOV_MECHANISM_INFERENCE_PROJECTION_T)
    return concat("note: a projection released by ", m.mechanism(), ": the intervals are exact "
                  "(Student t) about the data's OLS estimate (Sheffet 2017, Alg. 1), not about "
                  "the model's coefficients.");
  if (m.is_private_release())
    return "note: the standard errors, p-values and intervals treat the released matrix as exact "
           "data; they do not account for the privacy noise (see `dpcov compare` for its size).";
  if (m.receipt.is_object() && m.receipt.value("command", "") == "gram")
    return "note: this matrix is an exact Gram matrix: the results are NOT private.";
  return "note: no receipt: the origin of the matrix, and whether it is private, are unknown.";
}

// A release of rows clipped at a privately chosen bound (`release --bound auto`): its intervals
// are for the clipped rows' coefficients, and the clipping bias, which does not shrink with n, is
// not in them (docs/regression_intervals.md, "A private bound and the intervals").
std::string clipping_caveat(const LoadedMatrix &m) {
  if (!m.receipt.is_object() || !m.receipt.contains("bound_selection")) return "";
  const nlohmann::ordered_json &s = m.receipt["bound_selection"];
  const std::string target =
      s.contains("quantile")
          ? concat("near the ", format_number(s["quantile"].get<double>()),
                   " quantile of the rows' norms")
          : concat("with about ", s.value("clipped", int64_t{0}), " rows above it");
  return concat("rows clipped at a privately chosen bound (", target, ", --bound auto): the "
                "intervals cover the clipped rows' coefficients; the clipping bias, which does "
                "not shrink with n, is not in them");
}

nlohmann::ordered_json noise_aware_json(const MatrixRegression &r, const RegressOptions &o) {
  const NoiseAware &a = r.aware;
  if (!a.computed) return {{"refused", a.refusal}, {"available", !a.unavailable}};
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (size_t i = 0; i < r.terms.size(); ++i)
    rows.push_back({{"term", r.terms[i]}, {"coef", a.coef[i]}, {"std_error", a.se[i]},
                    {"p", a.p[i]}, {"ci_lower", a.lower[i]}, {"ci_upper", a.upper[i]},
                    {"sign", interval_sign(a.lower[i], a.upper[i])},
                    {"conclusive", a.conclusive[i] == DPCOV_COEFFICIENT_BOUNDED}});
  nlohmann::ordered_json out = {{"method", "parametric bootstrap"}, {"draws", o.bootstrap},
                                {"noise_norm", a.noise_norm}, {"kappa", a.kappa},
                                {"assumes", kBootstrapAssumes}, {"robust", kNoMeat}};
  if (const std::string caveat = clipping_caveat(r.m); !caveat.empty()) out["clipping"] = caveat;
  out["coefficients"] = rows;
  return out;
}

void add_classical_json(nlohmann::ordered_json &out, const MatrixRegression &r) {
  out["dof"] = r.summary.dof;
  out["rss"] = r.summary.rss;
  out["residual_variance"] = r.summary.residual_variance;
  out["t_critical"] = r.summary.t_critical;
  out["rss_clamped"] = r.summary.rss_clamped != 0;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (size_t i = 0; i < r.terms.size(); ++i) {
    nlohmann::ordered_json row = {{"term", r.terms[i]}, {"coef", r.coef[i]},
                                  {"std_error", r.se[i]}, {"t", r.t[i]}, {"p", r.pv[i]},
                                  {"ci_lower", r.lo[i]}, {"ci_upper", r.hi[i]}};
    if (r.release)
      row["basis"] = kPlugInLabel;
    else
      row["reject"] = static_cast<bool>(r.reject[i]);
    rows.push_back(row);
  }
  out[r.release ? "plug_in" : "coefficients"] = rows;
}

void print_matrix_json(const MatrixRegression &r, const RegressOptions &o) {
  const LoadedMatrix &m = r.m;
  nlohmann::ordered_json out;
  out["command"] = "regress";
  out["matrix"] = m.path;
  out["receipt"] = m.receipt_path.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(m.receipt_path);
  out["mechanism"] = m.mechanism();
  out["label"] = m.names[static_cast<size_t>(r.label)];
  out["intercept"] = r.intercept >= 0 ? nlohmann::ordered_json(r.terms.front()) : nlohmann::ordered_json();
  if (r.intercept_constant != 1.0) out["intercept_constant"] = r.intercept_constant;
  out["n"] = *m.rows;
  if (!r.n_source.empty()) out["n_released_count"] = true;
  out["ridge"] = o.ridge;
  out["level"] = o.level;
  if (r.release) out["noise_aware"] = noise_aware_json(r, o);
  if (r.classical) add_classical_json(out, r);
  if (r.sure.computed) {
    nlohmann::ordered_json intervals = nlohmann::ordered_json::array();
    for (size_t i = 0; i < r.terms.size(); ++i)
      intervals.push_back({{"term", r.terms[i]}, {"ci_lower", r.sure.lower[i]},
                           {"ci_upper", r.sure.upper[i]}, {"reject", r.sure.reject[i] != 0}});
    out["guaranteed"] = {{"noise_norm_bound", r.sure.eta}, {"kappa", r.sure.kappa},
                         {"intervals", intervals}};
  } else if (!r.sure.refusal.empty()) {
    out["guaranteed"] = {{"refused", r.sure.refusal}};
  }
  print_stdout(json_text(out));
}

std::string noise_aware_text(const MatrixRegression &r, const RegressOptions &o) {
  const NoiseAware &a = r.aware;
  if (a.unavailable)
    return concat("Intervals that account for the privacy noise: not available: ", a.refusal,
                  ".\n");
  if (!a.computed)
    return concat("Intervals that account for the privacy noise: none: ", a.refusal,
                  ".\nAt n = ", *r.m.rows, " this release cannot support a conclusion about any "
                  "coefficient.\n");
  std::string text = concat(
      "Intervals that account for the sampling and the privacy noise (parametric bootstrap, ",
      o.bootstrap, " draws; coverage measured, docs/benchmarks.md), noise norm ",
      format_number(a.noise_norm), ", kappa ", format_number(a.kappa, 3), ". They assume ",
      kBootstrapAssumes, "; ", kNoMeat);
  if (const std::string caveat = clipping_caveat(r.m); !caveat.empty())
    text += concat(". Warning: ", caveat);
  text += ":\n\n";
  TextTable table({"term", "coef", "std.err", "p", "ci.lower", "ci.upper",
                   "sign (" + format_number(100.0 * o.level, 3) + "% CI)"});
  for (size_t i = 0; i < r.terms.size(); ++i)
    table.add_row({r.terms[i], format_number(a.coef[i]), format_number(a.se[i]),
                   format_number(a.p[i], 3), format_number(a.lower[i]), format_number(a.upper[i]),
                   interval_sign(a.lower[i], a.upper[i])});
  return text + table.render() + kSignNote;
}

std::string classical_text(const MatrixRegression &r, const std::string &level_pct) {
  std::string text;
  if (r.release)
    text += concat("\nPlug-in table (", kPlugInLabel, "; it ignores the privacy noise, so its "
                   "errors, p-values and intervals are too small):\n\n");
  std::vector<std::string> header = {"term", "coef", "std.err", "t", "p", "ci.lower", "ci.upper"};
  header.push_back(r.release ? "basis" : "reject H0 at " + level_pct);
  TextTable table(header);
  for (size_t i = 0; i < r.terms.size(); ++i)
    table.add_row({r.terms[i], format_number(r.coef[i]), format_number(r.se[i]),
                   format_number(r.t[i]), format_number(r.pv[i], 3), format_number(r.lo[i]),
                   format_number(r.hi[i]),
                   r.release ? std::string("plug-in (release as exact)")
                             : std::string(r.reject[i] ? "yes" : "no")});
  text += table.render();
  text += concat("\nresidual variance ", format_number(r.summary.residual_variance),
                 ", t critical ", format_number(r.summary.t_critical), "\n");
  if (r.summary.rss_clamped)
    text += "warning: the residual sum of squares was negative (the release is indefinite) and "
            "was clamped to 0: the standard errors are 0.\n";
  return text;
}

// What the intercept's column and the units mean for the coefficients printed.
std::string units_note(const MatrixRegression &r) {
  if (r.units.active)
    return "units: the data's (a `release --bounds`): fitted in the scaled units, where the "
           "noise was added, and mapped back; the intercept's interval is not available (nan).\n";
  if (r.intercept >= 0 && r.intercept_constant != 1.0)
    return concat("intercept: column '", r.terms.front(), "' held ",
                  format_number(r.intercept_constant),
                  " in every row (`release --add-constant`); its coefficient, error and interval "
                  "are multiplied by it: the intercept in the label's units.\n");
  if (r.intercept >= 0)
    return concat("intercept: column '", r.terms.front(), "' must hold the same constant c in "
                  "every data row; its coefficient is the intercept divided by c.\n");
  return "";
}

std::string guaranteed_text(const MatrixRegression &r, const RegressOptions &o,
                            const std::string &level_pct) {
  const Guaranteed &sure = r.sure;
  if (!sure.computed)
    return sure.refusal.empty()
               ? std::string()
               : concat("\nGuaranteed intervals for the OLS coefficients: ", sure.refusal, "\n");
  std::string text = concat("\nGuaranteed intervals for the OLS coefficients (cover the model's "
                            "coefficients with probability >= ", o.level,
                            "; proofs/ols_analyze_gauss.md), noise bound ",
                            format_number(sure.eta), ", kappa ", format_number(sure.kappa, 3),
                            ":\n\n");
  TextTable guaranteed({"term", "ci.lower", "ci.upper", "reject H0 at " + level_pct});
  for (size_t i = 0; i < r.terms.size(); ++i)
    guaranteed.add_row({r.terms[i], format_number(sure.lower[i]), format_number(sure.upper[i]),
                        sure.reject[i] ? "yes" : "no"});
  return text + guaranteed.render();
}

void print_matrix_text(const MatrixRegression &r, const RegressOptions &o) {
  const LoadedMatrix &m = r.m;
  const std::string level_pct = format_number(100.0 * (1.0 - o.level), 3) + "%";
  std::string text = concat("Regression of ", m.names[static_cast<size_t>(r.label)], " on ",
                            r.terms.size(), " term", r.terms.size() == 1 ? "" : "s", " from ",
                            m.path);
  if (!m.mechanism().empty()) text += concat(" (", m.mechanism(), ")");
  text += concat("\n", "n = ", *m.rows, r.n_source, ", level = ", o.level);
  if (r.classical)
    text += concat(", residual dof = ", r.summary.dof, " (from ", r.dof_source, "), ridge = ",
                   o.ridge);
  text += "\n\n";
  if (r.release) text += noise_aware_text(r, o);
  if (r.classical)
    text += classical_text(r, level_pct);
  else if (r.release)
    text += "(--plug-in also prints the table that treats the release as exact data.)\n";
  text += units_note(r);
  if (!r.release) text += provenance_note(m) + "\n";
  text += guaranteed_text(r, o, level_pct);
  print_stdout(text);
}

void run_regress(const RegressOptions &o) {
  MatrixRegression r;
  r.m = load_matrix(o.source);
  resolve_terms(r, o);
  find_rows(r);
  prepare_matrix(r);
  library_check(dpcov_regression_params_default(&r.params), "regression defaults");
  r.params.intercept_column = r.intercept;
  r.params.ridge = o.ridge;
  r.params.level = o.level;
  const int64_t p = static_cast<int64_t>(r.features.size()) + (r.intercept >= 0 ? 1 : 0);
  r.size = static_cast<size_t>(p > 0 ? p : 1);
  r.release = r.m.is_private_release() &&
              !(r.m.inference() & DPCOV_MECHANISM_INFERENCE_PROJECTION_T);
  // The noise-aware and guaranteed intervals are for unpenalised least squares: a ridge would be
  // dropped from them without a word (Python gives no intervals with a ridge).
  if (r.release && o.ridge != 0.0 && !o.plug_in)
    fail(kExitUsage, "--ridge applies to the plug-in table only: the intervals of a private "
         "release are for unpenalised least squares; add --plug-in for the ridge fit, or drop "
         "--ridge");
  r.classical = !r.release || o.plug_in;
  fit_classical(r, o);
  if (r.release) {
    r.aware = noise_aware_intervals(r.m, r.g, r.label, r.features, r.params, r.size,
                                    o.bootstrap_settings());
    r.sure = guaranteed_intervals(r.m, r.g, r.label, r.features, r.params, r.size);
  }
  to_data_units(r);
  if (const std::string w = inconclusive_warning(r.aware, r.terms); !w.empty())
    std::fprintf(stderr, "dpcov regress: warning: %s\n", w.c_str());
  if (o.json)
    print_matrix_json(r, o);
  else
    print_matrix_text(r, o);
}

// ---- The regression on raw data rows: AdaSSP, which spends (epsilon, delta) once.

// A fit of raw rows and what is printed of it.
struct RawFit {
  std::string path;
  std::string label;  // the label column's name
  std::vector<std::string> terms;
  bool intercept = true;
  RawRegressSettings settings;
  double bound = 0.0;  // the bound on ||x|| the fit used: --bound, or the one chosen below it
  // The bounded label's bound: 1 for balanced rows (y / --label-bound) and after --bounds.
  double label_bound = 1.0;
  // --bounds: every column mapped to [-1, 1] by its public range; `scaled_bound_x` is the norm
  // bound of [1, z_x] and `units` maps the coefficients back to the data's.
  bool scaled = false;
  double scaled_bound_x = 0.0;
  ColumnBounds ranges;
  UnitMap units;
  RegressionGram data;
  std::vector<double> coef;
  dpcov_adassp_receipt receipt{};
  NoiseAware aware;
  // When the plan decided on y'y: that plan's forecast, then, if y'y was released, the fit's.
  std::optional<dpcov_regression_forecast> forecast;
  std::string small_n_split;  // why the fit dropped its lambda_min step, or "" (the default)
  // --errors robust: the fit spends (adassp_epsilon, fit_delta) of the split, the meat the rest.
  double fit_delta = 0.0;
  double adassp_budget = 0.0;  // the fit's whole share: split with the meat under --errors robust
  bool label_square_asked = false;
  bool robust_asked = false;  // --errors robust with the intervals, at the level of rows
  bool robust = false;
  std::string robust_skipped;  // why --errors robust fell back to the homoscedastic intervals
  dpcov_sandwich_budget sandwich{};
  RobustMeat meat;
  bool meat_released = false;
  std::optional<nlohmann::ordered_json> ledger;  // the ledger's state after the charge

  // --privacy-unit: the units read and the rows left out by K (the curator's, never printed to
  // standard output).
  int64_t privacy_units = 0;
  int64_t rows_truncated = 0;

  // Under add/remove n is private, and so are the rows kept of privacy units: nothing printed
  // may depend on it.
  bool n_public() const {
    return settings.params.neighbour == DPCOV_NEIGHBOUR_REPLACE_ONE &&
           settings.params.max_rows_per_unit == 0;
  }

  int64_t features() const { return static_cast<int64_t>(terms.size()) - (intercept ? 1 : 0); }

  // B_X of the bounded regressors: [1, z_x] after --bounds, else the balanced [1, x'] (the
  // library's, the same at every bound on ||x||).
  double regressor_bound() const {
    return scaled ? scaled_bound_x : regressor_norm_bound({1.0, 1.0, 1.0, intercept}, features());
  }
};

// The public receipt of the fit, for the ledger (dpcov_adassp_plan): the balanced rows' bounds
// are the same at every bound on ||x||.
dpcov_adassp_receipt adassp_plan(const RawFit &f) {
  dpcov_adassp_receipt plan{};
  plan.struct_size = sizeof plan;
  library_check(dpcov_adassp_plan(static_cast<int64_t>(f.terms.size()), f.regressor_bound(),
                                  f.label_bound, f.settings.adassp_epsilon, f.fit_delta,
                                  &f.settings.params, &plan),
                "AdaSSP settings");
  return plan;
}

// The fit from the accumulated Gram matrix of [1, x, y]; its released X'X~ and X'y~ go to the
// intervals.
void fit_adassp(RawFit &f, const ReleaseDraws &draws,
                std::vector<double> &xtx, std::vector<double> &xty) {
  const int64_t p = static_cast<int64_t>(f.terms.size());
  const int64_t q = p + 1;
  std::vector<int64_t> regressors(static_cast<size_t>(p));
  for (int64_t j = 0; j < p; ++j) regressors[static_cast<size_t>(j)] = j;
  f.coef.resize(static_cast<size_t>(p));
  xtx.resize(static_cast<size_t>(p * p));
  xty.resize(static_cast<size_t>(p));
  f.receipt.struct_size = sizeof f.receipt;
  draws.check(dpcov_adassp_fit(DPCOV_ROW_MAJOR, q, f.data.gram.data(), q, p, regressors.data(), p,
                               f.regressor_bound(), f.label_bound,
                               f.settings.adassp_epsilon, f.fit_delta, &f.settings.params,
                               draws.rng(), f.coef.data(), xtx.data(), p, xty.data(), &f.receipt),
              concat(f.path, ": AdaSSP"));
}

// --bounds: the public ranges of the regressors and the label (in the order the rows are
// gathered, [x, y]), the norm bound of the scaled rows [1, z_x] and the map back to the data's
// units. |z_y| <= 1.
void use_column_bounds(RawFit &f, const RowReader &reader, const RegressionColumns &c,
                       const std::string &spec, bool reject) {
  if (reject)
    fail(kExitUsage, "--reject does not apply to --bounds: values outside their range are clamped "
         "(and counted), as `dpcov release --bounds` does");
  const std::vector<std::string> &names = reader.column_names();
  std::vector<std::string> gathered;
  for (const int64_t j : c.features) gathered.push_back(names[static_cast<size_t>(j)]);
  gathered.push_back(names[static_cast<size_t>(c.label)]);
  f.ranges = parse_column_bounds(spec, gathered);
  const auto p = static_cast<int64_t>(c.features.size());
  library_check(dpcov_column_bounds_norm_bound(p, &f.scaled_bound_x), "--bounds");
  f.scaled = true;
  f.label_bound = 1.0;
  f.bound = std::sqrt(static_cast<double>(p));
  f.units.active = true;
  f.units.centre = {0.0};
  f.units.half = {1.0};
  for (size_t j = 0; j < f.ranges.lower.size(); ++j) {
    f.units.centre.push_back(f.ranges.lower[j] / 2 + f.ranges.upper[j] / 2);
    f.units.half.push_back(f.ranges.upper[j] / 2 - f.ranges.lower[j] / 2);
  }
}

// The coefficients and intervals fitted in the scaled units, where the noise was added, mapped
// to the data's (post-processing; proofs/column_bounds.md): a slope b_j on z_j is h_y b_j / h_j
// on x_j, with its interval; the intercept's interval is not a map of the others (NaN).
void to_data_units(RawFit &f) {
  const auto p = static_cast<int64_t>(f.terms.size()) - 1;
  std::vector<int64_t> features;
  for (int64_t j = 1; j <= p; ++j) features.push_back(j);
  to_user_units(f.units, p + 1, true, features, f.coef, {}, {});
  to_user_units(f.units, p + 1, true, features, f.aware.coef,
                {&f.aware.se, &f.aware.lower, &f.aware.upper}, {&f.aware.p});
}

// A fit on balanced rows in the data's units: coefficients, standard errors and interval ends.
void to_data_units(RawFit &f, const std::vector<double> &factors) {
  scale_by_factors(factors, {&f.coef, &f.aware.coef, &f.aware.se, &f.aware.lower,
                             &f.aware.upper});
}

// The public values the default fit's decisions read (default_fit.hpp): the options as asked,
// before any decision.
DefaultFitQuery default_fit_query(const RawFit &f, const RegressOptions &o) {
  DefaultFitQuery q;
  q.regressors = static_cast<int64_t>(f.terms.size());
  q.bound_x = f.regressor_bound();
  q.label_bound = f.label_bound;
  q.budget = f.adassp_budget;
  q.delta = o.raw.delta;
  q.params = f.settings.params;
  q.params.release_label_square = f.label_square_asked ? 1 : 0;
  q.rows = f.data.rows;
  q.level = o.level;
  q.robust = f.robust_asked;
  q.no_intervals = o.raw.no_intervals;
  q.intervals_anyway = o.raw.intervals_anyway;
  q.small_n_posterior = o.raw.small_n == "posterior";
  return q;
}

void apply_fit(RawFit &f, const DefaultFit &d) {
  f.settings.params = d.params;
  f.settings.adassp_epsilon = d.epsilon;
  f.fit_delta = d.delta;
  f.robust = d.robust;
  if (d.robust) f.sandwich = d.sandwich;
}

// Robust errors hold a share back for the meat until n decides (decide_errors) whether they are
// attempted; where they are not, the fit spends the whole budget, which under zCDP accounting
// costs more rho than the split (rho grows faster than epsilon). Before anything is drawn the
// ledger's cap must hold for that fit too, whichever way n decides.
void check_fit_without_meat(const LedgerFile &ledger, const RawFit &f, const RegressOptions &o,
                            double bound_epsilon) {
  RawFit whole = f;
  DefaultFitQuery q = default_fit_query(f, o);
  q.rows_known = false;
  q.robust = false;
  apply_fit(whole, decide_default_fit(q));
  const dpcov_adassp_receipt plan = adassp_plan(whole);
  ledger.check(charges_with_bound_step(&ledger, bound_epsilon, LedgerCharge::of_receipt(&plan)));
}

// The fit's shares before the rows are read (for the ledger's plan): robust errors as asked.
void apply_errors(RawFit &f, const RegressOptions &o) {
  DefaultFitQuery q = default_fit_query(f, o);
  q.rows_known = false;
  apply_fit(f, decide_default_fit(q));
}

// Every decision of the default fit once n is known (default_fit.hpp), from public values only:
// at the public bound, before any bound step, as on every surface (a bound chosen privately is
// a release, and the same request must decide alike wherever it is made).
void decide_errors(RawFit &f, const RegressOptions &o) {
  const DefaultFit d = decide_default_fit(default_fit_query(f, o));
  apply_fit(f, d);
  f.forecast = d.forecast;
  f.small_n_split = d.small_n_split;
  if (!d.label_square_refusal.empty()) f.aware.refusal = d.label_square_refusal;
  f.robust_skipped = d.robust_skipped;
}

// --errors robust after a fit that released y'y: the rule of every surface
// (docs/regression_intervals.md, "Robust or the posterior"), post-processing of the release:
// the released X'X~ supports the robust bootstrap where dpcov_adassp_intervals answers with its
// bootstrap, whose worlds need X'X~ + E positive definite as the sandwich's do. Elsewhere its
// posterior answers, labelled homoscedastic, and the meat is not released (false).
bool robust_supported(RawFit &f, const NoiseAware &answer) {
  if (!answer.computed || answer.method == "parametric bootstrap") return true;
  f.robust = false;
  f.aware = answer;
  f.robust_skipped = "robust intervals not given: the released X'X~ does not support the "
                     "bootstrap, so the meat was not released (its share of the budget unspent); "
                     "the intervals are the homoscedastic ones, from the fit's y'y";
  return false;
}

// --errors robust after the fit: the second pass over the rows, bounded as the fit read them, and
// the meat's release from the fit's generator (a failure after its draw is charged).
void release_robust_meat(RawFit &f, const RegressOptions &o, const RegressionColumns &c,
                         RereadableInput &input, const ReleaseDraws &draws) {
  const RawRegressOptions &r = o.raw;
  const std::unique_ptr<RowReader> reader = input.open();
  const dpcov_row_bounding spec =
      f.scaled ? scaled_regression_bounding(f.ranges.lower, f.ranges.upper)
               : regression_bounding({r.bound, f.bound, r.label_bound, f.intercept, false});
  dpcov_status status = DPCOV_OK;
  f.meat = release_meat(*reader, c, spec, f.coef, f.regressor_bound(),
                        f.sandwich, f.settings.params.neighbour, f.data.rows, draws.rng(),
                        status);
  draws.check(status, concat(f.path, ": the meat of the robust intervals"));
  f.meat_released = true;
}

// The fit's Gram matrix of the bounded rows [1, x, y]: of every row, of the rows scaled by
// --bounds, or of at most --max-rows-per-unit rows of each privacy unit, drawn from `rng` (the
// fit's generator, as Python's adassp_units_fit draws them).
void accumulate_rows(RawFit &f, RowReader &reader, const RegressionColumns &c,
                     const RawRegressOptions &r, dpcov_rng *rng) {
  if (!r.privacy_unit.empty()) {
    const UnitRegressionGram u = accumulate_regression_units(
        reader, c, {r.bound, f.bound, r.label_bound, f.intercept, false}, r.privacy_unit,
        r.max_rows_per_unit, rng, r.quiet);
    f.data = u.data;
    f.privacy_units = u.units;
    f.rows_truncated = u.truncated;
    f.aware.refusal = kUnitsNoIntervals;
    return;
  }
  f.data = f.scaled ? accumulate_scaled_regression(reader, c, f.ranges.lower, f.ranges.upper,
                                                   r.quiet)
                    : accumulate_regression(
                          reader, c, {r.bound, f.bound, r.label_bound, f.intercept, r.reject},
                          r.quiet);
}

// --features, or by default every column but the label and the privacy unit's.
std::vector<std::string> unit_regressors(const RowReader &reader, const RegressOptions &o,
                                         const RawRegressOptions &r) {
  if (!o.features.empty()) return o.features;
  std::vector<std::string> names;
  for (const std::string &name : reader.column_names())
    if (name != r.privacy_unit && name != o.label) names.push_back(name);
  return names;
}

// Reads the rows (twice for a bound step: the choice, then the fit), fits once and charges the
// ledger, which refused a fit over its cap before any row was read or noise drawn: AdaSSP by its
// plan (its zCDP rho and (epsilon, delta) do not depend on the bounds, proofs/adassp.md, "zCDP"),
// after the bound step (pure epsilon).
RawFit fit_raw_rows(const RegressOptions &o) {
  const RawRegressOptions &r = o.raw;
  RawFit f;
  f.path = o.source.path;
  f.settings = o.raw_settings();
  InputOptions options;
  options.path = f.path;
  options.spool = r.spool;
  options.key_column = r.privacy_unit;  // a CSV unit column holds text ids
  const bool robust_asked = r.errors == "robust" && !r.no_intervals && r.privacy_unit.empty();
  // A bound step and the robust meat each read the rows again: standard input is spooled.
  RereadableInput input(options, f.settings.tighten || robust_asked, f.n_public());
  std::unique_ptr<RowReader> reader = input.open();
  f.intercept = !r.no_intercept;
  const RegressionColumns c = resolve_regression_columns(
      *reader, o.label, r.privacy_unit.empty() ? o.features : unit_regressors(*reader, o, r),
      f.intercept);
  f.terms = c.terms;
  if (!r.bounds.empty()) use_column_bounds(f, *reader, c, r.bounds, r.reject);
  const double bound_epsilon = f.settings.tighten ? f.settings.bound_epsilon : 0.0;
  f.adassp_budget = f.settings.adassp_epsilon;
  f.label_square_asked = f.settings.params.release_label_square == 1;
  f.robust_asked = robust_asked;
  apply_errors(f, o);
  const auto charges_of = [&](const LedgerFile *ledger, const dpcov_adassp_receipt &fit) {
    std::vector<LedgerCharge> charges =
        charges_with_bound_step(ledger, bound_epsilon, LedgerCharge::of_receipt(&fit));
    if (f.robust)
      charges.emplace_back(f.meat_released
                               ? f.meat.receipt
                               : meat_plan(static_cast<int64_t>(f.terms.size()), f.sandwich,
                                           f.settings.params.neighbour));
    return charges;
  };
  dpcov_adassp_receipt plan{};
  if (!r.ledger.path.empty()) plan = adassp_plan(f);
  const std::unique_ptr<LedgerFile> ledger = checked_ledger(
      r.ledger, [&](const LedgerFile &l) { return charges_of(&l, plan); });
  if (ledger && f.robust) check_fit_without_meat(*ledger, f, o, bound_epsilon);
  const std::string output = concat("regress ", f.path);
  const ReleaseDraws draws(ledger.get(), [&] { return charges_of(ledger.get(), plan); }, r.seed,
                           output, {"regress", "--noise-seed"});
  f.bound = r.bound;
  if (f.settings.tighten) {
    f.bound = choose_tighter_bound(*reader, c, r.bound, r.bound_quantile, bound_epsilon,
                                   draws.rng());
    reader = input.open();
  }
  accumulate_rows(f, *reader, c, r, draws.rng());
  // Refused only where the number of rows (or units) is public: under add/remove the empty
  // dataset neighbours every one-row one, and is fitted like it.
  if (f.data.rows == 0 && f.settings.params.neighbour == DPCOV_NEIGHBOUR_REPLACE_ONE)
    fail(kExitInputData, reader->name(), ": the input has no rows");
  decide_errors(f, o);
  if (ledger) plan = adassp_plan(f);
  std::vector<double> xtx, xty;
  fit_adassp(f, draws, xtx, xty);
  // Where the fit released y'y for intervals, the forecast printed is the fit's as it ran (its
  // share of the budget, its intercept), not that of the whole-budget plan that decided; where it
  // did not, the deciding forecast stays, the reason for the refusal. Public values only.
  if (f.forecast && f.settings.params.release_label_square == 1)
    f.forecast = adassp_forecast(f.receipt, {static_cast<double>(f.data.rows), o.level, 1.0,
                                             f.intercept});
  // Under add/remove n is private: the intervals take the count the release holds in the
  // intercept's entry of X'X~ (n + noise; post-processing) instead.
  const int64_t n_intervals =
      f.n_public() ? f.data.rows : static_cast<int64_t>(std::llround(xtx[0]));
  BootstrapSettings bootstrap = o.bootstrap_settings();
  bootstrap.release_rng = draws.rng();  // --noise-seed alone reproduces the intervals too
  const auto homoscedastic = [&] {
    return adassp_intervals(xtx, xty, n_intervals, f.receipt, o.level, bootstrap,
                            f.intercept ? 0 : -1, o.raw.small_n == "posterior");
  };
  NoiseAware answer;  // the rule's, for a robust fit that released y'y
  if (f.robust && f.settings.params.release_label_square == 1) answer = homoscedastic();
  if (f.robust && robust_supported(f, answer)) release_robust_meat(f, o, c, input, draws);
  // Charged before anything is printed: a failure leaves the budget spent and no output.
  draws.charge(charges_of(ledger.get(), f.receipt), output);
  if (ledger) f.ledger = ledger->summary();
  if (f.robust) {
    f.aware = robust_intervals(xtx, xty, f.receipt, f.meat, o.level, bootstrap);
    // The robust bootstrap's worlds refused where the rule's did not (X'X~ near the edge): the
    // rule's homoscedastic intervals answer, labelled.
    if (!f.aware.computed && answer.computed) {
      f.robust = false;
      f.aware = answer;
      f.robust_skipped = "robust intervals not given: the released meat's bootstrap refused";
    }
  } else if (f.settings.params.release_label_square == 1 && !f.aware.computed) {
    f.aware = homoscedastic();
  }
  f.label = reader->column_names()[static_cast<size_t>(c.label)];
  if (f.scaled)
    to_data_units(f);
  else
    to_data_units(f, regression_unit_factors({r.bound, f.bound, r.label_bound, f.intercept},
                                             f.features()));
  return f;
}

// The clipped count is a function of the data no mechanism privatises, so it goes to standard
// error, labelled, and is never silent (even under --quiet).
void warn_clipped(const RawFit &f) {
  warn_clipped_rows(f.data, f.n_public(), f.scaled, f.settings.tighten);
}

// What the noise-aware intervals assume: whether rows were clipped below --bound (a bias they do
// not hold), or mapped by --bounds (no --bound to clip at), and the model of the bootstrap.
std::string raw_interval_assumptions(const RawFit &f) {
  const std::string bounding =
      f.scaled ? std::string(
                     "the columns mapped to [-1, 1] by --bounds, no row clipped (a value "
                     "outside its range clamped to it); ")
      : f.settings.tighten
          ? concat("the rows clipped at the private bound ", f.bound,
                   " do not move the coefficients (that bias is not in the intervals: "
                   "--bound-epsilon 0 removes it); ")
          : std::string("no clipping below --bound; ");
  return concat(bounding, f.robust ? kRobustAssumes : kBootstrapAssumes);
}

// Why robust errors, asked, fell back to the homoscedastic intervals: a sentence of its own
// before what the intervals assume ("" where they did not).
std::string robust_skipped_sentence(const RawFit &f) {
  if (f.robust_skipped.empty()) return {};
  std::string sentence = f.robust_skipped;
  sentence[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(sentence[0])));
  return concat(" ", sentence, ".");
}

// The public ranges of --bounds by column: the regressors, then the label.
nlohmann::ordered_json scaled_ranges_json(const RawFit &f) {
  nlohmann::ordered_json ranges = nlohmann::ordered_json::object();
  for (size_t j = 0; j < f.ranges.lower.size(); ++j)
    ranges[j + 1 < f.terms.size() ? f.terms[j + 1] : f.label] = {f.ranges.lower[j],
                                                                 f.ranges.upper[j]};
  return ranges;
}

// How the printed intervals were computed.
std::string raw_interval_method(const RawFit &f) {
  return f.robust ? "robust (sandwich) parametric bootstrap from AdaSSP's noise law and the "
                    "released meat sum r^2 x x', for beta (unregularised statistics)"
                  : concat(f.aware.method, " from AdaSSP's noise law, for beta (unregularised "
                           "statistics)");
}

void print_raw_json(const RawFit &f, const RegressOptions &o) {
  nlohmann::ordered_json out;
  out["command"] = "regress";
  out["input"] = f.path;
  out["label"] = f.label;
  out["differentially_private"] = f.receipt.seed_fixed == 0;
  out["privacy_claim"] = adassp_claim(f.receipt);
  // As release's receipt records --seed: whoever holds the output can rerun it, and remove the
  // noise.
  if (o.raw.seed) out["noise_seed"] = *o.raw.seed;
  out["n_public"] = f.n_public();
  if (f.n_public()) out["rows"] = f.data.rows;
  out["epsilon_total"] = *o.raw.epsilon;
  if (!o.raw.privacy_unit.empty())
    out["privacy_unit"] = {{"column", o.raw.privacy_unit},
                           {"max_rows_per_unit", o.raw.max_rows_per_unit}};
  if (f.scaled)
    out["units"] = {{"coefficients", "data (fitted on the columns mapped to [-1, 1] by --bounds, "
                                     "mapped back; the intercept's interval is NaN)"},
                    {"bounds", scaled_ranges_json(f)},
                    {"receipts", "the fitted rows' scale: the columns mapped to [-1, 1]"}};
  else
    out["units"] = balanced_units_json({o.raw.bound, f.bound, o.raw.label_bound, f.intercept},
                                       f.features());
  if (f.settings.tighten)
    out["bound_selection"] = {
        {"method", "exponential mechanism over the public grid --bound / 1.25^k, k = 0..12, "
                   "utility -|rows above B - floor((1 - quantile) n)| (proofs/private_bound.md)"},
        {"epsilon", f.settings.bound_epsilon},
        {"quantile", o.raw.bound_quantile},
        {"bound_given", o.raw.bound},
        {"bound", f.bound}};
  const NoiseAware &a = f.aware;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (size_t i = 0; i < f.terms.size(); ++i) {
    nlohmann::ordered_json row = {{"term", f.terms[i]}, {"coef", f.coef[i]}};
    if (a.computed)
      row["noise_aware"] = {{"ols_coef", a.coef[i]}, {"std_err", a.se[i]}, {"p", a.p[i]},
                            {"ci_lower", a.lower[i]}, {"ci_upper", a.upper[i]},
                            {"sign", interval_sign(a.lower[i], a.upper[i])},
                            {"conclusive", a.conclusive.empty() || a.conclusive[i] == 1}};
    rows.push_back(row);
  }
  out["coefficients"] = rows;
  if (a.computed) {
    out["noise_aware"] = {{"method", raw_interval_method(f)},
                          {"errors", f.robust ? "robust" : "homoscedastic"},
                          {"level", o.level}, {"draws", o.bootstrap},
                          {"assumes", raw_interval_assumptions(f)}};
    if (!f.robust_skipped.empty()) out["noise_aware"]["robust_skipped"] = f.robust_skipped;
  } else if (!o.raw.no_intervals) {
    out["noise_aware"] = {{"refused", a.refusal},
                          {"errors", f.robust ? "robust" : "homoscedastic"}};
  }
  if (f.robust || f.meat_released) out["sandwich"] = sandwich_json(f.sandwich, f.meat);
  if (f.forecast) out["regression_forecast"] = forecast_json(*f.forecast);
  if (!f.small_n_split.empty())
    out["small_n_split"] = {{"lambda_min_released", false}, {"reason", f.small_n_split}};
  out["receipt"] = adassp_receipt_json(f.receipt);
  if (f.ledger) out["ledger"] = *f.ledger;
  print_stdout(json_text(out));
}

// The first lines: what was fitted, under which guarantee, on which rows and bounds.
std::string raw_heading(const RawFit &f, const RawRegressOptions &r) {
  const RawRegressSettings &s = f.settings;
  return concat("AdaSSP regression of ", f.label, " on ", f.terms.size(), " term",
                f.terms.size() == 1 ? "" : "s", " from ", f.path,
                " (epsilon = ", *r.epsilon, ", delta = ", r.delta, ", ", r.neighbour, "; ",
                adassp_claim(f.receipt), ")\n",
                f.n_public() ? concat("rows ", f.data.rows)
                : r.privacy_unit.empty()
                    ? std::string("rows: withheld (private under add_remove)")
                    : concat("privacy unit ", r.privacy_unit, ", at most ", r.max_rows_per_unit,
                             " rows of each (rows kept: withheld, private)"),
                f.scaled
                    ? concat(" (each column mapped to [-1, 1] by its public range, --bounds: no "
                             "row clipped; fitted there, where the noise was added, and reported "
                             "in the data's units; the intercept's interval is not available)\n")
                    : concat(" (||x|| <= ", f.bound, ", |y| <= ", r.label_bound,
                             balanced_rows_text(f.intercept),
                             ")\n"),
                s.tighten ? concat("bound ", f.bound, " chosen privately below --bound ", r.bound,
                                   " near the ", r.bound_quantile,
                                   " quantile of the regressors' norms with epsilon ",
                                   s.bound_epsilon, "; AdaSSP spent the rest\n")
                          : std::string(),
                f.small_n_split.empty() ? std::string() : f.small_n_split + "\n", "\n");
}

std::string raw_coefficients_text(const RawFit &f, const RegressOptions &o) {
  const NoiseAware &a = f.aware;
  if (!a.computed) {
    TextTable table({"term", "coef (private point estimate; no interval)"});
    for (size_t i = 0; i < f.terms.size(); ++i) table.add_row({f.terms[i], format_number(f.coef[i])});
    std::string text = table.render();
    if (!o.raw.no_intervals && f.settings.params.release_label_square == 0 && !f.robust)
      text += concat("\nIntervals that account for the privacy noise: ", a.refusal, ".\n");
    else if (!o.raw.no_intervals)
      text += concat("\nIntervals that account for the privacy noise: none: ", a.refusal,
                     ".\nAt these rows and epsilon the release cannot support a conclusion about "
                     "any coefficient.\n");
    return text;
  }
  const std::string pct = format_number(100.0 * o.level, 3) + "%";
  std::string text = concat(
      "coef: AdaSSP's private point estimate (ridge-shrunk). Intervals for beta that account for "
      "the sampling and the privacy noise (", raw_interval_method(f), ", ",
      o.bootstrap, " draws, from the unregularised released statistics, so not centred on coef; "
      "coverage measured, docs/regression_intervals.md).", robust_skipped_sentence(f),
      " They assume ", raw_interval_assumptions(f), ":\n\n");
  TextTable table({"term", "coef", "std.err", "p", "ci.lower", "ci.upper", "sign (" + pct + " CI)"});
  for (size_t i = 0; i < f.terms.size(); ++i)
    table.add_row({f.terms[i], format_number(f.coef[i]), format_number(a.se[i]),
                   format_number(a.p[i], 3), format_number(a.lower[i]), format_number(a.upper[i]),
                   interval_sign(a.lower[i], a.upper[i])});
  return text + table.render() + kSignNote;
}

std::string raw_receipt_text(const dpcov_adassp_receipt &receipt) {
  return concat("\nreceipt (on the fitted rows' scale): ", receipt.theorem,
                "\n  noise sigma: lambda_min ",
                format_number(receipt.sigma_lambda_min), ", X'X ",
                format_number(receipt.sigma_gram), " (off-diagonal ",
                format_number(receipt.sigma_gram_off_diagonal), "), X'y ",
                format_number(receipt.sigma_cross),
                receipt.label_square_released == 1
                    ? concat(", y'y ", format_number(receipt.sigma_label_square))
                    : std::string(),
                "; exact delta ", format_number(receipt.delta_exact, 3), "\n  ridge ",
                format_number(receipt.ridge), " = max(0, ", format_number(receipt.noise_norm_bound),
                " - released lambda_min ", format_number(receipt.released_lambda_min),
                "), eigenvalues raised to the floor: ", receipt.eigenvalues_floored, "\n");
}

void print_raw_text(const RawFit &f, const RegressOptions &o) {
  std::string text = raw_heading(f, o.raw) + raw_coefficients_text(f, o) +
                     raw_receipt_text(f.receipt);
  if (f.robust || f.meat_released)
    text += meat_text(f.sandwich, "fit");
  if (f.ledger) {
    const nlohmann::ordered_json &s = *f.ledger;
    text += concat("ledger ", o.raw.ledger.path, ": ", s["releases"].get<int64_t>(),
                   " releases, epsilon ", format_number(s["epsilon"].get<double>()), " of ",
                   format_number(s["epsilon_cap"].get<double>()), ", delta ",
                   format_number(s["delta"].get<double>()), " of ",
                   format_number(s["delta_cap"].get<double>()), "\n");
  }
  print_stdout(text);
}

// Reads the rows of MATRIX (streamed), bounds them (||x|| <= --bound, |y| <= --label-bound:
// clipped and counted, or refused with --reject), chooses a tighter bound privately with
// --bound-epsilon (a first pass over a file; proofs/private_bound.md, "Tightening a public
// bound") and clips the regressors to it, fits once with the rest of --epsilon (releasing y'y too
// unless --no-intervals) and prints the coefficients with noise-aware intervals for beta
// (dpcov_adassp_bootstrap_intervals, no further privacy cost) and the receipt. The intercept is a
// constant 1 counted inside the bound (--no-intercept drops it).
void run_regress_raw(const RegressOptions &o) {
  if (o.raw.mechanism != "adassp") {
    run_regress_gram({o.source.path, o.label, o.features, &o.raw,
                      o.raw_settings(), o.level,
                      o.bootstrap_settings(), o.json});
    return;
  }
  const RawFit fit = fit_raw_rows(o);
  warn_clipped(fit);
  if (!o.raw.privacy_unit.empty()) {
    std::fprintf(stderr, "dpcov regress: curator only (not for publication): %lld units, %lld "
                 "rows left out by --max-rows-per-unit %lld\n",
                 static_cast<long long>(fit.privacy_units),
                 static_cast<long long>(fit.rows_truncated),
                 static_cast<long long>(o.raw.max_rows_per_unit));
    if (!o.raw.no_intervals)
      std::fprintf(stderr, "dpcov regress: warning: no intervals: %s\n", kUnitsNoIntervals);
  }
  if (const std::string w = inconclusive_warning(fit.aware, fit.terms); !w.empty())
    std::fprintf(stderr, "dpcov regress: warning: %s\n", w.c_str());
  if (o.json)
    print_raw_json(fit, o);
  else
    print_raw_text(fit, o);
}

}  // namespace

void add_regress_command(CLI::App &app, std::function<void()> &run) {
  auto options = std::make_shared<RegressOptions>();
  CLI::App *command = app.add_subcommand(
      "regress",
      "Least squares (or ridge) regression from a released second-moment matrix G = A^T A: "
      "coefficients, standard errors, t-values, p-values, confidence intervals and the test of "
      "each coefficient = 0: post-processing of the release, at no privacy cost. With "
      "--epsilon, a private regression of the raw data rows in MATRIX instead, which spends that "
      "epsilon once.");
  add_matrix_source_options(*command, options->source);
  command->add_option("--label,-y", options->label, "Response column: name or 1-based number")
      ->required();
  command
      ->add_option("--features,-x", options->features,
                   "Feature columns, comma-separated names or numbers (default: every column but "
                   "the label and the intercept)")
      ->delimiter(',')
      ->allow_extra_args(false)
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
                      "Draws of the noise-aware intervals of a private release (default 999, "
                      "DPCOV_INTERVAL_DRAWS)");
  command->add_option("--seed", options->seed,
                      "Seed of the bootstrap draws (default: OS entropy); costs no privacy");
  add_raw_regress_options(*command, options->raw);
  command->callback([&run, options] {
    run = [options] {
      if (options->raw.requested())
        run_regress_raw(*options);
      else if (!options->raw.ledger.path.empty())
        fail(kExitUsage, "--ledger charges a fit on raw rows (--epsilon); the regression on a "
             "released matrix is post-processing and costs no privacy");
      else
        run_regress(*options);
    };
  });
}

}  // namespace dpcov::cli
