#include "released_matrix.hpp"

#include <sys/stat.h>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <memory>
#include <utility>

#include "../cli_error.hpp"
#include "../library_status.hpp"
#include "../options/constant_column_option.hpp"
#include "../options/mechanism_registry.hpp"
#include "../io/json_text.hpp"
#include "../io/readers/open_input.hpp"
#include "receipt_replan.hpp"

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
    fail(kExitInputData, path, ": not a valid JSON receipt (", excerpt(json_failure(e), 200), ")");
  }
}

// A non-negative integer that fits an int64_t.
bool is_count(const nlohmann::ordered_json &value) {
  if (value.is_number_unsigned()) return value.get<uint64_t>() <= uint64_t{INT64_MAX};
  return value.is_number_integer() && value.get<int64_t>() >= 0;
}

[[noreturn]] void bad_entry(const std::string &path, const char *key, const char *expected) {
  fail(kExitInputData, path, ": malformed receipt: \"", key, "\" must be ", expected);
}

}  // namespace

ReceiptFacts check_receipt(const nlohmann::ordered_json &receipt, const std::string &path,
                           int64_t dim, const std::vector<std::string> *header_names) {
  if (!receipt.is_object()) fail(kExitInputData, path, ": the receipt is not a JSON object");
  for (const char *key : {"command", "mechanism"})
    if (receipt.contains(key) && !receipt[key].is_string()) bad_entry(path, key, "a string");
  for (const char *key : {"differentially_private", "mechanism_differentially_private"})
    if (receipt.contains(key) && !receipt[key].is_boolean()) bad_entry(path, key, "true or false");
  for (const char *key : {"sigma", "scale", "dof"}) {
    if (!receipt.contains(key)) continue;
    const auto &value = receipt[key];
    if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0.0)
      bad_entry(path, key, "a finite number >= 0");
  }
  for (const char *key : {"n", "rows", "projection_rows"})
    if (receipt.contains(key) && !is_count(receipt[key]))
      bad_entry(path, key, "a non-negative integer");

  // What the receipt says about the matrix must be what the matrix is.
  if (receipt.contains("dim") && (!is_count(receipt["dim"]) || receipt["dim"] != dim))
    fail(kExitInputData, path, ": the receipt is for d = ", excerpt(receipt["dim"].dump(), 40),
         " but the matrix is ", dim, " x ", dim);
  if (receipt.contains("output") && receipt["output"].is_object() &&
      receipt["output"].contains("shape") &&
      receipt["output"]["shape"] != nlohmann::ordered_json::array({dim, dim}))
    fail(kExitInputData, path, ": the receipt is for a matrix of shape ",
         excerpt(receipt["output"]["shape"].dump(), 40), " but the matrix is ", dim, " x ", dim);
  ReceiptFacts facts;
  if (receipt.contains("columns")) {
    const auto &columns = receipt["columns"];
    if (!columns.is_array() || columns.size() != static_cast<size_t>(dim))
      fail(kExitInputData, path, ": malformed receipt: \"columns\" must list the matrix's ", dim,
           " column names");
    for (size_t j = 0; j < columns.size(); ++j) {
      if (!columns[j].is_string()) bad_entry(path, "columns", "a list of strings");
      facts.names.push_back(columns[j].get<std::string>());
      if (header_names != nullptr && (*header_names)[j] != facts.names.back())
        fail(kExitInputData, path, ": the receipt names column ", j + 1, " '",
             excerpt(facts.names.back()), "' but the matrix's header names it '",
             excerpt((*header_names)[j]), "': is this the matrix's receipt?");
    }
  }
  for (const char *key : {"n", "rows"}) {
    if (!receipt.contains(key)) continue;
    facts.rows = receipt[key].get<int64_t>();
    break;
  }
  // The rows a unit release kept are private: its n is the number of units.
  if (receipt.contains("privacy_unit")) facts.units = std::exchange(facts.rows, std::nullopt);
  return facts;
}

std::string matrix_receipt_path(const MatrixSource &source) {
  if (!source.receipt.empty()) return source.receipt;
  if (file_exists(source.path + ".json")) return source.path + ".json";
  return {};
}

