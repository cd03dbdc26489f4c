#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

#include "interrupt.hpp"

namespace dpcov::cli {

namespace {

// Redraws per second: smooth enough to watch, rare enough to cost nothing.
constexpr auto kRedrawInterval = std::chrono::milliseconds(200);

// Decimal units, as file sizes and transfer rates are usually quoted.
void format_amount(char *out, size_t size, double value, const char *unit) {
  const char *prefixes[] = {"", "k", "M", "G", "T"};
  int p = 0;
  while (value >= 1000.0 && p < 4) {
    value /= 1000.0;
    ++p;
  }
  std::snprintf(out, size, "%.*f %s%s", p == 0 ? 0 : 1, value, prefixes[p], unit);
}

}  // namespace

Progress::Progress(bool enabled, std::optional<uint64_t> total_bytes)
    : active_(enabled && ::isatty(STDERR_FILENO) == 1),
      total_(total_bytes),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

Progress::~Progress() { erase(); }

void Progress::update(uint64_t bytes, int64_t rows) {
  check_interrupted();
  if (!active_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < kRedrawInterval) return;
  last_ = now;
  draw(bytes, rows);
}

void Progress::draw(uint64_t bytes, int64_t rows) {
  const double seconds = std::chrono::duration<double>(last_ - start_).count();
  char read[32];
  char total[48] = "";
  char rows_text[32];
  char row_rate[32];
  char byte_rate[32];
  format_amount(read, sizeof read, static_cast<double>(bytes), "B");
  if (total_ && *total_ > 0) {
    char size[32];
    format_amount(size, sizeof size, static_cast<double>(*total_), "B");
    std::snprintf(total, sizeof total, " of %s (%.0f%%)", size,
                  100.0 * static_cast<double>(bytes) / static_cast<double>(*total_));
  }
  format_amount(rows_text, sizeof rows_text, static_cast<double>(rows), "rows");
  format_amount(row_rate, sizeof row_rate, static_cast<double>(rows) / seconds, "rows/s");
  format_amount(byte_rate, sizeof byte_rate, static_cast<double>(bytes) / seconds, "B/s");
  // \r returns to the line start, \033[K erases what a longer previous line left.
  std::fprintf(stderr, "\r\033[Kdpcov: %s%s, %s, %s, %s", read, total, rows_text, row_rate,
               byte_rate);
  std::fflush(stderr);
}

void Progress::finish() {
  erase();
  // The input's end: a signal that stopped the producer of a pipe ends the command here, before
  // the noise is drawn.
  check_interrupted();
}

void Progress::erase() {
  if (!active_) return;
  if (last_ != start_) {
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
  }
  active_ = false;
}

}  // namespace dpcov::cli
