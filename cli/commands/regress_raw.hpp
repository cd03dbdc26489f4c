// `dpcov regress` on raw data rows (CSV, NPY): a private regression that spends (epsilon, delta)
// once, by default AdaSSP (dpcov/adassp.h; proofs/adassp.md). The regression on a released
// matrix (regress_command.cpp) is unchanged; these options select this mode.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "../ledger/ledger_file.hpp"

namespace dpcov::cli {

struct RawRegressOptions {
  std::optional<double> epsilon;  // given: the input is raw data rows
  double delta = 1e-6;
  double bound = 0.0;             // ||x|| <= bound (the regressors, not the label)
  double label_bound = 0.0;       // |y| <= label_bound
  std::string mechanism = "adassp";
  std::string calibration = "joint_analytic";
  std::string neighbour = "replace_one";
  double rho = 0.05;
  bool no_intercept = false;
  bool reject = false;
  bool quiet = false;
  std::optional<uint64_t> seed;
  bool no_intervals = false;  // fit without y'y: point estimates only, less noise on the rest
  // The epsilon spent choosing a bound below --bound (default a tenth of --epsilon; 0: none).
  std::optional<double> bound_epsilon;
  double bound_quantile = 0.95;
  // Shared with the regression on a release (--level, --bootstrap, --seed).
  double level = 0.95;
  int64_t bootstrap = 999;
  std::optional<uint64_t> bootstrap_seed;
  LedgerOptions ledger;  // --ledger: the fit (and the bound step) charged to a budget

  bool requested() const { return epsilon.has_value(); }
};

// Registers --epsilon, --delta, --bound, --label-bound, --mechanism, --calibration, --neighbour,
// --rho, --no-intercept, --reject, --noise-seed, --no-intervals, --bound-epsilon,
// --bound-quantile, --quiet and the ledger's options on `command`.
void add_raw_regress_options(CLI::App &command, RawRegressOptions &options);

// Reads the rows of `path` (streamed), bounds them (||x|| <= --bound, |y| <= --label-bound:
// clipped and counted, or refused with --reject), chooses a tighter bound privately with
// --bound-epsilon (a first pass over a file; proofs/private_bound.md, "Tightening a public
// bound") and clips the regressors to it, fits once with the rest of --epsilon (releasing y'y too unless
// --no-intervals) and prints the coefficients with noise-aware intervals for beta
// (dpcov_adassp_bootstrap_intervals, no further privacy cost) and the receipt (as JSON with
// `json`). `intercept_column` must be empty: the intercept is a constant 1
// counted inside the bound (--no-intercept drops it).
void run_regress_raw(const std::string &path, const std::string &label,
                     const std::vector<std::string> &features, const std::string &intercept_column,
                     bool json, const RawRegressOptions &options);

}  // namespace dpcov::cli
