// The CLI's public column ranges on arbitrary bytes: `--bounds` as a file of "column,min,max"
// lines or as a LOW:HIGH list, and the "scaling" record a receipt carries. Bounds are either read,
// one finite LOW < HIGH per column, or refused with exit code 1 (--bounds, a usage error) or 2
// (a receipt's record); never another exception or a crash.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli_error.hpp"
#include "options/column_bounds_option.hpp"

namespace {

void expect(const dpcov::cli::CliError &e, int code) {
  if (e.code() != code || std::string(e.what()).empty()) {
    std::fprintf(stderr, "exit %d (expected %d): %s\n", e.code(), code, e.what());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  // The first byte: the number of columns (1-4) and which reader; the rest is its text.
  const size_t d = 1 + data[0] % 4;
  const int reader = (data[0] >> 2) % 3;
  std::vector<std::string> names;
  for (size_t j = 0; j < d; ++j) names.push_back(std::string(1, static_cast<char>('a' + j)));
  const std::string text(reinterpret_cast<const char *>(data + 1), size - 1);
  if (reader == 2) {
    const auto scaling = nlohmann::ordered_json::parse(text, nullptr, false);
    if (scaling.is_discarded()) return 0;
    try {
      const dpcov::cli::ColumnBounds b = dpcov::cli::column_bounds_from_receipt(scaling, "r.json");
      if (b.lower.size() != b.upper.size()) std::abort();
      for (size_t j = 0; j < b.lower.size(); ++j)
        if (!(std::isfinite(b.lower[j]) && std::isfinite(b.upper[j]) && b.lower[j] < b.upper[j]))
          std::abort();
    } catch (const dpcov::cli::CliError &e) {
      expect(e, dpcov::cli::kExitInputData);
    }
    return 0;
  }
  std::string spec = text, path;
  if (reader == 0) {  // a file of ranges
    char name[] = "/tmp/dpcov_fuzz_bounds_XXXXXX";
    const int fd = mkstemp(name);
    if (fd < 0) return 0;
    if (!text.empty() && write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size()))
      std::abort();
    close(fd);
    spec = path = name;
  } else if (dpcov::cli::is_bounds_file(spec)) {
    return 0;  // a list without LOW:HIGH names a file: not a path to take from fuzzed bytes
  }
  try {
    const dpcov::cli::ColumnBounds b = dpcov::cli::parse_column_bounds(spec, names);
    if (b.lower.size() != d || b.upper.size() != d) std::abort();
    for (size_t j = 0; j < d; ++j)
      if (!(std::isfinite(b.lower[j]) && std::isfinite(b.upper[j]) && b.lower[j] < b.upper[j])) {
        std::fprintf(stderr, "column %zu: [%a, %a] accepted\n", j, b.lower[j], b.upper[j]);
        std::abort();
      }
  } catch (const dpcov::cli::CliError &e) {
    expect(e, dpcov::cli::kExitUsage);
  }
  if (!path.empty()) unlink(path.c_str());
  return 0;
}
