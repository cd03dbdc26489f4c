#include "small_n_split.hpp"

#include "../error.hpp"
#include "regression_forecast.hpp"

namespace dpcov::estimators {

SmallNSplit decide_small_n_split(const mechanisms::AdasspReceipt &plan, double rows,
                                 double level) {
  if (plan.max_rows_per_unit != 0)
    fail(Status::Incompatible, "the small-n split is decided at n public rows; a unit-level fit ",
         "keeps a private number of rows (max_rows_per_unit = ", plan.max_rows_per_unit, ")");
  if (plan.calibration != mechanisms::AdasspCalibration::JointAnalytic)
    fail(Status::InvalidArgument, "the small-n split is of the joint analytic calibration; the ",
         "paper's constants have no other split");
  if (!plan.lambda_min_released)
    fail(Status::InvalidArgument, "the small-n split is decided on the default plan (lambda_min ",
         "released), got a plan without the lambda_min step");
  if (plan.neighbour == privacy::Neighbour::AddRemove)
    fail(Status::Incompatible, "the small-n split is decided at n public rows; under add/remove ",
         "neighbours n is private, so the default split is kept");
  // Fill 1: the design most favourable to the bootstrap; where even it is not expected, no
  // design is (the forecast's rows_for_intervals falls as the fill grows).
  const RegressionForecast f = forecast_adassp_regression(plan, {rows, level, 1.0});
  return {rows < f.rows_for_intervals, f.rows_for_intervals};
}

}  // namespace dpcov::estimators
