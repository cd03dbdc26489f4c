#include "private_bound_scan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "../check.hpp"
#include "../error.hpp"
#include "../privacy/upward.hpp"
#include "../random/discrete.hpp"
#include "private_bound.hpp"

namespace dpcov::mechanisms {

namespace {

__extension__ typedef __int128 i128;

// The smallest t with t / 2^24 >= numerator / eps: ceil(numerator 2^24 / eps), exact while below
// 2^53 (privacy::upward::ceil_quotient_up), which eps >= 2^-26 guarantees for numerators <= 4.
// The two scales are equal today (2 / eps); they stay two functions because they pay for two
// different terms of the proof.
DiscreteLaplaceScale scale_at_least(double numerator, double eps) {
  if (!std::isfinite(eps) || !(eps >= 0x1p-26))
    fail(Status::InvalidArgument, "private bound scan: epsilon must be finite and >= 2^-26, got ",
         eps);
  check::epsilon(eps);
  const double t = privacy::upward::ceil_quotient_up(
      numerator * static_cast<double>(kScanScaleDenominator), eps);
  return {kScanScaleDenominator, static_cast<uint64_t>(std::max(t, 1.0))};
}

void check_scale(DiscreteLaplaceScale scale, const char *what) {
  if (scale.s == 0 || scale.t == 0)
    fail(Status::InvalidArgument, "private bound scan: the ", what,
         " scale t / s needs s, t >= 1, got ", scale.t, " / ", scale.s);
}

// Rows above each candidate: A_k = h_{k+1} + ... + h_K, k = 0..K-1.
std::vector<int64_t> rows_above(const std::vector<uint64_t> &histogram) {
  std::vector<int64_t> above(histogram.size() - 1);
  int64_t running = static_cast<int64_t>(histogram.back());
  for (size_t k = above.size(); k-- > 0;) {
    above[k] = running;
    running += static_cast<int64_t>(histogram[k]);
  }
  return above;
}

// Logs of the discrete Laplace law of scale t / s: P(x) = (1 - r) / (1 + r) r^|x|, r = exp(-s/t).
struct LaplaceLogs {
  double rate;       // s / t
  double log_mass0;  // log((1 - r) / (1 + r))
  double log1p_r;    // log(1 + r)

  explicit LaplaceLogs(DiscreteLaplaceScale scale)
      : rate(static_cast<double>(scale.s) / static_cast<double>(scale.t)),
        log_mass0(std::log(-std::expm1(-rate)) - std::log1p(std::exp(-rate))),
        log1p_r(std::log1p(std::exp(-rate))) {}

  double mass(i128 x) const { return log_mass0 - static_cast<double>(x < 0 ? -x : x) * rate; }
  // log P(nu >= a): r^a / (1 + r) for a >= 1, else 1 - r^(1 - a) / (1 + r).
  double at_least(i128 a) const {
    if (a >= 1) return -static_cast<double>(a) * rate - log1p_r;
    return std::log1p(-std::exp(-static_cast<double>(1 - a) * rate - log1p_r));
  }
  // log P(nu <= a) = log P(nu >= -a) by symmetry.
  double at_most(i128 a) const { return at_least(-a); }
};

// A running log-sum-exp.
struct LogSum {
  double top = -std::numeric_limits<double>::infinity();
  double sum = 0.0;
  void add(double x) {
    if (x == -std::numeric_limits<double>::infinity()) return;
    if (x > top) {
      sum = sum * std::exp(top - x) + 1.0;
      top = x;
    } else {
      sum += std::exp(x - top);
    }
  }
  double value() const { return top + std::log(sum); }
};

}  // namespace

DiscreteLaplaceScale private_bound_scan_threshold_scale(double eps) {
  return scale_at_least(2.0, eps);
}

DiscreteLaplaceScale private_bound_scan_query_scale(double eps) {
  return scale_at_least(2.0, eps);
}

std::vector<double> private_bound_scan_log_probabilities(const std::vector<uint64_t> &histogram,
                                                         uint64_t target_clipped,
                                                         DiscreteLaplaceScale threshold,
                                                         DiscreteLaplaceScale query) {
  private_bound_check_histogram(histogram);
  check_scale(threshold, "threshold");
  check_scale(query, "query");
  const std::vector<int64_t> above = rows_above(histogram);
  const size_t candidates = above.size();
  if (candidates == 1) return {0.0};
  const LaplaceLogs tau_law(threshold), nu_law(query);
  const double widest =
      std::max(static_cast<double>(threshold.t) / static_cast<double>(threshold.s),
               static_cast<double>(query.t) / static_cast<double>(query.s));
  const auto margin = static_cast<i128>(std::ceil(40.0 * widest)) + 1;
  const i128 m = target_clipped;
  const i128 lo = -(m + margin), hi = static_cast<i128>(above[0]) - m + margin;
  if (hi - lo > 100'000'000)
    fail(Status::InvalidArgument,
         "private bound scan: the exact probabilities would sum over more "
         "than 1e8 threshold values (counts or scales too large for this test helper)");
  std::vector<LogSum> sums(candidates);
  for (i128 tau = lo; tau <= hi; ++tau) {
    // The scan passes candidate j when A_j + nu_j > m + tau, i.e. nu_j >= m + tau - A_j + 1, and
    // stops at k when A_k + nu_k <= m + tau; the top candidate takes every pass.
    double passed = tau_law.mass(tau);
    for (size_t k = 0; k + 1 < candidates; ++k) {
      const i128 slack = m + tau - above[k];
      sums[k].add(passed + nu_law.at_most(slack));
      passed += nu_law.at_least(slack + 1);
    }
    sums[candidates - 1].add(passed);
  }
  std::vector<double> logs(candidates);
  for (size_t k = 0; k < candidates; ++k) logs[k] = sums[k].value();
  return logs;
}

size_t private_bound_scan_select_with_scales(const std::vector<uint64_t> &histogram,
                                             uint64_t target_clipped,
                                             DiscreteLaplaceScale threshold,
                                             DiscreteLaplaceScale query, random::Rng &rng) {
  private_bound_check_histogram(histogram);
  check_scale(threshold, "threshold");
  check_scale(query, "query");
  const std::vector<int64_t> above = rows_above(histogram);
  const size_t candidates = above.size();
  const i128 noisy_target =
      static_cast<i128>(target_clipped) + random::discrete_laplace(rng, threshold.s, threshold.t);
  // Every query noise is drawn and every comparison made, whichever candidate stops the scan.
  size_t chosen = candidates - 1;
  for (size_t k = 0; k + 1 < candidates; ++k) {
    const i128 noisy_count =
        static_cast<i128>(above[k]) + random::discrete_laplace(rng, query.s, query.t);
    if (chosen == candidates - 1 && noisy_count <= noisy_target) chosen = k;
  }
  return chosen;
}

size_t private_bound_scan_select(const std::vector<uint64_t> &histogram, uint64_t target_clipped,
                                 double eps, random::Rng &rng) {
  return private_bound_scan_select_with_scales(histogram, target_clipped,
                                               private_bound_scan_threshold_scale(eps),
                                               private_bound_scan_query_scale(eps), rng);
}

}  // namespace dpcov::mechanisms
