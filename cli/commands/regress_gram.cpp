#include "regress_gram.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>

#include <dpcov.h>
#include <nlohmann/json.hpp>

#include "../analysis/gram_fit_plan.hpp"
#include "../analysis/posterior_intervals.hpp"
#include "../analysis/robust_regression.hpp"
#include "../analysis/text_table.hpp"
#include "../cli_error.hpp"
#include "../io/gram_stream.hpp"
#include "../io/json_text.hpp"
#include "../io/regression_rows.hpp"
#include "../io/rereadable_input.hpp"
#include "../library_status.hpp"
#include "../options/constant_column_option.hpp"
#include "../options/mechanism_options.hpp"
#include "release_pipeline.hpp"

namespace dpcov::cli {

namespace {

// What the homoscedastic bootstrap of a Gram release models (estimators/ols_bootstrap.hpp).
constexpr const char *kGramBootstrapAssumes =
    "a linear model with constant error variance, given the design (heteroscedastic or "
    "misspecified data can make the intervals too narrow)";

// A fit of raw rows by a Gram mechanism and what is printed of it.
struct GramFit {
  const GramRegressRequest *request = nullptr;
  RegressionColumns columns;
  std::string label;  // the label column's name
  int32_t mechanism = 0;
  dpcov_mechanism_params params{};  // the neighbour relation, else the defaults
  bool exact = false;               // the registry gives the mechanism exact numerics
  bool robust = false;              // the meat is released and the intervals are sandwich ones
  RegressionBounds bounds;
  double bound_x = 0.0;             // B_X of the regressors [1, x] (or x)
  dpcov_sandwich_budget split{};    // robust: the fit's and the meat's shares
  double epsilon = 0.0, delta = 0.0;  // what the release spends
  int64_t dim = 0;                  // of the bounded rows [1, x, y]
  double row_bound = 0.0;
  PlanHandle plan;                  // exact numerics: the release's plan, its grid
  RegressionGram counts;
  std::vector<double> released;     // q x q, row-major, the constant column at its nominal 1
  dpcov_receipt receipt{};
  int64_t n = 0;                    // the rows the inference reads
  std::vector<double> coef;
  std::string no_fit;               // why the release has no least-squares coefficients
  bool mean_removed = false;        // the fit read the release less its mechanism's noise mean
  RobustMeat meat;
  bool meat_released = false;
  NoiseAware aware;
  std::optional<nlohmann::ordered_json> ledger;

