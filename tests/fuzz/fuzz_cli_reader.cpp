// The CLI's readers (CSV with dialect detection, NPY, raw float64) on arbitrary bytes: every
// malformed input is refused with exit code 2 (input data) or 1 (usage), never an internal error
// or a crash, and every delivered row has the reader's dimension.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "cli_error.hpp"
#include "io/readers/open_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  // The first byte picks the format (and the raw dimension); the rest is the file.
  static const char *formats[] = {"auto", "csv", "npy", "raw"};
  const std::string format = formats[data[0] % 4];
  char path[] = "/tmp/dpcov_fuzz_cli_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return 0;
  if (size > 1 && write(fd, data + 1, size - 1) != static_cast<ssize_t>(size - 1)) std::abort();
  close(fd);
  dpcov::cli::InputOptions options;
  options.path = path;
  options.format = format;
  options.dims = format == "raw" ? 1 + (data[0] >> 2) % 4 : 0;
  options.chunk_rows = 3;
  try {
    auto reader = dpcov::cli::open_input(options);
    dpcov::cli::Chunk chunk;
    while (reader->next_chunk(chunk))
      if (chunk.dim != reader->dim() || chunk.rows < 1) std::abort();
  } catch (const dpcov::cli::CliError &e) {
    if (e.code() != dpcov::cli::kExitInputData && e.code() != dpcov::cli::kExitUsage) {
      std::fprintf(stderr, "exit %d for malformed input: %s\n", e.code(), e.what());
      std::abort();
    }
  }
  unlink(path);
  return 0;
}
