#include "worlds_spread.hpp"

#include <algorithm>
#include <cmath>

#include "../error.hpp"
#include "../linalg/blas.hpp"
#include "worlds_truth.hpp"

namespace dpcov::estimators {

namespace {

// The q-quantile of v (0 <= q <= 1) by linear interpolation between order statistics; v is
// reordered.
double quantile(std::vector<double> &v, double q) {
  const double position = q * static_cast<double>(v.size() - 1);
  const auto low = static_cast<size_t>(std::floor(position));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(low), v.end());
  const double a = v[low];
  if (low + 1 >= v.size()) return a;
  const double b = *std::min_element(v.begin() + static_cast<std::ptrdiff_t>(low) + 1, v.end());
  return a + (position - static_cast<double>(low)) * (b - a);
}

// T(c): the sum over the coefficients of the robust variance of u - c v.
double spread(const std::vector<std::vector<double>> &rest,
              const std::vector<std::vector<double>> &interaction, double c,
              std::vector<double> &scratch) {
  double total = 0.0;
  for (size_t j = 0; j < rest.size(); ++j) {
    scratch.resize(rest[j].size());
    for (size_t b = 0; b < rest[j].size(); ++b) scratch[b] = rest[j][b] - c * interaction[j][b];
    total += robust_variance(scratch);
  }
  return total;
}

}  // namespace

double robust_variance(std::vector<double> &v) {
  const double iqr = quantile(v, 0.75) - quantile(v, 0.25);
  const double normal_iqr = 1.3489795003921634;  // 2 Phi^-1(0.75)
  return (iqr / normal_iqr) * (iqr / normal_iqr);
}

double interaction_shrinkage(const std::vector<std::vector<double>> &rest,
                             const std::vector<std::vector<double>> &interaction,
                             const std::vector<double> &centre) {
  if (rest.size() != centre.size() || interaction.size() != centre.size())
    fail(Status::Dimension, "the worlds' parts need one row per coefficient");
  for (size_t j = 0; j < rest.size(); ++j)
    if (rest[j].size() != interaction[j].size() || rest[j].size() < 2)
      fail(Status::Dimension, "the worlds' parts need equal lengths of at least 2");
  double square = 0.0;
  for (double b : centre) square += b * b;
  std::vector<double> scratch;
  // f(c) = c^2 |beta_w|^2 + T(c) - |beta_w|^2: f(1) = T(1) >= 0; no root above 0 when f(0) >= 0.
  const auto f = [&](double c) { return c * c * square + spread(rest, interaction, c, scratch) - square; };
  if (!(f(0.0) < 0.0)) return 0.0;
  double low = 0.0, high = 1.0;
  for (int step = 0; step < 30; ++step) {  // 1e-9 of the unit interval
    const double mid = 0.5 * (low + high);
    (f(mid) < 0.0 ? low : high) = mid;
  }
  return high;
}

std::vector<std::vector<double>> shrunk_refits(const std::vector<std::vector<double>> &rest,
                                               const std::vector<std::vector<double>> &interaction,
                                               const std::vector<double> &centre) {
  const double c = interaction_shrinkage(rest, interaction, centre);
  std::vector<std::vector<double>> refits(rest.size());
  for (size_t j = 0; j < rest.size(); ++j) {
    std::vector<double> v = interaction[j];
    const double m = quantile(v, 0.5);
    refits[j].reserve(rest[j].size());
    for (size_t b = 0; b < rest[j].size(); ++b)
      refits[j].push_back(centre[j] + rest[j][b] - m - c * (interaction[j][b] - m));
  }
  return refits;
}

void deflate_spread(std::vector<std::vector<double>> &refits, const Matrix &xtx,
                    const ReleaseNoise &noise) {
  const auto p = static_cast<int64_t>(refits.size());
  if (xtx.rows() != p || xtx.cols() != p)
    fail(Status::Dimension, "the worlds' X'X must be ", p, " x ", p);
  const size_t worlds = p > 0 ? refits[0].size() : 0;
  for (const std::vector<double> &row : refits)
    if (row.size() != worlds || worlds < 2)
      fail(Status::Dimension, "the worlds' refits need equal lengths of at least 2");
  std::vector<double> mean(refits.size(), 0.0), scale(refits.size()), centre(refits.size());
  for (size_t j = 0; j < refits.size(); ++j) {
    std::vector<double> v = refits[j];
    scale[j] = std::sqrt(robust_variance(v));
    centre[j] = quantile(v, 0.5);
    for (double x : refits[j]) mean[j] += x;
    mean[j] /= static_cast<double>(worlds);
  }
  // V = S R S: R the refits' correlations, S their robust standard deviations.
  Matrix v(p, p);
  std::vector<double> sd(refits.size(), 0.0);
  for (size_t j = 0; j < refits.size(); ++j) {
    for (double x : refits[j]) sd[j] += (x - mean[j]) * (x - mean[j]);
    sd[j] = std::sqrt(sd[j]);
  }
  for (int64_t j = 0; j < p; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      const auto a = static_cast<size_t>(i), b = static_cast<size_t>(j);
      double r = 1.0;
      if (i != j) {
        double c = 0.0;
        for (size_t w = 0; w < worlds; ++w) c += (refits[a][w] - mean[a]) * (refits[b][w] - mean[b]);
        r = sd[a] > 0.0 && sd[b] > 0.0 ? c / (sd[a] * sd[b]) : 0.0;
      }
      v(i, j) = v(j, i) = scale[a] * r * scale[b];
    }
  const Matrix h = linalg::spd_inverse(xtx);
  const Matrix excess = linalg::multiply(h, linalg::multiply(noise_second_moment(noise, v), h));
  for (int64_t j = 0; j < p; ++j) {
    const auto a = static_cast<size_t>(j);
    if (!(v(j, j) > 0.0)) continue;
    const double s = std::sqrt(std::max(0.0, 1.0 - excess(j, j) / v(j, j)));
    for (double &x : refits[a]) x = centre[a] + s * (x - centre[a]);
  }
}

}  // namespace dpcov::estimators
