// How a CSV file is written: its delimiter and whether its first line is a header. Detected from
// the first lines of the file unless given; the general (slow) field splitter lives here too and
// serves detection, the header line and error messages, never the per-row hot path.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "row_reader.hpp"

namespace dpcov::cli {

// Caps checked before anything is allocated per field, so that one line with millions of fields
// or a huge field is refused at once and in bounded memory.
inline constexpr auto kMaxCsvFields = static_cast<size_t>(kMaxFileColumns);
// Longest line: 65536 fields of 512 bytes; 46340 numbers need about 1 MiB.
inline constexpr size_t kMaxCsvLineBytes = size_t{32} << 20;
// Longest header name.
inline constexpr size_t kMaxCsvNameBytes = 1024;

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
// Stops after max_fields + 1 fields: a longer result means "more than max_fields".
std::vector<CsvField> split_csv_line(std::string_view line, char delimiter,
                                     size_t max_fields = kMaxCsvFields);

// True if `text` is well-formed UTF-8 (no overlong forms, surrogates or code points past
// U+10FFFF), as JSON receipts require of column names.
bool is_utf8(std::string_view text);

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
