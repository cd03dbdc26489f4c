// dpcov_adassp_default_fit (dpcov/forecast.h) over the kernel (core/estimators/default_fit.hpp).
#include "dpcov/forecast.h"

#include "../core/check.hpp"
#include "../core/error.hpp"
#include "../core/estimators/default_fit.hpp"
#include "adassp_params.hpp"
#include "forecast_writer.hpp"
#include "guard.hpp"
#include "struct_size.hpp"

namespace {

namespace est = dpcov::estimators;

int32_t flag(bool value) { return value ? 1 : 0; }

bool read_flag(int32_t value, const char *name) {
  if (value != 0 && value != 1)
    dpcov::fail(dpcov::Status::InvalidArgument, "request->", name, " must be 0 or 1, got ", value);
  return value == 1;
}

est::DefaultFitRequest read_request(const dpcov_adassp_fit_request *caller,
                                    const dpcov_adassp_params *params) {
  const dpcov_adassp_fit_request r =
      dpcov::capi::read_struct(caller, dpcov_adassp_fit_request{}, "request");
  est::DefaultFitRequest q;
  q.regressors = r.num_regressors;
  q.bound_x = r.bound;
  q.bound_y = r.bound_y;
  q.epsilon = r.epsilon;
  q.delta = r.delta;
  q.options = dpcov::capi::adassp_options_from(params);
  q.rows = r.rows;
  q.level = r.level;
  if (r.intervals < DPCOV_FIT_INTERVALS_NONE || r.intervals > DPCOV_FIT_INTERVALS_ALWAYS)
    dpcov::fail(dpcov::Status::InvalidArgument, "request->intervals must be a dpcov_fit_intervals ",
                "(0, 1 or 2), got ", r.intervals);
  q.intervals = static_cast<est::Intervals>(r.intervals);
  q.robust = read_flag(r.robust, "robust");
  q.small_n_posterior = read_flag(r.small_n_posterior, "small_n_posterior");
  return q;
}

}  // namespace

extern "C" {

DPCOV_API dpcov_status dpcov_adassp_default_fit(const dpcov_adassp_fit_request *request,
                                                const dpcov_adassp_params *params,
                                                dpcov_adassp_params *decided,
                                                dpcov_adassp_fit_decision *decision,
                                                dpcov_regression_forecast *forecast) {
  return dpcov::capi::guarded([&] {
    const est::DefaultFitRequest q = read_request(request, params);
    dpcov::capi::struct_bytes(decided, "decided");
    dpcov::capi::struct_bytes(decision, "decision");
    if (forecast != nullptr) dpcov::capi::struct_bytes(forecast, "forecast");
    const est::DefaultFit f = est::decide_default_fit(q);
    dpcov_adassp_fit_decision d{};
    d.fit_epsilon = f.epsilon;
    d.fit_delta = f.delta;
    d.robust = flag(f.robust);
    d.meat_epsilon = f.sandwich.meat_epsilon;
    d.meat_delta = f.sandwich.meat_delta;
    d.small_n_split = flag(f.small_n_split);
    d.rows_for_bootstrap = f.rows_for_bootstrap;
    d.label_square_decided = flag(f.label_square_decided);
    d.label_square_refused = flag(f.label_square_refused);
    d.robust_skipped = flag(f.robust_skipped);
    dpcov::capi::write_struct(decided, dpcov::capi::adassp_params_of(f.options));
    dpcov::capi::write_struct(decision, d);
    if (forecast != nullptr && f.label_square_decided)
      dpcov::capi::write_forecast(forecast, {q.rows, q.level, 1.0}, f.forecast);
  });
}

}  // extern "C"
