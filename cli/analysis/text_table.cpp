#include "text_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "../cli_error.hpp"
#include "../io/interrupt.hpp"

namespace dpcov::cli {

TextTable::TextTable(std::vector<std::string> header) { rows_.push_back(std::move(header)); }

void TextTable::add_row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }

std::string TextTable::render() const {
  std::vector<size_t> width;
  for (const auto &row : rows_) {
    if (width.size() < row.size()) width.resize(row.size(), 0);
    for (size_t j = 0; j < row.size(); ++j) width[j] = std::max(width[j], row[j].size());
  }
  std::string out;
  auto emit = [&](const std::vector<std::string> &row) {
    std::string line;
    for (size_t j = 0; j < row.size(); ++j) {
      const std::string pad(width[j] - row[j].size(), ' ');
      if (j > 0) line += "  ";
      line += j == 0 ? row[j] + pad : pad + row[j];
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + '\n';
  };
  emit(rows_.front());
  size_t total = 0;
  for (size_t j = 0; j < width.size(); ++j) total += width[j] + (j > 0 ? 2 : 0);
  out += std::string(total, '-') + '\n';
  for (size_t i = 1; i < rows_.size(); ++i) emit(rows_[i]);
  return out;
}

std::string format_number(double value, int digits) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char text[48];
  std::snprintf(text, sizeof text, "%.*g", digits, value);
  return text;
}

void print_stdout(const std::string &text) {
  // An interrupted release prints nothing (interrupt.hpp).
  check_interrupted();
  if (std::fputs(text.c_str(), stdout) < 0 || std::fflush(stdout) != 0)
    fail(kExitIo, "<stdout>: write error");
}

}  // namespace dpcov::cli
