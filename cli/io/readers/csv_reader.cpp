#include "csv_reader.hpp"

#include <fast_float/fast_float.h>

#include <cctype>
#include <cmath>
#include <cstring>
#include <string_view>
#include <unordered_map>
#include <nlohmann/json.hpp>

#include "../../cli_error.hpp"
#include "column_selection.hpp"
#include "csv_dialect.hpp"
#include "short_decimal.hpp"

namespace dpcov::cli {

namespace {

// Read block for inputs that cannot be mapped (pipes, standard input from a terminal): large
// enough that read(2) overhead and the copy of a line split across blocks vanish next to
// parsing, small enough to stay far below the memory target.
constexpr size_t kBlockBytes = size_t{4} << 20;
// Lines examined to detect the delimiter and the header.
constexpr size_t kSniffLines = 20;
// Bytes of a bad field read to name its kind (an error message names the kind, never the text).
constexpr size_t kClassifiedFieldChars = 160;

// Whether `text` (trimmed) is a common marker of a missing value: a kind, not a value, so a
// message may say so and suggest imputing.
bool missing_value_marker(std::string_view text) {
  while (!text.empty() && is_csv_blank(text.front(), '\0')) text.remove_prefix(1);
  while (!text.empty() && is_csv_blank(text.back(), '\0')) text.remove_suffix(1);
  std::string lower(text);
  for (char &c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char *marker : {"na", "n/a", "null", "none", "missing", "?", ".", "-"})
    if (lower == marker) return true;
  return false;
}

inline bool is_blank(char c) {
  return c == ' ' || c == '\t';
}

// A file whose lines end in "\r" alone (as classic Mac OS wrote them) reads as one line; named as
// such, not as its first field ("1:1: field 1: \"a\" is not a number").
void check_line_ends(std::string_view line, const std::string &name, int64_t number) {
  const size_t cr = line.find('\r');
  if (cr != std::string_view::npos)
    fail(kExitInputData, name, ':', number, ':', cr + 1,
         ": a carriage return inside the line: its lines end in \\r alone; dpcov reads \\n "
         "and \\r\\n line ends (convert with tr '\\r' '\\n')");
}

// The column (from 1) of a field's opening quote that the line does not close, or 0: split as it
// stands, such a line gave the header sniffing one long field and a misleading message.
size_t unclosed_quote(std::string_view line, char delimiter) {
  const auto separator = [delimiter](char c) {
    return c == delimiter || (delimiter == ' ' && is_csv_blank(c, '\0'));
  };
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_csv_blank(line[i], delimiter)) ++i;
    if (i < line.size() && line[i] == '"') {
      const size_t open = i++;
      for (;; ++i) {
        if (i >= line.size()) return open + 1;
        if (line[i] != '"') continue;
        if (i + 1 < line.size() && line[i + 1] == '"') {
          ++i;
          continue;
        }
        break;
      }
      ++i;
    }
    while (i < line.size() && !separator(line[i])) ++i;
    if (i < line.size()) ++i;
  }
  return 0;
}

// Columns are chosen and reported by name, so a name given twice would make both ambiguous.
void check_unique_names(const std::vector<std::string> &names, const std::string &name,
                        int64_t number) {
  std::unordered_map<std::string_view, size_t> seen;
  for (size_t j = 0; j < names.size(); ++j) {
    const auto [at, fresh] = seen.emplace(names[j], j);
    if (!fresh)
      fail(kExitInputData, name, ':', number, ": header fields ", at->second + 1, " and ", j + 1,
           " are both named '", excerpt(names[j]),
           "'; column names must be unique (rename one, or give --no-header)");
  }
}

