#include "regress_raw.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>

#include <dpcov.h>
#include <nlohmann/json.hpp>

#include "../analysis/released_matrix.hpp"
#include "../analysis/text_table.hpp"
#include "../cli_error.hpp"
#include "../io/interrupt.hpp"
#include "../io/json_text.hpp"
#include "../library_status.hpp"
#include "../options/private_bound_option.hpp"
#include "../io/progress.hpp"
#include "../io/readers/open_input.hpp"
#include "../io/row_bounding.hpp"
#include "../options/input_options.hpp"
#include "../options/rng_option.hpp"

namespace dpcov::cli {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

int32_t named_choice(const std::string &value, const char *option,
                     std::initializer_list<const char *> names) {
  int32_t index = 0;
  std::string allowed;
  for (const char *name : names) {
    if (value == name) return index;
    allowed += concat(index == 0 ? "" : ", ", name);
    ++index;
  }
  fail(kExitUsage, option, " must be one of ", allowed, "; got '", value, "'");
}

struct Columns {
  int64_t label = -1;
  std::vector<int64_t> features;
  std::vector<std::string> terms;  // the intercept first when there is one
};

Columns resolve_columns(const RowReader &reader, const std::string &label,
                        const std::vector<std::string> &features, bool intercept) {
  const std::vector<std::string> &names = reader.column_names();
  Columns c;
  c.label = resolve_column(names, label, "--label");
  if (features.empty()) {
    for (int64_t j = 0; j < reader.dim(); ++j)
      if (j != c.label) c.features.push_back(j);
  } else {
    for (const auto &spec : features) {
      const int64_t j = resolve_column(names, spec, "--features");
      if (j == c.label) fail(kExitUsage, "--features: column '", spec, "' is the label");
      c.features.push_back(j);
    }
  }
  if (c.features.empty()) fail(kExitUsage, "--features: the regression needs a regressor");
  if (intercept) c.terms.push_back("(intercept)");
  for (int64_t j : c.features) c.terms.push_back(names[static_cast<size_t>(j)]);
  return c;
}

// The public candidates --bound / 1.25^k, k = 12, ..., 1, 0, in increasing order: a bound chosen
// among them never loosens the user's (proofs/private_bound.md, "Tightening a public bound"; the
// same grid as Python's dpcov.private_bound.below_grid).
constexpr int kTightenSteps = 12;
constexpr double kTightenRatio = 1.25;

std::vector<double> grid_below(double bound) {
  std::vector<double> grid;
  for (int k = kTightenSteps; k >= 1; --k) grid.push_back(bound / std::pow(kTightenRatio, k));
  grid.push_back(bound);
  return grid;
}

// The first pass: the regressors' norms counted per cell of grid_below(--bound) (private: the
// counts leave only through the mechanism), then the choice with `epsilon` aiming at
// floor((1 - quantile) n) rows above the bound (n public under replace-one).
double choose_tighter_bound(RowReader &reader, const Columns &c, const RawRegressOptions &o,
                            double epsilon, dpcov_rng *rng) {
  const std::vector<double> grid = grid_below(o.bound);
  std::vector<int64_t> histogram(grid.size() + 1, 0);
  const int64_t p = static_cast<int64_t>(c.features.size());
  std::vector<double> regressors;
  int64_t rows = 0;
  Chunk chunk;
  while (reader.next_chunk(chunk)) {
    check_interrupted();
    // The regressors gathered; the library measures their norms.
    regressors.resize(static_cast<size_t>(chunk.rows * p));
    for (int64_t i = 0; i < chunk.rows; ++i)
      for (int64_t k = 0; k < p; ++k)
        regressors[static_cast<size_t>(i * p + k)] =
            chunk.values[static_cast<size_t>(i * chunk.dim + c.features[static_cast<size_t>(k)])];
    library_check(dpcov_private_bound_histogram(grid.data(), static_cast<int64_t>(grid.size()),
                                                DPCOV_ROW_MAJOR, chunk.rows, p,
                                                regressors.data(), p, histogram.data()),
                  "the tighter bound's histogram");
    rows += chunk.rows;
  }
  check_interrupted();
  if (rows == 0) fail(kExitInputData, reader.name(), ": the input has no rows");
  const auto target =
      static_cast<int64_t>(std::floor((1.0 - o.bound_quantile) * static_cast<double>(rows)));
  double chosen = 0.0;
  library_check(dpcov_private_bound_select(grid.data(), static_cast<int64_t>(grid.size()),
                                           histogram.data(), target, epsilon, rng, nullptr,
                                           &chosen),
                "choosing a bound below --bound");
  return chosen;
}

struct Accumulated {
  std::vector<double> gram;  // q x q, row-major: [1,] x, y
  int64_t rows = 0;
  int64_t clipped = 0;
};

// A row over the user's --bound or --label-bound under --reject, at its file position.
[[noreturn]] void report_rejected(const RowReader &reader, const Chunk &chunk,
                                  const dpcov_row_refusal &refusal,
                                  const dpcov_row_bounding &spec) {
  const int64_t i = refusal.row;
  if (refusal.label) {
    const double y = chunk.values[static_cast<size_t>(i * chunk.dim + chunk.dim - 1)];
    fail(kExitInputData, reader.row_location(chunk, i), ": row ", chunk.first_row + i + 1,
         " has label ", y, " outside [-", spec.label_bound, ", ", spec.label_bound,
         "] (--label-bound; --reject refuses such rows)");
  }
  fail(kExitInputData, reader.row_location(chunk, i), ": row ", chunk.first_row + i + 1,
       " has regressors of Euclidean norm ", refused_norm_text(refusal), " > --bound ", spec.bound,
       " (--reject refuses such rows; without it they are scaled down to the bound)");
}

// Streams the rows into the Gram matrix of [1, x, y], bounded by the library: x scaled to norm
// <= clip_bound (<= --bound) and y clipped to [-label_bound, label_bound], or, with --reject,
// refused when over the user's bounds, at the row's file position.
Accumulated accumulate(RowReader &reader, const Columns &c, bool intercept,
                       const RawRegressOptions &o, double clip_bound) {
  const int64_t p = static_cast<int64_t>(c.features.size());
  dpcov_row_bounding spec = row_bounding(clip_bound, DPCOV_BOUND_CLIP);
  spec.constant = intercept ? 1.0 : 0.0;
  spec.label_bound = o.label_bound;
  dpcov_row_bounding strict = spec;
  strict.bound = o.bound;
  strict.policy = DPCOV_BOUND_REJECT;
  dpcov_gram *raw = nullptr;
  library_check(dpcov_gram_create_bounded(&raw, p + 1, &spec),
                concat(reader.name(), ": ", p + 1, " columns"));
  const std::unique_ptr<dpcov_gram, void (*)(dpcov_gram *)> gram(
      raw, [](dpcov_gram *g) { dpcov_gram_destroy(&g); });
  Progress progress(!o.quiet, reader.total_bytes());
  Accumulated out;
  Chunk chunk, gathered;
  std::vector<double> scratch;
  while (reader.next_chunk(chunk)) {
    // The regressors and the label, gathered as rows [x, y].
    gathered.rows = chunk.rows;
    gathered.dim = p + 1;
    gathered.first_row = chunk.first_row;
    gathered.lines = chunk.lines;
    gathered.values.resize(static_cast<size_t>(chunk.rows * (p + 1)));
    for (int64_t i = 0; i < chunk.rows; ++i) {
      const double *row = chunk.values.data() + i * chunk.dim;
      double *to = gathered.values.data() + i * (p + 1);
      for (int64_t k = 0; k < p; ++k) to[k] = row[c.features[static_cast<size_t>(k)]];
      to[p] = row[c.label];
    }
    if (o.reject) bound_chunk(reader, gathered, strict, scratch, report_rejected);
    dpcov_row_refusal refusal{};
    refusal.struct_size = sizeof refusal;
    const dpcov_status status =
        dpcov_gram_add_raw_rows(gram.get(), DPCOV_ROW_MAJOR, gathered.rows, p + 1,
                                gathered.values.data(), p + 1, &refusal);
    if (status != DPCOV_OK)
      library_fail(status, concat(reader.row_location(chunk, refusal.row >= 0 ? refusal.row : 0),
                                  " (chunk of ", chunk.rows, " rows)"));
    out.rows += chunk.rows;
    progress.update(reader.bytes_read(), out.rows);
  }
  progress.finish();
  dpcov_gram_info info{};
  info.struct_size = sizeof info;
  library_check(dpcov_gram_get_info(gram.get(), &info), "reading the Gram counters");
  out.clipped = info.clipped;
  const int64_t q = info.dim;
  out.gram.assign(static_cast<size_t>(q * q), 0.0);
  library_check(dpcov_gram_get_matrix(gram.get(), DPCOV_ROW_MAJOR, out.gram.data(), q),
                "reading the Gram matrix");
  return out;
}

const char *sign(double lower, double upper) {
  return lower > 0.0 ? "+" : upper < 0.0 ? "-" : "unclear";
}

// Noise-aware intervals for beta from the fit's released statistics
// (dpcov_adassp_bootstrap_intervals); `refusal` says why there are none.
struct Intervals {
  bool computed = false;
  std::string refusal;
  std::vector<double> coef, se, p, lower, upper;
};

Intervals intervals(const std::vector<double> &xtx, const std::vector<double> &xty, int64_t n,
                    const dpcov_adassp_receipt &receipt, const RawRegressOptions &o) {
  Intervals out;
  const int64_t p = receipt.num_regressors;
  if (n <= p) {
    out.refusal = concat("the intervals need more rows than regressors (", p, ")");
    return out;
  }
  dpcov_rng *rng = nullptr;
  library_check(o.bootstrap_seed ? dpcov_rng_create_seeded(&rng, *o.bootstrap_seed, 0)
                                 : dpcov_rng_create_from_entropy(&rng),
                "bootstrap generator");
  std::unique_ptr<dpcov_rng *, void (*)(dpcov_rng **)> owner(&rng, dpcov_rng_destroy);
  for (auto *v : {&out.coef, &out.se, &out.p, &out.lower, &out.upper})
    v->resize(static_cast<size_t>(p));
  const dpcov_status status = dpcov_adassp_bootstrap_intervals(
      DPCOV_ROW_MAJOR, p, xtx.data(), p, xty.data(), n, &receipt, o.level, o.bootstrap, rng,
      out.coef.data(), out.se.data(), out.p.data(), out.lower.data(), out.upper.data());
  if (status == DPCOV_E_PRECONDITION) {
    out.refusal = dpcov_last_error_message();
    return out;
  }
  library_check(status, "noise-aware intervals");
  out.computed = true;
  return out;
}

// Whether the fit is private, in words: a fixed seed makes the noise reproducible, so the fit is
// private only while the seed stays secret.
const char *privacy_words(const dpcov_adassp_receipt &r) {
  return r.seed_fixed != 0 ? "reproducible: not private if the seed is known"
                           : "differentially private";
}

const char *numerics_words(const dpcov_adassp_receipt &r) {
  return r.numerics == DPCOV_NUMERICS_EXACT
             ? "exact numerics"
             : "idealized numerics (floating-point noise, Mironov 2012)";
}

std::string fit_claim(const dpcov_adassp_receipt &r) {
  return concat(privacy_words(r), "; ", numerics_words(r));
}

nlohmann::ordered_json receipt_json(const dpcov_adassp_receipt &r) {
  nlohmann::ordered_json j;
  j["mechanism"] = r.mechanism;
  j["theorem"] = r.theorem;
  j["neighbour"] = r.neighbour == DPCOV_NEIGHBOUR_ADD_REMOVE ? "add_remove" : "replace_one";
  j["calibration"] = r.calibration == DPCOV_ADASSP_PAPER ? "paper" : "joint_analytic";
  j["differentially_private"] = r.seed_fixed == 0;
  j["privacy_claim"] = fit_claim(r);
  j["seed_fixed"] = r.seed_fixed != 0;
  j["numerics"] = r.numerics == DPCOV_NUMERICS_EXACT ? "exact" : "idealized";
  j["num_regressors"] = r.num_regressors;
  j["bound_x"] = r.bound_x;
  j["bound_y"] = r.bound_y;
  j["epsilon"] = r.epsilon;
  j["delta"] = r.delta;
  j["delta_exact"] = r.delta_exact;
  j["zcdp_rho"] = r.zcdp_rho;
  j["rho"] = r.rho;
  j["sensitivity_lambda_min"] = r.sensitivity_lambda_min;
  j["sensitivity_gram"] = r.sensitivity_gram;
  j["sensitivity_cross"] = r.sensitivity_cross;
  j["sigma_lambda_min"] = r.sigma_lambda_min;
  j["sigma_gram"] = r.sigma_gram;
  j["sigma_gram_off_diagonal"] = r.sigma_gram_off_diagonal;
  j["sigma_cross"] = r.sigma_cross;
  j["lambda_min_shift"] = r.lambda_min_shift;
  j["noise_norm_bound"] = r.noise_norm_bound;
  j["eigenvalue_floor"] = r.eigenvalue_floor;
  j["released_lambda_min"] = r.released_lambda_min;
  j["ridge"] = r.ridge;
  j["eigenvalues_floored"] = r.eigenvalues_floored;
  if (r.label_square_released == 1) {
    j["sensitivity_label_square"] = r.sensitivity_label_square;
    j["sigma_label_square"] = r.sigma_label_square;
  }
  return j;
}

}  // namespace

