#include "iev_budget.hpp"

#include <cmath>

#include "../check.hpp"
#include "../error.hpp"
#include "upward.hpp"

namespace dpcov::privacy {

namespace {

// B^2 rounded up, checked.
double bound_squared_up(double bound) {
  check::positive_finite(bound, "bound B");
  return upward::mul_up(bound, bound);
}

void check_eps(double eps, const char *name) { check::positive_finite(eps, name); }

}  // namespace

double gram_eigenvalue_l1_sensitivity(Neighbour neighbour, double bound) {
  const double b2 = bound_squared_up(bound);
  return neighbour == Neighbour::ReplaceOne ? 2.0 * b2 : b2;
}

double iev_eigenvalue_epsilon(double eps) {
  check::epsilon(eps);
  return upward::div_down(eps, 2.0);
}

double iev_eigenvector_epsilon(double eps) {
  check::epsilon(eps);
  return upward::div_down(eps, 2.0);
}

double iev_uniform_step_epsilon(double eps, int64_t steps) {
  check::epsilon(eps);
  if (steps < 1)
    fail(Status::InvalidArgument, "number of eigenvector steps must be >= 1, got ", steps);
  return upward::div_down(eps, 2.0 * static_cast<double>(steps));
}

double iev_adaptive_tau(double laplace_scale, int64_t steps, double beta) {
  check::positive_finite(laplace_scale, "Laplace scale");
  if (steps < 1)
    fail(Status::InvalidArgument, "number of eigenvector steps must be >= 1, got ", steps);
  if (!(beta > 0.0 && beta < 1.0))
    fail(Status::InvalidArgument, "beta must be in (0, 1), got ", beta);
  // ln(2 steps) - ln(beta), not ln(2 steps / beta): the quotient overflows at a subnormal beta.
  return laplace_scale * (std::log(2.0 * static_cast<double>(steps)) - std::log(beta));
}

std::vector<double> iev_adaptive_step_epsilons(std::span<const double> lambda_hat, double tau,
                                               double eps_vectors) {
  if (lambda_hat.empty()) fail(Status::InvalidArgument, "adaptive split of no eigenvalues");
  check_eps(eps_vectors, "eigenvector budget");
  if (!std::isfinite(tau) || tau < 0.0)
    fail(Status::InvalidArgument, "tau must be finite and >= 0, got ", tau);
  std::vector<double> weights(lambda_hat.size());
  double total = 0.0;
  for (size_t i = 0; i < lambda_hat.size(); ++i) {
    if (!std::isfinite(lambda_hat[i]))
      fail(Status::NonFinite, "released eigenvalue ", i, " is not finite");
    weights[i] = std::sqrt(std::max(0.0, lambda_hat[i] + tau));
    total = upward::add_up(total, weights[i]);
  }
  std::vector<double> shares(lambda_hat.size());
  const double count = static_cast<double>(lambda_hat.size());
  for (size_t i = 0; i < shares.size(); ++i)
    shares[i] = total > 0.0 ? upward::mul_down(eps_vectors, upward::div_down(weights[i], total))
                            : upward::div_down(eps_vectors, count);
  return shares;
}

double bingham_score_sensitivity(double bound) { return bound_squared_up(bound); }

double bingham_exponent_factor(BinghamExponent exponent, Neighbour neighbour) {
  if (exponent == BinghamExponent::Published) return 0.25;
  return neighbour == Neighbour::ReplaceOne ? 0.5 : 1.0;
}

double bingham_exponent(BinghamExponent exponent, Neighbour neighbour, double eps_i, double bound) {
  // A zero share (the adaptive split gives one to a negative lambda_hat + tau) is a uniform draw,
  // which spends nothing.
  if (!(std::isfinite(eps_i) && eps_i >= 0.0))
    fail(Status::InvalidArgument, "step epsilon must be finite and >= 0, got ", eps_i);
  // Dividing by the factor (a power of two) is exact, so only B^2 and the quotient round.
  return upward::div_down(eps_i,
                          bound_squared_up(bound) / bingham_exponent_factor(exponent, neighbour));
}

double bingham_step_epsilon(Neighbour neighbour, double kappa, double bound) {
  check::positive_finite(kappa, "Bingham exponent");
  const double spent = upward::mul_up(kappa, bingham_score_sensitivity(bound));
  return neighbour == Neighbour::ReplaceOne ? 2.0 * spent : spent;
}

}  // namespace dpcov::privacy
