#include "exponential.hpp"

#include <cmath>

#include "../check.hpp"
#include "uniform.hpp"

namespace dpcov::random {

double exponential(Rng &rng) { return -std::log(uniform01(rng)); }

double laplace(Rng &rng, double scale) {
  check::positive_finite(scale, "Laplace scale");
  // uniform01 is (k + 1/2) 2^-53, so u is never 0 and |u| < 1/2: the logarithm is finite.
  const double u = uniform01(rng) - 0.5;
  const double magnitude = -scale * std::log1p(-2.0 * std::fabs(u));
  return u < 0.0 ? -magnitude : magnitude;
}

}  // namespace dpcov::random
