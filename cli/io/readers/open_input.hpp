// Chooses the reader for an input from the options and the input's first bytes.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "row_reader.hpp"

namespace dpcov::cli {

// The input options shared by every command that reads data.
struct InputOptions {
  std::string path;                 // "-" for standard input
  std::string format = "auto";      // auto, csv, npy, raw
  std::string delimiter;            // CSV: empty to detect
  bool header = false;              // CSV: --header
  bool no_header = false;           // CSV: --no-header
  std::vector<std::string> columns;
  int64_t dims = 0;                 // raw: columns per row
  int64_t chunk_rows = 0;           // 0: default_chunk_rows(dim)
  std::string key_column;           // CSV: a column of identifiers read as text (CsvOptions)
  std::string spool = "auto";       // auto or never: an input read more than once (RereadableInput)
};

// Opens the input. Format "auto": a .npy file if the input starts with the .npy magic string,
// else raw float64 if --dims is given, else CSV. Throws CliError: kExitUsage for options that do
// not fit the format, kExitIo if the input cannot be opened, kExitInputData if it is malformed.
std::unique_ptr<RowReader> open_input(const InputOptions &options);

}  // namespace dpcov::cli
