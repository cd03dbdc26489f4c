// Constants of per-unit contribution bounding (proofs/unit_gram_sensitivity.md): a privacy unit
// (a person) contributes at most k rows, each of Euclidean norm <= B, so its contribution to the
// Gram matrix is positive semidefinite with trace <= k B^2. Every Gram sensitivity of
// gram_sensitivity.hpp holds for any such contribution with B^2 replaced by that trace bound, so
// a unit-level release is the row-level release at the unit bound below. All values rounded up.
#pragma once

#include <cstdint>

#include "neighbour.hpp"

namespace dpcov::privacy {

// The largest k accepted (2^20): the reservoir holds k raw rows of the open unit, and the
// pinning test compares k B^2 with the bound's square exactly in 128-bit integers.
inline constexpr int64_t kMaxRowsPerUnit = int64_t{1} << 20;

// The relative room 2^-30 added to the unit bound, so that rows already bounded to B pass the
// accumulators' own bound test at the unit bound whole (that test shaves its bound by
// (d + 16) 2^-53 <= 2^-37 for every d the library takes): they are bounded once, by the rows'
// own bounding, and counted once.
inline constexpr double kUnitBoundRoom = 0x1p-30;

// B_u >= sqrt(k) B (1 + 2^-30), rounded up, with B_u^2 >= k B^2 exactly: the bound on the square
// root of the trace of one unit's Gram contribution (k rows of norm <= `row_bound`), which the
// accumulators and the release take as their bound. Throws Status::InvalidArgument (k outside
// [1, kMaxRowsPerUnit], or B_u overflows) and Status::NonFinite / InvalidArgument on the bound
// (positive, finite).
double unit_contribution_bound(int64_t max_rows_per_unit, double row_bound);

// L2 (Frobenius) sensitivity of the Gram upper triangle when one unit of at most k rows of norm
// <= B is added or removed (B_u^2) or has all its rows replaced (sqrt(2) B_u^2), B_u =
// unit_contribution_bound(k, B): for PSD A, A' of traces <= B_u^2, ||A||_F <= tr A and
// ||A - A'||_F^2 = ||A||_F^2 + ||A'||_F^2 - 2 <A, A'> <= 2 B_u^4 since <A, A'> >= 0.
double unit_gram_l2_sensitivity(Neighbour neighbour, int64_t max_rows_per_unit, double row_bound);

// L1 sensitivity of the Gram upper triangle at unit level: (d + 1) B_u^2 / 2 (add/remove) and
// (d + 1) B_u^2 (replace): for PSD A, |a_ij| <= sqrt(a_ii a_jj), so the upper triangle's L1 norm
// is at most ((sum_i sqrt(a_ii))^2 + tr A) / 2 <= (d + 1) tr A / 2 (Cauchy-Schwarz).
double unit_gram_upper_triangle_l1_sensitivity(Neighbour neighbour, int64_t dim,
                                               int64_t max_rows_per_unit, double row_bound);

}  // namespace dpcov::privacy
