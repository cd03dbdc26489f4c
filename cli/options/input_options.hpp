// Command-line options shared by every command that reads data (input format, columns, chunking)
// and by every command that writes a matrix (output path, receipt path).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "../io/readers/open_input.hpp"

namespace dpcov::cli {

// Registers INPUT and the input options on `command`, stored into `options`.
void add_input_options(CLI::App &command, InputOptions &options);

// Registers --spool (auto or never) on a command that may read its input more than once.
CLI::Option *add_spool_option(CLI::App &command, std::string &spool);

// Where a command writes its matrix and its JSON sidecar.
struct OutputOptions {
  std::string path = "-";  // "-": CSV on standard output
  std::string receipt;     // empty: "<path>.json", or none for standard output
};

// Registers -o/--output and --receipt on `command`.
void add_output_options(CLI::App &command, OutputOptions &options);

// The sidecar path for `options`: --receipt, else "<output>.json", else empty (no sidecar).
std::string receipt_path(const OutputOptions &options);

// Throws CliError(kExitUsage) unless `value` is finite and > 0 (named `option` in the message).
void check_positive_finite(double value, const char *option);

// Throws CliError(kExitUsage) unless the norm bound `value` is finite and > 0 and its square (the
// Gram sensitivity's scale) is a finite normal double: sqrt(DBL_MIN) <= value <= sqrt(DBL_MAX),
// about [1.5e-154, 1.3e154]. Every bound out of that range is refused alike, before the library
// would fail on it in one of several ways.
void check_bound(double value, const char *option);

}  // namespace dpcov::cli
