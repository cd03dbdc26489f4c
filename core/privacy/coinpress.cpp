#include "coinpress.hpp"

#include <cmath>

#include "../check.hpp"
#include "upward.hpp"
#include "zcdp.hpp"

namespace dpcov::privacy {

double coinpress_clip_radius(int64_t dim, double beta) {
  check::dimension(dim, "d");
  check::finite(beta, "beta");
  if (!(beta > 0.0 && beta < 1.0))
    fail(Status::InvalidArgument, "beta must be in (0, 1), got ", beta);
  const double d = static_cast<double>(dim);
  const double log_inv_beta = std::log(1.0 / beta);
  return std::sqrt(d + 2.0 * std::sqrt(d * log_inv_beta) + 2.0 * log_inv_beta);
}

double coinpress_step_sigma(double gamma, int64_t n, double rho_step) {
  check::positive_finite(gamma, "gamma");
  check::positive_finite(rho_step, "rho");
  if (n < 1) fail(Status::InvalidArgument, "n must be >= 1, got ", n);
  using namespace upward;
  // sqrt(2) gamma^2 / n is the sensitivity; sigma = sensitivity / sqrt(2 rho) (zcdp.hpp).
  const double sensitivity =
      div_up(mul_up(sqrt_up(2.0), mul_up(gamma, gamma)), static_cast<double>(n));
  return zcdp_gaussian_sigma(rho_step, sensitivity);
}

double coinpress_eta(int64_t dim, int64_t n) {
  check::dimension(dim, "d");
  if (n < 1) fail(Status::InvalidArgument, "n must be >= 1, got ", n);
  const double ratio = static_cast<double>(dim) / static_cast<double>(n);
  return 0.5 * (2.0 * std::sqrt(ratio) + ratio);
}

std::vector<double> coinpress_budget_split(double rho, int64_t steps) {
  check::positive_finite(rho, "rho");
  if (steps < 1 || steps > kCoinpressMaxSteps)
    fail(Status::InvalidArgument, "the number of steps t must be in [1, ", kCoinpressMaxSteps,
         "], got ", steps);
  if (steps == 1) return {rho};
  using namespace upward;
  std::vector<double> shares(static_cast<size_t>(steps),
                             div_down(rho, 4.0 * static_cast<double>(steps - 1)));
  shares.back() = mul_down(0.75, rho);
  // A subnormal rho rounds a share down to 0, which the steps' noise scales then refused as
  // "rho must be > 0, got 0", a value the caller never gave.
  if (!(shares.front() > 0.0))
    fail(Status::Numerical, "rho = ", rho, " is too small to split over ", steps,
         " steps: a share rounds down to 0");
  return shares;
}

}  // namespace dpcov::privacy
