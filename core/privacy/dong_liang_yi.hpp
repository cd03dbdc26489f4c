// The constants of Dong, Liang & Yi, "Differentially Private Covariance Revisited" (NeurIPS 2022),
// zCDP mechanisms for the covariance X^T X / n of n rows of norm <= r (replace-one, n public):
// the Gaussian mechanism, Separate (Alg. 1: eigenvalues and eigenvectors released separately) and
// Adaptive (Alg. 3: a private trace, a private clipping radius by the sparse vector technique, then
// the branch with the smaller error bound), as run by the authors' code
// (github.com/hkustDB/PrivateCovariance, adaptive/algos.py: GaussCov, SeparateCov, AdaptiveCov).
// Derivations: proofs/dong_liang_yi.md.
#pragma once

#include <cstdint>

namespace dpcov::privacy {

// sigma of the Gaussian mechanism on X^T X / n at budget rho: the upper triangle has L2
// sensitivity sqrt(2) r^2 / n (replace-one), so sigma = r^2 / (n sqrt(rho)) (the code's
// sens / sqrt(2 rho)). Rounded up. Separate spends rho / 2 on each of its two releases, and both
// have this sensitivity (the eigenvalue vector by Hoffman-Wielandt), so both use
// dly_gauss_sigma(rho / 2, r, n) = sqrt(2) r^2 / (n sqrt(rho)), the code's sens / sqrt(rho).
double dly_gauss_sigma(double rho, double radius, int64_t n);

// Adaptive's budget split, as fractions of rho: `trace` for the private trace, `svt` for the
// sparse vector step, the rest (dly_adaptive_release_rho) for the final release. Both fractions
// are powers of two, so rho * fraction is exact. The paper's and the code's split (paper = true)
// is 1/8, 1/8, 3/4: where clipping cannot help, its release costs 1 / sqrt(3/4) = 1.155 times the
// error of spending the whole budget on the better branch. dpcov's default is 1/128, 1/16,
// 119/128 (1 / sqrt(119/128) = 1.037): the branch needs only a coarse trace, while the sparse
// vector step, whose noise does not shrink with n, must not clip a large-n dataset that clipping
// cannot help (proofs/dong_liang_yi.md, "Split"; bench/results/dly_grid.txt measures both).
struct DlyAdaptiveSplit {
  double trace;
  double svt;
};
DlyAdaptiveSplit dly_adaptive_split(bool paper);

// The budget left for the final release: (1 - trace - svt) rho rounded down, so that
// rho trace + rho svt + dly_adaptive_release_rho(rho, split) <= rho.
double dly_adaptive_release_rho(double rho, const DlyAdaptiveSplit &split);

// sigma of the private trace at zCDP budget rho_trace: the trace has sensitivity r^2 / n, so
// sigma = r^2 / (n sqrt(2 rho_trace)) (at the paper's rho / 8, 2 r^2 / (n sqrt(rho)), the code's
// 2 / sqrt(rho) / n). Rounded up.
double dly_trace_sigma(double rho_trace, double radius, int64_t n);

// epsilon of Adaptive's sparse vector step at zCDP budget rho_svt: an eps-DP mechanism is
// eps^2 / 2-zCDP (Bun & Steinke 2016, Prop. 1.4), so eps = sqrt(2 rho_svt) (at the paper's
// rho / 8, sqrt(rho) / 2: the code's SVT(0, sqrt(rho) / 2, ...)). Rounded down. The threshold gets
// Lap(2 / eps) and each query, of sensitivity 1, Lap(4 / eps) (Lyu, Su & Li 2017, Alg. 1, c = 1).
double dly_svt_epsilon(double rho_svt);

// dpcov's branch rule (utility only: any value is private): Separate when its error bound is
// below dly_branch_weight() = 1.6 times Gauss's. The two tail bounds are not equally loose: on
// the authors' synthetic grid the measured errors are 0.56-0.69 (Gauss, after the eigenvalue
// clamp) and 0.36-0.44 (Separate) of the bounds, so the expected errors cross near sep = 1.6 gauss
// (proofs/dong_liang_yi.md, "Branch rule"). The paper's rule is weight 1.
double dly_branch_weight();

// Utility constants of Adaptive's error bounds (any value is private):
// the code's wigner_gauss_tailbound(d, b): a bound on the spectral norm of a d x d symmetric
// standard Gaussian (Wigner) matrix holding with probability >= 1 - b (Bandeira & van Handel 2016);
double dly_wigner_spectral_bound(int64_t dim, double beta);
// the code's wigner_gauss_fnormbound(d, b): a bound on its Frobenius norm (Laurent-Massart);
double dly_wigner_frobenius_bound(int64_t dim, double beta);
// the code's trace offset sqrt(8 / rho ln(8 / beta)): tr_tilde = tr + noise + r^2 offset / n
// overestimates the trace with probability >= 1 - beta / 8.
double dly_trace_offset(double rho, double beta);

}  // namespace dpcov::privacy