// True if nearly every field of the sniffed data lines is a short plain decimal. Files keep one
// number format throughout, and trying the short parser first only pays when it rarely declines:
// on numbers with exponents or more than 19 digits it declines them all, each then read twice.
bool mostly_short_decimals(const std::vector<std::string_view> &lines, char delimiter) {
  size_t fields = 0;
  size_t short_fields = 0;
  for (const std::string_view line : lines)
    for (const CsvField &field : split_csv_line(line, delimiter)) {
      const char *const end = field.text.data() + field.text.size();
      double value = 0.0;
      ++fields;
      short_fields += parse_short_decimal(field.text.data(), end, value) == end ? 1 : 0;
    }
  return fields > 0 && 8 * short_fields >= 7 * fields;
}

}  // namespace

CsvReader::CsvReader(std::unique_ptr<ByteSource> source, const CsvOptions &options)
    : source_(std::move(source)), chunk_rows_(options.chunk_rows) {
  const std::string_view mapped = source_->map();
  if (!mapped.empty()) {
    data_ = mapped.data();
    end_ = mapped.size();
    input_ended_ = true;
    mapped_ = true;
  } else {
    buffer_.resize(kBlockBytes);
    data_ = buffer_.data();
  }
  fill_line();
  // A UTF-8 byte-order mark, as spreadsheet programs write, is not part of the first field.
  if (end_ >= 3 && std::memcmp(data_, "\xEF\xBB\xBF", 3) == 0) pos_ = 3;

  // Lines before the first one with fields (blank lines, comments) are skipped.
  const char *begin = nullptr;
  const char *end = nullptr;
  bool found = false;
  while (next_line(begin, end)) {
    if (!is_csv_skipped_line({begin, static_cast<size_t>(end - begin)})) {
      pos_ = static_cast<size_t>(begin - data_);
      --line_;
      found = true;
      break;
    }
  }
  if (!found)
    fail(kExitInputData, source_->name(), ": the input holds no data (no line with fields)");
  first_line_ = line_ + 1;

  std::vector<std::string_view> lines = peek_data_lines(kSniffLines);
  if (lines[0].size() > kMaxCsvLineBytes) line_too_long(first_line_);
  check_line_ends(lines[0], source_->name(), first_line_);
  // A later line too long is refused with its line number when it is read.
  for (size_t k = 1; k < lines.size(); ++k)
    if (lines[k].size() > kMaxCsvLineBytes) lines.resize(k);
  delimiter_detected_ = options.delimiter == '\0';
  delimiter_ = delimiter_detected_ ? detect_csv_delimiter(lines) : options.delimiter;
  header_detected_ = !options.header.has_value();
  if (const size_t column = unclosed_quote(lines[0], delimiter_))
    fail(kExitInputData, source_->name(), ':', first_line_, ':', column,
         ": opening quote without a closing quote (a quoted field ends on its own line)");
  header_ = header_detected_ ? detect_csv_header(lines, delimiter_) : *options.header;
  const bool short_numbers =
      delimiter_ != ' ' &&
      mostly_short_decimals({lines.begin() + (header_ ? 1 : 0), lines.end()}, delimiter_);

  const std::vector<CsvField> first = split_csv_line(lines[0], delimiter_);
  if (first.size() > kMaxCsvFields)
    fail(kExitInputData, source_->name(), ':', first_line_, ": more than ", kMaxCsvFields,
         " fields (delimiter ", delimiter_name(delimiter_), "); dpcov reads at most ",
         kMaxCsvFields, " fields per line and releases at most ", kMaxColumns, " columns");
  fields_ = static_cast<int64_t>(first.size());
  if (header_) {
    for (size_t j = 0; j < first.size(); ++j) {
      const std::string &name = first[j].text;
      if (name.size() > kMaxCsvNameBytes)
        fail(kExitInputData, source_->name(), ':', first_line_, ':', first[j].offset + 1,
             ": header field ", j + 1, " is ", name.size(), " bytes long, over the ",
             kMaxCsvNameBytes, "-byte limit for a column name (\"", excerpt(name), "\")");
      if (!is_utf8(name))
        fail(kExitInputData, source_->name(), ':', first_line_, ':', first[j].offset + 1,
             ": header field ", j + 1,
             " is not UTF-8 text; re-encode the file as UTF-8 or give --no-header");
      file_names_.push_back(name.empty() ? default_column_name(static_cast<int64_t>(j)) : name);
    }
    check_unique_names(file_names_, source_->name(), first_line_);
    next_line(begin, end);
  }

  const std::vector<int64_t> picked = resolve_columns(options.columns, fields_, file_names_);
  dim_ = static_cast<int64_t>(picked.size());
  target_.assign(static_cast<size_t>(fields_), -1);
  for (size_t k = 0; k < picked.size(); ++k) {
    target_[static_cast<size_t>(picked[k])] = static_cast<int64_t>(k);
    identity_ = identity_ && picked[k] == static_cast<int64_t>(k);
    names_.push_back(header_ ? file_names_[static_cast<size_t>(picked[k])]
                             : default_column_name(picked[k]));
  }
  identity_ = identity_ && dim_ == fields_;
  for (size_t k = 0; k < picked.size(); ++k)
    if (!options.key_column.empty() && names_[k] == options.key_column) key_field_ = picked[k];
  // The fast path reads every field as a number: not for lines with a key column's text.
  if (delimiter_ != ' ' && key_field_ < 0) {
    plain_parser_ = identity_ ? (short_numbers ? &CsvReader::parse_plain_line<true, true>
                                               : &CsvReader::parse_plain_line<true, false>)
                              : (short_numbers ? &CsvReader::parse_plain_line<false, true>
                                               : &CsvReader::parse_plain_line<false, false>);
  }
  if (chunk_rows_ == 0) chunk_rows_ = default_chunk_rows(dim_);
}

