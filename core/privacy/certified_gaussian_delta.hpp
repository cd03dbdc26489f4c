// A certified upper bound on the exact delta of the Gaussian mechanism (Balle & Wang 2018, Thm 8),
// computed with MPFR's correctly rounded operations, each rounded in the direction that can only
// make the bound larger (proofs/analyze_gauss.md, "Certification").
#pragma once

namespace dpcov::privacy {

// True only if the exact delta(sigma) = Phi(D/(2 sigma) - eps sigma/D)
// - e^eps Phi(-D/(2 sigma) - eps sigma/D) is <= delta, proved by evaluating an upper bound of
// delta(sigma) with directed rounding (no floating-point error can make it false where it is
// claimed true). May return false where delta(sigma) <= delta holds but the bound is not tight
// enough (only within a relative ~2^-100 of the boundary). Arguments must be finite and > 0.
bool gaussian_delta_certified_at_most(double sigma, double eps, double sensitivity, double delta);

// That upper bound of delta(sigma) itself, rounded up to a double: within a relative ~2^-100 of
// the exact delta, so accurate where the double-precision evaluation (analytic_gaussian_delta)
// loses its terms' difference to cancellation (small eps: relative gap eps / (2 b^2)); at least
// the smallest positive double (a Gaussian mechanism is never (eps, 0)-DP) and at most 1.
// Arguments must be finite and > 0.
double gaussian_delta_upper(double sigma, double eps, double sensitivity);

}  // namespace dpcov::privacy
