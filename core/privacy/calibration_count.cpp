#include "calibration_count.hpp"

#include <array>
#include <atomic>
#include <cstddef>

namespace dpcov::privacy {

namespace {

std::array<std::atomic<uint64_t>, static_cast<size_t>(Calibrator::Count)> counts{};

}  // namespace

void count_calibration(Calibrator calibrator) {
  counts[static_cast<size_t>(calibrator)].fetch_add(1, std::memory_order_relaxed);
}

uint64_t calibration_count(Calibrator calibrator) {
  return counts[static_cast<size_t>(calibrator)].load(std::memory_order_relaxed);
}

}  // namespace dpcov::privacy
