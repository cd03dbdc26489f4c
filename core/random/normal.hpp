// Standard normal variates.
#pragma once

#include <cstdint>

#include "rng.hpp"

namespace dpcov::random {

// N(0, 1) by the Marsaglia-Tsang ziggurat (J. Stat. Softw. 5(8), 2000) with 256 layers and
// Marsaglia's exact tail method (1964), in the form that draws the layer index, the sign and the
// 52-bit abscissa from disjoint bits of one 64-bit word (so the layer and the value are
// independent; Doornik 2005 showed the original's reuse of bits biases the output). The method is
// exact: every branch is either inside the density or an accept/reject test against it, so the
// only departure from N(0, 1) is the floating-point grid ("idealized numerics", Mironov 2012).
double standard_normal(Rng &rng);

// The grid of values standard_normal() can return, for the auditor's support test (floating-point
// porosity): below the tail, +-a * ziggurat_layer_width(layer) for an integer a in [0, 2^52) and
// a layer in [0, kZigguratLayers) (a < ziggurat_base_limit() in layer 0); in the tail, values above
// ziggurat_tail_start().
inline constexpr int kZigguratLayers = 256;
double ziggurat_layer_width(int layer);
uint64_t ziggurat_base_limit();
double ziggurat_tail_start();

// n draws into out[0..n-1]: the same values, from the same generator words, as n calls of
// standard_normal in turn, without a call and a table look-up per draw. The words are drawn ahead
// in blocks (Rng::fill_u64), never more than the draws left would read.
void standard_normals(Rng &rng, double *out, int64_t n);

}  // namespace dpcov::random
