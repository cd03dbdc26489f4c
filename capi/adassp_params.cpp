#include "adassp_params.hpp"

#include "../core/error.hpp"
#include "struct_size.hpp"

namespace dpcov::capi {

dpcov_adassp_params adassp_params_of(const mechanisms::AdasspOptions &options) {
  dpcov_adassp_params d{};
  d.struct_size = sizeof d;
  d.neighbour = static_cast<int32_t>(options.neighbour);
  d.calibration = static_cast<int32_t>(options.calibration);
  d.rho = options.rho;
  d.release_label_square = options.release_label_square ? 1 : 0;
  d.max_rows_per_unit = options.max_rows_per_unit;
  d.without_lambda_min = options.release_lambda_min ? 0 : 1;
  return d;
}

dpcov_adassp_params default_adassp_params() { return adassp_params_of({}); }

mechanisms::AdasspOptions adassp_options_from(const dpcov_adassp_params *caller) {
  mechanisms::AdasspOptions options;
  if (caller == nullptr) return options;
  const dpcov_adassp_params params = read_struct(caller, default_adassp_params(), "params");
  options.neighbour = static_cast<privacy::Neighbour>(params.neighbour);
  options.calibration = static_cast<mechanisms::AdasspCalibration>(params.calibration);
  options.rho = params.rho;
  if (params.release_label_square != 0 && params.release_label_square != 1)
    fail(Status::InvalidArgument, "params->release_label_square must be 0 or 1, got ",
         params.release_label_square);
  options.release_label_square = params.release_label_square == 1;
  options.max_rows_per_unit = params.max_rows_per_unit;
  if (params.without_lambda_min != 0 && params.without_lambda_min != 1)
    fail(Status::InvalidArgument, "params->without_lambda_min must be 0 or 1, got ",
         params.without_lambda_min);
  options.release_lambda_min = params.without_lambda_min == 0;
  return options;
}

}  // namespace dpcov::capi
