#include "csv_dialect.hpp"

#include <fast_float/fast_float.h>

#include "../../cli_error.hpp"

namespace dpcov::cli {

std::vector<CsvField> split_csv_line(std::string_view line, char delimiter, size_t max_fields) {
  std::vector<CsvField> fields;
  const bool whitespace = delimiter == ' ';
  size_t i = 0;
  const size_t n = line.size();
  const auto separator = [&](char c) {
    return c == delimiter || (whitespace && is_csv_blank(c, '\0'));
  };
  if (whitespace) {
    while (i < n && is_csv_blank(line[i], '\0')) ++i;
    if (i == n) return fields;
  }
  for (;;) {
    while (i < n && is_csv_blank(line[i], delimiter)) ++i;
    CsvField field{std::string(), i};
    if (i < n && line[i] == '"') {
      // Quoted text is kept as it is, blanks included.
      ++i;
      while (i < n) {
        if (line[i] == '"') {
          if (i + 1 < n && line[i + 1] == '"') {
            field.text += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field.text += line[i++];
      }
    }
    // Unquoted text, or text after a closing quote (part of the same field, as most readers
    // take it), loses its trailing blanks.
    std::string rest;
    while (i < n && !separator(line[i])) rest += line[i++];
    while (!rest.empty() && is_csv_blank(rest.back(), delimiter)) rest.pop_back();
    field.text += rest;
    fields.push_back(std::move(field));
    if (fields.size() > max_fields) return fields;
    if (whitespace) {
      while (i < n && is_csv_blank(line[i], '\0')) ++i;
      if (i == n) return fields;
    } else {
      if (i >= n) return fields;
      ++i;  // the delimiter
    }
  }
}

bool is_utf8(std::string_view text) {
  size_t i = 0;
  const size_t n = text.size();
  while (i < n) {
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char c = byte(i);
    if (c < 0x80) {
      ++i;
      continue;
    }
    // The sequence length and the range of its second byte (which excludes overlong forms,
    // surrogates and code points past U+10FFFF).
    size_t length = 0;
    unsigned char low = 0x80;
    unsigned char high = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3;
      if (c == 0xE0) low = 0xA0;
      if (c == 0xED) high = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4;
      if (c == 0xF0) low = 0x90;
      if (c == 0xF4) high = 0x8F;
    } else {
      return false;
    }
    if (n - i < length || byte(i + 1) < low || byte(i + 1) > high) return false;
    for (size_t k = 2; k < length; ++k)
      if ((byte(i + k) & 0xC0) != 0x80) return false;
    i += length;
  }
  return true;
}

bool is_csv_number(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  const char *p = text.data();
  const char *end = p + text.size();
  if (p < end && *p == '+') ++p;
  if (p < end && (*p == '+' || *p == '-') && p != text.data()) return false;
  double value = 0.0;
  const auto result = fast_float::from_chars(p, end, value);
  return result.ec == std::errc() && result.ptr == end && p != end;
}

bool is_csv_skipped_line(std::string_view line) {
  for (char c : line) {
    if (c == ' ' || c == '\t') continue;
    return c == '#';
  }
  return true;
}

char detect_csv_delimiter(const std::vector<std::string_view> &lines) {
  constexpr char kCandidates[] = {',', ';', '\t', ' '};
  if (lines.empty()) return ',';
  char widest = ',';
  size_t widest_count = 1;
  for (char c : kCandidates) {
    const size_t first = split_csv_line(lines[0], c).size();
    if (first > widest_count) {
      widest = c;
      widest_count = first;
    }
    bool consistent = first > 1;
    for (size_t k = 1; consistent && k < lines.size(); ++k)
      consistent = split_csv_line(lines[k], c).size() == first;
    if (consistent) return c;
  }
  return widest;
}

bool detect_csv_header(const std::vector<std::string_view> &lines, char delimiter) {
  if (lines.empty()) return false;
  const std::vector<CsvField> first = split_csv_line(lines[0], delimiter);
  if (lines.size() == 1) {
    for (const CsvField &field : first)
      if (is_csv_number(field.text)) return false;
    return true;
  }
  std::vector<bool> numeric_below(first.size(), true);
  for (size_t k = 1; k < lines.size(); ++k) {
    const std::vector<CsvField> fields = split_csv_line(lines[k], delimiter);
    for (size_t j = 0; j < first.size(); ++j)
      if (j >= fields.size() || !is_csv_number(fields[j].text)) numeric_below[j] = false;
  }
  for (size_t j = 0; j < first.size(); ++j)
    if (!is_csv_number(first[j].text) && numeric_below[j]) return true;
  return false;
}

std::string delimiter_name(char delimiter) {
  if (delimiter == '\t') return "tab";
  if (delimiter == ' ') return "space";
  return std::string(1, delimiter);
}

char parse_delimiter(const std::string &value) {
  if (value == "tab" || value == "\\t" || value == "\t") return '\t';
  if (value == "space" || value == " ") return ' ';
  if (value.size() == 1 && value[0] != '"' && value[0] != '\n' && value[0] != '\r' &&
      value[0] != '#' && value[0] != '.' && value[0] != '-' && value[0] != '+' &&
      (value[0] < '0' || value[0] > '9'))
    return value[0];
  fail(kExitUsage, "--delimiter: '", value,
       "' cannot separate numbers: give one character such as , ; | or 'tab' or 'space'");
}

}  // namespace dpcov::cli
