// How a CSV file is written: its delimiter and whether its first line is a header. Detected from
// the first lines of the file unless given; the general (slow) field splitter lives here too and
// serves detection, the header line and error messages, never the per-row hot path.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dpcov::cli {

// One field of a line: its text (unquoted, surrounding blanks removed) and the 0-based byte
// offset in the line where it starts.
struct CsvField {
  std::string text;
  size_t offset;
};

// Blanks around fields: spaces, and tabs unless the tab is the delimiter.
inline bool is_csv_blank(char c, char delimiter) {
  return c == ' ' || (c == '\t' && delimiter != '\t');
}

// Splits a line (without its end-of-line characters) into fields. `delimiter` ' ' means
// "whitespace-separated": runs of spaces and tabs separate fields, and leading and trailing
// blanks are ignored. Fields may be enclosed in double quotes ("" inside stands for one quote).
std::vector<CsvField> split_csv_line(std::string_view line, char delimiter);

// True if the text, blanks around it aside, is a number fast_float reads (NaN and infinity
// included: the reader rejects them later with a precise message).
bool is_csv_number(std::string_view text);

// True for a line that holds no data: only blanks, or a comment starting with '#'.
bool is_csv_skipped_line(std::string_view line);

// The delimiter among ',', ';', tab and ' ' (whitespace-separated) that splits every given line
// into the same number (> 1) of fields, preferring them in that order; failing that, the one
// giving the most fields on the first line; ',' if every line is a single field.
char detect_csv_delimiter(const std::vector<std::string_view> &lines);

// True if lines[0] is a header: some column is text on the first line and a number on every
// following line (with a single line: every field is text). A header made only of numbers
// cannot be told from data: --header says so.
bool detect_csv_header(const std::vector<std::string_view> &lines, char delimiter);

// The delimiter as it is spelled in messages, receipts and --delimiter ("," ";" "tab" "space").
std::string delimiter_name(char delimiter);

// Parses a --delimiter value: one character, or "tab", "space", "\t". Throws CliError(kExitUsage).
char parse_delimiter(const std::string &value);

}  // namespace dpcov::cli
