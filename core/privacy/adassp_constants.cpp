#include "adassp_constants.hpp"

#include <cmath>
#include <limits>
#include <numbers>

#include "../check.hpp"
#include "analytic_gaussian.hpp"
#include "certified_gaussian_delta.hpp"
#include "upward.hpp"
#include "zcdp.hpp"

namespace dpcov::privacy {

namespace {

void check_rho(double rho) {
  if (!(rho > 0.0 && rho < 1.0))
    fail(Status::InvalidArgument,
         "rho (the failure probability of the ridge) must be in (0, 1), got ", rho);
}

// The joint release has 3 statistics, or 4 with y'y; one fewer without the lambda_min step.
void check_statistics(int64_t statistics) {
  if (statistics < 2 || statistics > 4)
    fail(Status::InvalidArgument, "AdaSSP releases 2, 3 or 4 statistics, got ", statistics);
}

// eps / 3 rounded down, so that dividing by it rounds the noise up.
double third_down(double eps) { return upward::div_down(eps, 3.0); }

}  // namespace

double adassp_lambda_min_sensitivity(double bound_x) {
  check::positive_finite(bound_x, "bound_x");
  return upward::mul_up(bound_x, bound_x);
}

double adassp_gram_sensitivity(Neighbour neighbour, double bound_x) {
  const double b2 = adassp_lambda_min_sensitivity(bound_x);
  return neighbour == Neighbour::AddRemove ? b2 : upward::mul_up(upward::sqrt_up(2.0), b2);
}

double adassp_cross_sensitivity(Neighbour neighbour, double bound_x, double bound_y) {
  check::positive_finite(bound_x, "bound_x");
  check::positive_finite(bound_y, "bound_y");
  const double bb = upward::mul_up(bound_x, bound_y);
  return neighbour == Neighbour::AddRemove ? bb : 2.0 * bb;  // doubling is exact
}

double adassp_label_square_sensitivity(double bound_y) {
  check::positive_finite(bound_y, "bound_y");
  return upward::mul_up(bound_y, bound_y);
}

double adassp_joint_sigma(double eps, double delta, double sensitivity, int64_t statistics) {
  check::positive_finite(sensitivity, "sensitivity");
  check_statistics(statistics);
  const double share = upward::sqrt_up(static_cast<double>(statistics));
  const double sigma = analytic_gaussian_sigma(eps, delta, upward::mul_up(share, sensitivity));
  // The bisection evaluates delta(sigma) in double precision, which at small eps and delta puts
  // its end up to ~1e-14 (relative) below the exact smallest sigma (proofs/check/adassp.py found
  // 1.4e-14); a relative 1e-9 covers that with room to spare.
  return upward::mul_up(sigma, 1.0 + 1e-9);
}

double adassp_paper_sigma(double eps, double delta, double sensitivity) {
  check::epsilon(eps);
  check::delta(delta);
  check::positive_finite(sensitivity, "sensitivity");
  using namespace upward;
  const double root = sqrt_up(log_up(div_up(6.0, delta)));
  return div_up(mul_up(root, sensitivity), third_down(eps));
}

double adassp_joint_delta(double eps, const double *sensitivity, const double *sigma,
                          int64_t statistics) {
  check::epsilon(eps);
  check_statistics(statistics);
  double mu2 = 0.0;
  for (int64_t k = 0; k < statistics; ++k) {
    check::positive_finite(sensitivity[k], "sensitivity");
    check::positive_finite(sigma[k], "sigma");
    const double ratio = upward::div_up(sensitivity[k], sigma[k]);
    mu2 = upward::add_up(mu2, upward::mul_up(ratio, ratio));
  }
  // The Gaussian mechanism with noise 1 on a query of sensitivity mu.
  return gaussian_delta_upper(1.0, eps, upward::sqrt_up(mu2));
}

double adassp_zcdp_rho(const double *sensitivity, const double *sigma, int64_t statistics) {
  check_statistics(statistics);
  double rho = 0.0;
  for (int64_t k = 0; k < statistics; ++k)
    rho = upward::add_up(rho, zcdp_rho_gaussian(sensitivity[k], sigma[k]));
  return rho;
}

double adassp_lambda_min_shift(double sigma_lambda, double rho) {
  check::positive_finite(sigma_lambda, "sigma_lambda");
  check_rho(rho);
  // Smallest z with log Phi(-z) <= log(rho / 2): bracket [0, 1] doubled, then bisection, keeping
  // hi on the side that satisfies the condition. rho < 1 puts z > 0. log_normal_cdf and log are
  // each within a few ulps of (1 + |log(rho / 2)|), so without a margin the accepted z can sit a
  // fraction of an ulp below the exact quantile (at rho = 1.2783027033531129e-08, for one); the
  // target is lowered by 16 such ulps, which the exact tail at the accepted z then never exceeds.
  // log(rho) - ln 2 rather than log(rho / 2), which a subnormal rho would underflow to -inf.
  const double log_half_rho = std::log(rho) - std::numbers::ln2;
  constexpr double kUlp = std::numeric_limits<double>::epsilon();
  const double target = log_half_rho - 16.0 * kUlp * (1.0 + std::fabs(log_half_rho));
  double lo = 0.0;
  double hi = 1.0;
  while (log_normal_cdf(-hi) > target) {
    lo = hi;
    hi *= 2.0;
  }
  while (hi - lo > 1e-12 * hi) {
    const double mid = lo + 0.5 * (hi - lo);
    if (log_normal_cdf(-mid) <= target)
      hi = mid;
    else
      lo = mid;
  }
  return upward::mul_up(sigma_lambda, hi);
}

double adassp_paper_lambda_min_shift(double eps, double delta, double bound_x) {
  check::epsilon(eps);
  check::delta(delta);
  using namespace upward;
  return div_up(mul_up(log_up(div_up(6.0, delta)), adassp_lambda_min_sensitivity(bound_x)),
                third_down(eps));
}

double adassp_noise_norm_bound(double sigma_gram, int64_t d, double rho) {
  check::positive_finite(sigma_gram, "sigma_gram");
  if (d < 1) fail(Status::Dimension, "d must be >= 1, got ", d);
  check_rho(rho);
  using namespace upward;
  const double dd = static_cast<double>(d);
  const double log_term = log_up(div_up(2.0 * dd, rho));
  return mul_up(sigma_gram, sqrt_up(mul_up(dd + 1.0, log_term)));
}

double adassp_paper_noise_norm_bound(double eps, double delta, double bound_x, int64_t d,
                                     double rho) {
  check::epsilon(eps);
  check::delta(delta);
  if (d < 1) fail(Status::Dimension, "d must be >= 1, got ", d);
  check_rho(rho);
  using namespace upward;
  const double dd = static_cast<double>(d);
  const double product =
      mul_up(mul_up(dd, log_up(div_up(6.0, delta))), log_up(div_up(mul_up(2.0 * dd, dd), rho)));
  return div_up(mul_up(sqrt_up(product), adassp_lambda_min_sensitivity(bound_x)),
                third_down(eps));
}

double adassp_ridge(double noise_norm_bound, double released_lambda_min) {
  check::positive_finite(noise_norm_bound, "noise_norm_bound");
  check::finite(released_lambda_min, "released_lambda_min");
  return std::fmax(0.0, noise_norm_bound - released_lambda_min);
}

}  // namespace dpcov::privacy
