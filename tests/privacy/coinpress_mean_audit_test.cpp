// The exact-density audit of CoinPress mean estimation (core/mechanisms/coinpress_mean.hpp,
// proofs/coinpress_mean.md). Each step's output has a density given the previous public centre:
// c_i - c_{i-1} ~ N(m_i, sigma_i^2 I) with m_i the mean offset from c_{i-1} of the rows projected
// onto B(c_{i-1}, R_i), so the privacy loss of a whole release c_1..c_t on neighbours X, X' is
//   L = sum_i (||c_i - c_{i-1} - m'_i||^2 - ||c_i - c_{i-1} - m_i||^2) / (2 sigma_i^2),
// with m_i, m'_i recomputed here from the claimed R_i (the plan's) and the released c_{i-1}.
// The pair is the worst case: one row at +10^6 e_1 in X and at -10^6 e_1 in X', so that every step's
// means differ by 2 R_i / n (the sensitivity) up to 1e-10 relative.
//
// Three statistics per direction (draws from X against X', and from X' against X):
// - conformance: the standardised residuals (c_i - m_i) / sigma_i, every coordinate of every step,
//   against N(0, 1) (Kolmogorov-Smirnov, DKW threshold);
// - Gaussian pair: the residual projected on the direction of m'_i - m_i has variance s_i^2 (the
//   sampler's, whatever the claim); sum z^2 / s_i^2 ~ chi2(trials) gives an upper confidence bound
//   s_up_i, and sum_i min ||m'_i - m_i||^2 / (2 s_up_i^2) is a lower confidence bound on the rho
//   the implementation spends on this pair: flagged above the claimed rho;
// - loss: delta(eps) = E[(1 - e^{eps - L})_+] from the exact L, empirical-Bernstein lower bound,
//   flagged above the claimed delta (at the claimed (eps, delta) of the receipt).
// Error rate: alpha = 1e-6 per audit, split evenly (Bonferroni) over 2 directions x 3 statistics;
// fixed seeds. Two known-broken variants must be flagged: the noise scale halved (the release run
// at 4 rho while claiming rho) and a release that does not project the rows.
#include <gtest/gtest.h>

#include <boost/math/distributions/chi_squared.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "core/audit/confidence.hpp"
#include "core/mechanisms/coinpress_mean.hpp"
#include "core/random/normal.hpp"

