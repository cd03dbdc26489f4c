// Floating-point porosity of the Analyze Gauss release (Mironov, CCS 2012, for the Gaussian as
// for the Laplace): the ziggurat returns +-a w_L for a 52-bit integer a and one of 256 layer
// widths w_L (random/normal.hpp), so sigma times it, added to G and rounded, lands on a set of
// doubles that depends on G; where the noise's grid is coarser than the output's, an output that
// G' + noise cannot produce identifies G (infinite privacy loss). Each such output adds its whole
// probability to the release's delta, far above the claimed 1e-6. This models every library that
// ships floating-point Gaussian noise with an (epsilon, delta) claim, dpcov's own "idealized"
// analyze_gauss included.
//
// porosity_case() audits dpcov's analyze_gauss release with its idealized density, except that an
// output the sampler's floating-point support cannot reach from the given statistic has density 0.
// The support test is exact below the tail: fl(g +- fl(sigma fl(a w_L))) is monotone in a for each
// layer and sign, and monotone_hits() searches every layer (layer 0 below its base limit). Noise
// beyond sigma times the tail start counts as reachable.
//
// The corrected release is the exact-numerics one (proofs/exact_additive.md), audited through its
// exact PMF (core/audit/exact_pmf.hpp).
#pragma once

namespace dpcov::audit::zoo {

// Whether fl(g + fl(sigma z)) == o for some z that random::standard_normal() can return.
bool gaussian_output_reachable(double o, double g, double sigma);

}  // namespace dpcov::audit::zoo
