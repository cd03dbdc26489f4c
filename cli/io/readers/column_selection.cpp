#include "column_selection.hpp"

#include <algorithm>
#include <charconv>

#include "../../cli_error.hpp"

namespace dpcov::cli {

namespace {

// Parses a positive decimal integer filling all of `text`, or returns 0.
int64_t parse_index(std::string_view text) {
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 1) return 0;
  return value;
}

}  // namespace

std::string default_column_name(int64_t index) { return concat("column ", index + 1); }

std::vector<int64_t> resolve_columns(const std::vector<std::string> &tokens, int64_t file_columns,
                                     const std::vector<std::string> &names) {
  std::vector<int64_t> picked;
  if (tokens.empty()) {
    for (int64_t j = 0; j < file_columns; ++j) picked.push_back(j);
    return picked;
  }
  const auto check_index = [&](int64_t k, const std::string &token) {
    if (k < 1 || k > file_columns)
      fail(kExitUsage, "--columns: '", excerpt(token), "' is not a column: the input has ", file_columns,
           " columns, numbered from 1");
    return k - 1;
  };
  for (const std::string &token : tokens) {
    const auto named = std::find(names.begin(), names.end(), token);
    if (named != names.end()) {
      picked.push_back(named - names.begin());
      continue;
    }
    const size_t dash = token.find('-', 1);
    if (dash == std::string::npos) {
      const int64_t k = parse_index(token);
      if (k == 0)
        fail(kExitUsage, "--columns: '", excerpt(token), "' is neither a header name",
             names.empty() ? " (the input has no header)" : "", " nor a column number (from 1)");
      picked.push_back(check_index(k, token));
      continue;
    }
    const int64_t lo = parse_index(std::string_view(token).substr(0, dash));
    const int64_t hi = parse_index(std::string_view(token).substr(dash + 1));
    if (lo == 0 || hi == 0 || hi < lo)
      fail(kExitUsage, "--columns: '", token,
           "' is not a header name nor a range K-L of column numbers with 1 <= K <= L");
    check_index(hi, token);
    for (int64_t k = lo; k <= hi; ++k) picked.push_back(k - 1);
  }
  std::vector<int64_t> sorted = picked;
  std::sort(sorted.begin(), sorted.end());
  const auto twice = std::adjacent_find(sorted.begin(), sorted.end());
  if (twice != sorted.end())
    fail(kExitUsage, "--columns: column ", *twice + 1,
         names.empty() ? "" : concat(" ('", excerpt(names[static_cast<size_t>(*twice)]), "')"),
         " is selected twice");
  return picked;
}

}  // namespace dpcov::cli
