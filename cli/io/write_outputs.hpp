// Writing a command's result: the matrix (CSV or .npy by extension) and its JSON sidecar, both
// through temporary files renamed into place, so that an error leaves no partial output.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "../options/input_options.hpp"

namespace dpcov::cli {

// A file a command reads, named in messages by its role ("input", "ledger", "bounds file").
struct ReadFile {
  ReadFile(std::string file_path, const char *file_role = "input")
      : path(std::move(file_path)), role(file_role) {}
  std::string path;  // "-" for standard input
  const char *role;
};

// Checks, before any data is read, that the output format is known, that the outputs can be
// created (with `curator`, the curator file too), and that none of them is one of `inputs` (the
// files the command reads): not the same path, nor the same file reached through a symbolic or
// hard link (same device and inode). Throws CliError (kExitUsage, kExitIo) and touches no file.
void check_outputs(const OutputOptions &options, const std::vector<ReadFile> &inputs,
                   bool curator = false);

// Where a release writes its curator-only diagnostics: the sidecar path with ".json" replaced by
// ".curator.json" (cov.npy.curator.json beside cov.npy.json); empty when there is no sidecar.
std::string curator_path(const OutputOptions &options);

// Writes the rows x cols row-major matrix `a` (columns named `names`) and `receipt`, to which an
// "output" entry is added. If the sidecar cannot be written, the matrix is removed again.
void write_outputs(const OutputOptions &options, const double *a, int64_t rows, int64_t cols,
                   const std::vector<std::string> &names, nlohmann::ordered_json receipt);

// As above, and the curator-only diagnostics `curator` at curator_path(options), all three files
// renamed into place only once each is written. Without a sidecar (standard output) the curator
// file is not written either. On a failure the files already renamed into place are removed. A
// matrix for standard output (-o -) is written there after the files are in place, so a file that
// fails leaves standard output empty (what reached it before a failure writing it stays).
void write_outputs(const OutputOptions &options, const double *a, int64_t rows, int64_t cols,
                   const std::vector<std::string> &names, nlohmann::ordered_json receipt,
                   const nlohmann::ordered_json &curator);

}  // namespace dpcov::cli
