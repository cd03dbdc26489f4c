// Everything done to a user's rows before an accumulator sees them, in one place for every
// surface (C ABI, CLI, bindings): the norm bound on x under clip / reject / drop, a leading
// constant column (rows [c, x], the centring and intercept column), public per-column bounds
// (rows [1, z], z in [-1, 1]) and a label column with its own bound (the regression's y). The
// bounded rows have a public norm bound (norm_bound()), so the accumulator keeps every one whole.
#pragma once

#include <cstdint>
#include <vector>

#include "../matrix.hpp"
#include "../privacy/neighbour.hpp"
#include "column_bounds.hpp"
#include "gram.hpp"
#include "row_bound.hpp"

namespace dpcov::data {

// The one rule on the drop policy: under replace-one neighbours n is public, and leaving rows out
// makes it depend on the data (a row inside the bound for one dataset, outside for its neighbour),
// so a request that drops, or may drop, rows is refused there with Status::Precondition, whatever
// the rows: refusing only when a row was dropped would itself tell the rows apart. Under
// add/remove dropping is a 1-stable map (proofs/public_receipt.md).
void check_drop_policy(bool drops, privacy::Neighbour neighbour);

// A checked bounding request for rows of `cols` raw columns (the label, if any, last).
class RowBounding {
 public:
  // bound: B on ||x||, as check_row_bound() (ignored with column bounds). constant: 0 (none) or a
  // finite value > 0 put in front of every row. lower/upper: both null, or `features` public
  // ranges each (then constant must be 0, policy Clip and no label: the rows are [1, z]).
  // label_bound: 0 (no label) or B_y finite > 0, the last raw column being y, |y| <= B_y.
  // balanced: x bounded by B is mapped to x sqrt(d) / B (norm <= sqrt(d), d the columns of x)
  // and y to y / B_y (|y| <= 1), so that the bounded rows are the same whatever the units of x,
  // y, B and B_y (proofs/balanced_rows.md); constant 0 or 1 only, no column bounds.
  // Throws Status::InvalidArgument, Status::NonFinite, Status::Dimension, and
  // Status::Precondition for the drop policy under replace-one (check_drop_policy()).
  RowBounding(int64_t cols, double bound, BoundPolicy policy, double constant,
              const double *lower, const double *upper, double label_bound,
              privacy::Neighbour neighbour, bool balanced = false);

  int64_t cols() const { return cols_; }
  // Columns of the bounded rows: [c or 1,] x or z, [y].
  int64_t out_cols() const;
  // The public norm bound of every bounded row, with room for the accumulator's rounding so that
  // it keeps each one whole (for [c, x] with c = B: sqrt(2) B rounded up, the value the CLI's
  // receipts record).
  double norm_bound() const { return norm_bound_; }
  BoundPolicy policy() const { return policy_; }
  bool column_bounds() const { return !scales_.empty(); }
  // Only the norm bound on x: the rows go to the accumulator as they are, which bounds them with
  // the same row_factor() (and no copy).
  bool norm_only() const {
    return constant_ == 0.0 && label_bound_ == 0.0 && scales_.empty() && x_scale_ == 1.0;
  }
  // The public factor the bounded x carries against the raw one: sqrt(d) / B when balanced,
  // else 1 (coefficient_factors() maps a fit back).
  double x_scale() const { return x_scale_; }
  bool balanced() const { return balanced_; }
  double constant() const { return constant_; }
  double label_bound() const { return label_bound_; }

  // Bounds the rows of `raw` (rows x cols(), any layout) into `out` (row-major, rows x
  // out_cols(), resized), leaving dropped rows out; returns how many rows were written, and adds
  // to `counts` the clipped and dropped rows and the clamped values (counts.rows untouched).
  // Throws a RowError naming the chunk's row: Status::NonFinite, or Status::NormBound under
  // BoundPolicy::Reject.
  int64_t bound_rows(ConstMatrixView raw, std::vector<double> &out, GramCounts &counts) const;

 private:
  int64_t bound_norms(ConstMatrixView raw, std::vector<double> &out, GramCounts &counts) const;

  int64_t cols_;
  double bound_ = 0.0;
  BoundPolicy policy_;
  double constant_ = 0.0;
  std::vector<ColumnScale> scales_;
  double label_bound_ = 0.0;
  double norm_bound_ = 0.0;
  bool balanced_ = false;
  double x_scale_ = 1.0;
};

// The factor that maps each coefficient of a regression fitted on rows bounded by `bounding`
// ([c, x', y'], x' = x x_scale, y' = y / B_y balanced, else y) back to the raw rows' units:
// c B_y for the constant column (the intercept), x_scale B_y for each column of x (B_y read as 1
// unless balanced with a label). The
// factors are public (B, B_y, d) and positive, so standard errors and interval ends map by them
// too (post-processing). Written to `factors` in the bounded rows' column order, the label left
// out: out_cols() - 1 values with a label, out_cols() without.
void coefficient_factors(const RowBounding &bounding, double *factors);

// Adds each row of `a` to the histogram of row norms over the increasing `grid` of `candidates`
// values (the private bound's, dpcov/private_bound.h): counts[k] for the first k with
// norm <= grid[k], counts[candidates] for a norm above them all, a non-finite row or a norm above
// the largest double included (the release that follows refuses a non-finite row itself). The
// norms are the accumulator's (row_sums_of_squares, scaled_norm where the sum over- or
// underflows).
void add_norm_histogram(ConstMatrixView a, const double *grid, int64_t candidates,
                        int64_t *counts);

// The norm bound of rows [c, x] with ||x|| <= B, never below its exact value: for c = B, sqrt(2)
// B rounded up (std::numbers::sqrt2 exceeds sqrt(2), and one step up covers the product's
// rounding); otherwise hypot(c, B) with room for the accumulator's within test. Throws
// Status::InvalidArgument when it overflows.
double constant_column_norm_bound(double constant, double bound);

// The factor that scales x of norm `norm` (features entries) to at most B (1 - (2 d + 24) eps):
// 1 when already there. That margin absorbs the rounding of the sum of squares of [B, x'] and the
// accumulator's within limit, so the row [B, x'] is kept whole; rows within it but not over B
// move by less than (2 d + 24) ulps and are not counted as clipped.
double constant_column_factor(ScaledNorm norm, double bound, int64_t features);

}  // namespace dpcov::data
