#include "matrix_writer.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>

#include "../../cli_error.hpp"

namespace dpcov::cli {

namespace {

bool ends_with(const std::string &text, const std::string &suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A CSV field for `name`: quoted when it holds a delimiter, a quote, a line break or outer blanks.
std::string csv_field(const std::string &name) {
  const bool plain = name.find_first_of(",;\t\"\r\n") == std::string::npos && !name.empty() &&
                     name.front() != ' ' && name.back() != ' ' && name.front() != '#';
  if (plain) return name;
  std::string quoted = "\"";
  for (char c : name) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

void put(std::FILE *out, const char *data, size_t size, const std::string &what) {
  if (std::fwrite(data, 1, size, out) != size)
    fail(kExitIo, what, ": write error: ", std::strerror(errno));
}

void write_csv(std::FILE *out, const double *a, int64_t rows, int64_t cols,
               const std::vector<std::string> &names, const std::string &what) {
  std::string line;
  for (int64_t j = 0; j < cols; ++j) {
    if (j > 0) line += ',';
    line += csv_field(names[static_cast<size_t>(j)]);
  }
  line += '\n';
  put(out, line.data(), line.size(), what);
  // Shortest decimal that reads back to the same double: exact, and as short as possible.
  char number[32];
  for (int64_t i = 0; i < rows; ++i) {
    line.clear();
    for (int64_t j = 0; j < cols; ++j) {
      if (j > 0) line += ',';
      const auto result = std::to_chars(number, number + sizeof number, a[i * cols + j]);
      line.append(number, result.ptr);
    }
    line += '\n';
    put(out, line.data(), line.size(), what);
  }
}

void write_npy(std::FILE *out, const double *a, int64_t rows, int64_t cols,
               const std::string &what) {
  std::string dict = concat("{'descr': '<f8', 'fortran_order': False, 'shape': (", rows, ", ",
                            cols, "), }");
  // NumPy pads the header with spaces and a final newline so that the data starts at a multiple
  // of 64 bytes; the 10 bytes before the dictionary are the magic, version and header length.
  constexpr size_t kPreamble = 10;
  constexpr size_t kAlignment = 64;
  const size_t total = (kPreamble + dict.size() + 1 + kAlignment - 1) / kAlignment * kAlignment;
  dict.append(total - kPreamble - dict.size() - 1, ' ');
  dict += '\n';
  const auto length = static_cast<uint16_t>(dict.size());
  const char preamble[kPreamble] = {'\x93', 'N', 'U', 'M', 'P', 'Y', 1, 0,
                                    static_cast<char>(length & 0xff),
                                    static_cast<char>(length >> 8)};
  put(out, preamble, kPreamble, what);
  put(out, dict.data(), dict.size(), what);
  // The host is little-endian (checked where binary input is read), as '<f8' says.
  put(out, reinterpret_cast<const char *>(a), static_cast<size_t>(rows * cols) * sizeof(double),
      what);
}

}  // namespace

MatrixFormat matrix_format_for(const std::string &path) {
  if (ends_with(path, ".npy")) return MatrixFormat::Npy;
  if (ends_with(path, ".csv") || path == "-") return MatrixFormat::Csv;
  fail(kExitUsage, "-o ", path, ": the output format follows the extension: .csv or .npy");
}

const char *matrix_format_name(MatrixFormat format) {
  return format == MatrixFormat::Npy ? "npy" : "csv";
}

void write_matrix(std::FILE *out, MatrixFormat format, const double *a, int64_t rows, int64_t cols,
                  const std::vector<std::string> &names, const std::string &what) {
  if (format == MatrixFormat::Npy)
    write_npy(out, a, rows, cols, what);
  else
    write_csv(out, a, rows, cols, names, what);
}

void write_text(std::FILE *out, const std::string &text, const std::string &what) {
  if (std::fwrite(text.data(), 1, text.size(), out) != text.size())
    fail(kExitIo, what, ": write error: ", std::strerror(errno));
}

}  // namespace dpcov::cli
