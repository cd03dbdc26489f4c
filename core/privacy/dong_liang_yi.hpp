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

// Adaptive's budget split, as fractions of rho: `trace` for the private trace, `radius` for the
// clipping radius (the paper's sparse vector step, dpcov's private histogram), the rest
// (dly_adaptive_release_rho) for the final release. The paper's and the code's split
// (paper = true) is 1/8, 1/8, 3/4: where clipping cannot help, its release costs
// 1 / sqrt(3/4) = 1.155 times the error of spending the whole budget on the better branch.
// dpcov's default is 1/128, 1/32, 123/128 (1 / sqrt(123/128) = 1.020): the branch needs only a
// coarse trace, and the Gaussian histogram (dly_histogram_sigma) is four times less noisy than the
// sparse vector step at the same budget. Of its `radius`, dpcov spends `first_look` = 1/512 first,
// on a histogram that alone settles r~ = r when most rows are near the bound
// (dly_first_look_margin); the trace and the rest of the histogram are then not run, and the
// release gets 511/512 (1.001; dly_adaptive_early_release_rho). The fractions are powers of two,
// so rho * fraction is exact unless it is subnormal; the budgets are taken rounded down
// (proofs/dong_liang_yi.md, "Split"; bench/results/dly_grid.txt measures both).
struct DlyAdaptiveSplit {
  double trace;
  double radius;
  double first_look;  // part of `radius` spent first; 0 for the paper's
};
DlyAdaptiveSplit dly_adaptive_split(bool paper);

// The budget left for the final release: (1 - trace - radius) rho rounded down, so that
// rho trace + rho radius + dly_adaptive_release_rho(rho, split) <= rho.
double dly_adaptive_release_rho(double rho, const DlyAdaptiveSplit &split);

// The budget of dpcov's second look at the histogram, (radius - first_look) rho rounded down, so
// that the two looks spend at most radius rho.
double dly_second_look_rho(double rho, const DlyAdaptiveSplit &split);

// The budget left for the final release when the first look settles the radius:
// (1 - first_look) rho rounded down, so that rho first_look + this <= rho. Whatever the first
// look shows, the rest (this release, or the trace, second look and release at
// dly_adaptive_release_rho) is (1 - first_look) rho-zCDP, so the whole is rho-zCDP by adaptive
// composition (Bun & Steinke 2016, Lemma 2.3; proofs/dong_liang_yi.md, "Adaptive").
double dly_adaptive_early_release_rho(double rho, const DlyAdaptiveSplit &split);

// How many standard deviations of the first look's noise its count of rows in (r / 2, r] must
// clear (utility only: any value is private). The first look settles r~ = r when
// 3/4 (c~_1 - z sigma_A) / n >= N_0, the clipping bias of r / 2 at the lower end of the count
// against the noise bound at r (at trace r^2 and the continuing budget, the largest either can
// be): the bias only grows below r / 2, so the full rule would then keep r too. z = 3: a wrong
// settlement needs a 3-sigma error (0.13% at the boundary), and on the authors' unit rows the
// count clears it by 6 to 40 sigma (proofs/dong_liang_yi.md, "Split").
double dly_first_look_margin();

// sigma of the private trace at zCDP budget rho_trace: the trace has sensitivity r^2 / n, so
// sigma = r^2 / (n sqrt(2 rho_trace)) (at the paper's rho / 8, 2 r^2 / (n sqrt(rho)), the code's
// 2 / sqrt(rho) / n). Rounded up.
double dly_trace_sigma(double rho_trace, double radius, int64_t n);

// epsilon of AdaptivePaper's sparse vector step at zCDP budget rho_svt: an eps-DP mechanism is
// eps^2 / 2-zCDP (Bun & Steinke 2016, Prop. 1.4), so eps = sqrt(2 rho_svt) (at the paper's
// rho / 8, sqrt(rho) / 2: the code's SVT(0, sqrt(rho) / 2, ...)). Rounded down. The threshold gets
// Lap(2 / eps) and each query, of sensitivity 1, Lap(4 / eps) (Lyu, Su & Li 2017, Alg. 1, c = 1).
double dly_svt_epsilon(double rho_svt);

