#include "write_outputs.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <tuple>
#include <utility>

#include "../cli_error.hpp"
#include "interrupt.hpp"
#include "json_text.hpp"
#include "writers/atomic_file.hpp"
#include "writers/matrix_writer.hpp"

namespace dpcov::cli {

std::string curator_path(const OutputOptions &options) {
  const std::string receipt = receipt_path(options);
  if (receipt.empty()) return {};
  const std::string suffix = ".json";
  const bool json = receipt.size() > suffix.size() &&
                    receipt.compare(receipt.size() - suffix.size(), suffix.size(), suffix) == 0;
  return (json ? receipt.substr(0, receipt.size() - suffix.size()) : receipt) + ".curator.json";
}

namespace {

// The device and inode of `path` (standard input for "-"), following symbolic links; nullopt if
// it does not exist.
std::optional<std::pair<dev_t, ino_t>> file_identity(const std::string &path) {
  struct stat info {};
  const int status = path == "-" ? ::fstat(STDIN_FILENO, &info) : ::stat(path.c_str(), &info);
  if (status != 0) return std::nullopt;
  return std::make_pair(info.st_dev, info.st_ino);
}

// The directory entry an output is renamed into: its directory's device and inode, and its name
// (the rename replaces that entry, whatever it links to); nullopt if the directory does not
// exist (the output then fails on its own).
std::optional<std::tuple<dev_t, ino_t, std::string>> entry_identity(const std::string &path) {
  const std::filesystem::path p(path);
  const std::filesystem::path parent = p.parent_path().empty() ? "." : p.parent_path();
  struct stat info {};
  if (::stat(parent.c_str(), &info) != 0) return std::nullopt;
  return std::make_tuple(info.st_dev, info.st_ino, p.filename().string());
}

// Whether two outputs are one directory entry, however spelt (a.csv and ./a.csv, or through a
// linked directory): the second would replace the first, and the command report success with one
// output gone.
bool same_entry(const std::string &a, const std::string &b) {
  if (a == b) return true;
  const auto ea = entry_identity(a);
  return ea && ea == entry_identity(b);
}

// Refuses an output that would replace an input, before anything is written.
void check_not_an_input(const std::string &output, const char *what,
                        const std::vector<ReadFile> &inputs) {
  const auto out = file_identity(output);
  for (const ReadFile &read : inputs) {
    const std::string &input = read.path;
    const bool same_path = input != "-" && input == output;
    if (!same_path && !(out && out == file_identity(input))) continue;
    fail(kExitUsage, "the ", what, " ", excerpt(output, 200), " is the ", read.role, " ",
         input == "-" ? std::string("<stdin>") : excerpt(input, 200),
         same_path ? "" : " (the same file through a link)",
         ": dpcov never overwrites what it reads; write elsewhere");
  }
}

}  // namespace

void check_outputs(const OutputOptions &options, const std::vector<ReadFile> &inputs,
                   bool curator) {
  matrix_format_for(options.path);
  const std::string receipt = receipt_path(options);
  if (!receipt.empty() && same_entry(receipt, options.path))
    fail(kExitUsage, "--receipt must differ from the output path");
  const std::string diagnostics = curator ? curator_path(options) : std::string();
  if (!diagnostics.empty() && options.path != "-" && same_entry(diagnostics, options.path))
    fail(kExitUsage, "the curator file ", diagnostics, " would overwrite the output path");
  if (options.path != "-") check_not_an_input(options.path, "output", inputs);
  if (!receipt.empty()) check_not_an_input(receipt, "receipt", inputs);
  if (!diagnostics.empty()) check_not_an_input(diagnostics, "curator file", inputs);
  if (options.path != "-") check_writable(options.path);
  if (!receipt.empty()) check_writable(receipt);
  if (!diagnostics.empty()) check_writable(diagnostics);
}

namespace {

void write_all(const OutputOptions &options, const double *a, int64_t rows, int64_t cols,
               const std::vector<std::string> &names, nlohmann::ordered_json receipt,
               const nlohmann::ordered_json *curator) {
  // An interrupted release writes nothing (interrupt.hpp). A signal while the temporary files are
  // written, with or without a ledger, is deferred to the check before they are renamed into
  // place, which ends the command with their destructors removing them: none is left behind.
  const InterruptDeferral deferral;
  check_interrupted();
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
    write_text(receipt_file->stream(), json_text(receipt), sidecar);
  }
  std::unique_ptr<AtomicFile> curator_file;
  const std::string diagnostics = curator != nullptr ? curator_path(options) : std::string();
  if (!diagnostics.empty()) {
    curator_file = std::make_unique<AtomicFile>(diagnostics);
    write_text(curator_file->stream(), json_text(*curator), diagnostics);
  }
  check_interrupted();
  // The files go into place one by one, and on a failure the ones already there go again: no
  // partial output. Standard output cannot be taken back, so the matrix is written there last:
  // a file that fails leaves it empty.
  std::vector<std::string> placed;
  try {
    for (auto [file, path] : {std::pair{matrix_file.get(), &options.path},
                              std::pair{receipt_file.get(), &sidecar},
                              std::pair{curator_file.get(), &diagnostics}}) {
      if (!file) continue;
      file->commit();
      placed.push_back(*path);
    }
    if (to_stdout) {
      // A reader that has gone (`| head`, a closed pipe) must be a write error, exit 5, whose
      // catch below removes the files: with SIGPIPE's default action the command was killed
      // mid-write and left the receipt and curator file of a matrix it never delivered.
      std::signal(SIGPIPE, SIG_IGN);
      write_matrix(stdout, format, a, rows, cols, names, "<stdout>");
      if (std::fflush(stdout) != 0) fail(kExitIo, "<stdout>: write error");
    }
  } catch (...) {
    for (const std::string &path : placed) ::unlink(path.c_str());
    throw;
  }
}

}  // namespace

void write_outputs(const OutputOptions &options, const double *a, int64_t rows, int64_t cols,
                   const std::vector<std::string> &names, nlohmann::ordered_json receipt) {
  write_all(options, a, rows, cols, names, std::move(receipt), nullptr);
}

void write_outputs(const OutputOptions &options, const double *a, int64_t rows, int64_t cols,
                   const std::vector<std::string> &names, nlohmann::ordered_json receipt,
                   const nlohmann::ordered_json &curator) {
  write_all(options, a, rows, cols, names, std::move(receipt), &curator);
}

}  // namespace dpcov::cli
