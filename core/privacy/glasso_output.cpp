#include "glasso_output.hpp"

#include "../check.hpp"
#include "../error.hpp"
#include "upward.hpp"

namespace dpcov::privacy {

double glasso_precision_norm_bound(int64_t dim, double rho) {
  check::dimension(dim, "dimension d");
  check::positive_finite(rho, "glasso penalty rho");
  return upward::div_up(static_cast<double>(dim), rho);
}

double glasso_output_wishart_scale_not_dp(int64_t dim, int64_t n, double bound, double eps,
                                          double rho) {
  check::dimension(dim, "dimension d");
  if (n < 1) fail(Status::Dimension, "n must be >= 1 (the mechanism solves on G / n), got ", n);
  check::positive_finite(bound, "bound B");
  check::epsilon(eps);
  check::positive_finite(rho, "glasso penalty rho");
  using namespace upward;
  // d^{5/2} = d^2 sqrt(d): d^2 is exact for every admissible d (d <= 46340, so d^2 < 2^31).
  const double d = static_cast<double>(dim);
  const double numerator = mul_up(mul_up(d * d, sqrt_up(d)), mul_up(bound, bound));
  const double denominator = mul_down(mul_down(static_cast<double>(n), eps), mul_down(rho, rho));
  return div_up(numerator, denominator);
}

double glasso_output_wishart_dof_not_dp(int64_t dim) {
  check::dimension(dim, "dimension d");
  return static_cast<double>(dim + 1);
}

}  // namespace dpcov::privacy