bool CsvReader::fill_line() {
  for (;;) {
    if (pos_ < end_ && std::memchr(data_ + pos_, '\n', end_ - pos_) != nullptr) return true;
    // The buffer grows only for a line, and only up to the line length limit.
    if (end_ - pos_ > kMaxCsvLineBytes) line_too_long(line_ + 1);
    if (input_ended_) return pos_ < end_;
    if (pos_ > 0) {
      std::memmove(buffer_.data(), buffer_.data() + pos_, end_ - pos_);
      end_ -= pos_;
      pos_ = 0;
    }
    // Only a line longer than the buffer makes it grow.
    if (end_ == buffer_.size()) {
      buffer_.resize(2 * buffer_.size());
      data_ = buffer_.data();
    }
    const size_t wanted = buffer_.size() - end_;
    const size_t got = source_->read(buffer_.data() + end_, wanted);
    end_ += got;
    if (got < wanted) input_ended_ = true;
  }
}

bool CsvReader::next_line(const char *&begin, const char *&end) {
  const char *b = data_ + pos_;
  const void *newline = std::memchr(b, '\n', end_ - pos_);
  if (newline == nullptr) {
    if (!fill_line()) return false;
    b = data_ + pos_;
    newline = std::memchr(b, '\n', end_ - pos_);
  }
  const char *e = newline != nullptr ? static_cast<const char *>(newline) : data_ + end_;
  pos_ = newline != nullptr ? static_cast<size_t>(e - data_) + 1 : end_;
  ++line_;
  if (e > b && e[-1] == '\r') --e;
  if (static_cast<size_t>(e - b) > kMaxCsvLineBytes) line_too_long(line_);
  begin = b;
  end = e;
  return true;
}

std::vector<std::string_view> CsvReader::peek_data_lines(size_t max_lines) {
  std::vector<std::string_view> lines;
  size_t at = pos_;
  while (lines.size() < max_lines && at < end_) {
    const char *b = data_ + at;
    const void *newline = std::memchr(b, '\n', end_ - at);
    if (newline == nullptr && !input_ended_) break;  // an incomplete line: not examined
    const char *e = newline != nullptr ? static_cast<const char *>(newline) : data_ + end_;
    at = static_cast<size_t>(e - data_) + 1;
    if (e > b && e[-1] == '\r') --e;
    const std::string_view line(b, static_cast<size_t>(e - b));
    if (!is_csv_skipped_line(line)) lines.push_back(line);
  }
  return lines;
}

