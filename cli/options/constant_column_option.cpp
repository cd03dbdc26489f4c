#include "constant_column_option.hpp"

#include <cmath>
#include <limits>

#include "../cli_error.hpp"
#include "column_bounds_option.hpp"
#include "../library_status.hpp"
#include "../io/row_bounding.hpp"

namespace dpcov::cli {

double constant_column_norm_bound(double row_bound) {
  // Above sqrt(DBL_MAX) the caller refuses B anyway (the mechanisms square the bound).
  if (!(row_bound <= std::sqrt(std::numeric_limits<double>::max())))
    return std::numeric_limits<double>::infinity();
  return constant_column_norm_bound(row_bound, row_bound);
}

double constant_column_norm_bound(double constant, double row_bound) {
  dpcov_row_bounding spec = row_bounding(row_bound, DPCOV_BOUND_CLIP);
  spec.constant = constant;
  dpcov_gram_info info{};
  info.struct_size = sizeof info;
  library_check(dpcov_row_bounding_apply(&spec, DPCOV_ROW_MAJOR, 0, 1, nullptr, 1, nullptr, 2,
                                         &info, nullptr),
                concat("the norm bound of the rows [", constant, ", x] at bound ", row_bound));
  return info.bound;
}

double exact_grid_constant(double value, double norm_bound, int32_t bits) {
  double held = 0.0;
  library_check(dpcov_exact_grid_value(norm_bound, bits, value, &held),
                concat("the constant ", value, " on the exact grid of bound ", norm_bound));
  return held;
}

nlohmann::ordered_json constant_column_json(double value, double row_bound, double norm_bound) {
  return {{"name", kConstantColumn},
          {"value", value},
          {"row_bound", row_bound},
          {"norm_bound", norm_bound},
          {"method", "--add-constant: rows [B, x] with x clipped to norm B, norm bound sqrt(2) B "
                     "rounded up; entry (const, const) estimates value^2 n, (const, j) value times "
                     "the column sums (value: B, or B rounded to the exact numerics' grid)"}};
}

ReceiptConstant receipt_constant(const nlohmann::ordered_json &receipt, const std::string &path) {
  ReceiptConstant found;
  if (!receipt.is_object()) return found;
  if (receipt.contains("constant_column")) {
    const auto &record = receipt["constant_column"];
    if (!record.is_object() || !record.contains("name") || !record["name"].is_string() ||
        !record.contains("value") || !record["value"].is_number() ||
        !std::isfinite(record["value"].get<double>()) || !(record["value"].get<double>() > 0.0))
      fail(kExitInputData, path, ": \"constant_column\" must hold a \"name\" and a finite "
           "\"value\" > 0");
    found.found = true;
    found.name = record["name"].get<std::string>();
    found.value = record["value"].get<double>();
    return found;
  }
  if (receipt.contains("scaling") && receipt["scaling"].is_object()) {
    found.name = receipt["scaling"].value("constant_column", "");
    found.found = !found.name.empty();
  }
  return found;
}

}  // namespace dpcov::cli
