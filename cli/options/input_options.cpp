#include "input_options.hpp"

#include <cmath>
#include <limits>

#include "../cli_error.hpp"

namespace dpcov::cli {

void add_input_options(CLI::App &command, InputOptions &options) {
  command.add_option("INPUT", options.path,
                     "Data file: CSV, NumPy .npy or raw little-endian float64 (with --dims); '-' "
                     "reads standard input, which a command reading its input more than once "
                     "spools, parsed, to a private temporary file under $TMPDIR (docs/input.md)")
      ->required();
  command
      .add_option("--format", options.format,
                  "Input format; auto: .npy if the input starts with the .npy magic string, raw if "
                  "--dims is given, else CSV")
      ->check(CLI::IsMember({"auto", "csv", "npy", "raw"}))
      ->capture_default_str();
  command.add_option("--delimiter", options.delimiter,
                     "CSV field delimiter: one character, 'tab' or 'space' (runs of blanks); "
                     "default: detected among , ; tab space");
  auto *header = command.add_flag("--header", options.header,
                                  "The first CSV line is a header (default: detected)");
  auto *no_header =
      command.add_flag("--no-header", options.no_header, "The first CSV line is data");
  header->excludes(no_header);
  command
      .add_option("--columns", options.columns,
                  "Columns to use, in this order: header names, 1-based numbers or ranges "
                  "K-L, comma-separated (default: all)")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->type_name("LIST");
  command.add_option("--dims", options.dims, "Columns per row of raw float64 input")
      ->check(CLI::PositiveNumber);
  command
      .add_option("--chunk-rows", options.chunk_rows,
                  "Rows per library call (memory: chunk x columns x 8 bytes); default: 65536, "
                  "fewer for wide rows")
      ->check(CLI::PositiveNumber);
}

CLI::Option *add_spool_option(CLI::App &command, std::string &spool) {
  return command
      .add_option("--spool", spool,
                  "An input read more than once that is standard input, a pipe or a FIFO: auto "
                  "spools it, parsed, to a private temporary file under $TMPDIR (n x d x 8 "
                  "bytes); never opens a FIFO again for each pass (for a writer that sends the "
                  "rows once per open: no disk) and refuses standard input (docs/input.md)")
      ->check(CLI::IsMember({"auto", "never"}))
      ->capture_default_str();
}

void add_output_options(CLI::App &command, OutputOptions &options) {
  command.add_option("-o,--output", options.path,
                     "Output matrix: .csv or .npy, written atomically; '-' or absent: CSV on "
                     "standard output");
  command.add_option("--receipt", options.receipt,
                     "JSON sidecar path (default: OUTPUT.json; none for standard output)");
}

std::string receipt_path(const OutputOptions &options) {
  if (!options.receipt.empty()) return options.receipt;
  if (options.path == "-") return {};
  return options.path + ".json";
}

void check_positive_finite(double value, const char *option) {
  if (!(std::isfinite(value) && value > 0.0))
    fail(kExitUsage, option, " must be a finite number > 0, got ", value);
}

void check_bound(double value, const char *option) {
  check_positive_finite(value, option);
  const double square = value * value;
  if (!(std::isfinite(square) && square >= std::numeric_limits<double>::min()))
    fail(kExitUsage, option, " must be between ", std::sqrt(std::numeric_limits<double>::min()),
         " and ", std::sqrt(std::numeric_limits<double>::max()),
         " (its square a finite normal double), got ", value);
}

}  // namespace dpcov::cli
