#include "write_outputs.hpp"

#include <unistd.h>

#include <cstdio>

#include "../cli_error.hpp"
#include "../writers/atomic_file.hpp"
#include "../writers/matrix_writer.hpp"

namespace dpcov::cli {

void check_outputs(const OutputOptions &options) {
  matrix_format_for(options.path);
  if (options.path != "-") check_writable(options.path);
  const std::string receipt = receipt_path(options);
  if (!receipt.empty()) check_writable(receipt);
  if (!receipt.empty() && receipt == options.path)
    fail(kExitUsage, "--receipt must differ from the output path");
}

void write_outputs(const OutputOptions &options, const double *a, int64_t rows, int64_t cols,
                   const std::vector<std::string> &names, nlohmann::ordered_json receipt) {
  const MatrixFormat format = matrix_format_for(options.path);
  const bool to_stdout = options.path == "-";
  receipt["output"] = {{"path", to_stdout ? "<stdout>" : options.path},
                       {"format", matrix_format_name(format)},
                       {"shape", {rows, cols}}};
  const std::string sidecar = receipt_path(options);

  // Everything is written to temporary files first; only then are they renamed into place.
  std::unique_ptr<AtomicFile> matrix_file;
  if (!to_stdout) {
    matrix_file = std::make_unique<AtomicFile>(options.path);
    write_matrix(matrix_file->stream(), format, a, rows, cols, names, options.path);
  }
  std::unique_ptr<AtomicFile> receipt_file;
  if (!sidecar.empty()) {
    receipt_file = std::make_unique<AtomicFile>(sidecar);
    write_text(receipt_file->stream(), receipt.dump(2) + "\n", sidecar);
  }
  if (to_stdout) {
    write_matrix(stdout, format, a, rows, cols, names, "<stdout>");
    if (std::fflush(stdout) != 0) fail(kExitIo, "<stdout>: write error");
  } else {
    matrix_file->commit();
  }
  if (receipt_file) {
    try {
      receipt_file->commit();
    } catch (...) {
      if (!to_stdout) ::unlink(options.path.c_str());
      throw;
    }
  }
}

}  // namespace dpcov::cli