void add_raw_regress_options(CLI::App &command, RawRegressOptions &o) {
  const char *group = "Private regression on raw data rows (selected by --epsilon)";
  command.add_option("--epsilon,-e", o.epsilon,
                     "Spend this epsilon on a private regression of the raw data rows in MATRIX "
                     "(a CSV or .npy data file): AdaSSP by default")
      ->group(group);
  command.add_option("--delta,-d", o.delta, "Delta of the private regression (default 1e-6)")
      ->group(group);
  command.add_option("--bound", o.bound,
                     "Public bound on the Euclidean norm of each row's regressors (required with "
                     "--epsilon); the intercept's constant 1 is counted on top")
      ->group(group);
  command.add_option("--label-bound", o.label_bound,
                     "Public bound on |y| (required with --epsilon)")
      ->group(group);
  command.add_option("--mechanism,-m", o.mechanism,
                     "Private regression mechanism: adassp (default; Wang, UAI 2018, Alg. 2)")
      ->group(group);
  command.add_option("--calibration", o.calibration,
                     "AdaSSP constants: joint_analytic (default, exact) or paper")
      ->group(group);
  command.add_option("--neighbour", o.neighbour,
                     "Neighbouring datasets: replace_one (default) or add_remove")
      ->group(group);
  command.add_option("--rho", o.rho,
                     "AdaSSP's failure probability of the ridge, in (0, 1) (default 0.05)")
      ->group(group);
  command.add_flag("--no-intercept", o.no_intercept, "Fit without an intercept")->group(group);
  command.add_flag("--reject", o.reject,
                   "Refuse rows over the bounds instead of clipping them")
      ->group(group);
  command.add_option("--noise-seed", o.seed,
                     "Fix the privacy noise (experiments and tests only: NOT private)")
      ->group(group);
  command.add_flag("--no-intervals", o.no_intervals,
                   "Point estimates only: do not release y'y, which the noise-aware intervals "
                   "need (the other statistics then get a third of the budget each, not a quarter)")
      ->group(group);
  command.add_option("--bound-epsilon", o.bound_epsilon,
                     "Epsilon spent choosing a bound below --bound near the --bound-quantile of "
                     "the regressors' norms (a first pass over the file; the rows above it are "
                     "clipped; AdaSSP gets the rest of --epsilon). Default: a tenth of --epsilon; "
                     "0 uses --bound as given")
      ->group(group);
  command.add_option("--bound-quantile", o.bound_quantile,
                     "Quantile of the regressors' norms the chosen bound aims at, in (0, 1) "
                     "(default 0.95)")
      ->group(group);
  command.add_flag("--quiet,-q", o.quiet, "No progress display")->group(group);
  add_ledger_options(command, o.ledger);
}

