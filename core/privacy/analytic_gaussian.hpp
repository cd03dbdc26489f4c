// The analytic Gaussian mechanism: Balle & Wang, "Improving the Gaussian Mechanism for
// Differential Privacy: Analytical Calibration and Optimal Denoising", ICML 2018, Thm 8 and Alg. 1
// (constants.md section 2; proofs/analyze_gauss.md).
#pragma once

namespace dpcov::privacy {

// log Phi(x), Phi the standard normal distribution function, accurate in both tails: never
// computed as log(1 - Phi(-x)) (which loses everything for x > 8) nor from an underflowed Phi(x)
// (x < -38). Finite for every finite x.
double log_normal_cdf(double x);

// The exact delta of the Gaussian mechanism N(0, sigma^2 I) on a query of L2 sensitivity
// `sensitivity` (Balle & Wang 2018, Thm 8):
//   delta(sigma) = Phi(D/(2 sigma) - eps sigma/D) - e^eps Phi(-D/(2 sigma) - eps sigma/D).
// For a = D/(2 sigma) <= 1 as e^{-(b-a)^2/2} times the integral of -erfcx' between the terms'
// arguments (b = eps sigma/D), so that the terms' cancellation at small eps (relative gap about
// eps / b^2) loses nothing; above, in log space (constants.md section 2, step 1). Accurate to a
// relative ~1e-12 wherever delta is a normal double (proofs/analyze_gauss.md, "Small epsilon").
// Strictly decreasing in sigma.
// Throws Status::InvalidArgument / Status::NonFinite unless sigma, eps and sensitivity are
// finite and > 0.
double analytic_gaussian_delta(double sigma, double eps, double sensitivity);

// The analytic Gaussian's sigma per unit of sensitivity: the smallest sigma with
// analytic_gaussian_delta(sigma, eps, 1) <= delta, for every eps > 0 and delta in (0, 1), to a
// relative 1e-12, always from the side that satisfies the condition: bracket [0, 1] doubled
// until delta(hi) <= delta, bisect until hi - lo <= 1e-12 hi (constants.md section 2, steps 2-3);
// then the result is certified: the exact delta at the returned sigma is proved <= delta by MPFR
// directed rounding (gaussian_delta_certified_at_most), moving sigma up where the
// double-precision evaluation was on the unsafe side (proofs/analyze_gauss.md, "Certification").
// This is the calibration (the search), counted by calibration_count(). Throws
// Status::InvalidArgument / Status::NonFinite unless eps is finite and > 0 and delta in (0, 1),
// and Status::Numerical where no finite sigma can be certified.
double analytic_gaussian_unit_sigma(double eps, double delta);

// The analytic Gaussian's sigma at L2 sensitivity D from its sigma per unit of sensitivity:
// D * unit_sigma rounded up. delta(sigma) depends on sigma / D alone, so sigma / D >= unit_sigma
// keeps delta at or below the unit's (proofs/analyze_gauss.md, "Scaling"). A plan moved to another
// bound scales the unit sigma it already holds instead of searching again. Throws
// Status::InvalidArgument / Status::NonFinite unless both are finite and > 0, and
// Status::Numerical where the product overflows.
double analytic_gaussian_sigma_at(double unit_sigma, double sensitivity);

// The smallest sigma with analytic_gaussian_delta(sigma, eps, sensitivity) <= delta, up to the
// search's relative 1e-12 and one rounding up:
// analytic_gaussian_sigma_at(analytic_gaussian_unit_sigma(eps, delta), sensitivity). Throws as
// those two do.
double analytic_gaussian_sigma(double eps, double delta, double sensitivity);

}  // namespace dpcov::privacy
