// Student's t distribution: the reference distribution of regression t-values and the source of
// confidence-interval multipliers. Everything reduces to the regularized incomplete beta function
// I_x(a, b), evaluated by its continued fraction, with a log-beta that keeps full relative accuracy
// for the large degrees of freedom (n - p) that regressions on many rows produce.
#pragma once

namespace dpcov::math {

// log B(a, b) for a, b > 0. For arguments >= 10 it uses Stirling's series for the correction
// terms, so that the large, nearly cancelling log-gamma values never appear (the same scheme as
// TOMS 708 and R's lbeta).
double log_beta(double a, double b);

// I_x(a, b), its complement 1 - I_x(a, b) and log I_x(a, b). Whichever of value and complement is
// the smaller is accurate to a few units in the last place relative to itself, and log_value stays
// accurate where I_x underflows.
struct IncompleteBeta {
  double value;
  double complement;
  double log_value;
};
// x and y = 1 - x are passed separately, with their logarithms, so that callers can form all four
// without cancellation. Requires a, b > 0 and 0 <= x, y <= 1.
IncompleteBeta incomplete_beta(double a, double b, double x, double y, double log_x, double log_y);
// Convenience form for 0 <= x <= 1.
IncompleteBeta incomplete_beta(double a, double b, double x);

// P(T <= t) for T ~ t(dof), dof > 0 and finite (not necessarily an integer); t may be infinite.
double student_t_cdf(double t, double dof);
// P(T > t).
double student_t_sf(double t, double dof);
// P(|T| >= |t|), the two-sided p-value of a t statistic. Computed from the tail directly, so that
// p-values far below machine epsilon keep their relative accuracy.
double student_t_two_sided_p(double t, double dof);
// Density of t(dof) at t.
double student_t_pdf(double t, double dof);
// The t >= 0 with P(T > t) = q, for 0 < q <= 1/2 (q = 1/2 gives 0).
double student_t_upper_quantile(double q, double dof);

}  // namespace dpcov::math
