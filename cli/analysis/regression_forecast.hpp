// The forecast of a regression (dpcov/forecast.h) as the command prints it: from public values
// only, before any privacy is spent.
#pragma once

#include <optional>
#include <string>

#include <dpcov.h>
#include <nlohmann/json.hpp>

namespace dpcov::cli {

struct ForecastRequest {
  double rows = 0.0;
  double level = 0.95;
  double fill = 1.0;
  bool intercept = false;  // AdaSSP: the first regressor is an intercept inside the bound
};

// The forecast of a regression on the release `receipt` plans, or nothing (with the reason in
// `why_not`) for a mechanism whose noise law the noise-aware intervals do not know.
std::optional<dpcov_regression_forecast> release_forecast(const dpcov_receipt &receipt,
                                                          const ForecastRequest &request,
                                                          std::string &why_not);

// The forecast of an AdaSSP fit planned by `plan`.
dpcov_regression_forecast adassp_forecast(const dpcov_adassp_receipt &plan,
                                          const ForecastRequest &request);

nlohmann::ordered_json forecast_json(const dpcov_regression_forecast &f);

// A count of rows as printed: the whole number at or above `rows`.
std::string whole_rows(double rows);

// A paragraph: the crossover n, the expected width at n, whether intervals are expected, and the
// assumptions the figures rest on.
std::string forecast_text(const dpcov_regression_forecast &f);

}  // namespace dpcov::cli
