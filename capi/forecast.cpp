// dpcov/forecast.h over the kernel (core/estimators/regression_forecast.hpp).
#include "dpcov/forecast.h"

#include "../core/check.hpp"
#include "../core/estimators/regression_forecast.hpp"
#include "../core/estimators/small_n_split.hpp"
#include "forecast_writer.hpp"
#include "guard.hpp"
#include "receipt_writer.hpp"
#include "struct_size.hpp"

namespace {

namespace est = dpcov::estimators;

// The fields of a C receipt the forecast reads.
dpcov::mechanisms::AdasspReceipt forecast_fields(const dpcov_adassp_receipt &r) {
  dpcov::mechanisms::AdasspReceipt k;
  k.dim = r.num_regressors;
  k.bound_x = r.bound;
  k.bound_y = r.bound_y;
  k.sigma_cross = r.sigma_cross;
  k.sigma_gram_off_diagonal = r.sigma_gram_off_diagonal;
  return k;
}

// An AdaSSP fit's forecast, without or with an intercept column.
dpcov_status adassp_forecast(const dpcov_adassp_receipt *receipt, double n, double level,
                             double fill, bool intercept, dpcov_regression_forecast *forecast) {
  return dpcov::capi::guarded([&] {
    const dpcov_adassp_receipt r =
        dpcov::capi::read_struct(receipt, dpcov_adassp_receipt{}, "receipt");
    // The forecast is of the intervals at n public rows; a unit fit keeps a private number of
    // rows and gives no interval (proofs/adassp_units.md, "Intervals").
    if (r.max_rows_per_unit != 0)
      dpcov::fail(dpcov::Status::Incompatible, "AdaSSP's forecast is of a row-level fit's ",
                  "intervals at n public rows; this fit is at the level of privacy units ",
                  "(max_rows_per_unit = ", r.max_rows_per_unit, "): no interval is forecast");
    dpcov::capi::struct_bytes(forecast, "forecast");
    est::ForecastSettings s{n, level, fill};
    s.intercept = intercept;
    dpcov::capi::write_forecast(forecast, s, est::forecast_adassp_regression(forecast_fields(r), s));
  });
}

}  // namespace

extern "C" {

DPCOV_API dpcov_status dpcov_regression_forecast_release(const dpcov_receipt *receipt, double n,
                                                         double level, double fill,
                                                         dpcov_regression_forecast *forecast) {
  return dpcov::capi::guarded([&] {
    const dpcov_receipt r = dpcov::capi::read_struct(receipt, dpcov_receipt{}, "receipt");
    dpcov::capi::struct_bytes(forecast, "forecast");
    const est::ReleaseNoise noise = dpcov::capi::noise_from_receipt(receipt, r.dim);
    const est::ForecastSettings s{n, level, fill};
    dpcov::capi::write_forecast(forecast, s, est::forecast_release_regression(noise, r.dim, r.bound, s));
  });
}

DPCOV_API dpcov_status dpcov_regression_forecast_adassp(const dpcov_adassp_receipt *receipt,
                                                        double n, double level, double fill,
                                                        dpcov_regression_forecast *forecast) {
  return adassp_forecast(receipt, n, level, fill, false, forecast);
}

DPCOV_API dpcov_status dpcov_regression_forecast_adassp_intercept(
    const dpcov_adassp_receipt *receipt, double n, double level, double fill,
    dpcov_regression_forecast *forecast) {
  return adassp_forecast(receipt, n, level, fill, true, forecast);
}

DPCOV_API dpcov_status dpcov_adassp_small_n_split(const dpcov_adassp_receipt *plan, double n,
                                                  double level, int32_t *without_lambda_min,
                                                  double *rows_for_bootstrap) {
  return dpcov::capi::guarded([&] {
    // A plan from a program compiled before lambda_min_released had the lambda_min step.
    dpcov_adassp_receipt defaults{};
    defaults.lambda_min_released = 1;
    const dpcov_adassp_receipt r = dpcov::capi::read_struct(plan, defaults, "plan");
    dpcov::check::not_null(without_lambda_min, "without_lambda_min");
    dpcov::mechanisms::AdasspReceipt k = forecast_fields(r);
    k.calibration = static_cast<dpcov::mechanisms::AdasspCalibration>(r.calibration);
    k.max_rows_per_unit = r.max_rows_per_unit;
    k.lambda_min_released = r.lambda_min_released == 1;
    if (r.neighbour != DPCOV_NEIGHBOUR_REPLACE_ONE && r.neighbour != DPCOV_NEIGHBOUR_ADD_REMOVE)
      dpcov::fail(dpcov::Status::InvalidArgument, "plan->neighbour must be ",
                  "DPCOV_NEIGHBOUR_REPLACE_ONE (0) or DPCOV_NEIGHBOUR_ADD_REMOVE (1), got ",
                  r.neighbour);
    k.neighbour = static_cast<dpcov::privacy::Neighbour>(r.neighbour);
    const est::SmallNSplit split = est::decide_small_n_split(k, n, level);
    *without_lambda_min = split.without_lambda_min ? 1 : 0;
    if (rows_for_bootstrap != nullptr) *rows_for_bootstrap = split.rows_for_bootstrap;
  });
}

}  // extern "C"