void add_matrix_source_options(CLI::App &command, MatrixSource &source) {
  command
      .add_option("MATRIX", source.path,
                  "A d x d matrix written by `dpcov release` or `dpcov gram` (.csv or .npy)")
      ->required();
  command.add_option("--receipt", source.receipt,
                     "Its JSON receipt (default: MATRIX.json when it exists), which gives n and "
                     "the column names; a release's constants are planned again from its public "
                     "parameters, and a receipt that disagrees is refused (exit 2)");
  command
      .add_option("--rows", source.rows,
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
         receipt.value("mechanism_differentially_private",
                       receipt.value("differentially_private", false));
}

int32_t LoadedMatrix::inference() const {
  const std::optional<int32_t> id = gram_mechanism_id(mechanism());
  return id ? registry_entry(*id).inference : 0;
}

LoadedMatrix load_matrix(const MatrixSource &source) {
  LoadedMatrix m;
  m.path = source.path;
  InputOptions input;
  input.path = source.path;
  const std::unique_ptr<RowReader> reader = open_input(input);
  m.dim = reader->dim();
  m.names = reader->column_names();
  const bool named = reader->describe().value("header", false);
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

  m.receipt_path = matrix_receipt_path(source);
  if (!m.receipt_path.empty()) {
    m.receipt = read_receipt(m.receipt_path);
    ReceiptFacts facts = check_receipt(m.receipt, m.receipt_path, d, named ? &m.names : nullptr);
    check_receipt_constants(m.receipt, m.receipt_path, d);
    m.rows = facts.rows;
    m.units = facts.units;
    if (!facts.names.empty()) m.names = std::move(facts.names);
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
    fail(kExitUsage, option, ": column ", number, " is out of range (the matrix has ", names.size(),
         " columns)");
  }
  std::string known;
  for (const auto &name : names) known += (known.empty() ? "" : ", ") + name;
  fail(kExitUsage, option, ": '", spec, "' is neither a column name (", known,
       ") nor a 1-based column number");
}

void add_centre_options(CLI::App &command, CentreOptions &options) {
  auto *center = command.add_flag(
      "--center", options.center,
      "Centre: the covariance (1/n) and mean of the data from a release that holds a constant "
      "column (default when the receipt has one, as after `release --bounds` or "
      "`--add-constant`; "
      "proofs/centring.md)");
  auto *no_center = command.add_flag("--no-center", options.no_center,
                                     "Work on the (uncentred) second moment as released");
  center->excludes(no_center);
  command.add_option("--constant", options.constant,
                     "The column that held 1 in every data row (default: 'const' of a `release "
                     "--bounds` or `--add-constant`, with the value it held); implies --center");
}

LoadedMatrix centre_as_asked(const LoadedMatrix &m, const CentreOptions &options) {
  if (options.no_center) return m;
  // The receipt's constant column: 'const' of `release --bounds` (value 1) or of `release
  // --add-constant` (value B). --constant names another column, which held 1.
  const ReceiptConstant recorded = receipt_constant(m.receipt, m.receipt_path);
  std::string spec = options.constant;
  if (spec.empty() && recorded.found) spec = recorded.name;
  if (spec.empty()) {
    if (options.center)
      fail(kExitUsage, m.path, ": --center needs a column that held a constant in every row: "
           "release with --add-constant (with --bound B or --bound auto) or --bounds (each puts "
           "'const' in front), or add a column of ones to the data and name it with --constant");
    return m;
  }
  const int64_t column = resolve_column(m.names, spec, "--constant");
  const bool recorded_column =
      recorded.found && column == resolve_column(m.names, recorded.name, "the receipt's constant");
  const double constant = recorded_column ? recorded.value : 1.0;
  const int64_t d = m.dim - 1;
  LoadedMatrix out = m;
  out.dim = d;
  out.values.assign(static_cast<size_t>(d * d), 0.0);
  out.mean.assign(static_cast<size_t>(d), 0.0);
  out.names.clear();
  for (int64_t j = 0; j < m.dim; ++j)
    if (j != column) out.names.push_back(m.names[static_cast<size_t>(j)]);
  // A `release --bounds` matrix is centred where its noise was added, in the scaled units, and
  // the mean and covariance are then mapped to the data's (x = mid + half z; proofs/centring.md).
  // Centred in the data's units instead, the noise of the count would multiply every column's
  // midpoint.
  const std::optional<ColumnBounds> scaling = recorded_column ? release_scaling(m) : std::nullopt;
  const std::vector<double> source =
      scaling ? in_units(m, *scaling, m.values, DPCOV_UNITS_SCALED) : m.values;
  // n is public exactly when the receipt gives it (replace-one); otherwise the release's count.
  double count = 0.0;
  const dpcov_status status = dpcov_centre_second_moment(
      DPCOV_ROW_MAJOR, m.dim, source.data(), m.dim, column, constant, m.rows.value_or(0),
      out.mean.data(), out.values.data(), d, &count);
  if (status == DPCOV_E_PRECONDITION)
    fail(kExitPrivacy, m.path, ": cannot centre: ", dpcov_last_error_message());
  if (status != DPCOV_OK)
    fail(kExitInputData, m.path, ": centring: ", dpcov_last_error_message());
  if (scaling) {
    for (int64_t i = 0; i < d; ++i) {
      const auto ui = static_cast<size_t>(i);
      const double half_i = scaling->upper[ui] / 2 - scaling->lower[ui] / 2;
      out.mean[ui] = scaling->lower[ui] / 2 + scaling->upper[ui] / 2 + half_i * out.mean[ui];
      for (int64_t j = 0; j < d; ++j) {
        const auto uj = static_cast<size_t>(j);
        out.values[static_cast<size_t>(i * d + j)] *=
            half_i * (scaling->upper[uj] / 2 - scaling->lower[uj] / 2);
      }
    }
  }
  out.centred = true;
  out.constant_column = column;
  out.constant = constant;
  return out;
}

std::optional<dpcov_receipt> noise_receipt(const LoadedMatrix &m) {
  dpcov_receipt r{};
  r.struct_size = sizeof r;
  const std::optional<int32_t> id = gram_mechanism_id(m.mechanism());
  if (!id) return std::nullopt;
  r.mechanism = *id;
  r.dim = m.dim;
  r.n = m.units ? *m.units : m.rows.value_or(0);
  r.sigma = m.receipt.value("sigma", 0.0);
  r.scale = m.receipt.value("scale", 0.0);
  r.dof = m.receipt.value("dof", 0.0);
  r.appended_w = m.receipt.value("appended_w", 0.0);
  // Exact numerics rounded the rows to a grid that the library finds again from these (a
  // malformed entry reads as 0, which the library refuses).
  const auto text = [&](const char *key) {
    return m.receipt.contains(key) && m.receipt[key].is_string() ? m.receipt[key].get<std::string>()
                                                                 : std::string();
  };
  const auto number = [](const nlohmann::ordered_json &j, const char *key) {
    return j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0.0;
  };
  if (text("numerics") == "exact") {
    r.numerics = 1;
    r.neighbour = text("neighbour") == "add-remove" ? DPCOV_NEIGHBOUR_ADD_REMOVE
                                                    : DPCOV_NEIGHBOUR_REPLACE_ONE;
    r.bound = number(m.receipt, "bound");
    r.epsilon = number(m.receipt, "epsilon");
    r.delta = number(m.receipt, "delta");
    if (m.receipt.contains("privacy_unit") && m.receipt["privacy_unit"].is_object()) {
      const double k = number(m.receipt["privacy_unit"], "max_rows_per_unit");
      r.max_rows_per_unit = k >= 1.0 && k < 0x1p62 ? static_cast<int64_t>(k) : 0;
    }
  }
  return r;
}

std::vector<double> gram_estimate_of(const LoadedMatrix &m, std::vector<double> values) {
  const std::optional<dpcov_receipt> r = noise_receipt(m);
  if (!r || !m.is_private_release()) return values;
  int32_t unbiased = 0;
  library_check(dpcov_postprocess_gram_estimate(DPCOV_ROW_MAJOR, m.dim, values.data(), m.dim,
                                                &*r, &unbiased),
                concat(m.path, ": the release's estimate of the Gram matrix"));
  return values;
}

std::optional<ColumnBounds> release_scaling(const LoadedMatrix &m) {
  if (!m.receipt.is_object() || !m.receipt.contains("scaling")) return std::nullopt;
  ColumnBounds bounds = column_bounds_from_receipt(m.receipt["scaling"], m.receipt_path);
  const auto d = static_cast<int64_t>(bounds.lower.size());
  if (d + 1 != m.dim)
    fail(kExitInputData, m.receipt_path, ": the scaling has ", d, " columns, the matrix ", m.dim);
  return bounds;
}

std::vector<double> in_units(const LoadedMatrix &m, const ColumnBounds &bounds,
                             const std::vector<double> &values, int32_t units) {
  std::vector<double> out(values.size());
  library_check(dpcov_column_bounds_transform(m.dim - 1, bounds.lower.data(),
                                              bounds.upper.data(), units, DPCOV_ROW_MAJOR,
                                              values.data(), m.dim, out.data(), m.dim),
                concat(m.path, units == DPCOV_UNITS_SCALED ? ": mapping to the scaled units"
                                                           : ": mapping to the data's units"));
  return out;
}

LoadedMatrix noise_mean_removed(const LoadedMatrix &m) {
  LoadedMatrix out = m;
  const std::optional<ColumnBounds> bounds = release_scaling(m);
  if (!bounds) {
    out.values = gram_estimate_of(m, m.values);
    return out;
  }
  // A `release --bounds` matrix is in the data's units, T (G + E) T^T: its noise mean is removed
  // where it was added, in the scaled units.
  const std::vector<double> scaled = in_units(m, *bounds, m.values, DPCOV_UNITS_SCALED);
  const std::vector<double> estimate = gram_estimate_of(m, scaled);
  if (estimate == scaled) return out;  // no mean to remove: the matrix as it is, not a round trip
  out.values = in_units(m, *bounds, estimate, DPCOV_UNITS_USER);
  return out;
}

}  // namespace dpcov::cli
