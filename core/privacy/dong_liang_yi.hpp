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

// sigma of the private trace of Adaptive, which spends rho / 8: the trace has sensitivity r^2 / n,
// so sigma = 2 r^2 / (n sqrt(rho)) (the code's 2 / sqrt(rho) / n). Rounded up.
double dly_trace_sigma(double rho, double radius, int64_t n);

// epsilon of Adaptive's sparse vector step, which spends rho / 8 zCDP: an eps-DP mechanism is
// eps^2 / 2-zCDP (Bun & Steinke 2016, Prop. 1.4), so eps = sqrt(rho) / 2 (the code's
// SVT(0, sqrt(rho) / 2, ...)). Rounded down. The threshold gets Lap(2 / eps) and each query, of
// sensitivity 1, Lap(4 / eps) (Lyu, Su & Li 2017, Alg. 1 with c = 1).
double dly_svt_epsilon(double rho);

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
