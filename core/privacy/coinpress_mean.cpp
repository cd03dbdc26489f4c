#include "coinpress_mean.hpp"

#include <algorithm>
#include <cmath>

#include "../check.hpp"
#include "upward.hpp"
#include "zcdp.hpp"

namespace dpcov::privacy {

double coinpress_mean_clip_radius(double radius, double scale, double gamma) {
  check::finite(radius, "r");
  if (!(radius >= 0.0))
    fail(Status::InvalidArgument, "the prior radius r must be >= 0, got ", radius);
  check::positive_finite(scale, "scale");
  check::positive_finite(gamma, "gamma");
  // Computed on r and s scaled by 2^-k, k the exponent of the larger, and scaled back: the squares
  // of r and s gamma underflowed for s gamma below about 1e-154 (R was 0 at r = 0, s = 1e-160),
  // and r^2 overflowed above about 1e154. Scaling by a power of two commutes with rounding, so
  // wherever the unscaled form neither under- nor overflowed the result is the same double.
  const int k = std::ilogb(std::max(radius, scale));
  const double r = std::scalbn(radius, -k), s = std::scalbn(scale, -k);
  const double tail = s * gamma;
  const double clip =
      std::scalbn(std::min(std::sqrt(r * r + 6.0 * r * s + tail * tail), r + tail), k);
  if (!std::isfinite(clip))
    fail(Status::Numerical, "the clipping radius overflows (r = ", radius, ", scale = ", scale,
         ")");
  return clip;
}

double coinpress_mean_step_sigma(double clip_radius, int64_t n, double rho_step) {
  check::positive_finite(clip_radius, "R");
  check::positive_finite(rho_step, "rho");
  if (n < 1) fail(Status::InvalidArgument, "n must be >= 1, got ", n);
  using namespace upward;
  // 2 R / n is the sensitivity, R / n rounded up and then doubled (exact): doubling R first
  // overflowed for R above DBL_MAX / 2, where 2 R / n is finite for n >= 2, and the plan refused
  // with "sensitivity must be finite". sigma = sensitivity / sqrt(2 rho) (zcdp.hpp).
  const double sensitivity = 2.0 * div_up(clip_radius, static_cast<double>(n));
  if (!std::isfinite(sensitivity))
    fail(Status::Numerical, "the sensitivity 2 R / n overflows (R = ", clip_radius, ", n = ", n,
         ")");
  return zcdp_gaussian_sigma(rho_step, sensitivity);
}

double coinpress_mean_next_radius(double scale, double gamma, int64_t n, double sigma) {
  check::positive_finite(scale, "scale");
  check::positive_finite(gamma, "gamma");
  check::positive_finite(sigma, "sigma");
  if (n < 1) fail(Status::InvalidArgument, "n must be >= 1, got ", n);
  // Scaled by a power of two as in coinpress_mean_clip_radius(): s^2 and sigma^2 underflowed
  // for a tiny scale, and the next prior radius came out 0.
  const int k = std::ilogb(std::max(scale, sigma));
  const double s = std::scalbn(scale, -k), g = std::scalbn(sigma, -k);
  const double r = std::scalbn(gamma * std::sqrt(s * s / static_cast<double>(n) + g * g), k);
  if (!std::isfinite(r)) fail(Status::Numerical, "the next prior radius overflows");
  return r;
}

std::pair<double, double> coinpress_centring_split(double rho) {
  check::positive_finite(rho, "rho");
  using namespace upward;
  const double mean_share = div_down(rho, 8.0), covariance_share = mul_down(0.875, rho);
  // A subnormal rho rounds a share down to 0, a budget no release accepts.
  if (!(mean_share > 0.0 && covariance_share > 0.0))
    fail(Status::Numerical, "rho = ", rho, " is too small to split: a share rounds down to 0");
  return {mean_share, covariance_share};
}

}  // namespace dpcov::privacy
