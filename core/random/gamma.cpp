#include "gamma.hpp"

#include <cmath>

#include "../check.hpp"
#include "normal.hpp"
#include "uniform.hpp"

namespace dpcov::random {

namespace {

// Marsaglia-Tsang for a >= 1: with d = a - 1/3 and c = 1/sqrt(9d), d (1 + c x)^3 for x ~ N(0,1)
// is accepted when ln U < x^2/2 + d - d v + d ln v (v = (1 + c x)^3); the accepted values are
// exactly Gamma(a). The squeeze U < 1 - 0.0331 x^4 avoids the logarithms most of the time and
// implies the full test.
double gamma_at_least_one(Rng &rng, double shape) {
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    const double x = standard_normal(rng);
    double v = 1.0 + c * x;
    if (v <= 0.0) continue;
    v = v * v * v;
    const double u = uniform01(rng);
    const double x2 = x * x;
    if (u < 1.0 - 0.0331 * x2 * x2) return d * v;
    if (std::log(u) < 0.5 * x2 + d * (1.0 - v + std::log(v))) return d * v;
  }
}

}  // namespace

double gamma(Rng &rng, double shape) {
  check::positive_finite(shape, "gamma shape");
  if (shape >= 1.0) return gamma_at_least_one(rng, shape);
  // If G ~ Gamma(a + 1) and U ~ U(0, 1) are independent, G U^{1/a} ~ Gamma(a).
  const double g = gamma_at_least_one(rng, shape + 1.0);
  return std::exp(std::log(g) + std::log(uniform01(rng)) / shape);
}

double chi_square(Rng &rng, double dof) {
  check::positive_finite(dof, "chi-square degrees of freedom");
  return 2.0 * gamma(rng, 0.5 * dof);
}

}  // namespace dpcov::random