// Flattened: fast_float's parser is inlined into the loop, which saves a call and its register
// saves per field, a tenth of the parsing time for short fields.
template <bool kIdentity, bool kShort>
[[gnu::flatten, gnu::noinline]] const char *CsvReader::parse_plain_line(double *out) const {
  const char delimiter = delimiter_;
  const int64_t fields = fields_;
  const char *const limit = data_ + end_;
  const char *p = data_ + pos_;
  // x * 0 is a zero for a finite x and NaN for NaN or an infinity, so this sum is zero exactly
  // when every value is finite. Tested once per line, it keeps the loop free of any branch that
  // waits for a parsed value; a NaN or an infinity sends the line to parse_row, which names it.
  double zeros = 0.0;
  for (int64_t k = 0;; ++k) {
    const int64_t t = kIdentity ? k : target_[static_cast<size_t>(k)];
    if (t >= 0) {
      // The call parse_field makes for an unquoted field, on the same bytes: a number never
      // spans an end of line, so the limit being further away changes nothing.
      double &value = out[t];
      const char *next = kShort ? parse_short_decimal(p, limit, value) : nullptr;
      if (next == nullptr) {
        const auto result = fast_float::from_chars(p, limit, value);
        if (result.ec != std::errc()) return nullptr;
        next = result.ptr;
      }
      zeros += value * 0.0;
      p = next;
    } else {
      while (p < limit && *p != delimiter && *p != '\n' && *p != '\r') {
        // A quote may hide a delimiter: skip_field knows the quoting rules.
        if (*p == '"') return nullptr;
        ++p;
      }
    }
    if (k + 1 == fields) break;
    if (p == limit || *p != delimiter) return nullptr;
    ++p;
  }
  // The end of the line as next_line() finds it: "\n", "\r\n", or the end of the input (a last
  // "\r" included); an input not yet read in full may continue the line.
  if (p < limit && *p == '\r') ++p;
  if (p < limit && *p == '\n')
    ++p;
  else if (p != limit || !input_ended_)
    return nullptr;
  return zeros == 0.0 ? p : nullptr;
}

bool CsvReader::next_chunk(Chunk &chunk) {
  chunk.dim = dim_;
  chunk.first_row = rows_done_;
  chunk.values.resize(static_cast<size_t>(chunk_rows_ * dim_));
  chunk.lines.resize(static_cast<size_t>(chunk_rows_));
  int64_t r = 0;
  const char *begin = nullptr;
  const char *end = nullptr;
  while (r < chunk_rows_) {
    double *out = chunk.values.data() + r * dim_;
    const char *next = plain_parser_ != nullptr ? (this->*plain_parser_)(out) : nullptr;
    if (next != nullptr) {
      pos_ = static_cast<size_t>(next - data_);
      ++line_;
    } else {
      // A line the fast path declines: comments, blank lines, quotes, blanks around fields,
      // whitespace separation, errors, and a line not yet whole in the read buffer.
      if (!next_line(begin, end)) break;
      if (is_csv_skipped_line({begin, static_cast<size_t>(end - begin)})) continue;
      if (delimiter_ == ' ')
        parse_row<true>(begin, end, out);
      else
        parse_row<false>(begin, end, out);
    }
    if (mapped_) source_->consumed(pos_);
    chunk.lines[static_cast<size_t>(r)] = line_;
    ++r;
  }
  if (mapped_) source_->consumed(pos_);
  chunk.rows = r;
  rows_done_ += r;
  return r > 0;
}

