#include "regression_forecast.hpp"

#include <cmath>

#include "../cli_error.hpp"
#include "../library_status.hpp"
#include "text_table.hpp"

namespace dpcov::cli {

std::string whole_rows(double rows) {
  const double up = std::ceil(rows);
  return up < 1e15 ? std::to_string(static_cast<long long>(up)) : format_number(up);
}

namespace {

constexpr const char *kAssumptions =
    "reference design: regressors and label independent and symmetric, regressors with equal "
    "second moments, true coefficients 0, rows' mean squared norm = fill x bound^2; figures for "
    "a standardised coefficient (units of sd(label) / sd(regressor)) of the noise-aware OLS "
    "estimate, to first order in the noise; the posterior's for a coefficient of that design "
    "without an intercept column (docs/forecast.md)";
constexpr const char *kAssumptionsIntercept =
    "reference design: an intercept column of 1s inside the bound (bound^2 = 1 + B^2), features "
    "and label independent and symmetric, features with equal second moments, true coefficients "
    "0, features' mean squared norm = fill x B^2; figures for a standardised slope (units of "
    "sd(label) / sd(feature)) of the noise-aware OLS estimate, to first order in the noise, the "
    "posterior's included (docs/forecast.md)";

const char *assumptions(const dpcov_regression_forecast &f) {
  return f.intercept == 1 ? kAssumptionsIntercept : kAssumptions;
}

dpcov_regression_forecast empty_forecast() {
  dpcov_regression_forecast f{};
  f.struct_size = sizeof f;
  return f;
}

}  // namespace

std::optional<dpcov_regression_forecast> release_forecast(const dpcov_receipt &receipt,
                                                          const ForecastRequest &request,
                                                          std::string &why_not) {
  dpcov_regression_forecast f = empty_forecast();
  const dpcov_status status = dpcov_regression_forecast_release(&receipt, request.rows,
                                                                request.level, request.fill, &f);
  if (status == DPCOV_E_INVALID_ARGUMENT && request.rows >= 1.0 && request.fill > 0.0 &&
      request.fill <= 1.0 && request.level > 0.0 && request.level < 1.0) {
    why_not = dpcov_last_error_message();
    return std::nullopt;
  }
  library_check_parameters(status, "regression forecast");
  return f;
}

dpcov_regression_forecast adassp_forecast(const dpcov_adassp_receipt &plan,
                                          const ForecastRequest &request) {
  dpcov_regression_forecast f = empty_forecast();
  const auto call = request.intercept ? dpcov_regression_forecast_adassp_intercept
                                      : dpcov_regression_forecast_adassp;
  library_check_parameters(call(&plan, request.rows, request.level, request.fill, &f),
                           "regression forecast");
  return f;
}

namespace {

// The posterior's figures (an AdaSSP forecast; null for a release, which has no posterior).
nlohmann::ordered_json posterior_json(const dpcov_regression_forecast &f) {
  if (std::isnan(f.posterior_sampling_share)) return nullptr;
  return {{"sampling_share", f.posterior_sampling_share},
          {"min_sampling_share", f.posterior_min_sampling_share},
          {"half_width_over_range", f.posterior_half_width_over_range},
          {"rows_for_intervals", f.rows_for_posterior_intervals},
          {"intervals_expected", f.posterior_intervals_expected == 1}};
}

std::string posterior_text(const dpcov_regression_forecast &f) {
  if (std::isnan(f.posterior_sampling_share)) return {};
  return concat(
      "  noise-aware posterior (where the bootstrap refuses): sampling share ",
      format_number(f.posterior_sampling_share, 3), " (printed from ",
      format_number(f.posterior_min_sampling_share, 3), "), half-width ",
      format_number(f.posterior_half_width_over_range, 3), " x R_j (printed below 1); intervals "
      "expected from n = ", whole_rows(f.rows_for_posterior_intervals), ": ",
      f.posterior_intervals_expected == 1 ? "yes" : "no", " at this n\n");
}

}  // namespace

nlohmann::ordered_json forecast_json(const dpcov_regression_forecast &f) {
  return {{"rows", f.rows},
          {"level", f.level},
          {"fill", f.fill},
          {"crossover_rows", f.crossover_rows},
          {"sampling_standard_error", f.sampling_standard_error},
          {"privacy_standard_error", f.privacy_standard_error},
          {"standard_error", f.standard_error},
          {"interval_width", f.interval_width},
          {"rows_for_intervals", f.rows_for_intervals},
          {"intervals_expected", f.intervals_expected == 1},
          {"posterior", posterior_json(f)},
          {"intercept", f.intercept == 1},
          {"assumptions", assumptions(f)}};
}

std::string forecast_text(const dpcov_regression_forecast &f) {
  return concat(
      "regression forecast (public values only, before any privacy is spent):\n"
      "  crossover n: ", whole_rows(f.crossover_rows),
      " (the privacy noise adds as much variance to a coefficient as the sampling noise)\n"
      "  at n = ", whole_rows(f.rows), ": expected ", format_number(100.0 * f.level, 3),
      "% interval width ", format_number(f.interval_width, 3), " for a standardised coefficient "
      "(standard error ", format_number(f.standard_error, 3), ": sampling ",
      format_number(f.sampling_standard_error, 3), ", privacy ",
      format_number(f.privacy_standard_error, 3), ")\n"
      "  noise-aware intervals expected from n = ", whole_rows(f.rows_for_intervals),
      " (the reference design prints in nearly every fit from there, in about half from "
      "0.6-0.7 of it): ", f.intervals_expected == 1 ? "yes" : "no", " at this n (fill ",
      format_number(f.fill, 3), ")\n", posterior_text(f), "  ", assumptions(f), "\n");
}

}  // namespace dpcov::cli
