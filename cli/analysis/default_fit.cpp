#include "default_fit.hpp"

#include "../cli_error.hpp"
#include "../library_status.hpp"
#include "regression_forecast.hpp"
#include "robust_regression.hpp"
#include "text_table.hpp"

namespace dpcov::cli {

namespace {

ForecastRequest at_rows(const DefaultFitQuery &q, bool intercept) {
  return {static_cast<double>(q.rows), q.level, 1.0, intercept};
}

// The small-n split (dpcov_adassp_small_n_split, proofs/adassp.md, "Without the lambda_min
// step"): where the default plan at the public n expects the small-n posterior, not the
// bootstrap, to answer, the fit releases X'X, X'y and y'y without the lambda_min step, whose
// released value would be 0 after its shift there anyway. Returns whether it did.
bool decide_small_n_split(const DefaultFitQuery &q, DefaultFit &f) {
  if (q.no_intervals || !q.small_n_posterior || !q.n_public ||
      q.params.calibration != DPCOV_ADASSP_JOINT_ANALYTIC)
    return false;
  const dpcov_adassp_receipt plan = default_fit_plan(q, f);
  int32_t without = 0;
  double rows_for_bootstrap = 0.0;
  library_check(dpcov_adassp_small_n_split(&plan, static_cast<double>(q.rows), q.level, &without,
                                           &rows_for_bootstrap),
                "the small-n split");
  if (without == 0) return false;
  f.params.without_lambda_min = 1;
  f.small_n_split = concat(
      "budget: X'X, X'y and y'y without AdaSSP's lambda_min step (a larger share of epsilon each, "
      "the ridge at its public bound), from public values: at n = ", q.rows, " the plan "
      "expects the small-n posterior to answer (the bootstrap from about n = ",
      whole_rows(rows_for_bootstrap), "), where the released lambda_min would be 0");
  return true;
}

// Spend only on what is used: y'y (a quarter of the fit's mu^2) is released for the intervals
// only when the plan at this n, from public values alone, forecasts a printed interval even for
// the most favourable design (rows on their bounds, fill 1); otherwise the fit keeps the share.
// n is public only under replace-one, so under add/remove y'y is released as asked. With the
// posterior an interval is also expected where the forecast's posterior prints one: its
// sampling share reaches the print rule's threshold and its half-width is below R_j
// (docs/forecast.md, "Will the posterior print?").
void decide_label_square(const DefaultFitQuery &q, DefaultFit &f) {
  if (q.no_intervals || q.intervals_anyway || !q.n_public) return;
  f.forecast = adassp_forecast(default_fit_plan(q, f), at_rows(q, false));
  if (f.forecast->intervals_expected == 1 ||
      (q.small_n_posterior && f.forecast->posterior_intervals_expected == 1))
    return;
  f.params.release_label_square = 0;
  f.label_square_refusal = concat(
      "not attempted: the plan forecasts none at n = ", q.rows, " even with rows on their "
      "bounds (",
      q.small_n_posterior
          ? concat("the posterior prints from about n = ",
                   whole_rows(f.forecast->rows_for_posterior_intervals), ": sampling share ",
                   format_number(f.forecast->posterior_sampling_share, 3), " against ",
                   format_number(f.forecast->posterior_min_sampling_share, 3), ", half-width ",
                   format_number(f.forecast->posterior_half_width_over_range, 3), " x R_j")
          : concat("intervals from about n = ", whole_rows(f.forecast->rows_for_intervals),
                   ", expected ", format_number(100.0 * q.level, 3),
                   "% width of a standardised coefficient ",
                   format_number(f.forecast->interval_width, 3)),
      "), so y'y was not released and the fit kept its share of the budget (--intervals-anyway "
      "spends it; `dpcov plan -m adassp` forecasts other n and epsilon)");
}

}  // namespace

DefaultFit fit_shares(const DefaultFitQuery &q, bool robust) {
  DefaultFit f;
  f.params = q.params;
  f.robust = robust;
  if (!robust) {
    f.epsilon = q.budget;
    f.delta = q.delta;
    return f;
  }
  // The fit spends the sandwich's share and releases y'y only for the posterior, which answers
  // where the released X'X~ does not support the robust bootstrap.
  f.sandwich = sandwich_budget(q.bound_x, q.label_bound, q.budget, q.delta);
  f.epsilon = f.sandwich.fit_epsilon;
  f.delta = f.sandwich.fit_delta;
  f.params.release_label_square = q.small_n_posterior ? 1 : 0;
  return f;
}

// Robust errors need X'X~ positive definite as the bootstrap does: where the forecast at the
// public n expects no interval even for rows on their bounds, the meat is not released and the
// homoscedastic path runs as it would have. The robust intervals read the fit at the sandwich's
// share of the budget, so that share's forecast (with y'y) decides too: at the whole budget's,
// an n where the share's fit supports no interval would take the robust split, fit at the share
// and leave the meat's share unspent.
DefaultFit decide_default_fit(const DefaultFitQuery &q) {
  DefaultFit f = fit_shares(q, false);
  const bool split = decide_small_n_split(q, f);
  decide_label_square(q, f);
  if (!q.robust) return f;
  const std::string skipped =
      concat("robust intervals not attempted: the plan forecasts none at n = ", q.rows);
  // The small-n split expects no bootstrap, which the robust intervals need: no meat.
  if (split || (f.forecast && f.forecast->intervals_expected != 1)) {
    f.robust_skipped = skipped;
    return f;
  }
  DefaultFit robust = fit_shares(q, true);
  robust.forecast = f.forecast;
  if (!f.forecast) return robust;  // n is private: no decision
  DefaultFit with_label = robust;
  with_label.params.release_label_square = 1;
  if (adassp_forecast(default_fit_plan(q, with_label), at_rows(q, false)).intervals_expected == 1)
    return robust;
  f.robust_skipped = skipped;
  return f;
}

dpcov_adassp_receipt default_fit_plan(const DefaultFitQuery &q, const DefaultFit &fit) {
  dpcov_adassp_receipt plan{};
  plan.struct_size = sizeof plan;
  library_check(dpcov_adassp_plan(q.regressors, q.bound_x, q.label_bound, fit.epsilon, fit.delta,
                                  &fit.params, &plan),
                "AdaSSP settings");
  return plan;
}

dpcov_regression_forecast default_fit_forecast(const DefaultFitQuery &q, const DefaultFit &fit) {
  return adassp_forecast(default_fit_plan(q, fit), at_rows(q, q.intercept));
}

}  // namespace dpcov::cli
