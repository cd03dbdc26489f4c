// Distribution functions the auditor compares its draws against and builds its confidence bounds
// from. Self-contained (no Boost in the kernel); the tests pin each one against Boost.Math.
#pragma once

#include <cstdint>

namespace dpcov::audit {

// Regularised incomplete beta function I_x(a, b) for a, b > 0 and x in [0, 1], by the continued
// fraction of Numerical Recipes (3rd ed., section 6.4) evaluated with the modified Lentz method,
// using the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) where the fraction converges faster. Relative
// accuracy about 1e-12 + 2e-15 lgamma(a + b): the lgamma differences of the prefactor cancel,
// leaving about 3e-8 at a + b = 1e7. Throws DPCOV_E_INVALID_ARGUMENT outside the domain and
// DPCOV_E_NUMERICAL if the fraction does not converge.
double incomplete_beta(double a, double b, double x);

// Regularised lower incomplete gamma function P(a, x) for a > 0, x >= 0: the series for x < a + 1,
// the continued fraction (modified Lentz) for Q = 1 - P otherwise (Numerical Recipes section 6.2).
// Same accuracy and errors as incomplete_beta().
double incomplete_gamma_lower(double a, double x);

// Distribution functions.
double normal_cdf(double x);                       // Phi(x), via erfc (accurate in both tails)
double laplace_cdf(double x);                      // Laplace(0, 1): 1/2 + sgn(x) (1 - e^{-|x|}) / 2
double chi_square_cdf(double x, double dof);       // P(dof / 2, x / 2); 0 for x <= 0

// The p-quantile of chi2(dof), p in (0, 1), by bisection on chi_square_cdf to a relative 1e-14.
double chi_square_quantile(double p, double dof);

}  // namespace dpcov::audit
