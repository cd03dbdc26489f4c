// Exact discrete samplers (Canonne, Kamath, Steinke, "The Discrete Gaussian for Differential
// Privacy", NeurIPS 2020, arXiv 2004.00010, Algorithms 1-3). Every step is integer arithmetic on
// the generator's 64-bit words, so the returned integers follow the stated probability mass
// function exactly (no floating point anywhere): the basis of the `exact` numerics.
//
// Parameters are rationals num / den of unsigned 128-bit integers. The running time depends on
// the parameters and on the draws, never on data: callers pass public constants only.
#pragma once

#include <cstdint>

#include "rng.hpp"

namespace dpcov::random {

__extension__ typedef unsigned __int128 u128;

// Uniform on {0, ..., bound - 1} by rejection of the top of the 128-bit range; bound >= 1.
u128 uniform_below(Rng &rng, u128 bound);

// Bernoulli(num / den), exact; 0 <= num <= den, den >= 1.
bool bernoulli_rational(Rng &rng, u128 num, u128 den);

// Bernoulli(exp(-num / den)), exact, any num >= 0, den >= 1 (CKS Algorithm 1 for gamma <= 1,
// with Bernoulli(gamma / K) drawn as Bernoulli(gamma) and Bernoulli(1 / K), so den is never
// multiplied; gamma > 1 by exp(-gamma) = exp(-1)^floor(gamma) exp(-frac(gamma)), trials that
// stop at the first failure).
bool bernoulli_exp(Rng &rng, u128 num, u128 den);

// Discrete Laplace with P(x) proportional to exp(-|x| s / t) on the integers (CKS Algorithm 2),
// s, t >= 1. Scale t / s.
int64_t discrete_laplace(Rng &rng, uint64_t s, uint64_t t);

// Discrete Gaussian with P(x) proportional to exp(-x^2 / (2 sigma2)) on the integers, for an
// integer variance parameter 1 <= sigma2 < 2^62 (CKS Algorithm 3: discrete Laplace proposals y
// with t = floor(sqrt(sigma2)) + 1, accepted with probability exp(-(|y| - sigma2 / t)^2 /
// (2 sigma2))). The exponent is split so that every product fits in 128 bits (discrete.cpp).
int64_t discrete_gaussian(Rng &rng, uint64_t sigma2);

}  // namespace dpcov::random
