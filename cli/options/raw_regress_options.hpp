// The options of `dpcov regress` on raw data rows (CSV, NPY), selected by --epsilon: a private
// regression that spends (epsilon, delta) once, by default AdaSSP (dpcov/adassp.h;
// proofs/adassp.md), with an optional private bound step below --bound first.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <dpcov.h>

#include "../ledger/ledger_file.hpp"

namespace dpcov::cli {

struct RawRegressOptions {
  std::optional<double> epsilon;  // given: the input is raw data rows
  double delta = 1e-6;
  double bound = 0.0;             // ||x|| <= bound (the regressors, not the label)
  double label_bound = 0.0;       // |y| <= label_bound
  bool bound_given = false;       // --bound on the command line (0 included: refused as 0)
  bool label_bound_given = false;
  std::string bounds;             // --bounds: public per-column ranges instead of the two bounds
  std::string mechanism = "adassp";
  std::string calibration = "joint_analytic";
  std::string neighbour = "replace_one";
  std::string spool = "auto";     // --spool: standard input read more than once (docs/input.md)
  double rho = 0.05;
  bool no_intercept = false;
  bool reject = false;
  bool quiet = false;
  std::optional<uint64_t> seed;
  bool no_intervals = false;  // fit without y'y: point estimates only, less noise on the rest
  bool intervals_anyway = false;  // release y'y even where the plan forecasts no intervals
  // The errors the intervals allow for: "robust" (the sandwich, its meat released with a share
  // of the budget) unless the user states "homoscedastic".
  std::string errors = "robust";
  // Where the bootstrap refuses: "posterior" (the noise-aware posterior answers) or "refuse".
  std::string small_n = "posterior";
  // A Gram mechanism's release: "default" (exact where the registry gives the mechanism exact
  // numerics, as Python's numerics="exact"), "exact" or "idealized".
  std::string numerics = "default";
  // The epsilon spent choosing a bound below --bound (default 0 with the intervals, a tenth of
  // --epsilon with --no-intervals; 0: none).
  std::optional<double> bound_epsilon;
  double bound_quantile = DPCOV_AUTO_BOUND_QUANTILE;
  LedgerOptions ledger;  // --ledger: the fit (and the bound step) charged to a budget
  // --privacy-unit COLUMN --max-rows-per-unit K: AdaSSP at the level of privacy units
  // (proofs/adassp_units.md), at most K rows of each unit kept, no intervals.
  std::string privacy_unit;
  int64_t max_rows_per_unit = 0;

  bool requested() const { return epsilon.has_value(); }
};

// Registers --epsilon, --delta, --bound, --label-bound, --mechanism, --calibration, --neighbour,
// --rho, --no-intercept, --reject, --noise-seed, --no-intervals, --numerics, --bound-epsilon,
// --bound-quantile, --quiet and the ledger's options on `command`.
void add_raw_regress_options(CLI::App &command, RawRegressOptions &options);

// What the checked options ask for.
struct RawRegressSettings {
  dpcov_adassp_params params{};
  double bound_epsilon = 0.0;   // --bound-epsilon, or its default
  bool tighten = false;         // a bound step runs before the fit
  double adassp_epsilon = 0.0;  // what the fit spends: the rest of --epsilon
};

// Checks the options of a fit of raw rows before anything is read: `matrix_only` names the
// command's options given that apply to a released matrix only (--intercept, --ridge, ...),
// which are refused rather than ignored; --level must agree. Throws CliError(kExitUsage) naming
// the option.
RawRegressSettings check_raw_regress(const RawRegressOptions &options,
                                     const std::vector<std::string> &matrix_only, double level);

}  // namespace dpcov::cli
