// The exact-PMF audit of the exact-numerics mechanisms (core/mechanisms/exact_additive.hpp,
// proofs/exact_additive.md). Their releases are grid^2 times integers G_Z + N, with G_Z the exact
// integer Gram of the rows rounded to the grid and N integer noise of a known probability mass
// function, so the privacy loss of a release is computable exactly: this module expresses a
// neighbouring pair of row datasets in integer units (the pair's statistics are the integer Grams
// G_Z and G_Z', releases are the released integers) and gives run_exact_audit() the exact log-PMF
// of the claimed noise. The rounding is the mechanism's own (mechanisms::rounded_gram), so the
// pair exercises what the grid does to the sensitivity.
//
// Log-PMFs (x = released - G_Z per upper-triangle entry):
//   discrete Laplace of scale t:     ln tanh(1 / (2t)) - |x| / t
//   discrete Gaussian of variance s: -x^2 / (2s) - ln Z,  Z = sqrt(2 pi s) (1 + 2 sum_{m >= 1}
//                                     exp(-2 pi^2 s m^2)) (Poisson summation, an identity)
// The conformance test compares the standardised noise with the continuous Laplace / normal law;
// the Kolmogorov distance between each discrete law and its continuous counterpart is below 1 / t
// (Laplace) and 1 / sqrt(s) (Gaussian), which the callers keep far below the DKW threshold.
#pragma once

#include <cstdint>
#include <functional>

#include "../mechanisms/exact_additive.hpp"
#include "loss_audit.hpp"
#include "target.hpp"

namespace dpcov::audit {

// One draw of integer noise (a sampler under test).
using IntegerNoise = std::function<int64_t(random::Rng &rng)>;

// A row of norm <= request.bound whose rounding to `grid` maximises the change of the upper
// triangle of z z^T that `mechanism`'s noise is calibrated to: its L1 norm (LaplaceSym: nearly
// equal coordinates, each rounded up) or its L2 norm (AnalyzeGauss: one coordinate at the top of
// the grid and the others rounded up from just over half a unit). The search runs over those two
// families with the mechanism's own rounding; a 1 x d matrix.
Matrix extreme_rounded_row(mechanisms::MechanismId mechanism, const mechanisms::Request &request,
                           const mechanisms::ExactGrid &grid);

// A packed upper triangle of integers (column by column) as a symmetric d x d matrix of doubles;
// Status::Precondition unless every entry is below 2^53 in magnitude (exact).
Matrix to_matrix(const std::vector<mechanisms::ExactInt> &packed, int64_t d);

// The pair in integer units: the exact integer Grams of `rows` and `rows_prime` on `grid`.
PairStatistics exact_pair_statistics(const mechanisms::Request &request,
                                     const mechanisms::ExactGrid &grid, const Matrix &rows,
                                     const Matrix &rows_prime);

// The claimed integer noise at `noise_parameter` (discrete Gaussian variance or discrete Laplace
// scale) with the claim (eps, delta), drawn by `noise`: released = base + noise on each
// upper-triangle entry. Broken variants (a scale without the rounding's inflation, a truncated
// tail) are audited through this target against the claim they would make.
Target exact_noise_target(mechanisms::MechanismId mechanism, double epsilon, double delta,
                          uint64_t noise_parameter, IntegerNoise noise);

// The shipped mechanism: releases through mechanisms::release_exact_additive() on `rows` or
// `rows_prime` (whichever has the statistic it is called with), divided by grid^2 (exact: a power
// of two), with the plan's claim and noise parameter. `request.n` is replaced by each dataset's n.
Target exact_mechanism_target(mechanisms::MechanismId mechanism, const mechanisms::Request &request,
                              const Matrix &rows, const Matrix &rows_prime);

// The exact privacy of the pair under the claimed noise law, from the PMF alone (no sampling):
// LaplaceSym: the largest privacy loss, ||G_Z' - G_Z||_1 / t (attained with positive probability,
// so the true epsilon is at least this); AnalyzeGauss: the pair's zCDP rho, ||G_Z' - G_Z||_2^2 /
// (2 s): completing the square, the Renyi divergence of order alpha of the discrete Gaussian pair
// is alpha rho times a factor <= 1 that is exactly 1 at every integer alpha (the shifted lattice
// sum is then the unshifted one), so the pair is rho'-zCDP for no rho' < rho. Upper triangles.
double exact_pair_privacy(mechanisms::MechanismId mechanism, const PairStatistics &pair,
                          uint64_t noise_parameter);

// The smallest epsilon with analytic_gaussian_delta(sigma_upper, epsilon, distance) <= delta: a
// lower confidence bound on the epsilon of a Gaussian pair at this delta when sigma_upper is an
// upper confidence bound on its noise (DirectionResult::sigma_upper); 0 when even epsilon = 0
// meets delta.
double gaussian_epsilon_lower_bound(double sigma_upper, double distance, double delta);

}  // namespace dpcov::audit
