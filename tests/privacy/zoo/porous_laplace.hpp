// Floating-point porosity of the symmetric Laplace release (Mironov, CCS 2012): the sampler turns
// 52 random bits into a double by -b ln(u), so its outputs are a finite set of doubles whose gaps
// widen with |noise|, and G + noise rounds onto a set that depends on G. An output that G' + noise
// cannot produce for any draw identifies G: its privacy loss is infinite, and the pure epsilon
// claim fails. This models every library that ships floating-point Laplace noise as pure DP,
// dpcov's own "idealized" laplace_sym included (its receipts say so).
//
// porosity_case() audits dpcov's laplace_sym release with its idealized density, except that an
// output which the sampler's floating-point support cannot reach from the given statistic has
// density 0 (log -infinity). The support test is exact: each entry's noise is +-fl(b fl(-ln u_k))
// for u_k = (2k + 1) 2^-53, a monotone function of the 52-bit k (random/exponential.hpp), so
// monotone_hits() decides whether some k and sign give fl(g + noise) == o. Magnitudes above 35 b,
// which the sampler's lowest cell also reaches by another path, count as reachable.
//
// The corrected release is the exact-numerics one (proofs/exact_additive.md): integers with the
// law the proof uses, audited through its exact PMF (core/audit/exact_pmf.hpp).
#pragma once

namespace dpcov::audit::zoo {

// Whether fl(g + y) == o for some y that random::laplace(rng, scale) can return.
bool laplace_output_reachable(double o, double g, double scale);

}  // namespace dpcov::audit::zoo
