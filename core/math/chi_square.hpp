// The chi-square law and the incomplete gamma function behind it: the auditor's tests and the
// OLS mechanism's noise bound both read its quantiles. Self-contained (no Boost in the kernel);
// the tests pin each one against Boost.Math.
#pragma once

namespace dpcov::math {

// Regularised lower incomplete gamma function P(a, x) for a > 0, x >= 0: the series for x < a + 1,
// the continued fraction (modified Lentz) for Q = 1 - P otherwise (Numerical Recipes section 6.2).
// Relative accuracy about 1e-12. Throws Status::InvalidArgument outside the domain and
// Status::Numerical if the iteration does not converge.
double incomplete_gamma_lower(double a, double x);

// P(dof / 2, x / 2); 0 for x <= 0.
double chi_square_cdf(double x, double dof);

// The p-quantile of chi2(dof), p in (0, 1), by bisection on chi_square_cdf to a relative 1e-14.
double chi_square_quantile(double p, double dof);

}  // namespace dpcov::math
