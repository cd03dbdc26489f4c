// The decisions of the default AdaSSP regression, from public values only, taken once for every
// surface (the C ABI's dpcov_adassp_default_fit: `dpcov regress`, `dpcov plan --regress` and
// Python's PrivateLinearRegression): whether the fit drops its lambda_min step (the small-n
// split), whether it releases y'y for the intervals (spend only on what is used), and whether
// robust errors hold a share of the budget back for the meat. docs/forecast.md states the rules.
#pragma once

#include "../mechanisms/adassp.hpp"
#include "../privacy/sandwich_constants.hpp"
#include "regression_forecast.hpp"

namespace dpcov::estimators {

enum class Intervals { None, Decided, Always };  // no y'y; y'y where forecast; y'y always

struct DefaultFitRequest {
  int64_t regressors = 0;  // an intercept counted
  double bound_x = 0.0, bound_y = 0.0;
  double epsilon = 0.0, delta = 0.0;  // the fit's whole budget (and the meat's), after any bound step
  // As asked: neighbour, calibration, rho, max_rows_per_unit; release_label_square and
  // release_lambda_min are decided here.
  mechanisms::AdasspOptions options;
  // n, read only where public (replace-one at the level of rows); NaN where not known yet (before
  // the rows are read): then no decision reads it, as where n is private.
  double rows = 0.0;
  double level = 0.95;
  Intervals intervals = Intervals::Decided;
  bool robust = false;             // robust errors asked (read with intervals only)
  bool small_n_posterior = true;   // the posterior answers where the bootstrap refuses
};

struct DefaultFit {
  mechanisms::AdasspOptions options;  // decided: release_label_square, release_lambda_min
  double epsilon = 0.0, delta = 0.0;  // the fit's share
  bool robust = false;                // the meat's share held back
  privacy::SandwichBudget sandwich;   // zero unless robust
  bool small_n_split = false;         // without the lambda_min step
  double rows_for_bootstrap = 0.0;    // the forecast's n for the bootstrap, where it decided
  bool label_square_decided = false;  // the forecast below decided y'y
  RegressionForecast forecast;        // of the plan at the whole budget with y'y, at fill 1
  bool label_square_refused = false;  // y'y not released: no interval expected
  bool robust_skipped = false;        // robust errors asked, not attempted
};

// Every decision, in order: the small-n split on the plan at the whole budget, y'y on the plan
// that split gives, then robust errors where that plan's forecast and the one at the fit's share
// expect the bootstrap's intervals. Throws as plan_adassp does for the request's values, and
// Status::InvalidArgument for a robust split whose meat share rounds to 0.
DefaultFit decide_default_fit(const DefaultFitRequest &request);

// The plan of the fit `fit` decides.
mechanisms::AdasspReceipt default_fit_plan(const DefaultFitRequest &request,
                                           const DefaultFit &fit);

}  // namespace dpcov::estimators
