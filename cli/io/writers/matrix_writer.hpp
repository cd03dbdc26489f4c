// Writers of result matrices: CSV (a header line of column names, then shortest round-trip
// decimal numbers) or NumPy .npy (version 1.0, '<f8', C order), chosen by the file extension.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace dpcov::cli {

enum class MatrixFormat { Csv, Npy };

// The format for `path`: ".npy" gives Npy, ".csv" (and "-", standard output) gives Csv. Throws
// CliError(kExitUsage) for any other extension.
MatrixFormat matrix_format_for(const std::string &path);
const char *matrix_format_name(MatrixFormat format);

// Writes the rows x cols row-major matrix `a`. `names` (one per column) head a CSV file; .npy
// files carry no names. Throws CliError(kExitIo) naming `what` on a write error.
void write_matrix(std::FILE *out, MatrixFormat format, const double *a, int64_t rows, int64_t cols,
                  const std::vector<std::string> &names, const std::string &what);

// Writes `text`; throws CliError(kExitIo) naming `what` on failure.
void write_text(std::FILE *out, const std::string &text, const std::string &what);

}  // namespace dpcov::cli
