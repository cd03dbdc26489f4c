// Distribution functions the auditor compares its draws against and builds its confidence bounds
// from (the chi-square law, which the mechanisms use too, is in core/math/chi_square.hpp).
// Self-contained (no Boost in the kernel); the tests pin each one against Boost.Math.
#pragma once

#include <cstdint>

namespace dpcov::audit {

// Regularised incomplete beta function I_x(a, b) for a, b > 0 and x in [0, 1], by the continued
// fraction of Numerical Recipes (3rd ed., section 6.4) evaluated with the modified Lentz method,
// using the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) where the fraction converges faster. Relative
// accuracy about 1e-12 + 2e-15 lgamma(a + b): the lgamma differences of the prefactor cancel,
// leaving about 3e-8 at a + b = 1e7. Throws Status::InvalidArgument outside the domain and
// Status::Numerical if the fraction does not converge.
double incomplete_beta(double a, double b, double x);

// Distribution functions.
double normal_cdf(double x);                       // Phi(x), via erfc (accurate in both tails)
double laplace_cdf(double x);                      // Laplace(0, 1): 1/2 + sgn(x) (1 - e^{-|x|}) / 2

// The Bingham law on the unit circle: density exp(u^T A u) / Z(A) with respect to the uniform
// probability measure on S^1, A symmetric 2 x 2 with eigenvalues a1 >= a2 (an exponential-
// mechanism step of IEV in a two-dimensional space; proofs/iev.md, "The q = 2 step"). With u at
// angle psi from the top eigenvector, u^T A u = (a1 + a2)/2 + c cos(2 psi), c = (a1 - a2)/2, and
// (1/2pi) int_0^{2pi} exp(c cos 2psi) dpsi = I_0(c), so
//   ln Z(A) = (a1 + a2)/2 + ln I_0((a1 - a2)/2).
// Throws Status::InvalidArgument unless a1 >= a2, both finite.
double bingham_circle_log_normaliser(double a1, double a2);

// ln I_0(x) for finite x >= 0: the power series sum_k (x^2/4)^k / (k!)^2 (positive terms) for
// x <= 50, the asymptotic series e^x / sqrt(2 pi x) sum_k t_k, t_k = t_{k-1} (2k - 1)^2 / (8 k x),
// beyond (its smallest term at x = 50 is about e^{-100}); both to about 1e-15 relative.
double log_bessel_i0(double x);

// The distribution function of the folded angle psi in [0, pi) (u and -u identified) of the
// Bingham law on S^1 with c = (a1 - a2)/2 >= 0: psi has density exp(c cos 2psi) / (pi I_0(c)), a
// von Mises law of 2 psi, whose Fourier series integrates to
//   F(psi) = [psi + sum_{j >= 1} (I_j(c) / I_0(c)) sin(2 j psi) / j] / pi.
// The ratios come from the continued fraction I_j / I_{j-1} = 1 / (2j/c + I_{j+1} / I_j), run
// backwards from far beyond the last term used; the series is cut where I_j / I_0, about
// exp(-j^2 / (2c)) for large c, is below 1e-17. psi outside [0, pi) is reduced modulo pi.
double bingham_circle_angle_cdf(double c, double psi);

}  // namespace dpcov::audit
