// The budget of a private bound step and of the release that uses its bound. The two are
// composed by basic composition (Dwork and Roth 2014, Theorem 3.16: the epsilons add), so the
// release may spend what is left, rounded down: proofs/private_bound.md, "The budget after the
// bound step".
#pragma once

namespace dpcov::privacy {

// The share of epsilon a bound step spends where the caller names none: `release --bound auto`,
// `regress` without intervals, and the Python and Dask estimators' automatic bounds.
inline constexpr double kBoundStepShare = 0.1;

// The release's epsilon after a bound step of `bound_epsilon` out of `epsilon`: the largest
// double r with bound_epsilon + r <= epsilon in exact arithmetic, so that the two steps never
// sum above epsilon and lose nothing to rounding either. Throws Status::NonFinite or
// Status::InvalidArgument unless both are finite and 0 < bound_epsilon < epsilon.
double bound_step_rest(double epsilon, double bound_epsilon);

// What a bound step of `bound_epsilon` and a release of `epsilon` spend together, charged as one
// release (an advanced-composition ledger, whose per-release budget is fixed by its first
// charge, takes a release in steps so): their sum rounded up. Throws Status::NonFinite or
// Status::InvalidArgument unless both are finite and > 0, Status::Numerical if the sum is not.
double bound_step_total(double bound_epsilon, double epsilon);

}  // namespace dpcov::privacy
