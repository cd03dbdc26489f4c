// Bernoulli(1/e) and the geometric law P(V = v) = (1 - 1/e) e^-v, exactly, by a lazy comparison of
// fair bits with the binary expansion of 1/e: one comparison of eight bits decides all but 1/256
// of the draws, where CKS Algorithm 1 at gamma = 1 (Canonne, Kamath, Steinke, NeurIPS 2020,
// arXiv 2004.00010) makes e = 2.72 rational comparisons on average. The geometric part of every
// discrete Laplace (CKS Algorithm 2) and the whole part of exp(-gamma) for gamma >= 1 are made of
// these draws.
//
// Why it is exact (docs/random.md, "Why the lazy comparison is exact"): U is uniform on [0, 1)
// and read eight bits w at a time; x in (0, 1) is read as its binary digits eight at a time, c.
// While w = c the two agree so far and the question is the same for the bits after; the first
// w != c decides U < x iff w < c. The digits are floor(2^k x) mod 2, never a trailing run of ones,
// so the digits after any point are a number in [0, 1) and the decision is the event U < x: the
// result is Bernoulli(x). Past the stored first 64 digits of 1/e (reached with probability
// 2^-64), MPFR computes the further digits exactly.
#pragma once

#include <cstdint>

#include "bit_source.hpp"

namespace dpcov::random {

// floor(2^64 / e): the binary digits 1..64 of 1/e = 0.0101 1110 0010 1101 ... (1/e lies in
// [1/4, 1/2)). The test `ExpMinusOne.StoredDigitsAreMpfrs` compares it with exp_minus_one_word(0).
constexpr uint64_t exp_minus_one_first_word() { return 0x5E2D58D8B3BCDF1AULL; }

// Binary digits 64 i + 1 .. 64 (i + 1) of 1/e as one word, floor(2^(64 (i + 1)) / e) mod 2^64: from
// MPFR's exp(-1) rounded down to 64 (i + 1) - 1 significant bits. 1/e is irrational (Euler), so no
// rounding is ever exact and rounding down is truncation of the expansion: the digits themselves.
uint64_t exp_minus_one_word(uint64_t i);

// U < x for U uniform on [0, 1), read from `bits` eight bits at a time, and x in (0, 1) given by
// words(i) = floor(2^(64 (i + 1)) x) mod 2^64, consumed most significant byte first. Reads
// 8 (1 + 2^-8 + 2^-16 + ...) bits on average; Bernoulli(x) exactly (see above).
template <class Words>
inline bool uniform_below_expansion(BitSource &bits, Words words) {
  for (uint64_t i = 0;; ++i) {
    const uint64_t word = words(i);
    for (int shift = 56; shift >= 0; shift -= 8) {
      const uint64_t w = bits.bits(8), c = (word >> shift) & 0xffU;
      if (w != c) return w < c;
    }
  }
}

// Bernoulli(1/e): the comparison above with the stored first word, MPFR's words after it.
inline bool bernoulli_exp_minus_one(BitSource &bits) {
  return uniform_below_expansion(
      bits, [](uint64_t i) { return i == 0 ? exp_minus_one_first_word() : exp_minus_one_word(i); });
}

// V with P(V = v) = (1 - 1/e) e^-v, v >= 0: the number of Bernoulli(1/e) successes before the
// first failure (the part V of X = U + t V in CKS Algorithm 2).
inline uint64_t geometric_exp_minus_one(BitSource &bits) {
  uint64_t v = 0;
  while (bernoulli_exp_minus_one(bits)) ++v;
  return v;
}

}  // namespace dpcov::random
