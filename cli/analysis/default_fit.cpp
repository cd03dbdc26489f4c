#include "default_fit.hpp"

#include <limits>

#include "../cli_error.hpp"
#include "../library_status.hpp"
#include "regression_forecast.hpp"
#include "robust_regression.hpp"
#include "text_table.hpp"

namespace dpcov::cli {

namespace {

std::string small_n_split_reason(const DefaultFitQuery &q, double rows_for_bootstrap) {
  return concat(
      "budget: X'X, X'y and y'y without AdaSSP's lambda_min step (a larger share of epsilon each, "
      "the ridge at its public bound), from public values: at n = ", q.rows, " the plan "
      "expects the small-n posterior to answer (the bootstrap from about n = ",
      whole_rows(rows_for_bootstrap), "), where the released lambda_min would be 0");
}

std::string label_square_reason(const DefaultFitQuery &q, const dpcov_regression_forecast &f) {
  return concat(
      "not attempted: the plan forecasts none at n = ", q.rows, " even with rows on their "
      "bounds (",
      q.small_n_posterior
          ? concat("the posterior prints from about n = ",
                   whole_rows(f.rows_for_posterior_intervals), ": sampling share ",
                   format_number(f.posterior_sampling_share, 3), " against ",
                   format_number(f.posterior_min_sampling_share, 3), ", half-width ",
                   format_number(f.posterior_half_width_over_range, 3), " x R_j")
          : concat("intervals from about n = ", whole_rows(f.rows_for_intervals),
                   ", expected ", format_number(100.0 * q.level, 3),
                   "% width of a standardised coefficient ", format_number(f.interval_width, 3)),
      "), so y'y was not released and the fit kept its share of the budget (--intervals-anyway "
      "spends it; `dpcov plan -m adassp` forecasts other n and epsilon)");
}

dpcov_adassp_fit_request fit_request(const DefaultFitQuery &q) {
  dpcov_adassp_fit_request r{};
  r.struct_size = sizeof r;
  r.num_regressors = q.regressors;
  r.bound = q.bound_x;
  r.bound_y = q.label_bound;
  r.epsilon = q.budget;
  r.delta = q.delta;
  r.rows = q.rows_known ? static_cast<double>(q.rows) : std::numeric_limits<double>::quiet_NaN();
  r.level = q.level;
  r.intervals = q.params.release_label_square == 0 || q.no_intervals ? DPCOV_FIT_INTERVALS_NONE
                : q.intervals_anyway                                 ? DPCOV_FIT_INTERVALS_ALWAYS
                                                                     : DPCOV_FIT_INTERVALS_DECIDED;
  r.robust = q.robust ? 1 : 0;
  r.small_n_posterior = q.small_n_posterior ? 1 : 0;
  return r;
}

}  // namespace

// The library's decisions (dpcov_adassp_default_fit), with the reasons the command prints.
DefaultFit decide_default_fit(const DefaultFitQuery &q) {
  const dpcov_adassp_fit_request request = fit_request(q);
  dpcov_adassp_params decided{};
  decided.struct_size = sizeof decided;
  dpcov_adassp_fit_decision d{};
  d.struct_size = sizeof d;
  dpcov_regression_forecast forecast{};
  forecast.struct_size = sizeof forecast;
  library_check(dpcov_adassp_default_fit(&request, &q.params, &decided, &d, &forecast),
                "the default fit's decisions");
  DefaultFit f;
  f.params = decided;
  f.epsilon = d.fit_epsilon;
  f.delta = d.fit_delta;
  f.robust = d.robust == 1;
  // The meat's constants (its shares are the decision's: the split does not read the bounds).
  if (f.robust) f.sandwich = sandwich_budget(q.bound_x, q.label_bound, q.budget, q.delta);
  if (d.label_square_decided == 1) f.forecast = forecast;
  if (d.small_n_split == 1) f.small_n_split = small_n_split_reason(q, d.rows_for_bootstrap);
  if (d.label_square_refused == 1) f.label_square_refusal = label_square_reason(q, forecast);
  if (d.robust_skipped == 1)
    f.robust_skipped =
        concat("robust intervals not attempted: the plan forecasts none at n = ", q.rows);
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

}  // namespace dpcov::cli
