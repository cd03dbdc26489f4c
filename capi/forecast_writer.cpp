#include "forecast_writer.hpp"

#include "struct_size.hpp"

namespace dpcov::capi {

void write_forecast(dpcov_regression_forecast *out, const estimators::ForecastSettings &s,
                    const estimators::RegressionForecast &f) {
  dpcov_regression_forecast value{};
  value.rows = s.rows;
  value.level = s.level;
  value.fill = s.fill;
  value.crossover_rows = f.crossover_rows;
  value.sampling_standard_error = f.sampling_standard_error;
  value.privacy_standard_error = f.privacy_standard_error;
  value.standard_error = f.standard_error;
  value.interval_width = f.interval_width;
  value.rows_for_intervals = f.rows_for_intervals;
  value.intervals_expected = f.intervals_expected ? 1 : 0;
  value.posterior_sampling_share = f.posterior_sampling_share;
  value.posterior_min_sampling_share = f.posterior_min_sampling_share;
  value.posterior_half_width_over_range = f.posterior_half_width_over_range;
  value.rows_for_posterior_intervals = f.rows_for_posterior_intervals;
  value.posterior_intervals_expected = f.posterior_intervals_expected ? 1 : 0;
  value.intercept = s.intercept ? 1 : 0;
  write_struct(out, value);
}

}  // namespace dpcov::capi
