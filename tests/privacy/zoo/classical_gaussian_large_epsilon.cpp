#include "classical_gaussian_large_epsilon.hpp"

#include <cmath>

#include "core/privacy/analytic_gaussian.hpp"
#include "core/privacy/gram_sensitivity.hpp"

namespace dpcov::audit::zoo {

ZooCase classical_gaussian_large_epsilon(Variant variant, double epsilon) {
  constexpr double kDelta = 1e-6, kBound = 1.0;
  const double sensitivity = privacy::gram_l2_sensitivity(privacy::Neighbour::ReplaceOne, kBound);
  const double sigma =
      variant == Variant::Broken
          ? std::sqrt(2.0 * std::log(1.25 / kDelta)) * sensitivity / epsilon
          : privacy::analytic_gaussian_sigma(epsilon, kDelta, sensitivity);
  ZooCase c;
  c.name = variant == Variant::Broken ? "classical_gaussian_above_epsilon_1" : "analytic_gaussian";
  c.target = gaussian_statistic_target(c.name, epsilon, kDelta, sigma, sigma);
  c.pair = axis_pair(10, 2, kBound);
  return c;
}

}  // namespace dpcov::audit::zoo
