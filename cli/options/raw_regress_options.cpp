#include "raw_regress_options.hpp"

#include <cmath>
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "../cli_error.hpp"
#include "../library_status.hpp"
#include "choice_names.hpp"
#include "input_options.hpp"
#include "mechanism_registry.hpp"
#include "private_bound_option.hpp"

namespace dpcov::cli {

namespace {

// The index of `value` in `names`, spelled with either separator.
int32_t named_choice(const std::string &value, const char *option,
                     const std::vector<std::string> &names) {
  if (const std::optional<std::string> known = known_spelling(value, names))
    return static_cast<int32_t>(std::find(names.begin(), names.end(), *known) - names.begin());
  fail_unknown_name(option, value, names);
}

const std::vector<std::string> kNeighbourNames = {"replace_one", "add_remove"};

// A Gram mechanism's regression (regress_gram.hpp) bounds the rows by --bound and --label-bound
// as Python's PrivateLinearRegression(mechanism=...) does: no per-column ranges, no bound step.
// The mechanism's name is checked where it is resolved, before any row is read.
void check_gram_mechanism(const RawRegressOptions &o) {
  if (!o.bounds.empty())
    fail(kExitUsage, "--bounds (each column mapped to [-1, 1], coefficients in the data's units) "
         "needs --mechanism adassp; with ", o.mechanism, " give --bound and --label-bound");
  if (o.bound_epsilon.value_or(0.0) != 0.0)
    fail(kExitUsage, "--bound-epsilon chooses AdaSSP's bound; ", o.mechanism, " releases at "
         "--bound as given: drop it");
  if (o.neighbour == "add_remove" && o.no_intercept)
    fail(kExitUsage, "the fit needs the number of rows, which add_remove keeps private, and "
         "without the intercept the release holds no count: drop --no-intercept");
}

// --numerics chooses a Gram mechanism's release; AdaSSP's noise is floating-point only.
void check_numerics(const RawRegressOptions &o) {
  if (o.mechanism == "adassp" && o.numerics == "exact")
    fail(kExitUsage, "--numerics exact exists for the releases of ", exact_mechanism_names(),
         "; adassp has idealized numerics only");
}

// The options of the regression on a released matrix, given with --epsilon. --intercept has
// its own reason; the others (--ridge, --plug-in, --rows, --receipt) read a release's penalty,
// table or receipt, which a fit on raw rows does not take from the user.
void check_matrix_only(const std::vector<std::string> &given) {
  for (const std::string &option : given) {
    if (option == "--intercept")
      fail(kExitUsage, "--intercept names a column of a released matrix; on raw rows the "
           "intercept is a constant 1 added to every row (--no-intercept drops it)");
    fail(kExitUsage, option, " applies to the regression on a released matrix (dpcov regress "
         "MATRIX); on raw rows (--epsilon) the fit chooses its own ridge, reads n from the rows "
         "and writes its own receipt: drop ", option);
  }
}

// The checks that need no library call: the budget, the bounds, the mechanism and the options
// of a released matrix.
void check_values(const RawRegressOptions &o, const std::vector<std::string> &matrix_only) {
  check_positive_finite(*o.epsilon, "--epsilon");
  if (!(o.delta > 0.0 && o.delta < 1.0))
    fail(kExitUsage, "--delta must be in (0, 1), got ", o.delta);
  if (o.mechanism != "adassp") check_gram_mechanism(o);
  check_numerics(o);
  if (!o.bounds.empty()) {
    if (o.bound_given || o.label_bound_given)
      fail(kExitUsage, "--bounds maps every column to [-1, 1] by its public range, which fixes "
           "the norm bounds: drop --bound and --label-bound");
    if (o.no_intercept)
      fail(kExitUsage, "--bounds maps each column affinely, so the model needs its intercept: "
           "drop --no-intercept");
    if (o.bound_epsilon.value_or(0.0) != 0.0)
      fail(kExitUsage, "--bounds clips no row, so there is no bound to choose: drop "
           "--bound-epsilon");
  } else if (!o.bound_given || !o.label_bound_given) {
    fail(kExitUsage, "a private regression on raw rows needs --bound (on the regressors' norm) "
         "and --label-bound (on |y|), or --bounds (public per-column ranges), chosen without "
         "looking at the data");
  }
  if (o.bounds.empty()) {
    check_bound(o.bound, "--bound");
    check_bound(o.label_bound, "--label-bound");
  }
  if (!(o.rho > 0.0 && o.rho < 1.0)) fail(kExitUsage, "--rho must be in (0, 1), got ", o.rho);
  check_matrix_only(matrix_only);
}

// --bound, --label-bound and --bounds: the public bounds of the rows (given, or not: a bound of 0
// given is refused as out of range, not reported missing).
void add_bound_options(CLI::App &command, RawRegressOptions &o, const char *group) {
  command.add_option("--bound", o.bound,
                     "Public bound B on the Euclidean norm of each row's d regressors (required "
                     "with -e unless --bounds gives the ranges): fitted as balanced rows "
                     "[1, x sqrt(d) / B, y / B_y], proofs/balanced_rows.md")
      ->each([&o](const std::string &) { o.bound_given = true; })
      ->group(group);
  command.add_option("--label-bound", o.label_bound,
                     "Public bound B_y on |y| (required with -e unless --bounds gives the ranges)")
      ->each([&o](const std::string &) { o.label_bound_given = true; })
      ->group(group);
  command.add_option("--bounds", o.bounds,
                     "Public per-column ranges of the regressors and the label, as `release "
                     "--bounds` takes them (LOW:HIGH, one per column, NAME=LOW:HIGH, or a "
                     "column,min,max CSV file): each column is mapped to [-1, 1] before AdaSSP "
                     "(no row clipped; values outside are clamped) and the coefficients and "
                     "intervals are reported in the data's units; replaces --bound and "
                     "--label-bound")
      ->group(group);
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
  add_bound_options(command, o, group);
  command.add_option("--mechanism,-m", o.mechanism,
                     "Private regression mechanism: adassp (default; Wang, UAI 2018, Alg. 2), "
                     "or a Gram mechanism whose noise law the intervals read (" +
                         robust_gram_mechanism_names() +
                         "): the release of [1, x, y], its OLS fit and intervals, robust by "
                         "default, as Python's PrivateLinearRegression")
      ->group(group);
  command.add_option("--numerics", o.numerics,
                     "A Gram mechanism's release: exact (floating-point-safe noise on a grid), "
                     "idealized (floating-point noise, Mironov 2012), or default: exact where "
                     "the mechanism has it, as Python's PrivateLinearRegression")
      ->check(CLI::IsMember({"default", "exact", "idealized"}))
      ->group(group);
  command.add_option("--calibration", o.calibration,
                     "AdaSSP constants: joint_analytic (default, exact) or paper")
      ->group(group);
  command.add_option("--neighbour", o.neighbour,
                     "Neighbouring datasets: replace_one (default) or add_remove")
      ->transform(either_separator(kNeighbourNames))->group(group);
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
  command.add_flag("--intervals-anyway", o.intervals_anyway,
                   "Release y'y and attempt the intervals even where the plan, from public "
                   "values, forecasts none at this n (by default y'y is then not released and "
                   "the fit keeps its share of the budget)")
      ->group(group);
  command.add_option("--errors", o.errors,
                     "robust (default): intervals that hold for heteroscedastic errors and a "
                     "misspecified mean, from a second pass that releases sum r^2 x x' with 0.2 "
                     "of the budget; homoscedastic: the bootstrap that assumes constant error "
                     "variance (releases y'y instead)")
      ->check(CLI::IsMember({"robust", "homoscedastic"}))
      ->group(group);
  command.add_option("--small-n", o.small_n,
                     "Where the bootstrap refuses (the noise swamps X'X): posterior (default; "
                     "homoscedastic errors: the noise-aware posterior answers, conclusive only "
                     "where every prior of its class on the scales of X'X agrees, "
                     "proofs/adassp_posterior.md; under --errors robust the fit releases y'y "
                     "for it and it answers where the released X'X~ does not support the "
                     "robust bootstrap) or refuse")
      ->check(CLI::IsMember({"posterior", "refuse"}))
      ->group(group);
  command.add_option("--bound-epsilon", o.bound_epsilon,
                     "Epsilon spent choosing a bound below --bound near the --bound-quantile of "
                     "the regressors' norms (a first pass over the file; the rows above it are "
                     "clipped; AdaSSP gets the rest of --epsilon). Default: 0 (--bound as given) "
                     "with the intervals, whose statistics the clipping would bias, and under "
                     "add_remove, which keeps the n it aims at private; a tenth of --epsilon "
                     "with --no-intervals")
      ->group(group);
  command.add_option("--bound-quantile", o.bound_quantile,
                     "Quantile of the regressors' norms the chosen bound aims at, in (0, 1] "
                     "(default 0.95)")
      ->group(group);
  command.add_flag("--quiet,-q", o.quiet, "No progress display")->group(group);
  add_spool_option(command, o.spool)->group(group);
  command.add_option("--privacy-unit", o.privacy_unit,
                     "Column of ids of the privacy units (people; CSV: text): AdaSSP private "
                     "at the level of units, at most --max-rows-per-unit rows of each kept "
                     "(proofs/adassp_units.md); no intervals")
      ->group(group);
  command.add_option("--max-rows-per-unit", o.max_rows_per_unit,
                     "K, the rows kept per privacy unit, chosen at random (1 to 2^20)")
      ->group(group);
  add_ledger_options(command, o.ledger);
}

namespace {

// --privacy-unit: AdaSSP with every sensitivity K times the row-level one, on the rows the
// library's accumulator of units keeps. No intervals (they need a public number of independent
// rows) and nothing that reads rows before the fit (a bound step, --bounds' ranges are fine but
// are not wired for units).
void check_units(const RawRegressOptions &o, dpcov_adassp_params &params) {
  if (o.privacy_unit.empty() != (o.max_rows_per_unit == 0))
    fail(kExitUsage, "--privacy-unit COLUMN and --max-rows-per-unit K go together");
  if (o.privacy_unit.empty()) return;
  if (o.mechanism != "adassp" || !o.bounds.empty() || o.reject ||
      o.bound_epsilon.value_or(0.0) != 0.0 || o.intervals_anyway)
    fail(kExitUsage, "--privacy-unit fits AdaSSP with a public --bound and --label-bound, rows "
         "clipped: drop --mechanism, --bounds, --reject, --bound-epsilon and --intervals-anyway "
         "(docs/privacy-units.md)");
  params.max_rows_per_unit = o.max_rows_per_unit;
  params.release_label_square = 0;  // no intervals at unit level: y'y would be spent for nothing
}

}  // namespace

RawRegressSettings check_raw_regress(const RawRegressOptions &o,
                                     const std::vector<std::string> &matrix_only, double level) {
  check_values(o, matrix_only);
  RawRegressSettings s;
  dpcov_adassp_params &params = s.params;
  library_check(dpcov_adassp_params_default(&params), "AdaSSP defaults");
  params.calibration = named_choice(o.calibration, "--calibration", {"joint_analytic", "paper"});
  params.neighbour = named_choice(o.neighbour, "--neighbour", kNeighbourNames);
  params.rho = o.rho;
  params.release_label_square = o.no_intervals ? 0 : 1;
  if (params.calibration != DPCOV_ADASSP_JOINT_ANALYTIC && !o.no_intervals)
    fail(kExitUsage, "--calibration paper has no share for y'y, which the intervals need: add "
         "--no-intervals (point estimates only) or use joint_analytic");
  if (!(level > 0.0 && level < 1.0)) fail(kExitUsage, "--level must be in (0, 1), got ", level);
  if (o.no_intervals && o.intervals_anyway)
    fail(kExitUsage, "--no-intervals and --intervals-anyway contradict each other");
  check_units(o, params);

  // Clipping at a private quantile biases the statistics by an amount that does not shrink with
  // n, which the noise-aware intervals cannot see (docs/regression_intervals.md): by default only
  // a fit without intervals tightens the bound, and only where n is public (replace-one), since
  // the step aims at a quantile of n rows.
  const bool default_step = o.no_intervals && params.neighbour == DPCOV_NEIGHBOUR_REPLACE_ONE;
  s.bound_epsilon =
      o.bounds.empty() && o.mechanism == "adassp" && o.privacy_unit.empty()
          ? o.bound_epsilon.value_or(default_step ? DPCOV_BOUND_STEP_SHARE * *o.epsilon : 0.0)
          : 0.0;
  if (!(s.bound_epsilon >= 0.0 && s.bound_epsilon < *o.epsilon))
    fail(kExitUsage, "--bound-epsilon must be >= 0 and below --epsilon ", *o.epsilon,
         " (AdaSSP spends the rest), got ", s.bound_epsilon);
  check_bound_quantile(o.bound_quantile);
  // The input is read twice (the choice, then the fit): standard input is spooled for it.
  s.tighten = s.bound_epsilon > 0.0;
  if (s.tighten && params.neighbour != DPCOV_NEIGHBOUR_REPLACE_ONE)
    fail(kExitUsage, "--bound-epsilon aims at a quantile of the public number of rows, which "
         "add_remove keeps private: add --bound-epsilon 0");
  if (params.neighbour != DPCOV_NEIGHBOUR_REPLACE_ONE && o.no_intercept && !o.no_intervals &&
      o.privacy_unit.empty())
    fail(kExitUsage, "the intervals need the number of rows, which add_remove keeps private, and "
         "without the intercept the release holds no count: drop --no-intercept (its column's "
         "released entry is n + noise) or add --no-intervals");
  // The budget AdaSSP spends: the rest of --epsilon after the bound step.
  s.adassp_epsilon = s.tighten ? release_epsilon(*o.epsilon, s.bound_epsilon) : *o.epsilon;
  return s;
}

}  // namespace dpcov::cli
