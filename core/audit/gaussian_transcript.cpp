#include "gaussian_transcript.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "../error.hpp"
#include "../math/chi_square.hpp"
#include "../privacy/analytic_gaussian.hpp"
#include "distributions.hpp"
#include "power.hpp"
#include "trials.hpp"

namespace dpcov::audit {

namespace {

double standard_normal_cdf(double x, const double *) {
  return 0.5 * std::erfc(-x / std::sqrt(2.0));
}

// The two-sample statistic's grid: eps = k mu, k = 0 .. kTwoSampleGrid - 1.
constexpr int kTwoSampleGrid = 4;

// delta(eps) of one Gaussian pair at mu = shift / sigma (Balle and Wang 2018, Thm 8); at eps = 0
// the total variation 2 Phi(mu / 2) - 1.
double gaussian_pair_delta(double mu, double eps) {
  if (eps == 0.0) return std::erf(mu / (2.0 * std::sqrt(2.0)));
  return privacy::analytic_gaussian_delta(1.0, eps, mu);
}

double squared_distance(const std::vector<double> &a, const std::vector<double> &b) {
  double s = 0.0;
  for (size_t j = 0; j < a.size(); ++j) s += (a[j] - b[j]) * (a[j] - b[j]);
  return s;
}

}  // namespace

void check_transcript_audit(int64_t trials, double alpha) {
  check_trials(trials, 2, "trials");
  if (!(alpha > 0.0 && alpha < 1.0))
    fail(Status::InvalidArgument, "alpha must be in (0, 1), got ", alpha);
}

GaussianTranscript::GaussianTranscript(std::vector<double> step_sigma, double epsilon)
    : sigma_(std::move(step_sigma)),
      epsilon_(epsilon),
      projected_squares_(sigma_.size(), 0.0),
      min_shift_(sigma_.size(), std::numeric_limits<double>::infinity()),
      min_shift_ratio_(std::numeric_limits<double>::infinity()) {}

void GaussianTranscript::step(int64_t i, const std::vector<double> &y, const std::vector<double> &m,
                              const std::vector<double> &m_other, double scale) {
  const size_t s = static_cast<size_t>(i);
  const double sigma = sigma_[s];
  const double shift = std::sqrt(squared_distance(m, m_other));
  min_shift_[s] = std::min(min_shift_[s], shift);
  min_shift_ratio_ = std::min(min_shift_ratio_, shift / scale);
  double z = 0.0;
  for (size_t k = 0; k < y.size(); ++k) {
    if (standardised_.size() < kMaxConformanceValues)
      standardised_.push_back((y[k] - m[k]) / sigma);
    z += (y[k] - m[k]) * (m_other[k] - m[k]) / shift;
  }
  projected_squares_[s] += z * z;
  loss_ += (squared_distance(y, m_other) - squared_distance(y, m)) / (2.0 * sigma * sigma);
}

void GaussianTranscript::end_release() {
  losses_.push_back(loss_);
  const double h = std::max(0.0, -std::expm1(epsilon_ - loss_));
  hockey_sum_ += h;
  hockey_squares_ += h * h;
  loss_ = 0.0;
  ++releases_;
}

TranscriptDirection GaussianTranscript::result(double rho, double delta, double alpha) {
  TranscriptDirection out;
  out.ks = ks_distance(standardised_, standard_normal_cdf, nullptr);
  out.ks_threshold = dkw_threshold(static_cast<int64_t>(standardised_.size()), alpha);
  out.conformance_flag = out.ks > out.ks_threshold;
  const double chi2_low = math::chi_square_quantile(alpha, static_cast<double>(releases_));
  for (size_t s = 0; s < sigma_.size(); ++s) {
    const double s_up_squared = projected_squares_[s] / chi2_low;
    out.rho_lower += min_shift_[s] * min_shift_[s] / (2.0 * s_up_squared);
  }
  out.pair_flag = out.rho_lower > rho;
  out.min_shift_ratio = min_shift_ratio_;
  const double n = static_cast<double>(releases_);
  const double mean = hockey_sum_ / n;
  const double variance = std::max(0.0, (hockey_squares_ - n * mean * mean) / (n - 1.0));
  // Half of the test's alpha; add_two_sample_delta takes the other half.
  out.delta = empirical_bernstein(mean, variance, releases_, 1.0, alpha / 2.0);
  out.delta_flag = out.delta.lower > delta;
  out.detectable_delta = detectable_delta_bernstein(delta, releases_, alpha / 2.0);
  out.losses = losses_;
  return out;
}

void add_two_sample_delta(TranscriptDirection &own, const TranscriptDirection &other, double rho,
                          double alpha) {
  const double mu = std::sqrt(2.0 * rho);
  const double per_bound = alpha / (2.0 * kTwoSampleGrid);
  const auto n_own = static_cast<int64_t>(own.losses.size());
  const auto n_other = static_cast<int64_t>(other.losses.size());
  bool first = true;
  for (int k = 0; k < kTwoSampleGrid; ++k) {
    const double eps = k * mu;
    // Outputs with L > eps (L of X against X'), drawn from X and from X'.
    const auto p = std::count_if(own.losses.begin(), own.losses.end(),
                                 [eps](double l) { return l > eps; });
    const auto q = std::count_if(other.losses.begin(), other.losses.end(),
                                 [eps](double l) { return -l > eps; });
    TwoSampleDelta at;
    at.epsilon = eps;
    at.estimate = static_cast<double>(p) / static_cast<double>(n_own) -
                  std::exp(eps) * static_cast<double>(q) / static_cast<double>(n_other);
    at.lower = clopper_pearson_lower(p, n_own, per_bound) -
               std::exp(eps) * clopper_pearson_upper(q, n_other, per_bound);
    at.claim = gaussian_pair_delta(mu, eps);
    if (first || at.lower - at.claim > own.two_sample.lower - own.two_sample.claim)
      own.two_sample = at;
    first = false;
  }
  own.two_sample_flag = own.two_sample.lower > own.two_sample.claim;
}

}  // namespace dpcov::audit
