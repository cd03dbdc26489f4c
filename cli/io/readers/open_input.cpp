#include "open_input.hpp"

#include "../../cli_error.hpp"
#include "binary_reader.hpp"
#include "byte_source.hpp"
#include "csv_dialect.hpp"
#include "csv_reader.hpp"
#include "npy_header.hpp"

namespace dpcov::cli {

std::unique_ptr<RowReader> open_input(const InputOptions &options) {
  if (options.chunk_rows < 0) fail(kExitUsage, "--chunk-rows must be at least 1");
  if (options.header && options.no_header)
    fail(kExitUsage, "--header and --no-header exclude each other");
  auto source = std::make_unique<ByteSource>(options.path);
  std::string format = options.format;
  const bool npy_magic = has_npy_magic(source->peek(6));
  if (format == "auto") format = npy_magic ? "npy" : (options.dims > 0 ? "raw" : "csv");

  const bool csv_options = !options.delimiter.empty() || options.header || options.no_header;
  if (format != "csv" && csv_options)
    fail(kExitUsage, "--delimiter, --header and --no-header apply to CSV input, but ",
         source->name(), " is read as ", format);
  if (format != "raw" && options.dims != 0)
    fail(kExitUsage, "--dims applies to raw float64 input, but ", source->name(), " is read as ",
         format);

  std::unique_ptr<RowReader> reader;
  if (format == "npy") {
    if (!npy_magic)
      fail(kExitInputData, source->name(), ": not a .npy file (no \\x93NUMPY magic string)");
    reader = open_npy(std::move(source), options.columns, options.chunk_rows);
  } else if (format == "raw") {
    if (options.dims < 1) fail(kExitUsage, "raw float64 input needs --dims (columns per row)");
    if (options.dims > kMaxFileColumns)
      fail(kExitUsage, "--dims ", options.dims, ": dpcov reads at most ", kMaxFileColumns,
           " columns per row and releases at most ", kMaxColumns);
    reader = open_raw(std::move(source), options.dims, options.columns, options.chunk_rows);
  } else if (format == "csv") {
    CsvOptions csv;
    if (!options.delimiter.empty()) csv.delimiter = parse_delimiter(options.delimiter);
    if (options.header) csv.header = true;
    if (options.no_header) csv.header = false;
    csv.columns = options.columns;
    csv.chunk_rows = options.chunk_rows;
    csv.key_column = options.key_column;
    reader = std::make_unique<CsvReader>(std::move(source), csv);
  } else {
    fail(kExitUsage, "--format must be auto, csv, npy or raw, got '", format, "'");
  }
  if (reader->dim() > kMaxColumns)
    fail(kExitInputData, reader->name(), ": ", reader->dim(),
         " columns selected; dpcov releases at most ", kMaxColumns,
         " (the Gram matrix's d * d entries must fit a 32-bit BLAS index): pick fewer with "
         "--columns");
  return reader;
}

}  // namespace dpcov::cli
