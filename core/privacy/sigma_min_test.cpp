#include "sigma_min_test.hpp"

#include "../check.hpp"
#include "upward.hpp"

namespace dpcov::privacy {

namespace {

// Sheffet's constant: b = 4 B^2 / eps, although the sensitivity of sigma_min^2 is B^2 (the
// paper's constant is kept: the test then spends eps/4, inside its eps/2 share).
constexpr double kTestScaleFactor = 4.0;

}  // namespace

BudgetSplit split_budget_in_halves(double eps, double delta) {
  check::epsilon(eps);
  check::delta(delta);
  return {eps / 2.0, delta / 2.0, eps / 2.0, delta / 2.0};
}

double sigma_min_test_scale(double bound, double eps) {
  check::positive_finite(bound, "bound B");
  check::epsilon(eps);
  using namespace upward;
  return div_up(mul_up(kTestScaleFactor, mul_up(bound, bound)), eps);
}

double sigma_min_test_shift(double bound, double eps, double delta) {
  check::delta(delta);
  using namespace upward;
  return mul_up(sigma_min_test_scale(bound, eps), log_inverse_up(delta));
}

}  // namespace dpcov::privacy
