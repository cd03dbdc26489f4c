// Public per-column bounds in the user's units (proofs/column_bounds.md). Each column j is mapped
// from its public range [lower_j, upper_j] onto [-1, 1] (values outside the range are clamped to
// it first), and a constant 1 is put in front, so every scaled row [1, z] lies in the box
// [-1, 1]^(d+1) and has Euclidean norm at most sqrt(d + 1) whatever the data: the norm bound of the
// scaled rows is public and no row is ever clipped. The affine map is public too, so the second
// moment of [1, z] released by any mechanism maps back to the second moment of [1, x] in the
// user's units (n, the column sums and the cross products), and from it the mean and covariance.
#pragma once

#include <cstdint>

#include "../matrix.hpp"

namespace dpcov::data {

// The public affine map of one column: x = centre + half_width * z with z in [-1, 1].
struct ColumnScale {
  double centre = 0.0;
  double half_width = 1.0;
};

// The scale of a column with public range [lower, upper]: centre (lower + upper) / 2 and half
// width (upper - lower) / 2, each computed without overflow. Throws Status::NonFinite for a
// non-finite bound and Status::InvalidArgument unless lower < upper with a half width that is a
// normal, finite number.
ColumnScale column_scale(double lower, double upper, int64_t column);

// Writes [1, z_1, ..., z_d] for each row of `a` (n x d) into `out` (n x (d + 1), any layout), with
// z_j = clamp((x_j - centre_j) / half_width_j, -1, 1): every entry of `out` is in [-1, 1]
// exactly. Returns how many entries were outside their range and clamped (a curator-only count).
// Throws Status::NonFinite, naming the entry, on NaN or infinity; then `out` may be partly written.
int64_t scale_rows_to_box(ConstMatrixView a, const ColumnScale *scales, MatrixView out);

// The (d + 1) x (d + 1) second moment of [1, x] from that of [1, z]: T S T^T with T the map
// [1, z] -> [1, centre + half_width * z]. to_user = false applies the inverse map T^-1 S T^-T.
void transform_second_moment(const ColumnScale *scales, ConstMatrixView in, MatrixView out,
                             bool to_user);

}  // namespace dpcov::data