  bool n_public() const { return params.neighbour == DPCOV_NEIGHBOUR_REPLACE_ONE; }
  int64_t q() const { return dim; }
};

// The bounding of the rows [1, x, y] the release reads: x clipped to --bound, y to --label-bound,
// a constant 1 in front with the intercept (Python's bound_rows and GramAccumulator.bounded).
dpcov_row_bounding row_spec(const GramFit &f) {
  dpcov_row_bounding spec = regression_bounding(f.bounds);
  spec.neighbour = f.params.neighbour;
  return spec;
}

// row_spec(), for a release without exact numerics with the release it is for (Python's
// GramAccumulator.bounded naming it): idealized as asked, or for a mechanism without exact
// numerics, which then ignores Python's default "exact".
dpcov_row_bounding fit_bounding(const GramFit &f) {
  dpcov_row_bounding spec = row_spec(f);
  if (!f.exact) {
    spec.mechanism = f.mechanism;
    spec.epsilon = f.epsilon;
    spec.delta = f.delta;
    spec.numerics =
        f.request->raw->numerics == "idealized" ? DPCOV_NUMERICS_IDEALIZED : DPCOV_NUMERICS_EXACT;
  }
  return spec;
}

// The release's epsilon for messages: under robust errors the fit's share of --epsilon.
std::string release_share(const GramFit &f) {
  GramFitPlan shares;
  shares.robust = f.robust;
  shares.epsilon = f.epsilon;
  return gram_fit_share(shares, *f.request->raw->epsilon);
}

dpcov_receipt release_plan(const GramFit &f);

// The budget (split with the meat under robust errors), the bounded rows' dimension and norm
// bound, and the release's plan (exact or idealized): all from public values, before any row, so
// that a theorem's precondition fails here.
void plan_fit(GramFit &f) {
  const GramRegressRequest &r = *f.request;
  const RawRegressOptions &o = *r.raw;
  library_check(dpcov_mechanism_params_default(&f.params), "mechanism defaults");
  f.params.neighbour = r.settings.params.neighbour;
  f.bounds = {o.bound, o.bound, o.label_bound, !o.no_intercept, o.reject};
  GramFitQuery q;
  q.mechanism = o.mechanism;
  q.numerics = o.numerics;
  q.bounds = f.bounds;
  q.features = static_cast<int64_t>(f.columns.features.size());
  q.neighbour = f.params.neighbour;
  q.robust = o.errors == "robust" && !o.no_intervals;
  q.epsilon = *o.epsilon;
  q.delta = o.delta;
  const GramFitPlan g = plan_gram_fit(q);
  f.mechanism = g.mechanism;
  f.exact = g.exact;
  f.bound_x = g.bound_x;
  f.robust = g.robust;
  f.split = g.split;
  f.epsilon = g.epsilon;
  f.delta = g.delta;
  f.dim = g.dim;
  f.row_bound = g.row_bound;
  if (!f.exact) {
    release_plan(f);
    return;
  }
  dpcov_plan *plan = nullptr;
  library_check(dpcov_plan_create(&plan, f.mechanism, DPCOV_NUMERICS_EXACT, f.dim, 0, f.row_bound,
                                  f.epsilon, f.delta, &f.params),
                concat(o.mechanism, " with exact numerics ", release_share(f)));
  f.plan.reset(plan);
}

// The public plan of the release, for the ledger's check before any draw.
dpcov_receipt release_plan(const GramFit &f) {
  if (f.plan) return plan_receipt(f.plan.get());
  dpcov_receipt planned{};
  planned.struct_size = sizeof planned;
  library_check(dpcov_mechanism_plan(f.mechanism, f.dim, 0, f.row_bound, f.epsilon, f.delta,
                                     &f.params, &planned),
                concat(f.request->raw->mechanism, " ", release_share(f)));
  return planned;
}

// The release of the accumulated rows from `rng`, and the constant column read at its nominal 1
// (an exact release holds it rounded to its grid: dpcov_postprocess_constant_rescale).
void release_rows(GramFit &f, dpcov_gram *gram, const ReleaseDraws &draws) {
  const int64_t q = f.q();
  f.released.assign(static_cast<size_t>(q * q), 0.0);
  f.receipt.struct_size = sizeof f.receipt;
  draws.check(f.plan ? dpcov_plan_release_gram(f.plan.get(), gram, draws.rng(), DPCOV_ROW_MAJOR,
                                               f.released.data(), q, &f.receipt)
                     : dpcov_mechanism_release_gram(f.mechanism, gram, f.epsilon, f.delta,
                                                    &f.params, draws.rng(), DPCOV_ROW_MAJOR,
                                                    f.released.data(), q, &f.receipt),
              concat(f.request->path, ": ", f.request->raw->mechanism, " ", release_share(f)));
  if (!f.bounds.intercept) return;
  double held = 1.0;
  if (f.plan) {
    const dpcov_exact_grid grid = plan_grid(f.plan.get());
    library_check(dpcov_exact_grid_value(f.row_bound, grid.bits, 1.0, &held),
                  "the constant column on the release's grid");
  }
  library_check(dpcov_postprocess_constant_rescale(DPCOV_ROW_MAJOR, q, f.released.data(), q, 0,
                                                   held, 1.0),
                "the constant column of the release");
}

dpcov_regression_params regression_params(const GramFit &f) {
  dpcov_regression_params params;
  library_check(dpcov_regression_params_default(&params), "regression defaults");
  params.intercept_column = f.bounds.intercept ? 0 : -1;
  params.level = f.request->level;
  return params;
}

// The regressors' columns of the release, the intercept's excluded.
std::vector<int64_t> regressor_columns(const GramFit &f) {
  std::vector<int64_t> features;
  for (int64_t j = f.bounds.intercept ? 1 : 0; j < f.q() - 1; ++j) features.push_back(j);
  return features;
}

// Why a fit refuses when n is at most the p coefficients: the inference needs n - p >= 1
// residual degrees of freedom. Under add/remove the released count is all it may read of n.
std::string too_few_rows(const GramFit &f, int64_t p) {
  if (f.n_public())
    return concat("the fit needs more rows than its ", p, " coefficients, got ", f.n);
  return concat("the released count of rows (the constant column's entry: n + noise) is ", f.n,
                ", at most the ", p, " coefficients: the privacy noise swamps the count; a larger "
                "epsilon or more rows");
}

// n for the inference (public under replace-one; else the count the estimate below holds in its
// constant column, rounded half to even as Python's round) and the OLS coefficients of the
// release, or why it has none (its feature block is not positive definite after the noise, or
// its count is at most p: an output, not an error).
// The fit reads the release's estimate of the Gram matrix (dpcov_postprocess_gram_estimate: the
// additive Wishart's dof * scale * I and the JL ridge's w^2 I subtracted): the coefficients then
// estimate beta, as the noise-aware intervals' centre does, not a ridge solution with the noise's
// mean as its penalty.
void fit_release(GramFit &f) {
  const auto size = static_cast<size_t>(f.q() - 1);
  f.coef.assign(size, std::nan(""));
  std::vector<double> coef(size), se(size), t(size), p(size), lo(size), hi(size);
  const std::vector<int64_t> features = regressor_columns(f);
  const dpcov_regression_params params = regression_params(f);
  dpcov_regression_summary summary{};
  summary.struct_size = sizeof summary;
  std::vector<double> unbiased = f.released;
  int32_t is_unbiased = 0;
  library_check(dpcov_postprocess_gram_estimate(DPCOV_ROW_MAJOR, f.q(), unbiased.data(), f.q(),
                                                &f.receipt, &is_unbiased),
                "the release's estimate of the Gram matrix");
  f.mean_removed = unbiased != f.released;
  // Clamped so that a count far beyond any n converts to an integer (and stays far beyond p).
  const double count = std::clamp(unbiased[0], -0x1p62, 0x1p62);
  f.n = f.n_public() ? f.counts.rows : static_cast<int64_t>(std::nearbyint(count));
  if (f.n <= f.q() - 1) {
    f.no_fit = too_few_rows(f, f.q() - 1);
    return;
  }
  const dpcov_status status = dpcov_regression_fit(
      DPCOV_ROW_MAJOR, f.q(), unbiased.data(), f.q(), f.n, f.q() - 1, features.data(),
      static_cast<int64_t>(features.size()), &params, coef.data(), se.data(), t.data(), p.data(),
      lo.data(), hi.data(), &summary);
  if (status == DPCOV_E_NOT_POSITIVE_DEFINITE) {
    f.no_fit = "the released feature block is not positive definite: the privacy noise swamps "
               "X'X here (or a feature is constant or collinear); a larger epsilon or more rows, "
               "or -m adassp, whose ridge keeps every fit defined";
    return;
  }
  if (status == DPCOV_E_PRECONDITION) {
    f.no_fit = dpcov_last_error_message();
    return;
  }
  library_check(status, "the regression of the release");
  f.coef = coef;
}

// The intervals: robust from the released meat (its noise redrawn in every world), else the
// homoscedastic bootstrap; from the release's generator after its draws, as Python, unless
// --seed gives the bootstrap its own.
void intervals(GramFit &f, dpcov_rng *release_rng) {
  const GramRegressRequest &r = *f.request;
  BootstrapSettings bootstrap = r.bootstrap;
  bootstrap.release_rng = release_rng;
  RngHandle own;
  dpcov_rng *const rng = bootstrap_generator(bootstrap, own);
  const auto size = static_cast<size_t>(f.q() - 1);
  NoiseAware &a = f.aware;
  for (auto *v : {&a.coef, &a.se, &a.p, &a.lower, &a.upper}) v->assign(size, 0.0);
  dpcov_receipt stated = f.receipt;  // n as the inference reads it (the released count)
  stated.n = f.n;
  const std::vector<int64_t> features = regressor_columns(f);
  const dpcov_regression_params params = regression_params(f);
  const int64_t q = f.q(), nf = static_cast<int64_t>(features.size());
  a.conclusive.assign(size, 0);
  // A coefficient along a direction the release may have made goes without an interval (nan,
  // named in a warning); the others keep theirs.
  const dpcov_status status = dpcov_ols_intervals(
      DPCOV_ROW_MAJOR, q, f.released.data(), q, &stated, q - 1, features.data(), nf, &params,
      f.robust ? f.meat.meat.data() : nullptr, q - 1, f.robust ? &f.meat.receipt : nullptr,
      r.bootstrap.draws, rng, a.coef.data(), a.se.data(), a.p.data(), a.lower.data(),
      a.upper.data(), a.conclusive.data(), &a.noise_norm, &a.kappa);
  if (status == DPCOV_E_PRECONDITION) {
    a.refusal = dpcov_last_error_message();
    return;
  }
  library_check(status, "the noise-aware intervals");
  a.computed = true;
}

// The meat's second pass (robust errors, a release with coefficients): the rows bounded as the
// release read them, their residuals at its coefficients, Analyze Gauss at the meat's share from
// the release's generator; a failure after its draw is charged.
void release_meat_of(GramFit &f, RereadableInput &input, const ReleaseDraws &draws) {
  const std::unique_ptr<RowReader> reader = input.open();
  dpcov_status status = DPCOV_OK;
  f.meat = release_meat(*reader, f.columns, row_spec(f), f.coef, f.bound_x, f.split,
                        f.params.neighbour, f.counts.rows, draws.rng(), status);
  draws.check(status, concat(f.request->path, ": the meat of the robust intervals"));
  f.meat_released = true;
}

// The fit on the balanced rows in the data's units: coefficients, standard errors and
// interval ends.
void to_data_units(GramFit &f) {
  scale_by_factors(
      regression_unit_factors(f.bounds, static_cast<int64_t>(f.columns.features.size())),
      {&f.coef, &f.aware.coef, &f.aware.se, &f.aware.lower, &f.aware.upper});
}

// The charges: the release and, under robust errors, the meat (its plan until it is released).
std::vector<LedgerCharge> charges(const GramFit &f, bool released) {
  std::vector<LedgerCharge> out{released ? f.receipt : release_plan(f)};
  if (f.robust)
    out.emplace_back(f.meat_released ? f.meat.receipt
                                     : meat_plan(f.q() - 1, f.split, f.params.neighbour));
  return out;
}

// The whole fit: the plan and the ledger's check, the rows into the release's accumulator, the
// release, the fit, the meat (robust errors, where the release has coefficients), the charges,
// and the intervals.
GramFit fit_gram(const GramRegressRequest &r) {
  GramFit f;
  f.request = &r;
  InputOptions options;
  options.path = r.path;
  options.spool = r.raw->spool;
  const bool robust_asked = r.raw->errors == "robust" && !r.raw->no_intervals;
  RereadableInput input(options, robust_asked, r.settings.params.neighbour ==
                                                   DPCOV_NEIGHBOUR_REPLACE_ONE);
  std::unique_ptr<RowReader> reader = input.open();
  f.columns = resolve_regression_columns(*reader, r.label, r.features, !r.raw->no_intercept);
  f.label = reader->column_names()[static_cast<size_t>(f.columns.label)];
  plan_fit(f);
  const std::unique_ptr<LedgerFile> ledger =
      checked_ledger(r.raw->ledger, [&](const LedgerFile &) { return charges(f, false); });
  const std::string output = concat("regress ", r.path);
  const ReleaseDraws draws(ledger.get(), [&] { return charges(f, false); }, r.raw->seed, output,
                           {"regress", "--noise-seed"});
  dpcov_gram *raw = nullptr;
  const dpcov_row_bounding spec = fit_bounding(f);
  const int64_t cols = static_cast<int64_t>(f.columns.features.size()) + 1;
  library_check(f.plan ? dpcov_gram_create_planned(&raw, cols, &spec, f.plan.get())
                       : dpcov_gram_create_bounded(&raw, cols, &spec),
                concat(r.path, ": ", cols, " columns"));
  const GramHandle gram(raw);
  f.counts = accumulate_regression_into(*reader, f.columns, f.bounds, gram.get(), r.raw->quiet);
  // Refused only where n is public: under add/remove the empty dataset neighbours every one-row
  // one, and is released like it.
  if (f.counts.rows == 0 && f.n_public())
    fail(kExitInputData, reader->name(), ": the input has no rows");
  release_rows(f, gram.get(), draws);
  fit_release(f);
  if (!f.no_fit.empty()) f.robust = false;  // no coefficients: no meat, its share unspent
  if (f.robust) release_meat_of(f, input, draws);
  // Charged before anything is printed: a failure leaves the budget spent and no output.
  draws.charge(charges(f, true), output);
  if (ledger) f.ledger = ledger->summary();
  if (f.no_fit.empty() && !r.raw->no_intervals) intervals(f, draws.rng());
  to_data_units(f);
  return f;
}

}  // namespace

namespace {

// How the printed intervals were computed, and what they assume.
std::string gram_interval_method(const GramFit &f) {
  return f.robust ? "robust (sandwich) parametric bootstrap from the mechanism's noise law and "
                    "the released meat sum r^2 x x', its noise redrawn in every world"
                  : "parametric bootstrap from the mechanism's noise law";
}

std::string gram_interval_assumptions(const GramFit &f) {
  return concat("no clipping below --bound; ", f.robust ? kRobustAssumes : kGramBootstrapAssumes);
}

// Why there is no interval, or "" when there are intervals.
std::string gram_no_interval(const GramFit &f) {
  if (f.request->raw->no_intervals) return "";
  if (!f.no_fit.empty()) return concat("the release has no least-squares coefficients: ", f.no_fit);
  return f.aware.computed ? "" : f.aware.refusal;
}

void print_gram_json(const GramFit &f) {
  const GramRegressRequest &r = *f.request;
  nlohmann::ordered_json out;
  out["command"] = "regress";
  out["input"] = r.path;
  out["label"] = f.label;
  out["mechanism"] = r.raw->mechanism;
  out["differentially_private"] = f.receipt.seed_fixed == 0;
  out["n_public"] = f.n_public();
  if (f.n_public()) out["rows"] = f.counts.rows;
  out["epsilon_total"] = *r.raw->epsilon;
  out["delta_total"] = r.raw->delta;
  out["units"] =
      balanced_units_json(f.bounds, static_cast<int64_t>(f.columns.features.size()));
  const NoiseAware &a = f.aware;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (size_t i = 0; i < f.columns.terms.size(); ++i) {
    nlohmann::ordered_json row = {{"term", f.columns.terms[i]}};
    row["coef"] = std::isfinite(f.coef[i]) ? nlohmann::ordered_json(f.coef[i])
                                           : nlohmann::ordered_json();
    if (a.computed)
      row["noise_aware"] = {{"std_err", a.se[i]}, {"p", a.p[i]}, {"ci_lower", a.lower[i]},
                            {"ci_upper", a.upper[i]},
                            {"sign", interval_sign(a.lower[i], a.upper[i])},
                            {"conclusive", a.conclusive[i] == DPCOV_COEFFICIENT_BOUNDED}};
    rows.push_back(row);
  }
  out["coefficients"] = rows;
  const char *errors = f.robust ? "robust" : "homoscedastic";
  if (a.computed)
    out["noise_aware"] = {{"method", gram_interval_method(f)}, {"errors", errors},
                          {"level", r.level}, {"draws", r.bootstrap.draws},
                          {"assumes", gram_interval_assumptions(f)}};
  else if (!r.raw->no_intervals)
    out["noise_aware"] = {{"refused", gram_no_interval(f)}, {"errors", errors}};
  if (f.robust) out["sandwich"] = sandwich_json(f.split, f.meat);
  out["receipt"] = public_receipt_json(f.receipt);
  if (f.ledger) out["ledger"] = *f.ledger;
  print_stdout(json_text(out));
}

std::string gram_table_text(const GramFit &f) {
  const NoiseAware &a = f.aware;
  const GramRegressRequest &r = *f.request;
  if (!a.computed) {
    TextTable table({"term", "coef (OLS of the release; no interval)"});
    for (size_t i = 0; i < f.columns.terms.size(); ++i)
      table.add_row({f.columns.terms[i], format_number(f.coef[i])});
    const std::string why = gram_no_interval(f);
    return table.render() +
           (why.empty() ? std::string()
                        : concat("\nIntervals that account for the privacy noise: none: ", why,
                                 ".\n"));
  }
  std::string text = concat(
      "coef: the least-squares coefficients of the release",
      f.mean_removed ? " less the mean its mechanism's noise adds (proofs/gram_estimate.md)" : "",
      ". Intervals that account for the "
      "sampling and the privacy noise (", gram_interval_method(f), ", ", r.bootstrap.draws,
      " draws; coverage measured, docs/regression_intervals.md). They assume ",
      gram_interval_assumptions(f), ":\n\n");
  TextTable table({"term", "coef", "std.err", "p", "ci.lower", "ci.upper",
                   "sign (" + format_number(100.0 * r.level, 3) + "% CI)"});
  for (size_t i = 0; i < f.columns.terms.size(); ++i)
    table.add_row({f.columns.terms[i], format_number(f.coef[i]), format_number(a.se[i]),
                   format_number(a.p[i], 3), format_number(a.lower[i]), format_number(a.upper[i]),
                   interval_sign(a.lower[i], a.upper[i])});
  return text + table.render();
}

void print_gram_text(const GramFit &f) {
  const GramRegressRequest &r = *f.request;
  const RawRegressOptions &o = *r.raw;
  std::string text = concat(
      o.mechanism, " regression of ", f.label, " on ", f.columns.terms.size(),
      f.columns.terms.size() == 1 ? " term from " : " terms from ",
      r.path, " (epsilon = ", *o.epsilon, ", delta = ", o.delta, ", ", o.neighbour,
      f.receipt.seed_fixed != 0 ? "; NOT private: --noise-seed fixes the noise" : "", ")\n",
      f.n_public() ? concat("rows ", f.counts.rows)
                   : std::string("rows: withheld (private under add_remove)"),
      " (||x|| <= ", o.bound, ", |y| <= ", o.label_bound,
      balanced_rows_text(f.bounds.intercept), ")\n\n",
      gram_table_text(f), "\nreceipt (on the fitted rows' scale):\n",
      receipt_text(public_receipt_json(f.receipt)));
  if (f.robust)
    text += meat_text(f.split, "release");
  if (f.ledger)
    text += concat("ledger ", o.ledger.path, ": ", (*f.ledger)["releases"].get<int64_t>(),
                   " releases, epsilon ", format_number((*f.ledger)["epsilon"].get<double>()),
                   " of ", format_number((*f.ledger)["epsilon_cap"].get<double>()), "\n");
  print_stdout(text);
}

}  // namespace

void warn_clipped_rows(const RegressionGram &data, bool n_public, bool scaled, bool tightened) {
  if (scaled) {
    if (data.clamped > 0)
      std::fprintf(stderr, "dpcov regress: warning: %lld values were outside their --bounds "
                   "range and were clamped to it, which biases the fit towards the range "
                   "(curator only: not for publication)\n",
                   static_cast<long long>(data.clamped));
    return;
  }
  if (data.clipped == 0) return;
  const std::string count = n_public ? concat(data.clipped, " of ", data.rows)
                                     : concat(data.clipped);
  std::fprintf(stderr, "dpcov regress: warning: %s rows were over %s or --label-bound and "
               "were clipped to them, which shrinks the fit (curator only: not for "
               "publication)\n", count.c_str(),
               tightened ? "the bound chosen below --bound" : "--bound");
}

void run_regress_gram(const GramRegressRequest &request) {
  const GramFit fit = fit_gram(request);
  warn_clipped_rows(fit.counts, fit.n_public(), false, false);
  if (!fit.no_fit.empty())
    std::fprintf(stderr, "dpcov regress: warning: no coefficients and no intervals (nan): %s\n",
                 fit.no_fit.c_str());
  if (const std::string w = inconclusive_warning(fit.aware, fit.columns.terms); !w.empty())
    std::fprintf(stderr, "dpcov regress: warning: %s\n", w.c_str());
  if (request.json)
    print_gram_json(fit);
  else
    print_gram_text(fit);
}

}  // namespace dpcov::cli
