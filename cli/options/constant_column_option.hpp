// `release --add-constant`: a constant column `const` put in front of every row of a `--bound B`
// or `--bound auto` release, as Python's PrivateCovariance does: the rows released are [B, x]
// with x clipped to norm B first, so their norm bound is sqrt(2) B, and the second moment of
// [B, x] gives the private mean and covariance (`pca --center`, `glasso --center`) and the
// intercept (`regress --intercept const`) with no column of ones in the user's data.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <dpcov.h>
#include <nlohmann/json.hpp>

#include "../io/readers/row_reader.hpp"

namespace dpcov::cli {

// The norm bound of the rows [B, x] with ||x|| <= B: sqrt(2) B rounded up, as the library's row
// bounding computes it (dpcov_row_bounding with a constant column); +infinity above sqrt(DBL_MAX),
// where the caller refuses B. Throws CliError when B is below the library's range (2^-960).
double constant_column_norm_bound(double row_bound);

// The norm bound of the rows [c, x] with ||x|| <= B as the library's row bounding computes it
// (for the regression's intercept, c = 1: hypot(1, B) with room for rounding), so that a plan
// before the rows are read uses the bound the accumulator will. Throws CliError when B or c is
// out of the library's range or the bound overflows.
double constant_column_norm_bound(double constant, double row_bound);

// The value a constant column of `value` holds in an exact-numerics release whose grid has
// `bits` bits at norm bound `norm_bound`, as the library rounds it (dpcov_exact_grid_value): a
// little off `value` (centring with B itself would scale the mean by about 1e-4). Throws
// CliError when the library refuses the arguments.
double exact_grid_constant(double value, double norm_bound, int32_t bits);

// The public receipt's record of the constant column: its name, the value it holds in the release
// (B, or exact_grid_constant()), the bound B of the data rows and the norm bound sqrt(2) B of the
// released rows [B, x].
nlohmann::ordered_json constant_column_json(double value, double row_bound, double norm_bound);

// The constant column a receipt names, for centring and the intercept: from "constant_column"
// (`release --add-constant`: the value B) or "scaling" (`release --bounds`: 1). `found` is false
// when the receipt names none. Throws CliError(kExitInputData) for a malformed record.
struct ReceiptConstant {
  bool found = false;
  std::string name;
  double value = 1.0;
};
ReceiptConstant receipt_constant(const nlohmann::ordered_json &receipt, const std::string &path);

}  // namespace dpcov::cli
