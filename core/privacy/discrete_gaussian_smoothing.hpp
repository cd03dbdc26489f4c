// Approximate-DP calibration of the multivariate discrete Gaussian by comparison with the
// continuous Gaussian (proofs/discrete_gaussian_smoothing.md): N_Z(0, s2)^m on an integer query
// of L2 sensitivity Delta is (eps, delta)-DP whenever the continuous Gaussian mechanism of variance
// s2 - 4 is (eps - m 2^-110, delta (1 - m 2^-111))-DP (Balle & Wang 2018, Thm 8). The discrete
// mechanism is, up to a pmf ratio of exp(+-m 2^-111), the continuous one followed by a discrete
// Gaussian rounding of variance 4 (Poisson summation; the convolution argument of Peikert 2010,
// Thm 3.1), so its privacy is that of the continuous Gaussian, not of a zCDP conversion (Canonne,
// Kamath, Steinke 2020, Cor. 13, 6-9% more noise: discrete_gaussian.hpp, kept as the published
// calibration).
#pragma once

#include <cstdint>

namespace dpcov::privacy {

// The variance of the continuous Gaussian that the discrete one is compared with is s2 minus this.
inline constexpr double kDiscreteGaussianSmoothingVariance = 4.0;

// sigma1, the continuous Gaussian's standard deviation per unit of sensitivity that the argument
// needs: analytic_gaussian_sigma(eps_c, delta_c, 1) (certified by MPFR) at eps_c = eps - m 2^-110
// and delta_c = delta (1 - m 2^-111), both rounded down, for m = `coordinates` >= 1 noisy
// integers. It does not depend on Delta, so a plan's grid search computes it once. Throws
// Status::InvalidArgument / Status::NonFinite unless epsilon is finite > 0 and delta in (0, 1),
// Status::Precondition where the shift leaves no budget (m 2^-110 >= eps).
double discrete_gaussian_unit_sigma(double epsilon, double delta, uint64_t coordinates);

// The smallest integer variance the argument certifies at sensitivity Delta, where `delta_squared`
// is Delta^2 exactly (an integer-valued double >= 1): s2 = ceil(sigma1^2 Delta^2 + 4), the products
// and the sum rounded up. 0 where s2 would be 2^62 or more (beyond the exact sampler).
uint64_t discrete_gaussian_variance_approx_dp(double delta_squared, double unit_sigma);

}  // namespace dpcov::privacy
