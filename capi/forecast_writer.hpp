// A kernel forecast written to the caller's dpcov_regression_forecast (dpcov/forecast.h).
#pragma once

#include "dpcov/forecast.h"

#include "../core/estimators/regression_forecast.hpp"

namespace dpcov::capi {

// Writes `f` with the settings it was made at, up to the caller's struct_size.
void write_forecast(dpcov_regression_forecast *out, const estimators::ForecastSettings &s,
                    const estimators::RegressionForecast &f);

}  // namespace dpcov::capi