void run_regress_raw(const std::string &path, const std::string &label,
                     const std::vector<std::string> &features, const std::string &intercept_column,
                     bool json, const RawRegressOptions &o) {
  check_positive_finite(*o.epsilon, "--epsilon");
  if (!(o.delta > 0.0 && o.delta < 1.0)) fail(kExitUsage, "--delta must be in (0, 1), got ", o.delta);
  if (o.bound == 0.0 || o.label_bound == 0.0)
    fail(kExitUsage, "a private regression on raw rows needs --bound (on the regressors' norm) "
         "and --label-bound (on |y|), chosen without looking at the data");
  check_bound(o.bound, "--bound");
  check_bound(o.label_bound, "--label-bound");
  if (!(o.rho > 0.0 && o.rho < 1.0)) fail(kExitUsage, "--rho must be in (0, 1), got ", o.rho);
  named_choice(o.mechanism, "--mechanism (on raw data rows)", {"adassp"});
  if (!intercept_column.empty())
    fail(kExitUsage, "--intercept names a column of a released matrix; on raw rows the intercept "
         "is a constant 1 added to every row (--no-intercept drops it)");
  dpcov_adassp_params params{};
  library_check(dpcov_adassp_params_default(&params), "AdaSSP defaults");
  params.calibration = named_choice(o.calibration, "--calibration", {"joint_analytic", "paper"});
  params.neighbour = named_choice(o.neighbour, "--neighbour", {"replace_one", "add_remove"});
  params.rho = o.rho;
  params.release_label_square = o.no_intervals ? 0 : 1;
  if (params.calibration != DPCOV_ADASSP_JOINT_ANALYTIC && !o.no_intervals)
    fail(kExitUsage, "--calibration paper has no share for y'y, which the intervals need: add "
         "--no-intervals (point estimates only) or use joint_analytic");
  if (!(o.level > 0.0 && o.level < 1.0)) fail(kExitUsage, "--level must be in (0, 1), got ", o.level);

  const double bound_epsilon = o.bound_epsilon.value_or(0.1 * *o.epsilon);
  if (!(bound_epsilon >= 0.0 && bound_epsilon < *o.epsilon))
    fail(kExitUsage, "--bound-epsilon must be >= 0 and below --epsilon ", *o.epsilon,
         " (AdaSSP spends the rest), got ", bound_epsilon);
  if (!(o.bound_quantile > 0.0 && o.bound_quantile < 1.0))
    fail(kExitUsage, "--bound-quantile must be in (0, 1), got ", o.bound_quantile);
  // A file is read twice (the choice, then the fit); standard input only once.
  const bool from_stdin = path.empty() || path == "-";
  const bool tighten = bound_epsilon > 0.0 && !from_stdin;
  if (tighten && params.neighbour != DPCOV_NEIGHBOUR_REPLACE_ONE)
    fail(kExitUsage, "--bound-epsilon aims at a quantile of the public number of rows, which "
         "add_remove keeps private: add --bound-epsilon 0");
  if (params.neighbour != DPCOV_NEIGHBOUR_REPLACE_ONE && o.no_intercept && !o.no_intervals)
    fail(kExitUsage, "the intervals need the number of rows, which add_remove keeps private, and "
         "without the intercept the release holds no count: drop --no-intercept (its column's "
         "released entry is n + noise) or add --no-intervals");

  InputOptions input;
  input.path = path;
  std::unique_ptr<RowReader> reader = open_input(input);
  const bool intercept = !o.no_intercept;
  const Columns c = resolve_columns(*reader, label, features, intercept);
  // The budget AdaSSP spends: the rest of --epsilon after the bound step, rounded down so that the
  // two shares never sum above --epsilon.
  const double adassp_epsilon =
      tighten ? std::nextafter(*o.epsilon - bound_epsilon, 0.0) : *o.epsilon;
  const int64_t p = static_cast<int64_t>(c.terms.size());
  // [1, x] has norm <= sqrt(1 + B^2), rounded up.
  const auto bound_x_of = [&](double b) {
    return intercept ? std::nextafter(std::hypot(1.0, b), kInfinity) : b;
  };
  // The ledger refuses a fit over its cap now, before any row is read or noise drawn: AdaSSP by
  // its plan (its zCDP rho and (epsilon, delta) do not depend on the bounds, proofs/adassp.md,
  // "zCDP"), after the bound step (pure epsilon). An advanced ledger is charged one release of
  // both epsilons, as `release --bound auto` does.
  std::unique_ptr<LedgerFile> ledger;
  const auto charges_of = [&](const dpcov_adassp_receipt &fit) {
    std::vector<LedgerCharge> charges;
    if (tighten && ledger->accounting() == "advanced")
      return std::vector<LedgerCharge>{LedgerCharge::zcdp(
          "bound_auto+adassp",
          std::nextafter(fit.zcdp_rho + bound_epsilon * bound_epsilon / 2.0, kInfinity),
          epsilon_together(bound_epsilon, fit.epsilon), fit.delta)};
    if (tighten) charges.push_back(bound_step_receipt(bound_epsilon));
    charges.push_back(LedgerCharge::zcdp("adassp", fit.zcdp_rho, fit.epsilon, fit.delta));
    return charges;
  };
  dpcov_adassp_receipt plan{};
  plan.struct_size = sizeof plan;
  if (!o.ledger.path.empty()) {
    library_check(dpcov_adassp_plan(p, bound_x_of(o.bound), o.label_bound, adassp_epsilon,
                                    o.delta, &params, &plan),
                  "AdaSSP settings");
    ledger = std::make_unique<LedgerFile>(o.ledger);
    ledger->check(charges_of(plan));
  }
  const RngHandle rng = make_rng(o.seed);
  // The fit is charged if it fails after a draw since here (the bound step's included).
  const DrawWitness since(rng.get());
  // Any other failure after a draw (the second pass's open_input, the accumulation) too, once.
  const DrawGuard guard(ledger.get(), since, [&] { return charges_of(plan); },
                        concat("regress ", path));
  // Printed even under --quiet: a known seed removes the privacy of the noise.
  if (o.seed)
    std::fprintf(stderr, "dpcov regress: warning: --noise-seed fixes the noise; anyone who knows the "
                         "seed can remove it (for experiments and tests only)\n");
  double bound = o.bound;
  if (tighten) {
    bound = choose_tighter_bound(*reader, c, o, bound_epsilon, rng.get());
    // A failure from here on is charged the plan at the chosen bound, the fit's own (its rho at
    // the given --bound can differ in the last place, and the ledger records it).
    if (ledger)
      library_check(dpcov_adassp_plan(p, bound_x_of(bound), o.label_bound, adassp_epsilon,
                                      o.delta, &params, &plan),
                    "AdaSSP settings");
    reader = open_input(input);
  }
  const Accumulated data = accumulate(*reader, c, intercept, o, bound);
  if (data.rows == 0) fail(kExitInputData, reader->name(), ": the input has no rows");

  const int64_t q = p + 1;
  std::vector<int64_t> regressors(static_cast<size_t>(p));
  for (int64_t j = 0; j < p; ++j) regressors[static_cast<size_t>(j)] = j;
  const double bound_x = bound_x_of(bound);
  std::vector<double> coef(static_cast<size_t>(p)), xtx(static_cast<size_t>(p * p)),
      xty(static_cast<size_t>(p));
  dpcov_adassp_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  const dpcov_status status = dpcov_adassp_fit(
      DPCOV_ROW_MAJOR, q, data.gram.data(), q, p, regressors.data(), p, bound_x, o.label_bound,
      adassp_epsilon, o.delta, &params, rng.get(), coef.data(), xtx.data(), p, xty.data(),
      &receipt);
  release_check(status, ledger.get(), ledger ? charges_of(plan) : std::vector<LedgerCharge>{},
                concat("regress ", path), concat(path, ": AdaSSP"), since);
  // Charged before anything is printed: a failure leaves the budget spent and no output.
  if (ledger) ledger->charge(charges_of(receipt), concat("regress ", path));
  // Under add/remove n is private: the intervals take the count the release holds in the
  // intercept's entry of X'X~ (n + noise; post-processing) instead.
  const int64_t n_intervals = params.neighbour == DPCOV_NEIGHBOUR_REPLACE_ONE
                                  ? data.rows
                                  : static_cast<int64_t>(std::llround(xtx[0]));
  const Intervals aware =
      o.no_intervals ? Intervals{} : intervals(xtx, xty, n_intervals, receipt, o);

  const std::string &label_name = reader->column_names()[static_cast<size_t>(c.label)];
  // What is printed is public: n only where the neighbour relation makes it so (replace-one);
  // the clipped count is a function of the data no mechanism privatises, so it goes to standard
  // error, labelled, and is never silent (even under --quiet).
  const bool n_public = params.neighbour == DPCOV_NEIGHBOUR_REPLACE_ONE;
  if (data.clipped > 0)
    std::fprintf(stderr,
                 "dpcov regress: warning: %s rows were over --bound or --label-bound and "
                 "were clipped to them, which shrinks the fit (curator only: not for "
                 "publication)\n",
                 n_public ? concat(data.clipped, " of ", data.rows).c_str()
                          : concat(data.clipped).c_str());
  if (json) {
    nlohmann::ordered_json out;
    out["command"] = "regress";
    out["input"] = path;
    out["label"] = label_name;
    out["differentially_private"] = receipt.seed_fixed == 0;
    out["privacy_claim"] = fit_claim(receipt);
    out["n_public"] = n_public;
    if (n_public) out["rows"] = data.rows;
    out["epsilon_total"] = *o.epsilon;
    if (tighten)
      out["bound_selection"] = {
          {"method", "exponential mechanism over the public grid --bound / 1.25^k, k = 0..12, "
                     "utility -|rows above B - floor((1 - quantile) n)| (proofs/private_bound.md)"},
          {"epsilon", bound_epsilon},
          {"quantile", o.bound_quantile},
          {"bound_given", o.bound},
          {"bound", bound}};
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (size_t i = 0; i < c.terms.size(); ++i) {
      nlohmann::ordered_json row = {{"term", c.terms[i]}, {"coef", coef[i]}};
      if (aware.computed)
        row["noise_aware"] = {{"ols_coef", aware.coef[i]}, {"std_err", aware.se[i]},
                              {"p", aware.p[i]}, {"ci_lower", aware.lower[i]},
                              {"ci_upper", aware.upper[i]},
                              {"sign", sign(aware.lower[i], aware.upper[i])}};
      rows.push_back(row);
    }
    out["coefficients"] = rows;
    if (aware.computed)
      out["noise_aware"] = {{"method", "parametric bootstrap from AdaSSP's noise law, for beta "
                                       "(unregularised statistics)"},
                            {"level", o.level}, {"draws", o.bootstrap}};
    else if (!o.no_intervals)
      out["noise_aware"] = {{"refused", aware.refusal}};
    out["receipt"] = receipt_json(receipt);
    if (ledger) out["ledger"] = ledger->summary();
    print_stdout(json_text(out));
    return;
  }
  std::string text = concat("AdaSSP regression of ", label_name, " on ", c.terms.size(), " term",
                            c.terms.size() == 1 ? "" : "s", " from ", path,
                            " (", privacy_words(receipt), ": epsilon = ", *o.epsilon,
                            ", delta = ", o.delta, ", ", o.neighbour, "; ",
                            numerics_words(receipt), ")\n",
                            n_public ? concat("rows ", data.rows)
                                     : std::string("rows: withheld (private under add_remove)"),
                            " (||x|| <= ", bound, ", |y| <= ", o.label_bound,
                            intercept ? ", intercept as a constant 1 in the bound" : "", ")\n",
                            tighten ? concat("bound ", bound, " chosen privately below --bound ",
                                             o.bound, " near the ", o.bound_quantile,
                                             " quantile of the regressors' norms with epsilon ",
                                             bound_epsilon, "; AdaSSP spent the rest\n")
                                    : from_stdin && bound_epsilon > 0.0
                                          ? std::string("--bound used as given: standard input "
                                                        "cannot be read twice to choose a tighter "
                                                        "one\n")
                                          : std::string(),
                            "\n");
  if (aware.computed) {
    const std::string pct = format_number(100.0 * o.level, 3) + "%";
    text += concat("coef: AdaSSP's private point estimate (ridge-shrunk). Intervals for beta that "
                   "account for the sampling and the privacy noise (parametric bootstrap from "
                   "AdaSSP's noise law, ", o.bootstrap, " draws, from the unregularised released "
                   "statistics, so not centred on coef; coverage measured, README \"Benchmarks\"):\n\n");
    TextTable table({"term", "coef", "std.err", "p", "ci.lower", "ci.upper", "sign (" + pct + " CI)"});
    for (size_t i = 0; i < c.terms.size(); ++i)
      table.add_row({c.terms[i], format_number(coef[i]), format_number(aware.se[i]),
                     format_number(aware.p[i], 3), format_number(aware.lower[i]),
                     format_number(aware.upper[i]), sign(aware.lower[i], aware.upper[i])});
    text += table.render();
    text += "sign: '+' or '-' when the interval excludes 0; 'unclear': the data cannot tell.\n";
  } else {
    TextTable table({"term", "coef (private point estimate; no interval)"});
    for (size_t i = 0; i < c.terms.size(); ++i) table.add_row({c.terms[i], format_number(coef[i])});
    text += table.render();
    if (!o.no_intervals)
      text += concat("\nIntervals that account for the privacy noise: none: ", aware.refusal,
                     ".\nAt these rows and epsilon the release cannot support a conclusion about "
                     "any coefficient.\n");
  }
  text += concat("\nreceipt: ", receipt.theorem, "\n  noise sigma: lambda_min ",
                 format_number(receipt.sigma_lambda_min), ", X'X ",
                 format_number(receipt.sigma_gram), " (off-diagonal ",
                 format_number(receipt.sigma_gram_off_diagonal), "), X'y ",
                 format_number(receipt.sigma_cross),
                 receipt.label_square_released == 1
                     ? concat(", y'y ", format_number(receipt.sigma_label_square))
                     : std::string(),
                 "; exact delta ",
                 format_number(receipt.delta_exact, 3), "\n  ridge ", format_number(receipt.ridge),
                 " = max(0, ", format_number(receipt.noise_norm_bound),
                 " - released lambda_min ", format_number(receipt.released_lambda_min),
                 "), eigenvalues raised to the floor: ", receipt.eigenvalues_floored, "\n");
  if (ledger) {
    const nlohmann::ordered_json s = ledger->summary();
    text += concat("ledger ", o.ledger.path, ": ", s["releases"].get<int64_t>(),
                   " releases, epsilon ", format_number(s["epsilon"].get<double>()), " of ",
                   format_number(s["epsilon_cap"].get<double>()), ", delta ",
                   format_number(s["delta"].get<double>()), " of ",
                   format_number(s["delta_cap"].get<double>()), "\n");
  }
  print_stdout(text);
}

}  // namespace dpcov::cli
