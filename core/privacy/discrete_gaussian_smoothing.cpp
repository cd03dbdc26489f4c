#include "discrete_gaussian_smoothing.hpp"

#include <cmath>

#include "../check.hpp"
#include "../error.hpp"
#include "analytic_gaussian.hpp"
#include "upward.hpp"

namespace dpcov::privacy {

double discrete_gaussian_unit_sigma(double epsilon, double delta, uint64_t coordinates) {
  check::positive_finite(epsilon, "epsilon");
  check::finite(delta, "delta");
  if (!(delta > 0.0 && delta < 1.0))
    fail(Status::InvalidArgument, "delta must be in (0, 1), got ", delta);
  if (coordinates == 0) fail(Status::Internal, "discrete Gaussian: no coordinates");
  // The two mechanisms' pmfs are within a factor kappa^+-m of each other, ln kappa < 2^-111
  // (proofs/discrete_gaussian_smoothing.md, step 2): epsilon pays 2 m ln kappa <= m 2^-110 and
  // delta the factor kappa^m, i.e. delta_c = delta exp(-m 2^-111) >= delta (1 - m 2^-111).
  const double m = upward::bump_up(static_cast<double>(coordinates));  // >= m however it rounded
  const double eps_c = upward::sub_down(epsilon, std::ldexp(m, -110));
  const double delta_c = upward::mul_down(delta, upward::sub_down(1.0, std::ldexp(m, -111)));
  if (!(eps_c > 0.0 && delta_c > 0.0))
    fail(Status::Precondition, "discrete Gaussian: ", coordinates,
         " coordinates leave no budget after the smoothing shift");
  // The analytic Gaussian's delta depends on sigma / Delta only: sigma1 Delta meets (eps_c,
  // delta_c) at sensitivity Delta.
  return analytic_gaussian_sigma(eps_c, delta_c, 1.0);
}

uint64_t discrete_gaussian_variance_approx_dp(double delta_squared, double unit_sigma) {
  if (!(delta_squared >= 1.0 && std::floor(delta_squared) == delta_squared &&
        unit_sigma > 0.0 && std::isfinite(unit_sigma)))
    fail(Status::Internal, "discrete Gaussian: Delta^2 = ", delta_squared, ", sigma1 = ", unit_sigma);
  // A larger variance only lowers the continuous mechanism's delta, so rounding up is safe.
  const double continuous = upward::mul_up(upward::mul_up(unit_sigma, unit_sigma), delta_squared);
  const double s2 = std::ceil(upward::add_up(continuous, kDiscreteGaussianSmoothingVariance));
  return s2 < 0x1.0p62 ? static_cast<uint64_t>(s2) : 0;
}

}  // namespace dpcov::privacy
