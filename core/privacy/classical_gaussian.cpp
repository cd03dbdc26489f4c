#include "classical_gaussian.hpp"

#include "../check.hpp"
#include "upward.hpp"

namespace dpcov::privacy {

double classical_gaussian_sigma(double eps, double delta, double sensitivity) {
  check::epsilon(eps);
  check::delta(delta);
  check::positive_finite(sensitivity, "sensitivity");
  if (!(eps < 1.0))
    fail(Status::Precondition,
         "precondition eps < 1 of the classical Gaussian mechanism (Dwork & Roth Thm A.1) fails: "
         "epsilon = ", eps, "; use the analytic calibration, valid for every epsilon > 0");
  using namespace upward;
  // Every step is monotone increasing in its rounded-up inputs, and eps is exact.
  const double log_term = log_up(div_up(1.25, delta));
  return div_up(mul_up(sensitivity, sqrt_up(mul_up(2.0, log_term))), eps);
}

}  // namespace dpcov::privacy
