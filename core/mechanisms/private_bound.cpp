#include "private_bound.hpp"

#include <algorithm>
#include <cmath>

#include "../check.hpp"
#include "../data/row_bound.hpp"
#include "../error.hpp"
#include "../random/uniform.hpp"

namespace dpcov::mechanisms {

namespace {

// Counts are summed as doubles below; 2^53 keeps every sum exact.
constexpr uint64_t kMaxTotalRows = uint64_t{1} << 53;

}  // namespace

void private_bound_check_histogram(const std::vector<uint64_t> &histogram) {
  if (histogram.size() < 2 || histogram.size() > kPrivateBoundMaxCandidates + 1)
    fail(Status::InvalidArgument, "private bound: the histogram has ", histogram.size(),
         " cells; it needs the grid's candidates plus an overflow cell, 2 to ",
         kPrivateBoundMaxCandidates + 1);
  uint64_t total = 0;
  for (uint64_t count : histogram) {
    if (count > kMaxTotalRows - total)
      fail(Status::InvalidArgument, "private bound: the histogram counts more than 2^53 rows");
    total += count;
  }
}

namespace {

void check_factor(double factor) {
  if (!std::isfinite(factor) || factor <= 0.0)
    fail(Status::InvalidArgument, "private bound: the exponent factor must be finite and > 0, got ",
         factor);
}

// factor * (u_k - max u), every entry <= 0 and the largest exactly 0.
std::vector<double> shifted_exponents(const std::vector<uint64_t> &histogram,
                                      uint64_t target_clipped, double factor) {
  check_factor(factor);
  std::vector<double> exponents = private_bound_utilities(histogram, target_clipped);
  const double top = *std::max_element(exponents.begin(), exponents.end());
  for (double &e : exponents) e = factor * (e - top);
  return exponents;
}

}  // namespace

int64_t private_bound_quantile_target(double quantile, int64_t n) {
  if (!(quantile > 0.0 && quantile <= 1.0))
    fail(Status::InvalidArgument, "the quantile of a bound's target must be in (0, 1], got ",
         quantile);
  if (n < 0) fail(Status::InvalidArgument, "the number of rows must be >= 0, got ", n);
  // 1 - quantile is exact for quantile >= 1/2 (Sterbenz) and otherwise within half an ulp; the
  // product's floor is taken of the exact product of the two doubles: its rounding error, from
  // an fma, moves an integer result down where the exact value lies just below it.
  const double share = 1.0 - quantile, count = static_cast<double>(n);
  const double product = share * count;
  double target = std::floor(product);
  if (target == product && std::fma(share, count, -product) < 0.0) target -= 1.0;
  // n as a double rounds up above 2^53: the target is at most n itself (2^63 has no int64_t).
  if (target >= 0x1p63) return n;
  return std::min(static_cast<int64_t>(target), n);
}

std::vector<double> private_bound_grid(double lo, double hi, double ratio) {
  if (!std::isfinite(lo) || !std::isfinite(hi) || !std::isfinite(ratio) || lo <= 0.0 || hi <= lo ||
      ratio <= 1.0)
    fail(Status::InvalidArgument,
         "private bound grid: need finite 0 < lo < hi and ratio > 1, got lo ", lo, ", hi ", hi,
         ", ratio ", ratio);
  std::vector<double> grid;
  for (size_t k = 0;; ++k) {
    if (k == kPrivateBoundMaxCandidates)
      fail(Status::InvalidArgument, "private bound grid: more than ", kPrivateBoundMaxCandidates,
           " candidates from lo ", lo, " to hi ", hi, " at ratio ", ratio);
    const double b = lo * std::pow(ratio, static_cast<double>(k));
    if (!std::isfinite(b) || (!grid.empty() && b <= grid.back()))
      fail(Status::InvalidArgument, "private bound grid: candidate ", k, " is not finite or not "
           "increasing (lo ", lo, ", hi ", hi, ", ratio ", ratio, ")");
    grid.push_back(b);
    if (b >= hi) return grid;
  }
}

std::vector<double> private_bound_below_grid(double bound) {
  data::check_row_bound(bound, "the bound to tighten");
  std::vector<double> grid;
  for (int k = kTightenSteps; k >= 1; --k) {
    // Every candidate is a bound the rows may be clipped to, so each is a valid row bound; the
    // smallest is the bound over 1.25^12 < 15, so the bound's own range barely shrinks.
    grid.push_back(bound / std::pow(kTightenRatio, static_cast<double>(k)));
    data::check_row_bound(grid.back(), "the smallest candidate below the bound");
  }
  grid.push_back(bound);
  return grid;
}

size_t private_bound_tighten(std::vector<uint64_t> histogram, int64_t n, double quantile,
                             double eps, random::Rng &rng) {
  const size_t cells = static_cast<size_t>(kTightenSteps) + 2;
  if (histogram.size() != cells)
    fail(Status::InvalidArgument, "a tightening histogram has ", cells, " cells, got ",
         histogram.size());
  private_bound_check_histogram(histogram);
  uint64_t rows = 0;
  for (uint64_t count : histogram) rows += count;
  if (n < 0 || rows != static_cast<uint64_t>(n))
    fail(Status::InvalidArgument, "the tightening histogram counts ", rows, " rows, but n is ", n,
         ": the target is a share of the rows counted");
  const auto target = static_cast<uint64_t>(private_bound_quantile_target(quantile, n));
  // A row above the public bound is clipped onto it: it counts in the top candidate's cell.
  histogram[cells - 2] += histogram[cells - 1];
  histogram[cells - 1] = 0;
  return private_bound_select(histogram, target, eps, rng);
}

size_t private_bound_cell(double norm, const std::vector<double> &grid) {
  // lower_bound: the first candidate >= norm. A NaN norm lands in the overflow cell.
  if (std::isnan(norm)) return grid.size();
  return static_cast<size_t>(std::lower_bound(grid.begin(), grid.end(), norm) - grid.begin());
}

double private_bound_exponent_factor(double eps) {
  if (!std::isfinite(eps) || eps <= 0.0)
    fail(Status::InvalidArgument, "private bound: epsilon must be finite and > 0, got ", eps);
  check::epsilon(eps);
  // Exact unless eps / 2 is subnormal, where halving can round up; 2 f is exact, so test it.
  const double factor = eps / 2.0;
  return 2.0 * factor > eps ? std::nextafter(factor, 0.0) : factor;
}

std::vector<double> private_bound_utilities(const std::vector<uint64_t> &histogram,
                                            uint64_t target_clipped) {
  private_bound_check_histogram(histogram);
  const size_t candidates = histogram.size() - 1;
  std::vector<double> utilities(candidates);
  uint64_t above = histogram[candidates];  // rows with norm > grid[k], for k from the top down
  for (size_t k = candidates; k-- > 0;) {
    const uint64_t gap = above > target_clipped ? above - target_clipped : target_clipped - above;
    utilities[k] = -static_cast<double>(gap);
    above += histogram[k];
  }
  return utilities;
}

std::vector<double> private_bound_log_probabilities(const std::vector<uint64_t> &histogram,
                                                    uint64_t target_clipped, double factor) {
  std::vector<double> logs = shifted_exponents(histogram, target_clipped, factor);
  double total = 0.0;
  for (double e : logs) total += std::exp(e);
  const double log_total = std::log(total);  // total >= 1: the top term is exp(0)
  for (double &e : logs) e -= log_total;
  return logs;
}

size_t private_bound_select_with_factor(const std::vector<uint64_t> &histogram,
                                        uint64_t target_clipped, double factor, random::Rng &rng) {
  std::vector<double> weights = shifted_exponents(histogram, target_clipped, factor);
  double total = 0.0;
  for (double &w : weights) {
    w = std::exp(w);
    total += w;
  }
  const double target = random::uniform01(rng) * total;
  // Every step runs for every k, so the time does not depend on which candidate wins. The last
  // candidate of positive weight takes what rounding leaves above the final running sum.
  size_t chosen = weights.size();
  size_t last_positive = 0;
  double running = 0.0;
  for (size_t k = 0; k < weights.size(); ++k) {
    running += weights[k];
    if (weights[k] > 0.0) last_positive = k;
    if (chosen == weights.size() && target < running) chosen = k;
  }
  return chosen == weights.size() ? last_positive : chosen;
}

size_t private_bound_select(const std::vector<uint64_t> &histogram, uint64_t target_clipped,
                            double eps, random::Rng &rng) {
  return private_bound_select_with_factor(histogram, target_clipped,
                                          private_bound_exponent_factor(eps), rng);
}

}  // namespace dpcov::mechanisms
