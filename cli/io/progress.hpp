// A one-line progress display on standard error (rows, bytes, rates), redrawn a few times a
// second. Silent unless standard error is a terminal, and under --quiet.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

namespace dpcov::cli {

class Progress {
 public:
  Progress(bool enabled, std::optional<uint64_t> total_bytes);
  ~Progress();
  Progress(const Progress &) = delete;
  Progress &operator=(const Progress &) = delete;

  // Cheap when nothing is drawn: call it after every chunk. Ends the command there if a deferred
  // signal arrived (check_interrupted).
  void update(uint64_t bytes, int64_t rows);
  // Erases the line (also done by the destructor). Ends the command if a deferred signal arrived.
  void finish();

 private:
  void erase();
  void draw(uint64_t bytes, int64_t rows);

  bool active_;
  std::optional<uint64_t> total_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace dpcov::cli
