// Loading a matrix written by `dpcov release` or `dpcov gram` (CSV or .npy) for the commands that
// compute from it, together with the JSON receipt beside it, which supplies n and the column names.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <dpcov.h>
#include <nlohmann/json.hpp>

#include "../options/column_bounds_option.hpp"

namespace dpcov::cli {

// Where the matrix and its receipt are, and what to assume when the receipt is absent.
struct MatrixSource {
  std::string path;
  std::string receipt;           // empty: "<path>.json" when that file exists
  std::optional<int64_t> rows;   // --rows: the number of data rows n, overriding the receipt
};

// Registers MATRIX, --receipt and --rows on `command`.
void add_matrix_source_options(CLI::App &command, MatrixSource &source);

// A square matrix with what is known about it.
struct LoadedMatrix {
  std::string path;
  int64_t dim = 0;
  std::vector<double> values;        // row-major d x d
  std::vector<std::string> names;    // one per column
  std::optional<int64_t> rows;       // n, from --rows or the receipt
  // A release of privacy units: the receipt's n counts units (public), not rows (private).
  std::optional<int64_t> units;
  std::string receipt_path;          // empty when there was none
  nlohmann::ordered_json receipt;    // null when there was none
  // Set by centre_matrix(): the matrix is the centred covariance, and `mean` the data's mean.
  bool centred = false;
  std::vector<double> mean;
  int64_t constant_column = -1;  // when centred: the constant column's index in the release
  double constant = 1.0;         // when centred: the value that column held in every row
  // The mechanism that released it ("" for an exact Gram or an unknown origin).
  std::string mechanism() const;
  // True when the receipt says the matrix came from a differentially private release.
  bool is_private_release() const;
  // The registry's dpcov_mechanism_inference bits of the mechanism that released it: what
  // inference its release supports (0 for an exact Gram or an unknown origin).
  int32_t inference() const;
};

// What a receipt tells about its matrix, once check_receipt() found it consistent.
struct ReceiptFacts {
  std::optional<int64_t> rows;       // "n" of a release or "rows" of an exact Gram, if present
  std::optional<int64_t> units;      // "n" of a release of privacy units, which counts units
  std::vector<std::string> names;    // "columns", if present (then one per column)
};

// Checks a receipt read from `path` against its dim x dim matrix, whose CSV header names are
// `header_names` (null for a matrix without header): every entry the commands use has its type
// and range ("n", "rows", "projection_rows" non-negative integers; "sigma", "scale", "dof" finite
// and >= 0; "command", "mechanism" strings; "differentially_private" and
// "mechanism_differentially_private" booleans), and "dim",
// "output.shape" and "columns" agree with the matrix. Throws CliError(kExitInputData) naming the
// receipt otherwise; after it succeeds, reading those entries cannot fail.
ReceiptFacts check_receipt(const nlohmann::ordered_json &receipt, const std::string &path,
                           int64_t dim, const std::vector<std::string> *header_names);

// The receipt load_matrix() reads: --receipt, else "<path>.json" when that file exists, else "".
std::string matrix_receipt_path(const MatrixSource &source);

// Reads the whole matrix (it is d x d, so small) and its receipt. Throws CliError: kExitIo when a
// file cannot be read, kExitInputData when the matrix is not square, not finite or not exactly
// symmetric, or the receipt is not valid JSON, disagrees with the matrix, or holds constants its
// public parameters do not give (check_receipt_constants, receipt_replan.hpp).
LoadedMatrix load_matrix(const MatrixSource &source);

// The fields of the C receipt that carry the noise law (mechanism, dim, n, sigma, scale, dof,
// appended_w), from the JSON receipt; nullopt when it names no mechanism of the library.
std::optional<dpcov_receipt> noise_receipt(const LoadedMatrix &m);

// The column ranges of a `release --bounds` matrix (its receipt's "scaling"), nullopt for any
// other. Throws CliError(kExitInputData) for a scaling that does not fit the matrix.
std::optional<ColumnBounds> release_scaling(const LoadedMatrix &m);

// `values` (a d x d matrix like `m`'s, row-major) mapped by `bounds` to `units`
// (DPCOV_UNITS_SCALED or DPCOV_UNITS_USER; dpcov_column_bounds_transform).
std::vector<double> in_units(const LoadedMatrix &m, const ColumnBounds &bounds,
                             const std::vector<double> &values, int32_t units);

// `values`, a private release `m` in the units its noise was added in (the scaled ones for a
// `release --bounds` matrix), as its estimate of the Gram matrix: less the mean its mechanism
// adds (dpcov_postprocess_gram_estimate: the additive Wishart's dof * scale * I, the JL ridge's
// w^2 I, the inverse Wishart rescaled); `values` unchanged for any other matrix.
std::vector<double> gram_estimate_of(const LoadedMatrix &m, std::vector<double> values);

// The release's estimate of the Gram matrix, what estimates read (gram_estimate_of), in the
// matrix's own units: a `release --bounds` matrix is mapped to the scaled units, where its noise
// was added, and back.
LoadedMatrix noise_mean_removed(const LoadedMatrix &m);

// Centring options of `pca` and `glasso`: --center / --no-center and --constant.
struct CentreOptions {
  bool center = false;
  bool no_center = false;
  // A column that held 1 in every row; default: the receipt's "const" (`release --bounds`, which
  // held 1, or `release --add-constant`, which held B).
  std::string constant;
};

// Registers --center, --no-center and --constant on `command`.
void add_centre_options(CLI::App &command, CentreOptions &options);

// `m` centred as the options ask (proofs/centring.md): by default when the receipt names a
// constant column (a `release --bounds` or `--add-constant`), or when --center or --constant is given. The result is
// the d x d covariance of the other columns (1/n), with their mean; `m` itself when not centred.
// A `release --bounds` matrix is centred in the scaled units, where its noise was added, and the
// mean and covariance mapped to the data's units, as Python's estimators with bounds= do.
// Throws CliError(kExitUsage) when --center is asked for a matrix without a constant column.
LoadedMatrix centre_as_asked(const LoadedMatrix &m, const CentreOptions &options);

// The 0-based index of column `spec`: a name of `names` or a 1-based number. Throws
// CliError(kExitUsage) naming `option` otherwise.
int64_t resolve_column(const std::vector<std::string> &names, const std::string &spec,
                       const char *option);

}  // namespace dpcov::cli