// sigma of dpcov's private histogram of row norms (Adaptive) at zCDP budget rho_hist: replacing
// one row moves it between two bins (or in or out of the uncounted bottom), so the count vector has
// L2 sensitivity sqrt(2) and sigma = sqrt(2) / sqrt(2 rho_hist) = 1 / sqrt(rho_hist)
// (Bun & Steinke 2016, Prop. 1.6). Rounded up. At the same budget its noise is about a quarter of
// the paper's sparse vector step's, Lap(2 / eps) on the threshold and Lap(4 / eps) on each query.
double dly_histogram_sigma(double rho_hist);

// dpcov's expected-error model for the radius and the branch (utility only: any value is
// private): the error bounds times how loose each is. On the authors' synthetic grid
// (bench/dly_grid) the measured mean errors are 0.56-0.69 of the Gauss bound (the eigenvalue clamp
// removes part of the noise) and 0.36-0.45 of the Separate bound; dpcov takes 0.64 and 0.45. The
// branch takes the smaller of this Separate estimate and one from the spread of the spectrum
// (dly_flat_spectrum_factor), so each is taken at the top of its measured range: a low estimate
// would win the minimum and choose Separate where Gauss is better (n = 16000, d = 20 at 0.4).
// The Gauss factor enters the branch only where the clamp removes the noise of every direction
// (proofs/dong_liang_yi.md, "Radius" and "Branch").
struct DlyLooseness {
  double gauss;
  double separate;
};
DlyLooseness dly_bound_looseness();

// dpcov's estimate of Separate's squared eigenvector error from the spread of the spectrum
// (utility only: it multiplies a quantity estimated from a private release), c W^2 with
// W^2 = ||S - (tr S / d) I||_F^2 and c = dly_flat_spectrum_factor() = 2 while the spectrum is
// narrower than the noise (saturating at the noise's sigma^2 d^2 on a wide one). First-order
// perturbation puts the error of the pair (i, j) at sigma^2 Delta_ij^2 / (Delta_ij^2 + Gamma^2),
// Delta_ij = lambda_i - lambda_j, with Gamma^2 about sigma^2 d inside the noise's semicircle; the
// sum over i != j is then at most sum Delta_ij^2 / d = 2 W^2. Measured: 1.0-2.1 W^2 on isotropic
// and mildly anisotropic Gaussians (proofs/dong_liang_yi.md, "Branch"). The paper's Separate
// bound sees only the trace and puts Separate's error 2-5 times too high on an isotropic Gaussian
// (bench/results/dly_shapes.txt).
double dly_flat_spectrum_factor();

// The noise in dpcov's estimate of W^2 from a Gauss release A = S + E (E symmetric, iid
// N(0, sigma^2) upper triangle): ||A - (tr A / d) I||_F^2 - W^2 - 2 <S - (tr S / d) I, E> is
// ||E - (tr E / d) I||_F^2, of mean sigma^2 (d^2 - 1) and standard deviation
// sigma^2 sqrt(2 (2 d + 1) (d - 1)) (proofs/dong_liang_yi.md, "Branch"; checked against the
// quadratic form in proofs/check/dly_spread.py). In units of sigma^2; d >= 1.
struct DlySpreadNoise {
  double mean;
  double sd;
};
DlySpreadNoise dly_spread_noise(int64_t dim);

// The guards of dpcov's second estimate of Separate's error, from A's spikes and bulk (utility
// only: any value is private). `spread_sd`: how many of dly_spread_noise's standard deviations
// the bulk's spread estimate loses before it is floored at 0, 2; `edge_scale`: how far beyond the
// semicircle's edge 2 sigma sqrt(d) an eigenvalue of A must lie, in units of sigma d^(-1/6) (the
// scale of the largest eigenvalue's Tracy-Widom fluctuations), to count as a spike, 4. Both keep
// pure noise from looking like structure: with one standard deviation and no edge margin,
// Adaptive's error on Wine at epsilon = 0.5 (n = 178, d = 13, the noise far above the data)
// was 2.21, with these 1.94 (bench/side_by_side); three standard deviations give 1.69 there but
// take Separate on the authors' unit rows at n = 1000, d = 30, where Gauss is 7% better
// (proofs/dong_liang_yi.md, "Branch").
struct DlyBulkMargins {
  double spread_sd;
  double edge_scale;
};
DlyBulkMargins dly_bulk_margins();

// Where dpcov's bulk estimate starts counting spikes: 2 sigma sqrt(d) + edge_scale sigma d^(-1/6)
// from the bulk's mean (dly_bulk_margins; checked in proofs/check/dly_spread.py). sigma > 0
// finite, d >= 1.
double dly_spike_edge(double sigma, int64_t dim);

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
