// The ceilings under `dpcov gram`'s CSV throughput, on the same file (bench/csv_parse.sh):
//   csv_read FILE reader      the CSV reader alone: rows parsed into chunks, no Gram matrix
//   csv_read FILE fast_float  fast_float alone on the same numbers, in place in the mapped file,
//                             stepping over each delimiter or line end (the number parser's ceiling)
//   csv_read FILE numbers     the same with the reader's number parsers: a short plain decimal
//                             parser, fast_float for the numbers it declines
//   csv_read FILE lines       the line ends found with memchr, nothing parsed (the scan's ceiling)
// Prints the bytes, the CPU and wall seconds of the pass and a checksum that keeps the values live.
// The file is mapped and touched once before timing, so every mode reads the same cached bytes.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fast_float/fast_float.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "cli_error.hpp"
#include "io/readers/byte_source.hpp"
#include "io/readers/csv_reader.hpp"
#include "io/readers/short_decimal.hpp"

namespace {

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval &t) { return t.tv_sec + 1e-6 * t.tv_usec; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

std::string_view map_file(const char *path) {
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || fstat(fd, &st) != 0 || st.st_size == 0) throw std::runtime_error("cannot open");
  void *data = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (data == MAP_FAILED) throw std::runtime_error("cannot map");
  return {static_cast<const char *>(data), static_cast<size_t>(st.st_size)};
}

// The reader as `dpcov gram` drives it, minus the accumulation.
double read_rows(const char *path, uint64_t &rows) {
  dpcov::cli::CsvReader reader(std::make_unique<dpcov::cli::ByteSource>(path), {});
  dpcov::cli::Chunk chunk;
  double sum = 0.0;
  while (reader.next_chunk(chunk)) {
    rows += static_cast<uint64_t>(chunk.rows);
    for (int64_t i = 0; i < chunk.rows; ++i) sum += chunk.values[static_cast<size_t>(i * chunk.dim)];
  }
  return sum;
}

// Every number after the header line, each followed by exactly one byte (a delimiter or "\n"), as
// the benchmark files are written.
template <bool kShort>
double parse_numbers(std::string_view text, uint64_t &rows) {
  const char *p = static_cast<const char *>(std::memchr(text.data(), '\n', text.size())) + 1;
  const char *const end = text.data() + text.size();
  double sum = 0.0;
  while (p < end) {
    double value = 0.0;
    const char *next = kShort ? dpcov::cli::parse_short_decimal(p, end, value) : nullptr;
    if (next == nullptr) {
      const auto result = fast_float::from_chars(p, end, value);
      if (result.ec != std::errc()) throw std::runtime_error("not a number");
      next = result.ptr;
    }
    sum += value;
    rows += *next == '\n';
    p = next + 1;
  }
  return sum;
}

double count_lines(std::string_view text, uint64_t &rows) {
  const char *p = text.data();
  const char *const end = p + text.size();
  while (const void *newline = std::memchr(p, '\n', static_cast<size_t>(end - p))) {
    p = static_cast<const char *>(newline) + 1;
    ++rows;
  }
  return 0.0;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s FILE reader|fast_float|numbers|lines\n", argv[0]);
    return 1;
  }
  const std::string mode = argv[2];
  try {
    const std::string_view text = map_file(argv[1]);
    uint64_t rows = 0;
    count_lines(text, rows);  // touches every page, so that no mode pays for faulting them in
    rows = 0;
    const double cpu = cpu_seconds();
    const auto wall = std::chrono::steady_clock::now();
    double sum = 0.0;
    if (mode == "reader")
      sum = read_rows(argv[1], rows);
    else if (mode == "fast_float")
      sum = parse_numbers<false>(text, rows);
    else if (mode == "numbers")
      sum = parse_numbers<true>(text, rows);
    else if (mode == "lines")
      sum = count_lines(text, rows);
    else
      throw std::runtime_error("unknown mode " + mode);
    const double wall_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
    const double cpu_s = cpu_seconds() - cpu;
    std::printf("%s: %zu bytes, %llu rows, cpu %.3f s, wall %.3f s, checksum %.6g\n", mode.c_str(),
                text.size(), static_cast<unsigned long long>(rows), cpu_s, wall_s, sum);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "%s: %s\n", argv[1], e.what());
    return 1;
  }
  return 0;
}
