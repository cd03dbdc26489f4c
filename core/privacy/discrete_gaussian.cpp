#include "discrete_gaussian.hpp"

#include "../error.hpp"
#include "upward.hpp"

namespace dpcov::privacy {

uint64_t discrete_gaussian_variance(double delta_squared, double rho) {
  // The smallest integer s2 with 2 rho s2 >= Delta^2 (from 2^53 on, the smallest double one).
  const double sigma2 = upward::ceil_quotient_up(delta_squared, 2.0 * rho);
  if (!(sigma2 < 0x1.0p62))
    fail(Status::Precondition, "the discrete Gaussian variance ", sigma2,
         " in grid units is 2^62 or more: epsilon or delta too small for the exact sampler");
  return static_cast<uint64_t>(sigma2);
}

}  // namespace dpcov::privacy
