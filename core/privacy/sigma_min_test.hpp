// The private test on the least singular value used by Sheffet's propose-test-release
// mechanisms: ALT 2019 (arXiv 1507.00056) Alg. 2 and Alg. 5, and "Differentially Private
// Ordinary Least Squares" (ICML 2017; arXiv 1507.02482) Alg. 1 (constants.md sections 5.3, 5.5,
// 6; proofs/jl_ridge.md, proofs/ols_ptr.md).
//
// The test releases s2 = sigma_min(A)^2 + Z - b ln(1/delta), Z ~ Lap(b), b = 4 B^2 / eps. Under
// replace-one (and add/remove) sigma_min(A)^2 = lambda_min(A^T A) moves by at most B^2 (Weyl),
// so s2 is (eps/4)-DP, within the eps/2 the split gives the test; P[Z > b ln(1/delta)] =
// delta/2, so s2 <= sigma_min(A)^2 except with probability delta/2.
#pragma once

namespace dpcov::privacy {

// The two halves of the budget: (eps/2, delta/2) for the test, (eps/2, delta/2) for the release.
// Halving is exact in binary floating point.
struct BudgetSplit {
  double test_epsilon;
  double test_delta;
  double release_epsilon;
  double release_delta;
};
// Throws Status::InvalidArgument / Status::NonFinite unless eps is finite > 0 and delta in
// (0, 1).
BudgetSplit split_budget_in_halves(double eps, double delta);

// b = 4 B^2 / eps (eps the whole budget of the mechanism), rounded up.
double sigma_min_test_scale(double bound, double eps);

// The shift b ln(1/delta) subtracted from the noisy sigma_min^2 (delta the whole budget), rounded
// up, so that P[Z > shift] <= delta / 2.
double sigma_min_test_shift(double bound, double eps, double delta);

}  // namespace dpcov::privacy
