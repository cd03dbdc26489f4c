// Counts of the calibrators' runs in this process. A release plans once and hands the plan's
// constants on to the draw (conventions: a constant is computed in one place, once); the counts
// let tests check that a release through the C ABI runs each calibrator exactly once. Not part
// of the C ABI and never read by the library itself.
#pragma once

#include <cstdint>

namespace dpcov::privacy {

enum class Calibrator : int {
  AnalyticGaussian,  // analytic_gaussian_sigma (Balle & Wang 2018)
  ExactGrid,         // the grid and integer noise search of the exact additive mechanisms
  Count
};

// Adds one run of `calibrator` (relaxed atomic: safe from concurrent releases).
void count_calibration(Calibrator calibrator);

// Runs of `calibrator` so far in this process.
uint64_t calibration_count(Calibrator calibrator);

}  // namespace dpcov::privacy
