// Sensitivities of the Gram matrix G = A^T A over rows of Euclidean norm <= B (constants.md
// section 1; proofs/gram_sensitivity.md). Every mechanism here draws its noise on the d(d+1)/2
// entries of the upper triangle (diagonal included) and mirrors them, so the sensitivities that
// matter are those of the upper triangle seen as a vector. All values are rounded up.
#pragma once

#include <cstdint>

#include "neighbour.hpp"

namespace dpcov::privacy {

// L2 sensitivity of the upper triangle of G: B^2 under add/remove (tight at v = B e_1), sqrt(2) B^2
// under replace-one (tight at v = B e_1, v' = B e_2). It is also the Frobenius sensitivity, which
// bounds it from above for every symmetric difference. (Dwork, Talwar, Thakurta, Zhang 2014 state
// B = 1, Delta = 1: the add/remove value; constants.md section 10, item 2.)
double gram_l2_sensitivity(Neighbour neighbour, double bound);

// L1 sensitivity of the upper triangle of G: (d+1) B^2 / 2 under add/remove (tight at
// v = B (1, ..., 1) / sqrt(d)), and the triangle-inequality bound (d+1) B^2 under replace-one.
double gram_upper_triangle_l1_sensitivity(Neighbour neighbour, int64_t dim, double bound);

// The L1 sensitivity as published: 2 d B^2, Jiang, Xie, Zhang (AAAI 2016) Lemma 2 (full-matrix L1
// bound under replace-one, B = 1, on G rather than G / n), also used by Wang, Huai, Xu (2018) and
// by Amin et al. (2019) for their Laplace baseline. It bounds the upper-triangle L1 sensitivity
// from above for every d >= 1 and either relation, so it is valid, but larger than needed by the
// factor 2d / (d+1) under replace-one.
double gram_l1_sensitivity_published(int64_t dim, double bound);

}  // namespace dpcov::privacy
