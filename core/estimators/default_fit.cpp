#include "default_fit.hpp"

#include <cmath>

#include "../error.hpp"
#include "small_n_split.hpp"

namespace dpcov::estimators {

namespace {

// Whether the decisions may read n: public (replace-one at the level of rows) and known.
bool rows_public(const DefaultFitRequest &q) {
  return q.options.neighbour == privacy::Neighbour::ReplaceOne &&
         q.options.max_rows_per_unit == 0 && !std::isnan(q.rows);
}

RegressionForecast forecast_at_rows(const DefaultFitRequest &q, const DefaultFit &f) {
  return forecast_adassp_regression(default_fit_plan(q, f), {q.rows, q.level, 1.0});
}

// The whole budget, or robust errors' split: the fit at the sandwich's share, y'y released only
// for the posterior, which answers where the released X'X~ does not support the bootstrap.
DefaultFit shares(const DefaultFitRequest &q, bool robust) {
  DefaultFit f;
  f.options = q.options;
  f.options.release_label_square = q.intervals != Intervals::None;
  f.options.release_lambda_min = true;
  if (!robust) {
    f.epsilon = q.epsilon;
    f.delta = q.delta;
    return f;
  }
  f.robust = true;
  f.sandwich = privacy::sandwich_budget(q.epsilon, q.delta);
  if (!(f.sandwich.meat_epsilon > 0.0 && f.sandwich.meat_delta > 0.0))
    fail(Status::InvalidArgument, "epsilon = ", q.epsilon, " and delta = ", q.delta,
         " leave the meat a share that rounds to 0");
  f.epsilon = f.sandwich.fit_epsilon;
  f.delta = f.sandwich.fit_delta;
  f.options.release_label_square = q.small_n_posterior;
  return f;
}

// The small-n split (proofs/adassp.md, "Without the lambda_min step"): where the default plan at
// the public n expects the small-n posterior, not the bootstrap, to answer, X'X, X'y and y'y
// take the lambda_min step's share; its released value would be 0 after its shift there anyway.
void take_small_n_split(const DefaultFitRequest &q, DefaultFit &f) {
  if (q.intervals == Intervals::None || !q.small_n_posterior || !rows_public(q) ||
      q.options.calibration != mechanisms::AdasspCalibration::JointAnalytic)
    return;
  const SmallNSplit split = estimators::decide_small_n_split(default_fit_plan(q, f), q.rows,
                                                             q.level);
  f.rows_for_bootstrap = split.rows_for_bootstrap;
  if (!split.without_lambda_min) return;
  f.small_n_split = true;
  f.options.release_lambda_min = false;
}

// Spend only on what is used: y'y (a quarter of the fit's mu^2) is released for the intervals
// only where the plan at n forecasts a printed interval even for the most favourable design
// (fill 1): the bootstrap's, or with the posterior the posterior's (docs/forecast.md, "Will the
// posterior print?"). n is public only under replace-one at row level.
void decide_label_square(const DefaultFitRequest &q, DefaultFit &f) {
  if (q.intervals != Intervals::Decided || !rows_public(q)) return;
  f.label_square_decided = true;
  f.forecast = forecast_at_rows(q, f);
  if (f.forecast.intervals_expected ||
      (q.small_n_posterior && f.forecast.posterior_intervals_expected))
    return;
  f.label_square_refused = true;
  f.options.release_label_square = false;
}

}  // namespace

// Robust errors need X'X~ positive definite as the bootstrap does: where the forecast at the
// public n expects no interval even for rows on their bounds, the meat is not released and the
// homoscedastic path runs as it would have. The robust intervals read the fit at the sandwich's
// share, so that share's forecast (with y'y) decides too: at the whole budget's, an n where the
// share's fit supports no interval would take the robust split and leave the meat's share unspent.
DefaultFit decide_default_fit(const DefaultFitRequest &q) {
  DefaultFit f = shares(q, false);
  take_small_n_split(q, f);
  decide_label_square(q, f);
  if (!q.robust || q.intervals == Intervals::None) return f;
  // The small-n split expects no bootstrap, which the robust intervals need: no meat.
  if (f.small_n_split || (f.label_square_decided && !f.forecast.intervals_expected)) {
    f.robust_skipped = true;
    return f;
  }
  DefaultFit robust = shares(q, true);
  robust.rows_for_bootstrap = f.rows_for_bootstrap;
  robust.label_square_decided = f.label_square_decided;
  robust.forecast = f.forecast;
  if (!f.label_square_decided) return robust;  // n private, or y'y always: no forecast decides
  DefaultFit with_label = robust;
  with_label.options.release_label_square = true;
  if (forecast_at_rows(q, with_label).intervals_expected) return robust;
  f.robust_skipped = true;
  return f;
}

mechanisms::AdasspReceipt default_fit_plan(const DefaultFitRequest &q, const DefaultFit &fit) {
  return mechanisms::plan_adassp(q.regressors, q.bound_x, q.bound_y, fit.epsilon, fit.delta,
                                 fit.options);
}

}  // namespace dpcov::estimators
