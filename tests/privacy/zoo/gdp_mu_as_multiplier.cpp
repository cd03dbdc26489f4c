#include "gdp_mu_as_multiplier.hpp"

#include <cmath>

#include "core/mechanisms/statistic.hpp"
#include "core/privacy/gram_sensitivity.hpp"
#include "core/random/symmetric_noise.hpp"

namespace dpcov::audit::zoo {

namespace {

constexpr int64_t kReleases = 10;
constexpr double kMu = 0.5, kDelta = 1e-6, kBound = 1.0;

// The mean of k releases G + N(0, sigma^2) on the upper triangle.
Output mean_of_releases(ConstMatrixView gram, double sigma, random::Rng &rng) {
  Matrix sum(gram.rows, gram.cols), noise(gram.rows, gram.cols);
  for (int64_t k = 0; k < kReleases; ++k) {
    random::symmetric_gaussian_noise(rng, sigma, noise);
    for (int64_t j = 0; j < sum.cols(); ++j)
      for (int64_t i = 0; i < sum.rows(); ++i) sum(i, j) += noise(i, j);
  }
  for (int64_t j = 0; j < sum.cols(); ++j)
    for (int64_t i = 0; i < sum.rows(); ++i) sum(i, j) /= static_cast<double>(kReleases);
  return Output{mechanisms::add_mirrored(gram, sum), 0.0, false};
}

}  // namespace

ZooCase gdp_mu_as_multiplier(Variant variant) {
  const double sensitivity = privacy::gram_l2_sensitivity(privacy::Neighbour::ReplaceOne, kBound);
  const double claimed_sigma = sensitivity / kMu;
  const double used_sigma = variant == Variant::Broken ? kMu * sensitivity : claimed_sigma;
  const double root_k = std::sqrt(static_cast<double>(kReleases));
  const double mean_sigma = claimed_sigma / root_k;  // the claimed law of the mean
  ZooCase c;
  c.name = variant == Variant::Broken ? "gdp_mu_as_noise_multiplier" : "gdp_mu_as_inverse_multiplier";
  Target &t = c.target;
  t.name = c.name;
  t.delta = kDelta;
  t.epsilon = gaussian_epsilon_at(1.0 / (root_k * kMu), kDelta);
  t.noise = {NoiseFamily::Gaussian, NoiseBase::Gram, mean_sigma, 0.0};
  t.release = [used_sigma](ConstMatrixView gram, int64_t, random::Rng &rng) {
    return mean_of_releases(gram, used_sigma, rng);
  };
  t.log_density = [mean_sigma](const Output &out, ConstMatrixView gram, int64_t) {
    return random::symmetric_gaussian_log_density(
        mechanisms::subtract_mirrored(out.matrix.view(), gram), mean_sigma);
  };
  c.pair = axis_pair(10, 2, kBound);
  return c;
}

}  // namespace dpcov::audit::zoo
