// Exact discrete samplers (Canonne, Kamath, Steinke, "The Discrete Gaussian for Differential
// Privacy", NeurIPS 2020, arXiv 2004.00010, Algorithms 1-3). Every step is integer arithmetic on
// the generator's 64-bit words, so the returned integers follow the stated probability mass
// function exactly (no floating point anywhere): the basis of the `exact` numerics.
//
// Parameters are rationals num / den of unsigned 128-bit integers. The running time depends on
// the parameters and on the draws, never on data: callers pass public constants only.
//
// Every sampler reads fair bits through a BitSource (bit_source.hpp), a few at a time; the
// overloads taking an Rng read from a source of their own, whose unused bits are discarded. The
// *_fill functions draw many values of one law from one source, with the law's constants
// computed once: what a release of d(d+1)/2 entries uses.
#pragma once

#include <cstdint>
#include <span>

#include "rng.hpp"

namespace dpcov::random {

class BitSource;

__extension__ typedef unsigned __int128 u128;

// Uniform on {0, ..., bound - 1}, bound >= 1: masked rejection on the bit width of bound - 1 up to
// 32 bits, Lemire's multiplication up to 64, masked rejection on 128-bit draws above.
u128 uniform_below(Rng &rng, u128 bound);
u128 uniform_below(BitSource &bits, u128 bound);

// Uniform on {0, ..., bound - 1} for 2 <= bound <= 2^32, 0 <= extra_bits <= 24, by Lemire's
// multiplication (Lemire, "Fast random integer generation in an interval", ACM Trans. Model.
// Comput. Simul. 29(1), 2019, Section 4): a draw x of b = w + extra_bits bits, w the bit width of bound - 1, gives
// floor(x bound / 2^b) once the x whose low part (x bound) mod 2^b falls below 2^b mod bound are
// rejected, which leaves every value exactly floor(2^b / bound) draws. A try is rejected with
// probability below 2^-extra_bits (masked rejection, uniform_below(), rejects up to half): the
// discrete Laplace's uniform part takes kLemireExtraBits.
uint64_t uniform_below_lemire(BitSource &bits, uint64_t bound, int extra_bits);
inline constexpr int kLemireExtraBits = 8;

// Bits per chunk of the lazy comparison below 2^64. A chunk decides all but one of its 2^b
// values, so a comparison reads b (1 + 2^-b + ...) bits on average: 8 bits decide all but 1/256
// of the comparisons, and read a quarter of what 32-bit chunks read from the generator (the
// discrete Gaussian makes about 20 comparisons per draw).
inline constexpr int kChunkBits = 8;

// Bernoulli(num / den), exact, by lazy comparison of a uniform with num / den: kChunkBits bits at
// a time up to 2^(128 - kChunkBits) (bernoulli_rational_chunked), one binary digit at a time
// above (two digits on average); 0 <= num <= den, den >= 1.
bool bernoulli_rational(Rng &rng, u128 num, u128 den);
bool bernoulli_rational(BitSource &bits, u128 num, u128 den);

// The comparison below 2^64 with chunks of b bits (1 <= b <= 64), for 0 < num < den < 2^64. Its
// remainder step, taken with probability at most 2^-b per chunk, is what the tests exercise at
// small b.
bool bernoulli_rational_chunked(BitSource &bits, u128 num, u128 den, int b);

// Bernoulli(exp(-num / den)), exact, any num >= 0, den >= 1 (CKS Algorithm 1 for gamma <= 1,
// with Bernoulli(gamma / K) drawn as Bernoulli(gamma) and Bernoulli(1 / K), so den is never
// multiplied; gamma > 1 by exp(-gamma) = exp(-1)^floor(gamma) exp(-frac(gamma)), trials that
// stop at the first failure).
bool bernoulli_exp(Rng &rng, u128 num, u128 den);
bool bernoulli_exp(BitSource &bits, u128 num, u128 den);

// Discrete Laplace with P(x) proportional to exp(-|x| s / t) on the integers (CKS Algorithm 2),
// s, t >= 1. Scale t / s.
int64_t discrete_laplace(Rng &rng, uint64_t s, uint64_t t);
// Fills `out` with independent draws of discrete_laplace(s, t).
void discrete_laplace_fill(Rng &rng, uint64_t s, uint64_t t, std::span<int64_t> out);

// Discrete Gaussian with P(x) proportional to exp(-x^2 / (2 sigma2)) on the integers, for an
// integer variance parameter 1 <= sigma2 < 2^62 (CKS Algorithm 3: discrete Laplace proposals y
// with t = floor(sqrt(sigma2)) + 1, accepted with probability exp(-(|y| - sigma2 / t)^2 /
// (2 sigma2))). The exponent is split in two so that every product fits in 128 bits
// (discrete.cpp).
int64_t discrete_gaussian(Rng &rng, uint64_t sigma2);
// Fills `out` with independent draws of discrete_gaussian(sigma2).
void discrete_gaussian_fill(Rng &rng, uint64_t sigma2, std::span<int64_t> out);

}  // namespace dpcov::random
