#include "uncentred_sscp.hpp"

#include <cmath>

#include "core/privacy/analytic_gaussian.hpp"
#include "core/privacy/gram_sensitivity.hpp"

namespace dpcov::audit::zoo {

ZooCase uncentred_sscp(Variant variant, double epsilon, double delta) {
  constexpr int64_t kDim = 2, kRows = 10;
  constexpr double kLow = 9.0, kHigh = 11.0;
  const double root_d = std::sqrt(static_cast<double>(kDim));
  const double bound =
      variant == Variant::Broken ? (kHigh - kLow) / 2.0 * root_d : kHigh * root_d;
  const double sigma = privacy::analytic_gaussian_sigma(
      epsilon, delta, privacy::gram_l2_sensitivity(privacy::Neighbour::ReplaceOne, bound));
  Matrix rows(kRows, kDim, kLow);
  Matrix rows_prime = rows;
  for (int64_t j = 0; j < kDim; ++j) rows_prime(0, j) = kHigh;
  ZooCase c;
  c.name = variant == Variant::Broken ? "sscp_centred_box_sensitivity" : "sscp_box_sensitivity";
  c.target = gaussian_statistic_target(c.name, epsilon, delta, sigma, sigma);
  c.pair = {raw_gram(rows), raw_gram(rows_prime), kRows, kRows};
  return c;
}

}  // namespace dpcov::audit::zoo
