#include "gaussian_transcript.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "../error.hpp"
#include "distributions.hpp"

namespace dpcov::audit {

namespace {

double standard_normal_cdf(double x, const double *) {
  return 0.5 * std::erfc(-x / std::sqrt(2.0));
}

double squared_distance(const std::vector<double> &a, const std::vector<double> &b) {
  double s = 0.0;
  for (size_t j = 0; j < a.size(); ++j) s += (a[j] - b[j]) * (a[j] - b[j]);
  return s;
}

}  // namespace

void check_transcript_audit(int64_t trials, double alpha) {
  if (trials < 2) fail(DPCOV_E_INVALID_ARGUMENT, "trials must be >= 2, got ", trials);
  if (!(alpha > 0.0 && alpha < 1.0))
    fail(DPCOV_E_INVALID_ARGUMENT, "alpha must be in (0, 1), got ", alpha);
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
    standardised_.push_back((y[k] - m[k]) / sigma);
    z += (y[k] - m[k]) * (m_other[k] - m[k]) / shift;
  }
  projected_squares_[s] += z * z;
  loss_ += (squared_distance(y, m_other) - squared_distance(y, m)) / (2.0 * sigma * sigma);
}

void GaussianTranscript::end_release() {
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
  const double chi2_low = chi_square_quantile(alpha, static_cast<double>(releases_));
  for (size_t s = 0; s < sigma_.size(); ++s) {
    const double s_up_squared = projected_squares_[s] / chi2_low;
    out.rho_lower += min_shift_[s] * min_shift_[s] / (2.0 * s_up_squared);
  }
  out.pair_flag = out.rho_lower > rho;
  out.min_shift_ratio = min_shift_ratio_;
  const double n = static_cast<double>(releases_);
  const double mean = hockey_sum_ / n;
  const double variance = std::max(0.0, (hockey_squares_ - n * mean * mean) / (n - 1.0));
  out.delta = empirical_bernstein(mean, variance, releases_, 1.0, alpha);
  out.delta_flag = out.delta.lower > delta;
  return out;
}

}  // namespace dpcov::audit
