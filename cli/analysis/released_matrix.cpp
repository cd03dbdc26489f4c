#include "released_matrix.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <memory>
#include <sys/stat.h>

#include "../cli_error.hpp"
#include "../readers/open_input.hpp"

namespace dpcov::cli {

namespace {

bool file_exists(const std::string &path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

nlohmann::ordered_json read_receipt(const std::string &path) {
  std::ifstream in(path);
  if (!in) fail(kExitIo, path, ": cannot open the receipt");
  try {
    return nlohmann::ordered_json::parse(in);
  } catch (const nlohmann::json::exception &e) {
    fail(kExitInputData, path, ": not a valid JSON receipt (", e.what(), ")");
  }
}

// n from a receipt: "n" for a release, "rows" for an exact Gram.
std::optional<int64_t> receipt_rows(const nlohmann::ordered_json &receipt, const std::string &path) {
  for (const char *key : {"n", "rows"}) {
    if (!receipt.contains(key)) continue;
    const auto &value = receipt[key];
    if (!value.is_number_integer() || value.get<int64_t>() < 0)
      fail(kExitInputData, path, ": \"", key, "\" must be a non-negative integer");
    return value.get<int64_t>();
  }
  return std::nullopt;
}

}  // namespace

void add_matrix_source_options(CLI::App &command, MatrixSource &source) {
  command.add_option("MATRIX", source.path,
                     "A d x d matrix written by `dpcov release` or `dpcov gram` (.csv or .npy)")
      ->required();
  command.add_option("--receipt", source.receipt,
                     "Its JSON receipt (default: MATRIX.json when it exists), which gives n and "
                     "the column names");
  command.add_option("--rows", source.rows,
                     "Number of data rows n behind the matrix (default: from the receipt)")
      ->check(CLI::NonNegativeNumber);
}

std::string LoadedMatrix::mechanism() const {
  if (receipt.is_object() && receipt.contains("mechanism") && receipt["mechanism"].is_string())
    return receipt["mechanism"].get<std::string>();
  return {};
}

bool LoadedMatrix::is_private_release() const {
  return receipt.is_object() && receipt.value("command", "") == "release" &&
         receipt.value("differentially_private", false);
}

LoadedMatrix load_matrix(const MatrixSource &source) {
  LoadedMatrix m;
  m.path = source.path;
  InputOptions input;
  input.path = source.path;
  const std::unique_ptr<RowReader> reader = open_input(input);
  m.dim = reader->dim();
  m.names = reader->column_names();
  Chunk chunk;
  int64_t rows = 0;
  while (reader->next_chunk(chunk)) {
    m.values.insert(m.values.end(), chunk.values.begin(),
                    chunk.values.begin() + chunk.rows * chunk.dim);
    rows += chunk.rows;
    if (rows > m.dim) break;
  }
  if (rows != m.dim)
    fail(kExitInputData, source.path, ": expected a square matrix, got ",
         rows > m.dim ? "more than " + std::to_string(m.dim) : std::to_string(rows), " rows of ",
         m.dim, " columns");
  const int64_t d = m.dim;
  for (int64_t i = 0; i < d; ++i)
    for (int64_t j = 0; j < d; ++j) {
      const double a = m.values[static_cast<size_t>(i * d + j)];
      if (!std::isfinite(a))
        fail(kExitInputData, source.path, ": entry (", i + 1, ", ", j + 1, ") is not finite");
      if (j > i && a != m.values[static_cast<size_t>(j * d + i)])
        fail(kExitInputData, source.path, ": not exactly symmetric at (", i + 1, ", ", j + 1,
             "); every dpcov release is");
    }

  m.receipt_path = source.receipt;
  if (m.receipt_path.empty() && file_exists(source.path + ".json"))
    m.receipt_path = source.path + ".json";
  if (!m.receipt_path.empty()) {
    m.receipt = read_receipt(m.receipt_path);
    if (!m.receipt.is_object())
      fail(kExitInputData, m.receipt_path, ": the receipt is not a JSON object");
    m.rows = receipt_rows(m.receipt, m.receipt_path);
    if (m.receipt.contains("dim") && m.receipt["dim"] != d)
      fail(kExitInputData, m.receipt_path, ": the receipt is for d = ", m.receipt["dim"].dump(),
           " but ", source.path, " is ", d, " x ", d);
    if (m.receipt.contains("columns") && m.receipt["columns"].is_array() &&
        m.receipt["columns"].size() == static_cast<size_t>(d))
      m.names = m.receipt["columns"].get<std::vector<std::string>>();
  }
  if (source.rows) m.rows = source.rows;
  return m;
}

int64_t resolve_column(const std::vector<std::string> &names, const std::string &spec,
                       const char *option) {
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == spec) return static_cast<int64_t>(i);
  int64_t number = 0;
  const auto [end, error] = std::from_chars(spec.data(), spec.data() + spec.size(), number);
  if (error == std::errc() && end == spec.data() + spec.size()) {
    if (number >= 1 && number <= static_cast<int64_t>(names.size())) return number - 1;
    fail(kExitUsage, option, ": column ", number, " is out of range (the matrix has ",
         names.size(), " columns)");
  }
  std::string known;
  for (const auto &name : names) known += (known.empty() ? "" : ", ") + name;
  fail(kExitUsage, option, ": '", spec, "' is neither a column name (", known,
       ") nor a 1-based column number");
}

std::optional<dpcov_receipt> noise_receipt(const LoadedMatrix &m) {
  dpcov_receipt r{};
  r.struct_size = sizeof r;
  for (int32_t id = 1; id <= DPCOV_MECHANISM_GLASSO_OUTPUT_WISHART; ++id) {
    const char *name = dpcov_mechanism_name(id);
    if (name != nullptr && m.mechanism() == name) r.mechanism = id;
  }
  if (r.mechanism == 0) return std::nullopt;
  r.dim = m.dim;
  r.n = m.rows.value_or(0);
  r.sigma = m.receipt.value("sigma", 0.0);
  r.scale = m.receipt.value("scale", 0.0);
  r.dof = m.receipt.value("dof", 0.0);
  return r;
}

}  // namespace dpcov::cli
