#include "inverse_gram_sensitivity.hpp"

#include "../check.hpp"
#include "gram_sensitivity.hpp"
#include "upward.hpp"

namespace dpcov::privacy {

double inverse_gram_l2_sensitivity(Neighbour neighbour, double bound, double lambda_min_bound,
                                   LambdaMinScope scope) {
  check::positive_finite(bound, "bound B");
  check::positive_finite(lambda_min_bound, "lambda_min_bound (theta^2)");
  using namespace upward;
  // The numerator is the Frobenius sensitivity of G itself (B^2 or sqrt(2) B^2).
  const double numerator = gram_l2_sensitivity(neighbour, bound);
  // Two divisions rather than one by a product: theta^4 or theta^2 (theta^2 - B^2) can underflow
  // where each factor and the quotient are normal.
  if (scope == LambdaMinScope::Domain)
    return div_up(div_up(numerator, lambda_min_bound), lambda_min_bound);
  const double b2 = mul_up(bound, bound);
  if (!(lambda_min_bound > b2))
    fail(Status::Precondition,
         "precondition theta^2 > B^2 of the input-scoped inverse Gaussian mechanism (Sheffet Thm "
         "B.5) fails: theta^2 = ", lambda_min_bound, ", B^2 = ", b2);
  return div_up(div_up(numerator, lambda_min_bound), sub_down(lambda_min_bound, b2));
}

double inverse_gram_release_floor(double bound, double lambda_min_bound, LambdaMinScope scope) {
  if (scope == LambdaMinScope::Domain) return lambda_min_bound;
  using namespace upward;
  return sub_down(lambda_min_bound, mul_up(bound, bound));
}

}  // namespace dpcov::privacy
