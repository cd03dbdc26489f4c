#include "adassp_receipt.hpp"

#include "../cli_error.hpp"
#include "receipt_prefix_json.hpp"

namespace dpcov::cli {

namespace {

const char *adassp_privacy_words(const dpcov_adassp_receipt &r) {
  return r.seed_fixed != 0 ? "reproducible: not private if the seed is known"
                           : "differentially private";
}

const char *adassp_numerics_words(const dpcov_adassp_receipt &r) {
  return r.numerics == DPCOV_NUMERICS_EXACT
             ? "exact numerics"
             : "idealized numerics (floating-point noise, Mironov 2012)";
}

}  // namespace

std::string adassp_claim(const dpcov_adassp_receipt &r) {
  return concat(adassp_privacy_words(r), "; ", adassp_numerics_words(r));
}

nlohmann::ordered_json adassp_receipt_json(const dpcov_adassp_receipt &r) {
  nlohmann::ordered_json j = receipt_prefix_json(&r);
  j["differentially_private"] = r.seed_fixed == 0;
  j["privacy_claim"] = adassp_claim(r);
  j["calibration"] = r.calibration == DPCOV_ADASSP_PAPER ? "paper" : "joint_analytic";
  j["num_regressors"] = r.num_regressors;
  j["bound_y"] = r.bound_y;
  j["delta_exact"] = r.delta_exact;
  j["failure_probability"] = r.failure_probability;
  j["sensitivity_lambda_min"] = r.sensitivity_lambda_min;
  j["sensitivity_gram"] = r.sensitivity_gram;
  j["sensitivity_cross"] = r.sensitivity_cross;
  j["sigma_lambda_min"] = r.sigma_lambda_min;
  j["sigma_gram"] = r.sigma_gram;
  j["sigma_gram_off_diagonal"] = r.sigma_gram_off_diagonal;
  j["sigma_cross"] = r.sigma_cross;
  j["lambda_min_shift"] = r.lambda_min_shift;
  j["noise_norm_bound"] = r.noise_norm_bound;
  j["eigenvalue_floor"] = r.eigenvalue_floor;
  j["released_lambda_min"] = r.released_lambda_min;
  j["ridge"] = r.ridge;
  j["eigenvalues_floored"] = r.eigenvalues_floored;
  if (r.label_square_released == 1) {
    j["sensitivity_label_square"] = r.sensitivity_label_square;
    j["sigma_label_square"] = r.sigma_label_square;
  }
  if (r.max_rows_per_unit != 0) j["max_rows_per_unit"] = r.max_rows_per_unit;
  if (r.lambda_min_released == 0) j["lambda_min_released"] = false;
  return j;
}

}  // namespace dpcov::cli
