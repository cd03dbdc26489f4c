// Streaming CSV reader: one pass, numbers parsed in place with fast_float, no allocation per field
// or per row. A regular file is mapped and parsed where it lies (its consumed pages leave the
// resident set as the reading advances); other inputs go through a large read buffer. Memory:
// the consumed-but-resident mapped bytes or the read buffer (8 or 4 MiB; a buffer grows only for
// a longer line) plus one chunk of rows.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "byte_source.hpp"
#include "row_reader.hpp"

namespace dpcov::cli {

struct CsvOptions {
  char delimiter = '\0';              // '\0': detect; ' ' means whitespace-separated
  std::optional<bool> header;         // unset: detect
  std::vector<std::string> columns;   // --columns tokens; empty: every column
  int64_t chunk_rows = 0;             // 0: default_chunk_rows(dim)
  // A column of identifiers (--privacy-unit) read as text, not as a number: each distinct text
  // becomes the next integer 0, 1, 2, ... in order of first appearance (held in memory, one entry
  // per distinct id), so that equal texts, and only they, share a value.
  std::string key_column;
};

class CsvReader final : public RowReader {
 public:
  CsvReader(std::unique_ptr<ByteSource> source, const CsvOptions &options);

  const std::string &name() const override { return source_->name(); }
  int64_t dim() const override { return dim_; }
  const std::vector<std::string> &column_names() const override { return names_; }
  bool next_chunk(Chunk &chunk) override;
  std::string row_location(const Chunk &chunk, int64_t i) const override;
  uint64_t bytes_read() const override { return source_->bytes_read(); }
  std::optional<uint64_t> total_bytes() const override { return source_->size(); }
  nlohmann::ordered_json describe() const override;

 private:
  // Makes [pos_, end_) hold a whole line (or the rest of the input); false if nothing is left.
  bool fill_line();
  // The next line without its end-of-line characters; false at the end of the input.
  bool next_line(const char *&begin, const char *&end);
  // Up to `max_lines` lines from the current position that hold data, without consuming them.
  std::vector<std::string_view> peek_data_lines(size_t max_lines);

  // The fast path for a line whose fields are bare numbers separated by the (non-blank)
  // delimiter, as machine-written files hold: if the line at pos_ is such a line of finite
  // numbers, fills `out` and returns the start of the next line. Otherwise (a blank or comment
  // line, blanks, quotes, '+' signs, NaN, any error, a line not yet whole in the read buffer)
  // returns null, and the general path reads the line again with every rule and names any
  // error. kIdentity: every field is delivered, in file order (identity_). kShort: each number
  // is first tried as a short plain decimal (short_decimal.hpp), fast_float taking the others.
  template <bool kIdentity, bool kShort>
  const char *parse_plain_line(double *out) const;
  template <bool kWhitespace>
  void parse_row(const char *begin, const char *end, double *out) const;
  template <bool kWhitespace>
  const char *parse_field(const char *line, const char *p, const char *end, int64_t field,
                          double &value) const;
  // The key column's field: its text (quotes and surrounding blanks removed) numbered in keys_.
  template <bool kWhitespace>
  const char *parse_key(const char *line, const char *p, const char *end, int64_t field,
                        double &value) const;
  template <bool kWhitespace>
  const char *skip_field(const char *line, const char *p, const char *end, int64_t field) const;

  // Error reports: cold and out of line, so that the parsing loop stays small.
  [[noreturn, gnu::cold, gnu::noinline]] void field_error(const char *line, const char *at,
                                                          int64_t field,
                                                          const std::string &message) const;
  [[noreturn, gnu::cold, gnu::noinline]] void bad_field(const char *line, const char *begin,
                                                        const char *end, int64_t field) const;
  [[noreturn, gnu::cold, gnu::noinline]] void non_finite_field(const char *line,
                                                               const char *start, int64_t field,
                                                               const char *number,
                                                               const char *number_end) const;
  [[noreturn, gnu::cold, gnu::noinline]] void wrong_field_count(const char *line,
                                                                const char *end) const;
  [[noreturn, gnu::cold, gnu::noinline]] void line_too_long(int64_t line) const;
  std::string field_label(int64_t field) const;

  std::unique_ptr<ByteSource> source_;
  std::vector<char> buffer_;      // the read buffer, unless the input is mapped
  const char *data_ = nullptr;    // the mapped input or buffer_.data()
  bool mapped_ = false;
  size_t pos_ = 0;  // start of the unconsumed bytes
  size_t end_ = 0;  // end of the valid bytes
  bool input_ended_ = false;
  int64_t line_ = 0;        // 1-based number of the line last returned by next_line()
  int64_t first_line_ = 0;  // the line that fixed the number of fields

  char delimiter_ = ',';
  bool delimiter_detected_ = false;
  bool header_ = false;
  bool header_detected_ = false;
  int64_t fields_ = 0;                   // fields per line in the file
  std::vector<std::string> file_names_;  // header names (empty without a header)
  std::vector<int64_t> target_;          // per file field: its output column, or -1 (skipped)
  bool identity_ = true;                 // every field, in file order
  // The fast path's instantiation for this file, or null for whitespace separation (which the
  // fast path does not read).
  const char *(CsvReader::*plain_parser_)(double *) const = nullptr;
  std::vector<std::string> names_;
  int64_t dim_ = 0;
  int64_t chunk_rows_;
  int64_t rows_done_ = 0;
  int64_t key_field_ = -1;  // the file field of CsvOptions::key_column, -1 if none
  mutable std::unordered_map<std::string, int64_t> keys_;
};

}  // namespace dpcov::cli