namespace dpcov {
namespace {

constexpr int64_t kRows = 20, kDim = 3, kTrials = 4000;
constexpr double kAlpha = 1e-6;

mechanisms::CoinpressMeanRequest claimed_request() {
  mechanisms::CoinpressMeanRequest r;
  r.dim = kDim;
  r.n = kRows;
  r.rho = 0.5;
  r.radius = 5.0;
  return r;
}

// X (sign = +1) or X' (sign = -1): 19 rows near the origin, row 0 at sign 10^6 e_1.
Matrix dataset(double sign) {
  Matrix x(kRows, kDim);
  for (int64_t i = 1; i < kRows; ++i)
    for (int64_t j = 0; j < kDim; ++j) x(i, j) = std::sin(0.7 * static_cast<double>(i * kDim + j));
  x(0, 0) = sign * 1e6;
  return x;
}

// A release under audit: the t x d centres c_1..c_t of one run on `rows`.
using Release = std::function<Matrix(const Matrix &rows, random::Rng &rng)>;

Matrix correct(const Matrix &rows, random::Rng &rng, double rho) {
  mechanisms::CoinpressMeanRequest r = claimed_request();
  r.rho = rho;
  return mechanisms::coinpress_mean_release(rows.view(), std::vector<double>(kDim, 0.0), r, rng)
      .centres;
}

// Broken: the claimed sigmas, but the rows' plain mean (no projection).
Matrix unprojected(const Matrix &rows, random::Rng &rng) {
  const mechanisms::CoinpressMeanReceipt claim = mechanisms::coinpress_mean_plan(claimed_request());
  Matrix centres(claim.steps, kDim);
  for (int64_t step = 0; step < claim.steps; ++step)
    for (int64_t j = 0; j < kDim; ++j) {
      double sum = 0.0;
      for (int64_t i = 0; i < kRows; ++i) sum += rows(i, j);
      centres(step, j) = sum / kRows +
                         claim.step_sigma[static_cast<size_t>(step)] * random::standard_normal(rng);
    }
  return centres;
}

double standard_normal_cdf(double x, const double *) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

double squared_distance(const std::vector<double> &a, const std::vector<double> &b) {
  double s = 0.0;
  for (size_t j = 0; j < a.size(); ++j) s += (a[j] - b[j]) * (a[j] - b[j]);
  return s;
}

struct Direction {
  double ks = 0.0, ks_threshold = 0.0;
  double rho_lower = 0.0;
  audit::MeanBounds delta;
  bool conformance_flag = false, pair_flag = false, delta_flag = false;
  bool flagged() const { return conformance_flag || pair_flag || delta_flag; }
};

// Draws from `own`, loss against `other`.
Direction audit_direction(const Release &release, const Matrix &own, const Matrix &other,
                          uint64_t seed) {
  const mechanisms::CoinpressMeanReceipt claim = mechanisms::coinpress_mean_plan(claimed_request());
  const int64_t t = claim.steps;
  const double alpha = kAlpha / 6.0;
  random::Rng rng = random::Rng::from_seed(seed);
  std::vector<double> standardised;
  std::vector<double> projected_squares(static_cast<size_t>(t), 0.0);
  std::vector<double> min_shift(static_cast<size_t>(t), std::numeric_limits<double>::infinity());
  double hockey_sum = 0.0, hockey_squares = 0.0;
  for (int64_t trial = 0; trial < kTrials; ++trial) {
    const Matrix centres = release(own, rng);
    std::vector<double> previous(kDim, 0.0);
    double loss = 0.0;
    for (int64_t i = 0; i < t; ++i) {
      const size_t s = static_cast<size_t>(i);
      const double sigma = claim.step_sigma[s];
      // c_i - c_{i-1} ~ N(offset_i, sigma_i^2 I): the offsets of X and X' from the public c_{i-1}.
      const std::vector<double> m = mechanisms::coinpress_mean_projected_offset(
          own.view(), previous, claim.step_clip_radius[s]);
      const std::vector<double> m_other = mechanisms::coinpress_mean_projected_offset(
          other.view(), previous, claim.step_clip_radius[s]);
      std::vector<double> c(kDim), step(kDim);
      for (int64_t j = 0; j < kDim; ++j) {
        c[static_cast<size_t>(j)] = centres(i, j);
        step[static_cast<size_t>(j)] = centres(i, j) - previous[static_cast<size_t>(j)];
      }
      const double shift = std::sqrt(squared_distance(m, m_other));
      min_shift[s] = std::min(min_shift[s], shift);
      double z = 0.0;
      for (int64_t j = 0; j < kDim; ++j) {
        const size_t k = static_cast<size_t>(j);
        standardised.push_back((step[k] - m[k]) / sigma);
        z += (step[k] - m[k]) * (m_other[k] - m[k]) / shift;
      }
      projected_squares[s] += z * z;
      loss += (squared_distance(step, m_other) - squared_distance(step, m)) / (2.0 * sigma * sigma);
      previous = c;
    }
    const double h = std::max(0.0, -std::expm1(claim.epsilon - loss));
    hockey_sum += h;
    hockey_squares += h * h;
  }
  Direction d;
  d.ks = audit::ks_distance(standardised, standard_normal_cdf, nullptr);
  d.ks_threshold = audit::dkw_threshold(static_cast<int64_t>(standardised.size()), alpha);
  d.conformance_flag = d.ks > d.ks_threshold;
  const double chi2_low =
      boost::math::quantile(boost::math::chi_squared(static_cast<double>(kTrials)), alpha);
  for (int64_t i = 0; i < t; ++i) {
    const size_t s = static_cast<size_t>(i);
    const double s_up_squared = projected_squares[s] / chi2_low;
    d.rho_lower += min_shift[s] * min_shift[s] / (2.0 * s_up_squared);
  }
  d.pair_flag = d.rho_lower > claim.rho;
  const double n = static_cast<double>(kTrials);
  const double mean = hockey_sum / n;
  const double variance = std::max(0.0, (hockey_squares - n * mean * mean) / (n - 1.0));
  d.delta = audit::empirical_bernstein(mean, variance, kTrials, 1.0, alpha);
  d.delta_flag = d.delta.lower > claim.delta;
  return d;
}

struct Verdict {
  Direction forward, backward;
  bool flagged() const { return forward.flagged() || backward.flagged(); }
};

Verdict run_audit(const Release &release, uint64_t seed) {
  const Matrix x = dataset(1.0), x_prime = dataset(-1.0);
  return {audit_direction(release, x, x_prime, seed), audit_direction(release, x_prime, x, seed + 1)};
}

void print(const char *name, const Verdict &v) {
  for (const Direction *d : {&v.forward, &v.backward})
    std::cerr << "  " << name << ": KS " << d->ks << " (threshold " << d->ks_threshold
              << "), rho lower bound " << d->rho_lower << " (claim 0.5), delta(eps) lower "
              << d->delta.lower << " (estimate " << d->delta.estimate << ", claim 1e-6)\n";
}

TEST(CoinpressMeanAudit, ThePairAttainsTheSensitivity) {
  const mechanisms::CoinpressMeanReceipt claim = mechanisms::coinpress_mean_plan(claimed_request());
  const Matrix x = dataset(1.0), x_prime = dataset(-1.0);
  const std::vector<double> c = {0.3, -0.2, 0.1};
  for (double radius : claim.step_clip_radius) {
    const double shift =
        std::sqrt(squared_distance(mechanisms::coinpress_mean_projected_offset(x.view(), c, radius),
                                   mechanisms::coinpress_mean_projected_offset(x_prime.view(), c, radius)));
    EXPECT_LE(shift, 2.0 * radius / kRows);
    EXPECT_GE(shift, 2.0 * radius / kRows * (1.0 - 1e-9));
  }
}

TEST(CoinpressMeanAudit, TheCorrectReleaseIsNotFlagged) {
  const Verdict v = run_audit([](const Matrix &rows, random::Rng &rng) { return correct(rows, rng, 0.5); }, 11);
  print("correct", v);
  EXPECT_FALSE(v.flagged());
  // The lower bound on the spent rho sits near the claim: the pair is tight.
  EXPECT_GT(v.forward.rho_lower, 0.4);
}

TEST(CoinpressMeanAudit, HalvedNoiseIsFlagged) {
  const Verdict v = run_audit([](const Matrix &rows, random::Rng &rng) { return correct(rows, rng, 2.0); }, 13);
  print("sigma / 2", v);
  EXPECT_TRUE(v.forward.conformance_flag && v.forward.pair_flag);
  EXPECT_TRUE(v.backward.conformance_flag && v.backward.pair_flag);
}

TEST(CoinpressMeanAudit, AReleaseWithoutProjectionIsFlagged) {
  const Verdict v = run_audit(unprojected, 17);
  print("unprojected", v);
  EXPECT_TRUE(v.forward.delta_flag && v.forward.conformance_flag);
  EXPECT_TRUE(v.backward.delta_flag && v.backward.conformance_flag);
}

}  // namespace
}  // namespace dpcov
