// Decision rules shared by the statistical tests. Each check returns a Verdict instead of
// asserting, so the same check runs on the real sampler (must pass) and on a deliberately wrong
// one (must fail): a test that cannot fail proves nothing.
//
// Error rate: every rule below rejects a correct sampler with probability at most alpha (exactly
// or, where stated, asymptotically). The tests use alpha = 1e-6 per assertion; a file with m
// assertions on correct samplers therefore has a family-wise false-failure rate <= m * 1e-6
// (Bonferroni), stated at the top of each file. Seeds are fixed, so a given build either always
// passes or always fails; alpha bounds the chance that a correct sampler meets an unlucky seed.
#pragma once

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/special_functions/binomial.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <ostream>
#include <string>
#include <vector>

namespace dpcov::stat {

inline constexpr double kAlpha = 1e-6;

// Sample sizes are multiplied by DPCOV_STAT_SCALE (default 1); the `long` suite sets 10, which
// keeps alpha and gains power.
inline int64_t scaled(int64_t n) {
  const char *env = std::getenv("DPCOV_STAT_SCALE");
  const long factor = env != nullptr ? std::strtol(env, nullptr, 10) : 1;
  return n * std::max(1L, factor);
}

struct Verdict {
  bool pass = false;
  double statistic = 0.0;
  double critical = 0.0;
  std::string what;
};

inline std::ostream &operator<<(std::ostream &out, const Verdict &v) {
  return out << v.what << ": statistic " << v.statistic << (v.pass ? " < " : " >= ")
             << "critical " << v.critical;
}

// With DPCOV_STAT_VERBOSE set, every verdict is printed, so the margins (how far a correct
// sampler stays under the critical value, how far a mutant goes over it) can be reviewed.
inline Verdict reported(Verdict v) {
  if (std::getenv("DPCOV_STAT_VERBOSE") != nullptr) std::cerr << "  [stat] " << v << "\n";
  return v;
}

// One-sample Kolmogorov-Smirnov. Critical value from the Dvoretzky-Kiefer-Wolfowitz inequality
// with Massart's constant (Ann. Probab. 18(3), 1990): P(sup |F_n - F| > e) <= 2 exp(-2 n e^2) for
// every n (valid when that bound is <= 1/2), so e = sqrt(ln(2 / alpha) / (2 n)) is a finite-sample,
// not asymptotic, critical value: 2.6934 / sqrt(n) at alpha = 1e-6.
inline Verdict ks_one_sample(std::vector<double> sample, const std::function<double(double)> &cdf,
                             const std::string &what, double alpha = kAlpha) {
  std::sort(sample.begin(), sample.end());
  const double n = static_cast<double>(sample.size());
  double d = 0.0;
  for (size_t i = 0; i < sample.size(); ++i) {
    const double f = cdf(sample[i]);
    d = std::max({d, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
  }
  const double critical = std::sqrt(std::log(2.0 / alpha) / (2.0 * n));
  return reported({d < critical, d, critical, what});
}

// Two-sample Kolmogorov-Smirnov for equal sizes n. Under H0, n D is an integer with the exact
// law of Gnedenko and Korolyuk (1951): P(n D >= c) = 2 sum_{k>=1} (-1)^{k+1} C(2n, n - k c) /
// C(2n, n). The terms decrease, so the first one bounds the sum; the critical c is the smallest
// integer with 2 C(2n, n - c) / C(2n, n) <= alpha (computed with lgamma), an exact bound.
inline Verdict ks_two_sample(std::vector<double> x, std::vector<double> y, const std::string &what,
                             double alpha = kAlpha) {
  const int64_t n = static_cast<int64_t>(x.size());
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  int64_t i = 0, j = 0, diff = 0;
  while (i < n && j < n) {
    const double t = std::min(x[static_cast<size_t>(i)], y[static_cast<size_t>(j)]);
    while (i < n && x[static_cast<size_t>(i)] <= t) ++i;
    while (j < n && y[static_cast<size_t>(j)] <= t) ++j;
    diff = std::max<int64_t>(diff, i > j ? i - j : j - i);
  }
  auto log_choose = [](double a, double b) {
    return std::lgamma(a + 1) - std::lgamma(b + 1) - std::lgamma(a - b + 1);
  };
  int64_t c = 1;
  const double nn = static_cast<double>(n);
  while (c <= n && std::log(2.0) + log_choose(2 * nn, nn - static_cast<double>(c)) -
                           log_choose(2 * nn, nn) > std::log(alpha))
    ++c;
  return reported(
      {diff < c, static_cast<double>(diff) / nn, static_cast<double>(c) / nn, what});
}

// Pearson chi-square on bins with known probabilities. Asymptotic: the statistic tends to
// chi2(K - 1); the tests keep every expected count above 1000, where the approximation's error
// in the tail is far below alpha's scale. Critical value: the 1 - alpha quantile of chi2(K - 1).
inline Verdict chi_square_bins(const std::vector<int64_t> &counts,
                               const std::vector<double> &probabilities, const std::string &what,
                               double alpha = kAlpha) {
  double total = 0.0;
  for (int64_t c : counts) total += static_cast<double>(c);
  double stat = 0.0;
  for (size_t k = 0; k < counts.size(); ++k) {
    const double e = total * probabilities[k];
    stat += (static_cast<double>(counts[k]) - e) * (static_cast<double>(counts[k]) - e) / e;
  }
  const boost::math::chi_squared dist(static_cast<double>(counts.size() - 1));
  const double critical = boost::math::quantile(boost::math::complement(dist, alpha));
  return reported({stat < critical, stat, critical, what});
}

// Two-sided z-test of an estimate against its exact expectation given the estimate's standard
// error. Asymptotic (central limit theorem) for means of variables with finite variance; the
// tests use >= 10^4 terms. Critical value Phi^{-1}(1 - alpha / 2) = 4.8916 at alpha = 1e-6.
inline Verdict z_test(double estimate, double expected, double standard_error,
                      const std::string &what, double alpha = kAlpha) {
  const double critical = boost::math::quantile(
      boost::math::complement(boost::math::normal(), alpha / 2.0));
  const double z = std::fabs(estimate - expected) / standard_error;
  return reported({z < critical, z, critical, what});
}

// Mean of n values in [lo, hi] against its exact expectation, by Hoeffding's inequality:
// P(|mean - mu| >= t) <= 2 exp(-2 n t^2 / (hi - lo)^2), a finite-sample bound, so
// t = (hi - lo) sqrt(ln(2 / alpha) / (2 n)).
inline Verdict hoeffding_mean(const std::vector<double> &values, double expected, double lo,
                              double hi, const std::string &what, double alpha = kAlpha) {
  double sum = 0.0;
  for (double v : values) sum += v;
  const double n = static_cast<double>(values.size());
  const double critical = (hi - lo) * std::sqrt(std::log(2.0 / alpha) / (2.0 * n));
  const double deviation = std::fabs(sum / n - expected);
  return reported({deviation < critical, deviation, critical, what});
}

// Sample mean and the standard error of the mean.
struct MeanAndError {
  double mean;
  double error;
};
inline MeanAndError mean_and_error(const std::vector<double> &v) {
  double s = 0.0;
  for (double x : v) s += x;
  const double n = static_cast<double>(v.size());
  const double mean = s / n;
  double ss = 0.0;
  for (double x : v) ss += (x - mean) * (x - mean);
  return {mean, std::sqrt(ss / (n - 1.0) / n)};
}

// Sample variance and its standard error sqrt((m4 - s^4) / n) (delta method).
inline MeanAndError variance_and_error(const std::vector<double> &v) {
  const double n = static_cast<double>(v.size());
  double s = 0.0;
  for (double x : v) s += x;
  const double mean = s / n;
  double m2 = 0.0, m4 = 0.0;
  for (double x : v) {
    const double d2 = (x - mean) * (x - mean);
    m2 += d2;
    m4 += d2 * d2;
  }
  m2 /= n;
  m4 /= n;
  return {m2 * n / (n - 1.0), std::sqrt((m4 - m2 * m2) / n)};
}

// One-sided exact binomial test of a coverage rate: passes when count >= k*, k* the largest k
// with P(Bin(reps, rate) < k) <= kAlpha (the pmf summed upwards with Boost.Math). The statistic is
// the number of misses, the critical value reps - k* + 1.
inline Verdict coverage_at_least(int64_t count, int64_t reps, double rate, const std::string &what) {
  const boost::math::binomial dist(static_cast<double>(reps), rate);
  double below = 0.0;
  int64_t critical = 0;
  while (critical <= reps) {
    const double next = below + boost::math::pdf(dist, static_cast<double>(critical));
    if (next > kAlpha) break;
    below = next;
    ++critical;
  }
  return reported({reps - count < reps - critical + 1, static_cast<double>(reps - count),
                   static_cast<double>(reps - critical + 1), what});
}

}  // namespace dpcov::stat
