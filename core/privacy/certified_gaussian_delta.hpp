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

}  // namespace dpcov::privacy