template <bool kWhitespace>
void CsvReader::parse_row(const char *begin, const char *end, double *out) const {
  const char *p = begin;
  if constexpr (kWhitespace)
    while (p < end && is_blank(*p)) ++p;
  for (int64_t k = 0;; ++k) {
    if constexpr (!kWhitespace)
      while (p < end && is_csv_blank(*p, delimiter_)) ++p;
    const int64_t t = identity_ ? k : target_[static_cast<size_t>(k)];
    p = k == key_field_ ? parse_key<kWhitespace>(begin, p, end, k, out[t])
        : t >= 0        ? parse_field<kWhitespace>(begin, p, end, k, out[t])
                        : skip_field<kWhitespace>(begin, p, end, k);
    // p is past the field and its trailing blanks; without whitespace separation it is at the
    // delimiter or the end of the line.
    if (k + 1 == fields_) break;
    if (p == end) wrong_field_count(begin, end);
    if constexpr (!kWhitespace) ++p;
  }
  if (p != end) wrong_field_count(begin, end);
}

template <bool kWhitespace>
const char *CsvReader::parse_field(const char *line, const char *p, const char *end, int64_t field,
                                   double &value) const {
  const char *start = p;
  const char *number = p;
  const char *number_end = end;
  const char *close = nullptr;
  const bool quoted = p < end && *p == '"';
  if (quoted) {
    close = static_cast<const char *>(std::memchr(p + 1, '"', static_cast<size_t>(end - p - 1)));
    if (close == nullptr) field_error(line, start, field, "opening quote without a closing quote");
    number = p + 1;
    number_end = close;
    while (number < number_end && is_blank(*number)) ++number;
    while (number_end > number && is_blank(number_end[-1])) --number_end;
  }
  // fast_float, like std::from_chars, refuses a leading '+'; CSV writers may emit one.
  if (number < number_end && *number == '+') {
    ++number;
    if (number < number_end && (*number == '+' || *number == '-'))
      bad_field(line, start, end, field);
  }
  const auto result = fast_float::from_chars(number, number_end, value);
  if (result.ec != std::errc() || result.ptr == number) bad_field(line, start, end, field);
  p = result.ptr;
  if (quoted) {
    if (p != number_end) bad_field(line, start, end, field);
    p = close + 1;
  }
  if constexpr (kWhitespace) {
    if (p != end && !is_blank(*p)) bad_field(line, start, end, field);
    while (p < end && is_blank(*p)) ++p;
  } else {
    while (p < end && is_csv_blank(*p, delimiter_)) ++p;
    if (p != end && *p != delimiter_) bad_field(line, start, end, field);
  }
  if (!std::isfinite(value)) non_finite_field(line, start, field, number, result.ptr);
  return p;
}

template <bool kWhitespace>
const char *CsvReader::parse_key(const char *line, const char *p, const char *end, int64_t field,
                                 double &value) const {
  const char *after = skip_field<kWhitespace>(line, p, end, field);
  std::string_view text(p, static_cast<size_t>(after - p));
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"')
    text = text.substr(1, text.size() - 2);
  if (text.empty()) field_error(line, p, field, "an empty identifier in the key column");
  // Numbers below 2^53, which a double holds exactly.
  const auto [entry, added] =
      keys_.try_emplace(std::string(text), static_cast<int64_t>(keys_.size()));
  value = static_cast<double>(entry->second);
  return after;
}

template <bool kWhitespace>
const char *CsvReader::skip_field(const char *line, const char *p, const char *end,
                                  int64_t field) const {
  if (p < end && *p == '"') {
    const char *q = p + 1;
    for (;;) {
      while (q < end && *q != '"') ++q;
      if (q == end) field_error(line, p, field, "opening quote without a closing quote");
      if (q + 1 < end && q[1] == '"') {
        q += 2;
        continue;
      }
      break;
    }
    p = q + 1;
  }
  if constexpr (kWhitespace) {
    while (p < end && !is_blank(*p)) ++p;
    while (p < end && is_blank(*p)) ++p;
  } else {
    const void *next = std::memchr(p, delimiter_, static_cast<size_t>(end - p));
    p = next != nullptr ? static_cast<const char *>(next) : end;
  }
  return p;
}

