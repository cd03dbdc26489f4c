#include "column_bounds_option.hpp"

#include <cmath>
#include <fstream>
#include <map>
#include <string_view>

#include <fast_float/fast_float.h>

#include "../cli_error.hpp"

namespace dpcov::cli {

namespace {

double parse_number(std::string_view text, const std::string &item) {
  double value = 0.0;
  const auto result = fast_float::from_chars(text.data(), text.data() + text.size(), value);
  if (result.ec != std::errc() || result.ptr != text.data() + text.size() || !std::isfinite(value))
    fail(kExitUsage, "--bounds: '", item, "' is not LOW:HIGH with two finite numbers");
  return value;
}

// "LOW:HIGH" -> (low, high), with low < high.
std::pair<double, double> parse_range(std::string_view text, const std::string &item) {
  // The separator is the first ':' after the first character, so that "-3:5" parses.
  const size_t colon = text.find(':', 1);
  if (colon == std::string_view::npos)
    fail(kExitUsage, "--bounds: '", item, "' is not LOW:HIGH");
  const double low = parse_number(text.substr(0, colon), item);
  const double high = parse_number(text.substr(colon + 1), item);
  if (!(low < high))
    fail(kExitUsage, "--bounds: '", item, "' needs LOW < HIGH (a constant column carries no "
         "information)");
  return {low, high};
}

std::vector<std::string> split(const std::string &spec) {
  std::vector<std::string> items;
  size_t start = 0;
  while (true) {
    const size_t comma = spec.find(',', start);
    items.push_back(spec.substr(start, comma == std::string::npos ? comma : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return items;
}

// A bounds file: CSV lines "column,min,max" (a header line starting with "column" is skipped), as
// data/diabetes_bounds.csv. Columns the input does not use may be listed.
ColumnBounds read_bounds_file(const std::string &path, const std::vector<std::string> &names) {
  std::ifstream in(path);
  if (!in) fail(kExitIo, "--bounds: cannot open ", path);
  std::map<std::string, std::pair<double, double>> ranges;
  std::string line;
  int64_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || (number == 1 && line.rfind("column", 0) == 0)) continue;
    const size_t first = line.find(',');
    const size_t second = first == std::string::npos ? first : line.find(',', first + 1);
    if (second == std::string::npos)
      fail(kExitUsage, "--bounds: ", path, ":", number, ": expected 'column,min,max'");
    const std::string item = path + ":" + std::to_string(number);
    const std::string range = line.substr(first + 1, second - first - 1) + ":" + line.substr(second + 1);
    ranges[line.substr(0, first)] = parse_range(range, item);
  }
  ColumnBounds bounds;
  for (const std::string &name : names) {
    const auto found = ranges.find(name);
    if (found == ranges.end())
      fail(kExitUsage, "--bounds: ", path, " has no range for column '", name, "'");
    bounds.lower.push_back(found->second.first);
    bounds.upper.push_back(found->second.second);
  }
  return bounds;
}

}  // namespace

nlohmann::ordered_json ColumnBounds::json(const std::vector<std::string> &names) const {
  nlohmann::ordered_json ranges = nlohmann::ordered_json::object();
  for (size_t j = 0; j < lower.size(); ++j) ranges[names[j]] = {lower[j], upper[j]};
  return {{"method", "public per-column bounds (proofs/column_bounds.md)"},
          {"constant_column", kConstantColumn},
          {"bounds", ranges},
          {"matrix_units", "user: the second moment of [1, x], entry (const, const) estimates n"},
          {"noise_units", "scaled: each column mapped from [lower, upper] to [-1, 1]"}};
}

bool is_bounds_file(const std::string &spec) { return spec.find(':') == std::string::npos; }

ColumnBounds parse_column_bounds(const std::string &spec, const std::vector<std::string> &names) {
  if (is_bounds_file(spec)) return read_bounds_file(spec, names);
  const std::vector<std::string> items = split(spec);
  const size_t d = names.size();
  ColumnBounds bounds;
  bounds.lower.assign(d, NAN);
  bounds.upper.assign(d, NAN);
  if (items.size() == 1 && items[0].find('=') == std::string::npos) {
    const auto [low, high] = parse_range(items[0], items[0]);
    bounds.lower.assign(d, low);
    bounds.upper.assign(d, high);
    return bounds;
  }
  const bool named = items[0].find('=') != std::string::npos;
  if (!named && items.size() != d)
    fail(kExitUsage, "--bounds: ", items.size(), " ranges for ", d,
         " columns; give one LOW:HIGH per column, NAME=LOW:HIGH for each, or one for all");
  for (size_t k = 0; k < items.size(); ++k) {
    const std::string &item = items[k];
    size_t j = k;
    std::string_view range = item;
    if (named) {
      const size_t equals = item.find('=');
      if (equals == std::string::npos)
        fail(kExitUsage, "--bounds: '", item, "' is not NAME=LOW:HIGH like the first item");
      const std::string name = item.substr(0, equals);
      j = d;
      for (size_t i = 0; i < d; ++i)
        if (names[i] == name) j = i;
      if (j == d) fail(kExitUsage, "--bounds: no column named '", name, "'");
      if (!std::isnan(bounds.lower[j])) fail(kExitUsage, "--bounds: column '", name, "' twice");
      range = std::string_view(item).substr(equals + 1);
    }
    const auto [low, high] = parse_range(range, item);
    bounds.lower[j] = low;
    bounds.upper[j] = high;
  }
  for (size_t j = 0; j < d; ++j)
    if (std::isnan(bounds.lower[j]))
      fail(kExitUsage, "--bounds: no range for column '", names[j],
           "'; every column needs one (bounds must be public: not read from the data)");
  return bounds;
}

ColumnBounds column_bounds_from_receipt(const nlohmann::ordered_json &scaling,
                                        const std::string &path) {
  ColumnBounds bounds;
  if (!scaling.is_object() || !scaling.contains("bounds") || !scaling["bounds"].is_object())
    fail(kExitInputData, path, ": \"scaling\" must hold an object \"bounds\"");
  for (const auto &[name, range] : scaling["bounds"].items()) {
    if (!range.is_array() || range.size() != 2 || !range[0].is_number() || !range[1].is_number())
      fail(kExitInputData, path, ": the bounds of column '", name, "' must be [lower, upper]");
    const double lower = range[0].get<double>(), upper = range[1].get<double>();
    // As --bounds requires of the ranges it writes: a record that breaks it was not written by a
    // release (it reached the library's column mapping and failed there as a usage error).
    if (!(std::isfinite(lower) && std::isfinite(upper) && lower < upper))
      fail(kExitInputData, path, ": the bounds of column '", name, "' must be finite with lower < ",
           "upper, got [", lower, ", ", upper, "]");
    bounds.lower.push_back(lower);
    bounds.upper.push_back(upper);
  }
  return bounds;
}

}  // namespace dpcov::cli
