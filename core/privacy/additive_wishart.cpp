#include "additive_wishart.hpp"

#include <cmath>

#include "../check.hpp"
#include "upward.hpp"

namespace dpcov::privacy {

namespace {

// The constant 14 of Sheffet's Thm 4.1 / B.3 (also Wang et al.'s Alg. 2, VERBATIM in seed 001).
constexpr double kSheffetConstant = 14.0;

}  // namespace

void check_additive_wishart_preconditions(double eps, double delta) {
  check::epsilon(eps);
  check::delta(delta);
  if (!(eps < 1.0))
    fail(Status::Precondition,
         "precondition eps < 1 of the additive Wishart mechanism (Sheffet Thm 4.1 / B.3) fails: "
         "epsilon = ", eps);
  // kInvE is the double nearest to 1/e (above it by 1.2e-17), so every double strictly below it
  // is below 1/e itself: the strict comparison never admits a delta >= 1/e.
  constexpr double kInvE = 0.36787944117144233;
  if (!(delta < kInvE))
    fail(Status::Precondition,
         "precondition delta < 1/e of the additive Wishart mechanism (Sheffet Thm 4.1 / B.3) "
         "fails: delta = ", delta);
}

double additive_wishart_dof(int64_t dim, double eps, double delta) {
  check::dimension(dim, "dimension d");
  check_additive_wishart_preconditions(eps, delta);
  using namespace upward;
  const double log_term = log_up(div_up(4.0, delta));
  const double x = add_up(static_cast<double>(dim),
                          div_up(mul_up(kSheffetConstant, log_term), mul_down(eps, eps)));
  return std::ceil(x);
}

double additive_wishart_scale(double bound) {
  check::positive_finite(bound, "bound B");
  return upward::mul_up(bound, bound);
}

}  // namespace dpcov::privacy
