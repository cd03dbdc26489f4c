#include "compare_command.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <dpcov.h>
#include <nlohmann/json.hpp>

#include "../analysis/released_matrix.hpp"
#include "../analysis/text_table.hpp"
#include "../cli_error.hpp"
#include "../io/json_text.hpp"
#include "../io/gram_stream.hpp"
#include "../library_status.hpp"
#include "../io/readers/open_input.hpp"
#include "../options/input_options.hpp"
#include "../options/mechanism_options.hpp"
#include "../options/mechanism_registry.hpp"
#include "../options/rng_option.hpp"
#include "zcdp_release.hpp"

namespace dpcov::cli {

namespace {

struct CompareOptions {
  InputOptions input;
  double bound = 0.0;
  std::vector<std::string> mechanisms;
  std::vector<double> epsilons;
  std::vector<double> rhos;  // --rho: every mechanism at the (epsilon, delta) rho-zCDP implies
  std::optional<double> delta;
  std::optional<double> k_bound;  // coinpress
  std::optional<int64_t> steps;   // coinpress
  bool center = false;                 // coinpress: rows centred on its private mean
  std::optional<double> mean_radius;  // coinpress --center: the prior ||mean|| <= R
  int64_t repeats = 10;
  std::optional<uint64_t> seed;
  std::string label;
  std::vector<std::string> features;
  std::string intercept;
  double ridge = 0.0;
  std::optional<int64_t> projection_rows;
  std::optional<int64_t> posterior_dof;
  std::optional<int64_t> rank;
  bool json = false;
  bool quiet = false;
};

// Mean, sample standard deviation and quantiles of one metric over the repeats that produced it.
struct Spread {
  int64_t count = 0;
  double mean = NAN;
  double sd = NAN;
  double min = NAN;
  double median = NAN;
  double max = NAN;
};

Spread spread_of(std::vector<double> x) {
  Spread s;
  s.count = static_cast<int64_t>(x.size());
  if (x.empty()) return s;
  std::sort(x.begin(), x.end());
  // Summed in units of a power of two near the largest: errors near 1e305 (a Dong-Liang-Yi bound
  // of 1e153) overflowed the sum of squares, and the sd came out inf ("null" in the JSON).
  // Scaling by a power of two is exact, so in range the results are the same doubles.
  const double top = std::max(std::fabs(x.front()), std::fabs(x.back()));
  const double unit = top > 0.0 && std::isfinite(top) ? std::ldexp(1.0, std::ilogb(top)) : 1.0;
  double sum = 0.0;
  for (double v : x) sum += v / unit;
  const double mean = sum / static_cast<double>(x.size());
  double squares = 0.0;
  for (double v : x) squares += (v / unit - mean) * (v / unit - mean);
  s.mean = mean * unit;
  s.sd = x.size() > 1 ? std::sqrt(squares / static_cast<double>(x.size() - 1)) * unit : 0.0;
  s.min = x.front();
  s.max = x.back();
  const size_t mid = x.size() / 2;
  s.median = x.size() % 2 ? x[mid] : 0.5 * (x[mid - 1] + x[mid]);
  return s;
}

nlohmann::ordered_json spread_json(const Spread &s) {
  if (s.count == 0) return nullptr;
  return {{"mean", s.mean}, {"sd", s.sd}, {"min", s.min}, {"median", s.median}, {"max", s.max},
          {"count", s.count}};
}

std::string spread_text(const Spread &s) {
  if (s.count == 0) return "-";
  return format_number(s.mean, 3) + " +- " + format_number(s.sd, 2);
}

// The regression whose coefficients are compared, with columns resolved against the input.
struct RegressionSpec {
  int64_t label = -1;
  std::vector<int64_t> features;
  dpcov_regression_params params{};
  int64_t coefficients = 0;
};

// Fits the regression on `g`; false if the feature block is not positive definite (a noisy
// release can be indefinite), any other failure is an error.
bool fit(const RegressionSpec &spec, const std::vector<double> &g, int64_t d, int64_t n,
         std::vector<double> &coef) {
  const dpcov_status status = dpcov_regression_fit(
      DPCOV_ROW_MAJOR, d, g.data(), d, n, spec.label, spec.features.data(),
      static_cast<int64_t>(spec.features.size()), &spec.params, coef.data(), nullptr, nullptr,
      nullptr, nullptr, nullptr, nullptr);
  if (status == DPCOV_E_NOT_POSITIVE_DEFINITE) return false;
  library_check(status, "regression");
  return true;
}

// The stream of the zCDP mechanisms' generators: past every library id (< 1000 streams each).
constexpr uint64_t kZcdpStreamBase = 100;

// Every (mechanism, epsilon) of the table, planned before any data is read (the zCDP mechanisms on
// the rows: their options checked then, their plan made at the public n once the rows are read).
struct Planned {
  std::string mechanism;
  double epsilon;
  MechanismChoice choice;     // the Gram mechanisms
  dpcov_receipt receipt{};    // the Gram mechanisms
  bool on_rows = false;          // a zCDP mechanism on the rows (zcdp_release.hpp)
  std::optional<ZcdpPlan> zcdp;  // its plan, at the public n once the rows are read
  size_t column;                 // index of the epsilon (or --rho)
  uint64_t stream;
};

// The (epsilon, delta) of each column of the table: --epsilons, or, with --rho, the epsilon that
// each rho-zCDP implies at --delta.
std::vector<double> table_epsilons(const CompareOptions &o) {
  if (o.epsilons.empty() == o.rhos.empty())
    fail(kExitUsage, "give one of --epsilons (every mechanism at each (epsilon, delta); the zCDP "
         "ones at the largest rho that fits) or --rho (every mechanism at the (epsilon, delta) "
         "each rho-zCDP implies)");
  for (double eps : o.epsilons) check_positive_finite(eps, "--epsilons");
  if (o.rhos.empty()) return o.epsilons;
  if (!o.delta)
    fail(kExitUsage, "--rho needs --delta: every mechanism runs at the (epsilon, delta) that "
         "rho-zCDP implies");
  std::vector<double> epsilons;
  for (double rho : o.rhos) {
    check_positive_finite(rho, "--rho");
    double epsilon = 0.0;
    library_check(dpcov_zcdp_epsilon(rho, *o.delta, &epsilon),
                  concat("the epsilon of ", rho, "-zCDP at delta ", *o.delta));
    if (!(epsilon > 0.0))
      fail(kExitUsage, "--rho ", rho, " implies (0, ", *o.delta, ")-DP: no epsilon > 0 to run "
           "the other mechanisms at; give a larger rho or a smaller delta");
    epsilons.push_back(epsilon);
  }
  return epsilons;
}

// The options of a zCDP id at one column, checked (usage errors name the option): rho from --rho,
// or the largest that fits epsilon.
std::pair<ZcdpReleaseOptions, double> zcdp_column(const CompareOptions &o, const std::string &name,
                                                  double epsilon, size_t e) {
  ZcdpReleaseOptions z;
  z.mechanism.mechanism = name;
  z.mechanism.epsilon = epsilon;
  z.mechanism.delta = o.delta;
  // The compare's --bound is every DLY release's r; coinpress takes --k-bound, --steps instead.
  const bool coinpress = name == "coinpress";
  z.bound = coinpress ? 0.0 : o.bound;
  if (coinpress) {
    z.k_bound = o.k_bound;
    z.steps = o.steps;
    z.center = o.center;
    z.mean_radius = o.mean_radius;
  }
  const double rho = zcdp_checked_rho(z);
  return {z, o.rhos.empty() ? rho : o.rhos[e]};
}

// The plan of a zCDP id at one column for n rows: n is public under its replace-one guarantee,
// and its constants depend on it (a stand-in n refused settings that the real n allows).
ZcdpPlan plan_zcdp_column(const CompareOptions &o, const Planned &run, int64_t d, int64_t n) {
  const auto [z, rho] = zcdp_column(o, run.mechanism, run.epsilon, run.column);
  return plan_zcdp(z, rho, d, n);
}

// --center: CoinPress estimates the covariance around its own private mean (a share of rho), so
// centring is part of its release. The Gram mechanisms and the dly_* ids release the second
// moment of the rows as given: they have no mean of their own to centre on, and a table that mixed
// centred and uncentred releases against one exact matrix would compare nothing.
void check_centring(const CompareOptions &o) {
  if (o.mean_radius && !o.center)
    fail(kExitUsage, "--mean-radius applies to coinpress --center only");
  if (!o.center) return;
  for (const auto &name : o.mechanisms)
    if (name != "coinpress")
      fail(kExitUsage, "--center applies to coinpress only, which centres the rows on its own "
           "private CoinPress mean; ", name, " releases the uncentred second moment and has no "
           "private mean to centre on. Compare it without --center, or centre a release of the "
           "rows [B, x] (`dpcov release --add-constant`) with `pca --center` or `glasso --center`");
  if (!o.mean_radius)
    fail(kExitUsage, "coinpress --center needs --mean-radius R, the public prior ||mean|| <= R");
  if (!o.intercept.empty())
    fail(kExitUsage, "--intercept does not apply with --center: a centred column is 0, not a "
         "constant");
}

// The exact reference of --center: sum_i (x_i - xbar)(x_i - xbar)^T (d x d, row-major) of the
// rows as read (none clipped: coinpress refuses rows over --bound).
std::vector<double> centred_gram(const RowBuffer &rows, int64_t d) {
  const auto at = [d](int64_t i, int64_t j) { return static_cast<size_t>(i * d + j); };
  std::vector<double> mean(static_cast<size_t>(d), 0.0), centred(rows.values);
  for (int64_t i = 0; i < rows.rows; ++i)
    for (int64_t j = 0; j < d; ++j) mean[static_cast<size_t>(j)] += rows.values[at(i, j)];
  for (double &m : mean) m /= static_cast<double>(rows.rows);
  for (int64_t i = 0; i < rows.rows; ++i)
    for (int64_t j = 0; j < d; ++j) centred[at(i, j)] -= mean[static_cast<size_t>(j)];
  std::vector<double> gram(static_cast<size_t>(d * d), 0.0);
  for (int64_t i = 0; i < rows.rows; ++i)
    for (int64_t j = 0; j < d; ++j)
      for (int64_t k = 0; k < d; ++k) gram[at(j, k)] += centred[at(i, j)] * centred[at(i, k)];
  return gram;
}

std::vector<Planned> plan_runs(const CompareOptions &o, const std::vector<double> &epsilons,
                               int64_t d) {
  const bool coinpress = std::find(o.mechanisms.begin(), o.mechanisms.end(), "coinpress") !=
                         o.mechanisms.end();
  if (!coinpress && (o.k_bound || o.steps))
    fail(kExitUsage, "--k-bound and --steps apply to coinpress only");
  check_centring(o);
  std::vector<Planned> runs;
  for (const auto &name : o.mechanisms) {
    if (const std::optional<int32_t> id = gram_mechanism_id(name);
        id && !compare_runs(registry_entry(*id)))
      fail(kExitUsage, "--mechanisms: ", name, " reads an option compare does not take (a public "
           "lambda_min bound, or the unlock of a mechanism that is not private); run it with "
           "`dpcov release`");
    if (name == "coinpress_mean")
      fail(kExitUsage, "--mechanisms: coinpress_mean releases a mean (1 x d), which is not "
           "comparable with G here; run it with `dpcov release`");
    const auto &zcdp_ids = zcdp_rows_mechanisms();
    const auto zcdp = std::find(zcdp_ids.begin(), zcdp_ids.end(), name);
    for (size_t e = 0; e < epsilons.size(); ++e) {
      if (zcdp != zcdp_ids.end()) {
        // One generator stream per (mechanism, epsilon), as below.
        const uint64_t stream =
            (kZcdpStreamBase + static_cast<uint64_t>(zcdp - zcdp_ids.begin())) * 1000 + e;
        // The options are checked now; the plan needs the public n, known once the rows are read.
        zcdp_column(o, name, epsilons[e], e);
        runs.push_back({name, epsilons[e], {}, {}, true, std::nullopt, e, stream});
        continue;
      }
      MechanismOptions m;
      m.mechanism = name;
      m.epsilon = epsilons[e];
      m.delta = o.delta;
      MechanismChoice choice = resolve_mechanism(m);
      // Each release takes the option flags its registry entry reads, and no others.
      if (o.projection_rows && reads_option(choice.id, DPCOV_MECHANISM_OPTION_PROJECTION_ROWS))
        choice.params.projection_rows = *o.projection_rows;
      if (o.posterior_dof && reads_option(choice.id, DPCOV_MECHANISM_OPTION_POSTERIOR_DOF))
        choice.params.posterior_dof = *o.posterior_dof;
      if (o.rank && reads_option(choice.id, DPCOV_MECHANISM_OPTION_SPECTRAL))
        choice.params.rank = *o.rank;
      const dpcov_receipt receipt = plan_mechanism(choice, m, d, 0, o.bound);
      // One generator stream per (mechanism, epsilon): a row of the table does not depend on
      // which other mechanisms or epsilons are listed.
      const uint64_t stream = static_cast<uint64_t>(choice.id) * 1000 + e;
      runs.push_back({name, epsilons[e], choice, receipt, false, std::nullopt, e, stream});
    }
  }
  return runs;
}

// The zCDP mechanisms read the rows themselves: then the rows are held in memory (O(n d)) and the
// Gram matrix of the other mechanisms is accumulated from them; otherwise it is streamed.
GramHandle read_input(RowReader &reader, const CompareOptions &o, bool need_rows,
                      RowBuffer &rows) {
  if (!need_rows) return accumulate_gram(reader, o.bound, BoundPolicy{}, o.quiet);
  rows = read_rows(reader, o.bound, BoundPolicy{}, o.quiet);
  const int64_t d = reader.dim();
  dpcov_gram *raw = nullptr;
  library_check(dpcov_gram_create(&raw, d), "creating a Gram accumulator");
  GramHandle gram(raw);
  if (rows.rows > 0)
    library_check(dpcov_gram_add_rows(gram.get(), DPCOV_ROW_MAJOR, rows.rows, d,
                                      rows.values.data(), d, o.bound, DPCOV_BOUND_CLIP),
                  "accumulating the Gram matrix");
  return gram;
}

// What every release of the table starts from and is measured against.
struct CompareData {
  std::unique_ptr<RowReader> reader;
  int64_t d = 0;
  std::vector<Planned> runs;
  bool need_rows = false;  // a zCDP mechanism on the rows is listed
  RowBuffer rows;          // the rows in memory, when need_rows
  GramHandle gram;
  dpcov_gram_info info{};
  std::vector<double> exact;  // the reference: the Gram matrix (--center: centred), d x d
};

// Every (mechanism, epsilon) is planned before any data is read, so that a release that cannot
// happen fails at once with the release's own message (the zCDP mechanisms on the rows: their
// options; their plan needs the public n and is made once the rows are read). The data are read
// once; every release starts from the same rows, and every error is measured against the Gram
// matrix of the rows clipped to --bound.
CompareData read_compare_data(const CompareOptions &o, const std::vector<double> &epsilons) {
  CompareData data;
  data.reader = open_input(o.input);
  const int64_t d = data.reader->dim();
  data.d = d;
  data.runs = plan_runs(o, epsilons, d);
  bool coinpress = false;
  for (const Planned &run : data.runs) {
    data.need_rows = data.need_rows || run.on_rows;
    coinpress = coinpress || run.mechanism == "coinpress";
  }
  data.gram = read_input(*data.reader, o, data.need_rows, data.rows);
  data.info = gram_info(data.gram.get());
  if (data.info.rows == 0)
    fail(kExitInputData, data.reader->name(), ": the input has no rows to compare on");
  if (coinpress && data.info.clipped > 0)
    fail(kExitUsage, "coinpress takes the rows unclipped (it has no norm bound), while the "
         "errors are measured against the Gram matrix of the rows clipped to --bound; ",
         data.info.clipped, " rows are over --bound ", o.bound, ": give a bound over every row's norm");
  // The plans of the zCDP mechanisms, at the public n (replace-one), before any noise is drawn.
  for (Planned &run : data.runs)
    if (run.on_rows) run.zcdp = plan_zcdp_column(o, run, d, data.info.rows);
  data.exact.resize(static_cast<size_t>(d * d));
  library_check(dpcov_gram_get_matrix(data.gram.get(), DPCOV_ROW_MAJOR, data.exact.data(), d),
                "reading the Gram matrix");
  if (o.center) data.exact = centred_gram(data.rows, d);
  return data;
}

// --label: the regression compared, and its coefficients on the exact matrix in `exact_coef`.
std::optional<RegressionSpec> exact_regression(const CompareOptions &o, const CompareData &data,
                                               std::vector<double> &exact_coef) {
  if (o.label.empty()) return std::nullopt;
  const std::vector<std::string> &names = data.reader->column_names();
  const int64_t d = data.d;
  RegressionSpec spec;
  spec.label = resolve_column(names, o.label, "--label");
  int64_t intercept = -1;
  if (!o.intercept.empty()) intercept = resolve_column(names, o.intercept, "--intercept");
  if (o.features.empty()) {
    for (int64_t j = 0; j < d; ++j)
      if (j != spec.label && j != intercept) spec.features.push_back(j);
  } else {
    for (const auto &f : o.features) spec.features.push_back(resolve_column(names, f, "--features"));
  }
  library_check(dpcov_regression_params_default(&spec.params), "regression defaults");
  spec.params.intercept_column = intercept;
  spec.params.ridge = o.ridge;
  spec.coefficients = static_cast<int64_t>(spec.features.size()) + (intercept >= 0 ? 1 : 0);
  exact_coef.resize(static_cast<size_t>(std::max<int64_t>(spec.coefficients, 1)));
  const dpcov_status status = dpcov_regression_fit(
      DPCOV_ROW_MAJOR, d, data.exact.data(), d, data.info.rows, spec.label, spec.features.data(),
      static_cast<int64_t>(spec.features.size()), &spec.params, exact_coef.data(), nullptr,
      nullptr, nullptr, nullptr, nullptr, nullptr);
  library_check(status, "the regression on the exact Gram matrix");
  return spec;
}

// The errors of one (mechanism, epsilon) over the repeats.
struct RunErrors {
  Spread frobenius, spectral, coefficient;
  int64_t refused = 0;
  int64_t not_pd = 0;
};

RunErrors measure(const Planned &run, const CompareOptions &o, const CompareData &data,
                  const std::optional<RegressionSpec> &regression,
                  const std::vector<double> &exact_coef) {
  const int64_t d = data.d;
  dpcov_rng *raw = nullptr;
  if (o.seed)
    library_check(dpcov_rng_create_seeded(&raw, *o.seed, run.stream), "creating a generator");
  else
    library_check(dpcov_rng_create_from_entropy(&raw), "creating a generator");
  const RngHandle rng(raw);
  std::vector<double> released(static_cast<size_t>(d * d));
  std::vector<double> coef(exact_coef.size());
  std::vector<double> frobenius, spectral, coefficient;
  RunErrors out;
  for (int64_t r = 0; r < o.repeats; ++r) {
    dpcov_receipt receipt{};
    receipt.struct_size = sizeof receipt;
    const dpcov_status status =
        run.zcdp ? zcdp_release_gram(*run.zcdp, data.rows, d, rng.get(), released.data())
                 : dpcov_mechanism_release_gram(run.choice.id, data.gram.get(), run.epsilon,
                                                run.choice.delta, &run.choice.params, rng.get(),
                                                DPCOV_ROW_MAJOR, released.data(), d, &receipt);
    if (status == DPCOV_E_REFUSED) {
      // ols_jl's test failed: a retry with the same generator state gives the same answer, so
      // the remaining repeats are refused too.
      out.refused = o.repeats - r;
      break;
    }
    library_check(status, concat("releasing with ", run.mechanism, " at epsilon ", run.epsilon));
    // Measured as every analysis reads it: the release's estimate of the Gram matrix (the
    // additive Wishart's, the JL ridge's and the inverse Wishart's noise mean removed).
    int32_t unbiased = 0;
    if (!run.zcdp)
      library_check(dpcov_postprocess_gram_estimate(DPCOV_ROW_MAJOR, d, released.data(), d,
                                                    &receipt, &unbiased),
                    concat(run.mechanism, ": the release's estimate of the Gram matrix"));
    double error = 0.0;
    library_check(dpcov_metric_frobenius_error(DPCOV_ROW_MAJOR, d, d, released.data(), d,
                                               data.exact.data(), d, 1, &error),
                  "Frobenius error");
    frobenius.push_back(error);
    library_check(dpcov_metric_spectral_error(DPCOV_ROW_MAJOR, d, d, released.data(), d,
                                              data.exact.data(), d, 1, &error),
                  "spectral error");
    spectral.push_back(error);
    if (!regression) continue;
    if (fit(*regression, released, d, data.info.rows, coef)) {
      library_check(dpcov_metric_vector_error(regression->coefficients, coef.data(),
                                              exact_coef.data(), 1, &error),
                    "coefficient error");
      coefficient.push_back(error);
    } else {
      ++out.not_pd;
    }
  }
  out.frobenius = spread_of(frobenius);
  out.spectral = spread_of(spectral);
  out.coefficient = spread_of(coefficient);
  return out;
}

nlohmann::ordered_json run_json(const Planned &run, const RunErrors &e, const CompareOptions &o,
                                bool regression) {
  nlohmann::ordered_json row = {{"mechanism", run.mechanism},
                                {"epsilon", run.epsilon},
                                {"delta", run.zcdp ? *o.delta : run.receipt.delta},
                                {"repeats", o.repeats},
                                {"refused", e.refused},
                                {"frobenius_relative", spread_json(e.frobenius)},
                                {"spectral_relative", spread_json(e.spectral)}};
  if (regression) {
    row["coefficient_relative"] = spread_json(e.coefficient);
    row["regression_not_positive_definite"] = e.not_pd;
  }
  if (run.zcdp) {
    row["rho"] = run.zcdp->rho;
    row["privacy_model"] = run.zcdp->receipt["privacy_model"];
    row["receipt"] = run.zcdp->receipt;
  } else {
    row["receipt"] = receipt_json(run.receipt);
  }
  return row;
}

std::vector<std::string> run_cells(const Planned &run, const RunErrors &e,
                                   const nlohmann::ordered_json &row, bool rho_column,
                                   bool regression) {
  std::vector<std::string> cells{run.mechanism, format_number(run.epsilon),
                                 format_number(row["delta"].get<double>())};
  if (rho_column) cells.push_back(run.zcdp ? format_number(run.zcdp->rho) : "-");
  cells.insert(cells.end(), {spread_text(e.frobenius), spread_text(e.spectral)});
  if (regression) cells.push_back(spread_text(e.coefficient));
  std::string failed = "0";
  if (e.refused) failed = concat(e.refused, " refused");
  if (e.not_pd) failed = concat(e.not_pd, " not PD");
  cells.push_back(failed);
  return cells;
}

void print_compare_json(const CompareOptions &o, const CompareData &data,
                        const std::optional<RegressionSpec> &regression,
                        const std::vector<double> &exact_coef, nlohmann::ordered_json results) {
  const std::vector<std::string> &names = data.reader->column_names();
  nlohmann::ordered_json out = {{"command", "compare"},
                                {"private", false},
                                {"input", data.reader->describe()},
                                {"columns", names},
                                {"n", data.info.rows},
                                {"clipped", data.info.clipped},
                                {"bound", o.bound},
                                {"repeats", o.repeats},
                                {"seed", o.seed ? nlohmann::ordered_json(*o.seed) : nlohmann::ordered_json()}};
  if (o.center) out["center"] = true;  // coinpress on its private mean, the centred reference
  if (regression) {
    out["regression"] = {{"label", names[static_cast<size_t>(regression->label)]},
                         {"intercept", o.intercept.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(o.intercept)},
                         {"ridge", o.ridge},
                         {"exact_coefficients", exact_coef}};
  }
  out["results"] = std::move(results);
  print_stdout(json_text(out));
}

void print_compare_text(const CompareOptions &o, const CompareData &data,
                        const std::optional<RegressionSpec> &regression, const TextTable &table) {
  const std::vector<std::string> &names = data.reader->column_names();
  std::string text = concat("Utility on ", data.reader->name(), ": n = ", data.info.rows, " (",
                            data.info.clipped, " clipped), d = ", data.d, ", bound ", o.bound,
                            ", ", o.repeats, " repeats, seed ",
                            o.seed ? std::to_string(*o.seed) : "from OS entropy",
                            "\nErrors relative to the exact ",
                            o.center ? "centred Gram matrix sum (x_i - mean)(x_i - mean)^T"
                                     : "Gram matrix",
                            " of each release less the mean its mechanism's noise adds, mean +- "
                            "sd over the repeats");
  if (regression)
    text += concat("; coefficients of ", names[static_cast<size_t>(regression->label)],
                   " regressed on ", regression->features.size(), " features",
                   o.intercept.empty() ? "" : " and the intercept");
  text += ".\n\n" + table.render();
  if (!o.rhos.empty())
    text += "--rho: every mechanism runs at the (epsilon, delta) that rho-zCDP implies (Canonne, "
            "Kamath & Steinke 2020, Prop. 12); the zCDP mechanisms at rho itself.\n";
  else if (data.need_rows)
    text += "The zCDP mechanisms run at the largest rho whose (epsilon, delta) guarantee fits "
            "(Canonne, Kamath & Steinke 2020, Prop. 12); the others at (epsilon, delta).\n";
  if (o.center)
    text += "--center: coinpress centres the rows on its own private CoinPress mean (an eighth of "
            "rho, --mean-radius its prior) before estimating their covariance.\n";
  text += "NOT private: the errors are measured against the exact data (for choosing a "
          "mechanism and epsilon on public or synthetic data).\n";
  print_stdout(text);
}

void run_compare(const CompareOptions &o) {
  check_bound(o.bound, "--bound");
  if (o.repeats < 1) fail(kExitUsage, "--repeats must be at least 1, got ", o.repeats);
  const std::vector<double> epsilons = table_epsilons(o);
  const CompareData data = read_compare_data(o, epsilons);
  std::vector<double> exact_coef;
  const std::optional<RegressionSpec> regression = exact_regression(o, data, exact_coef);

  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  // The zCDP mechanisms' rho, when any is listed: the conversion stated on each line.
  const bool rho_column = data.need_rows || !o.rhos.empty();
  std::vector<std::string> header{"mechanism", "epsilon", "delta"};
  if (rho_column) header.push_back("rho (zCDP)");
  header.insert(header.end(), {"frobenius (rel)", "spectral (rel)"});
  if (regression) header.push_back("coef error (rel)");
  header.push_back("failed");
  TextTable table(header);
  for (const Planned &run : data.runs) {
    const RunErrors errors = measure(run, o, data, regression, exact_coef);
    results.push_back(run_json(run, errors, o, regression.has_value()));
    table.add_row(run_cells(run, errors, results.back(), rho_column, regression.has_value()));
  }
  if (o.json)
    print_compare_json(o, data, regression, exact_coef, std::move(results));
  else
    print_compare_text(o, data, regression, table);
}

}  // namespace

bool compare_runs(const dpcov_mechanism_entry &entry) {
  constexpr int32_t kNoFlag = DPCOV_MECHANISM_OPTION_LAMBDA_MIN | DPCOV_MECHANISM_OPTION_AUDIT_UNLOCK;
  return command_line_runs(entry) && !(entry.options & kNoFlag);
}

void add_compare_command(CLI::App &app, std::function<void()> &run) {
  auto options = std::make_shared<CompareOptions>();
  CLI::App *command = app.add_subcommand(
      "compare",
      "Runs the chosen mechanisms on one dataset across a list of epsilons, with repeats, and "
      "prints the relative Frobenius and spectral errors against the exact Gram matrix of each "
      "release read as every analysis reads it, less the mean its mechanism's noise adds (and the "
      "relative error of regression coefficients with --label), mean +- sd. The data are read "
      "once. The zCDP mechanisms (dly_*, coinpress) run on the rows (held in memory) at the "
      "largest rho whose (epsilon, delta) fits, or at --rho; the table states the rho. NOT "
      "private: the table uses the exact data.");
  add_input_options(*command, options->input);
  command->add_option("--bound", options->bound,
                      "Euclidean norm bound B of every row (> 0): rows over it are clipped for "
                      "the exact Gram matrix and the Gram mechanisms; the dly_* ids' r")
      ->required();
  command->add_option("--mechanisms,-m", options->mechanisms,
                      "Mechanisms, comma-separated: " + mechanism_list() + ", " +
                          zcdp_rows_mechanism_list() + " (not inverse_gauss, coinpress_mean)")
      ->required()
      ->delimiter(',')
      ->allow_extra_args(false);
  auto *epsilons =
      command->add_option("--epsilons,-e", options->epsilons, "Epsilons, comma-separated")
          ->delimiter(',')
          ->allow_extra_args(false);
  command->add_option("--rho", options->rhos,
                      "Instead of --epsilons: zCDP budgets rho, comma-separated; the zCDP "
                      "mechanisms run at rho, the others at the (epsilon, delta) it implies "
                      "(needs --delta)")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->excludes(epsilons);
  command->add_option("--delta,-d", options->delta,
                      "Delta for the (epsilon, delta) mechanisms");
  command->add_option("--repeats,-r", options->repeats, "Releases per (mechanism, epsilon) (default 10)");
  command->add_option("--seed", options->seed,
                      "Seed: each (mechanism, epsilon) gets its own reproducible stream "
                      "(default: OS entropy)");
  command->add_option("--label,-y", options->label,
                      "Also compare regression coefficients of this response column");
  command->add_option("--features,-x", options->features,
                      "Feature columns for --label (default: all but the label and intercept)")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->type_name("LIST");
  command->add_option("--intercept", options->intercept,
                      "Column holding a constant in every row: the unpenalised intercept");
  command->add_option("--ridge", options->ridge, "Ridge penalty of the regressions (default 0)");
  command->add_option("--projection-rows", options->projection_rows,
                      names_reading(DPCOV_MECHANISM_OPTION_PROJECTION_ROWS) +
                          ": projection rows r");
  command->add_option("--posterior-dof", options->posterior_dof,
                      names_reading(DPCOV_MECHANISM_OPTION_POSTERIOR_DOF) +
                          ": degrees of freedom m >= d");
  command->add_option("--rank", options->rank,
                      names_reading(DPCOV_MECHANISM_OPTION_SPECTRAL) +
                          ": eigenpairs released (default d)");
  command->add_option("--k-bound", options->k_bound,
                      "coinpress: the public prior I <= Sigma <= K I (required there)");
  command->add_option("--steps", options->steps, "coinpress: the number of steps t (default 3)");
  command->add_flag("--center", options->center,
                    "coinpress only: centre the rows on its own private CoinPress mean (an eighth "
                    "of the budget; needs --mean-radius) and measure the errors against the exact "
                    "centred Gram matrix. The other mechanisms release the uncentred second "
                    "moment: centre those with `release --add-constant` and `pca --center`");
  command->add_option("--mean-radius", options->mean_radius,
                      "coinpress --center: the public prior ||mean|| <= R on the rows' mean");
  command->add_flag("--json", options->json,
                    "Print JSON: mean, sd, min, median and max of each metric, and each receipt");
  command->add_flag("-q,--quiet", options->quiet, "No progress display");
  command->callback([&run, options] { run = [options] { run_compare(*options); }; });
}

}  // namespace dpcov::cli
