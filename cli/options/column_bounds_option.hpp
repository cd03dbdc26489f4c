// --bounds: public per-column ranges in the user's units (dpcov/column_bounds.h).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dpcov::cli {

// The name of the constant column the scaling puts in front of the data columns.
inline constexpr const char *kConstantColumn = "const";

// One public range per data column, in the order of the input's (selected) columns.
struct ColumnBounds {
  std::vector<double> lower;
  std::vector<double> upper;
  bool empty() const { return lower.empty(); }
  // The receipt's record of the scaling: the ranges by column name, and in which units the
  // matrix and the noise are.
  nlohmann::ordered_json json(const std::vector<std::string> &names) const;
};

// Parses --bounds for the columns `names`: "LOW:HIGH" for every column, or a comma-separated list
// with one "LOW:HIGH" per column in order, or "NAME=LOW:HIGH" items naming every column, or the
// path of a CSV file of "column,min,max" lines (data/diabetes_bounds.csv). Throws
// CliError(kExitUsage) naming the faulty item (kExitIo for a file that cannot be read).
ColumnBounds parse_column_bounds(const std::string &spec, const std::vector<std::string> &names);

// True if --bounds `spec` names a file of ranges (it has no "LOW:HIGH" item): an input of the
// command, which no output may overwrite.
bool is_bounds_file(const std::string &spec);

// The ranges recorded in a receipt's "scaling" (written by ColumnBounds::json) for the data
// columns `names` (the matrix's columns after the constant one). Throws CliError(kExitInputData)
// when the record is malformed.
ColumnBounds column_bounds_from_receipt(const nlohmann::ordered_json &scaling,
                                        const std::string &path);

}  // namespace dpcov::cli
