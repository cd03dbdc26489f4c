// The Johnson-Lindenstrauss threshold: Sheffet, "Old Techniques in Differentially Private Linear
// Regression" (ALT 2019; arXiv 1507.00056), Thm 3.1 (= Thm B.1), and its inverse-Wishart twin,
// Thm 5.1 (= Thm B.4) (constants.md sections 5.1 and 5.5; proofs/jl_ridge.md,
// proofs/inverse_wishart.md).
//
// Publishing R A, with R an r x n matrix of iid N(0, 1) and every row of A of norm <= B, is
// (eps, delta)-DP under replace-one (and add/remove) provided sigma_min(A) >= w, where
//   w^2 = (2 B^2 / eps) (sqrt(2 r ln(4 / delta)) + 2 ln(4 / delta)).
// This is the form Sheffet's OLS paper (ICML 2017, App. A.1) quotes as Thm B.1.
#pragma once

#include <cstdint>

namespace dpcov::privacy {

// Throws Status::Precondition unless eps <= 1 and delta < 1/e (after the generic checks: eps
// finite > 0, delta in (0, 1)). Sheffet's theorems assume eps < 1; eps = 1 is admitted because
// the exact delta of the threshold at eps = 1 and delta = 1e-6 is below 1e-30 for every r in
// [1, 1e5] under replace-one (2.1e-31 at r = 1e5; below 1e-34 under add/remove)
// (proofs/jl_ridge.md, checked by proofs/check/jl_ridge.py).
void check_jl_preconditions(double eps, double delta);

// The same preconditions on the release step's share (eps_step, delta_step) of a mechanism that
// spends the rest of the requested (eps_total, delta_total) on the private sigma_min test first:
// a refusal names the requested budget, the step's share and the largest epsilon the split
// admits, because the user never passed the share.
void check_jl_step_preconditions(double eps_total, double delta_total, double eps_step,
                                 double delta_step);

// w^2 of Thm 3.1 / B.1 for r projection rows, rounded up. Throws as check_jl_preconditions, and
// Status::InvalidArgument / Status::NonFinite for B, Status::Dimension for r < 1.
double jl_threshold_squared(double bound, double eps, double delta, int64_t r);

// The inverse-Wishart prior w^2 of Thm 5.1 / B.4: the same formula with r replaced by the
// degrees of freedom m (the privacy loss of W^{-1}(M, m) is the JL loss with the two directions
// swapped; constants.md section 5.5). Same errors, with m for r.
double inverse_wishart_prior_squared(double bound, double eps, double delta, int64_t m);

}  // namespace dpcov::privacy
