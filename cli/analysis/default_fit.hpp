// The decisions of the default AdaSSP fit on raw rows, from public values only, as `regress`
// (before its fit) and `plan -m adassp --regress` (its forecast of that fit) print them: the
// library takes them (dpcov_adassp_default_fit: the small-n split, y'y for the intervals, robust
// errors' share of the budget; docs/forecast.md) and this states the reasons.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <dpcov.h>

namespace dpcov::cli {

struct DefaultFitQuery {
  int64_t regressors = 0;      // an intercept counted
  double bound_x = 0.0;        // the norm bound of the regressors' rows, [1, x] with an intercept
  double label_bound = 0.0;    // |y| <= label_bound
  double budget = 0.0;         // epsilon of the fit (and the meat), after any bound step
  double delta = 0.0;
  dpcov_adassp_params params{};  // as asked; release_label_square: y'y asked
  int64_t rows = 0;              // n, read only where public (the library decides that)
  bool rows_known = true;        // false before the rows are read: no decision reads n
  double level = 0.95;
  bool robust = false;         // --errors robust asked (intervals on, rows not units)
  bool no_intervals = false;
  bool intervals_anyway = false;
  bool small_n_posterior = true;
};

struct DefaultFit {
  dpcov_adassp_params params{};  // decided: without_lambda_min, release_label_square
  double epsilon = 0.0;          // the fit's share of the budget
  double delta = 0.0;
  bool robust = false;           // a share held back for the meat
  dpcov_sandwich_budget sandwich{};
  // The forecast that decided y'y (the plan at the whole budget), where n is public.
  std::optional<dpcov_regression_forecast> forecast;
  std::string small_n_split;        // why the fit drops its lambda_min step, or ""
  std::string label_square_refusal;  // why y'y is not released for intervals, or ""
  std::string robust_skipped;        // why robust errors were not attempted, or ""
};

// The library's decisions for `q` (dpcov_adassp_default_fit), with their reasons. Before the rows
// are read (`rows_known` false) only the robust split as asked.
DefaultFit decide_default_fit(const DefaultFitQuery &q);

// The plan (dpcov_adassp_plan) of the fit `fit` decides.
dpcov_adassp_receipt default_fit_plan(const DefaultFitQuery &q, const DefaultFit &fit);

}  // namespace dpcov::cli