void CsvReader::line_too_long(int64_t line) const {
  fail(kExitInputData, source_->name(), ':', line, ": line longer than ", kMaxCsvLineBytes >> 20,
       " MiB; dpcov reads at most ", kMaxCsvFields, " fields per line and releases at most ",
       kMaxColumns, " columns");
}

void CsvReader::non_finite_field(const char *line, const char *start, int64_t field,
                                 const char *number, const char *number_end) const {
  // The kind only (NaN, an infinity, a number out of range), never the field's text.
  const char *digits = number + (*number == '-' || *number == '+' ? 1 : 0);
  const bool overflow = (*digits >= '0' && *digits <= '9') || *digits == '.';
  const bool nan = !overflow && number_end > digits && (*digits == 'n' || *digits == 'N');
  field_error(line, start, field,
              overflow ? "a number beyond the range of a double (about 1.8e308)"
              : nan    ? "NaN is refused: rows must be finite"
                       : "an infinity is refused: rows must be finite");
}

std::string CsvReader::field_label(int64_t field) const {
  if (file_names_.empty()) return concat("field ", field + 1);
  return concat("field ", field + 1, " ('", excerpt(file_names_[static_cast<size_t>(field)]), "')");
}

void CsvReader::field_error(const char *line, const char *at, int64_t field,
                            const std::string &message) const {
  fail(kExitInputData, source_->name(), ':', line_, ':', at - line + 1, ": ", field_label(field),
       ": ", message);
}

void CsvReader::bad_field(const char *line, const char *begin, const char *end,
                          int64_t field) const {
  // The field's first bytes only, to name its kind: never a copy of a huge field, and never its
  // text in the message (messages reach logs).
  const size_t window = std::min<size_t>(static_cast<size_t>(end - begin), kClassifiedFieldChars);
  const std::vector<CsvField> rest = split_csv_line({begin, window}, delimiter_, 1);
  const std::string text = rest.empty() ? std::string() : rest[0].text;
  if (text.empty()) field_error(line, begin, field, "empty field where a number is expected");
  if (missing_value_marker(text))
    field_error(line, begin, field, "a missing-value marker where a number is expected; remove "
                "or impute the row");
  field_error(line, begin, field, "text that is not a number");
}

void CsvReader::wrong_field_count(const char *line, const char *end) const {
  const std::vector<CsvField> fields =
      split_csv_line({line, static_cast<size_t>(end - line)}, delimiter_);
  const auto count = static_cast<int64_t>(fields.size());
  const int64_t column = count > fields_
                             ? static_cast<int64_t>(fields[static_cast<size_t>(fields_)].offset) + 1
                             : end - line + 1;
  fail(kExitInputData, source_->name(), ':', line_, ':', column,
       ": ragged row: ", fields.size() > kMaxCsvFields ? "more than " : "",
       std::min<size_t>(fields.size(), kMaxCsvFields), count == 1 ? " field" : " fields",
       " where line ", first_line_, " has ", fields_, " (delimiter ", delimiter_name(delimiter_),
       ")");
}

std::string CsvReader::row_location(const Chunk &chunk, int64_t i) const {
  return concat(source_->name(), ':', chunk.lines[static_cast<size_t>(i)]);
}

nlohmann::ordered_json CsvReader::describe() const {
  return {{"path", source_->name()},
          {"format", "csv"},
          {"delimiter", delimiter_name(delimiter_)},
          {"delimiter_detected", delimiter_detected_},
          {"header", header_},
          {"header_detected", header_detected_},
          {"file_columns", fields_},
          {"bytes", source_->bytes_read()}};
}

}  // namespace dpcov::cli
