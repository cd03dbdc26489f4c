#include "jl_threshold.hpp"

#include "../check.hpp"
#include "upward.hpp"

namespace dpcov::privacy {

namespace {

// The double nearest to 1/e lies above it by 1.2e-17, so the strict comparison never admits a
// delta >= 1/e.
constexpr double kInvE = 0.36787944117144233;

}  // namespace

void check_jl_preconditions(double eps, double delta) {
  check::epsilon(eps);
  check::delta(delta);
  if (!(eps <= 1.0))
    fail(Status::Precondition,
         "precondition eps <= 1 of the Johnson-Lindenstrauss threshold (Sheffet Thm 3.1 / B.1, "
         "Thm 5.1 / B.4) fails: epsilon = ", eps);
  if (!(delta < kInvE))
    fail(Status::Precondition,
         "precondition delta < 1/e of the Johnson-Lindenstrauss threshold (Sheffet Thm 3.1 / "
         "B.1, Thm 5.1 / B.4) fails: delta = ", delta);
}

void check_jl_step_preconditions(double eps_total, double delta_total, double eps_step,
                                 double delta_step) {
  check::epsilon(eps_total);
  check::delta(delta_total);
  check::epsilon(eps_step);
  check::delta(delta_step);
  if (!(eps_step <= 1.0))
    fail(Status::Precondition,
         "precondition eps <= 1 of the Johnson-Lindenstrauss threshold (Sheffet Thm 3.1 / B.1, "
         "Thm 5.1 / B.4) fails for the release step: it gets epsilon = ", eps_step, " of the "
         "requested epsilon = ", eps_total, " (the private sigma_min test spends the rest), so the "
         "requested epsilon must be <= ", eps_total / eps_step);
  if (!(delta_step < kInvE))
    fail(Status::Precondition,
         "precondition delta < 1/e of the Johnson-Lindenstrauss threshold (Sheffet Thm 3.1 / "
         "B.1, Thm 5.1 / B.4) fails for the release step: it gets delta = ", delta_step, " of the "
         "requested delta = ", delta_total, " (the private sigma_min test spends the rest)");
}

double jl_threshold_squared(double bound, double eps, double delta, int64_t r) {
  check::positive_finite(bound, "bound B");
  check_jl_preconditions(eps, delta);
  if (r < 1) fail(Status::Dimension, "the number of projection rows r must be >= 1, got ", r);
  using namespace upward;
  const double log_term = log_up(div_up(4.0, delta));
  const double root = sqrt_up(mul_up(mul_up(2.0, static_cast<double>(r)), log_term));
  const double factor = div_up(mul_up(2.0, mul_up(bound, bound)), eps);
  return mul_up(factor, add_up(root, mul_up(2.0, log_term)));
}

double inverse_wishart_prior_squared(double bound, double eps, double delta, int64_t m) {
  if (m < 1) fail(Status::Dimension, "the degrees of freedom m must be >= 1, got ", m);
  return jl_threshold_squared(bound, eps, delta, m);
}

}  // namespace dpcov::privacy
