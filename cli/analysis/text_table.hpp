// Aligned text tables for the terminal: a header row and data rows, the first column
// left-aligned and the others right-aligned, and a compact number format for their cells.
#pragma once

#include <string>
#include <vector>

namespace dpcov::cli {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header);
  void add_row(std::vector<std::string> cells);
  // The table with two spaces between columns and a dashed rule under the header.
  std::string render() const;

 private:
  std::vector<std::vector<std::string>> rows_;
};

// `value` with `digits` significant digits ("%.*g"), "inf"/"-inf"/"nan" spelled out.
std::string format_number(double value, int digits = 4);

// Writes `text` to standard output; throws CliError(kExitIo) on failure.
void print_stdout(const std::string &text);

}  // namespace dpcov::cli
