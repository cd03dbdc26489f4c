#include "row_bounding.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "../error.hpp"
#include "box_norm_bound.hpp"
#include "unit_norm_histogram.hpp"

namespace dpcov::data {

namespace {

constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

// The relative room (d + 64) 2^-50 above an exact norm bound that keeps a row of d entries of
// exact norm <= that bound inside the accumulator's within limit, B (1 - (d + 16) 2^-53), with
// room for hypot's rounding (under one ulp).
double with_room(double exact_bound, int64_t entries) {
  return exact_bound * (1.0 + (static_cast<double>(entries) + 64.0) * 0x1p-50);
}

void check_positive(double value, const char *name) {
  if (!std::isfinite(value))
    fail(Status::NonFinite, name, " must be finite, got ", value);
  if (!(value > 0.0))
    fail(Status::InvalidArgument, name, " must be > 0 (or 0 for none), got ", value);
}

}  // namespace

void check_drop_policy(bool drops, privacy::Neighbour neighbour) {
  if (drops && neighbour == privacy::Neighbour::ReplaceOne)
    fail(Status::Precondition,
         "the drop policy (DPCOV_BOUND_DROP) leaves rows over the bound out: ",
         "under replace-one neighbours n is public, and dropping would make it depend on the ",
         "data; clip the rows (DPCOV_BOUND_CLIP) or state the guarantee for add/remove neighbours");
}

double constant_column_norm_bound(double constant, double bound) {
  // sqrt2 (the double) exceeds sqrt(2) by 9.7e-17; the product's rounding may fall below
  // sqrt(2) B by less than half an ulp, which the step up covers.
  const double out =
      constant == bound
          ? std::nextafter(bound * std::numbers::sqrt2, std::numeric_limits<double>::infinity())
          : with_room(std::hypot(constant, bound), 2);
  if (!std::isfinite(out))
    fail(Status::InvalidArgument, "the norm bound of the rows [c, x] (c = ", constant,
         ", ||x|| <= ", bound, ") overflows");
  return out;
}

namespace {

// limit / (rest 2^e) with limit = m 2^k split, so that the division is between normal numbers
// even when ||x|| is above the largest double; a subnormal result is shaved one ulp down.
double limit_over_norm(double limit, ScaledNorm norm) {
  int k = 0;
  const double m = std::frexp(limit, &k);
  return shave_subnormal(std::ldexp(m / norm.rest, k - norm.exponent));
}

// The one factor that bounds x by B and balances it: x sqrt(d) / B within B, else
// x sqrt(d) (1 - (2 d + 24) eps) / ||x|| computed from the norm directly, so that a row far
// beyond B is put on the sphere of radius sqrt(d) however small B / ||x|| is (the product of
// the two factors would underflow).
double balanced_factor(ScaledNorm norm, double bound, double x_scale, int64_t features) {
  if (constant_column_factor(norm, bound, features) == 1.0) return x_scale;
  const double d = static_cast<double>(features);
  return limit_over_norm(std::sqrt(d) * (1.0 - (2.0 * d + 24.0) * kEpsilon), norm);
}

}  // namespace

double constant_column_factor(ScaledNorm norm, double bound, int64_t features) {
  // A relative margin of (2 d + 24) eps on ||x'|| absorbs the rounding of ||x|| (about
  // (d / 2 + 2) u, u = eps / 2), of the scaled entries and of the sum of squares of the d + 1
  // entries of [B, x'] (about (d + 3) u), and the accumulator's within limit, which keeps a row
  // whole only below (sqrt(2) B within_shave(d + 1))^2 (proofs/row_bound.md): the sum stays
  // below 2 B^2 (1 - (2 c - 1.5 d - 6) u) for a margin of c eps, the limit above
  // 2 B^2 (1 - (2 d + 37) u), so c >= 1.75 d + 21.5 suffices.
  const double limit = bound * (1.0 - (2.0 * static_cast<double>(features) + 24.0) * kEpsilon);
  if (norm.value() <= limit) return 1.0;
  return limit_over_norm(limit, norm);
}

void add_norm_histogram(ConstMatrixView a, const double *grid, int64_t candidates,
                        int64_t *counts) {
  std::vector<int64_t> cells(static_cast<size_t>(a.rows));
  norm_cells(a, grid, candidates, cells.data());
  for (int64_t cell : cells) ++counts[cell];
}

RowBounding::RowBounding(int64_t cols, double bound, BoundPolicy policy, double constant,
                         const double *lower, const double *upper, double label_bound,
                         privacy::Neighbour neighbour, bool balanced)
    : cols_(cols), policy_(policy), balanced_(balanced) {
  if (policy != BoundPolicy::Clip && policy != BoundPolicy::Reject && policy != BoundPolicy::Drop)
    fail(Status::InvalidArgument, "policy must be DPCOV_BOUND_CLIP (0), DPCOV_BOUND_REJECT (1) ",
         "or DPCOV_BOUND_DROP (2), got ", static_cast<int32_t>(policy));
  if (neighbour != privacy::Neighbour::ReplaceOne && neighbour != privacy::Neighbour::AddRemove)
    fail(Status::InvalidArgument, "neighbour must be DPCOV_NEIGHBOUR_REPLACE_ONE (0) or ",
         "DPCOV_NEIGHBOUR_ADD_REMOVE (1), got ", static_cast<int32_t>(neighbour));
  if (label_bound != 0.0) check_positive(label_bound, "label_bound");
  if (constant != 0.0) check_positive(constant, "constant");
  label_bound_ = label_bound;
  constant_ = constant;
  const int64_t features = cols - (label_bound > 0.0 ? 1 : 0);
  if (features < 1 || cols > INT64_MAX - 1)
    fail(Status::Dimension, "rows need at least one column besides the label, got ", cols);
  if ((lower == nullptr) != (upper == nullptr))
    fail(Status::NullPointer, "lower and upper must both be given or both be NULL");
  if (lower != nullptr) {
    if (constant != 0.0 || label_bound != 0.0 || policy != BoundPolicy::Clip || balanced)
      fail(Status::InvalidArgument, "column bounds put a constant 1 in front and clamp values ",
           "into their ranges: they take no constant, no label, no balancing (the ranges balance ",
           "the columns already) and policy DPCOV_BOUND_CLIP only");
    scales_.resize(static_cast<size_t>(cols));
    for (int64_t j = 0; j < cols; ++j)
      scales_[static_cast<size_t>(j)] = column_scale(lower[j], upper[j], j);
    norm_bound_ = box_norm_bound(cols + 1);
    return;
  }
  check_drop_policy(policy == BoundPolicy::Drop, neighbour);
  check_row_bound(bound, "bound");
  bound_ = bound;
  if (balanced) {
    if (constant != 0.0 && constant != 1.0)
      fail(Status::InvalidArgument, "balanced rows take constant 0 or 1 (the intercept's ",
           "column, on the scale of the balanced x), got ", constant);
    // Finite: B >= 2^-960 (check_row_bound) and d < 2^63.
    x_scale_ = std::sqrt(static_cast<double>(features)) / bound;
    // Refused before any row is read, so that a fit on these rows always maps back.
    const double slope_factor = x_scale_ * (label_bound > 0.0 ? label_bound : 1.0);
    if (!std::isfinite(slope_factor) || !(slope_factor >= std::numeric_limits<double>::min()))
      fail(Status::InvalidArgument, "balanced rows with bound ", bound, " and label bound ",
           label_bound, ": the factor sqrt(d) B_y / B that maps a fit back to the data's units ",
           "is not a normal double; give the columns in units nearer each other's");
  }
  // Balanced, x' has norm <= sqrt(d) (the factor's margin covers the scale's rounding) and
  // |y'| <= 1 (division is monotone).
  const double raw_x_bound = balanced ? std::sqrt(static_cast<double>(features)) : bound;
  const double y_bound = balanced && label_bound > 0.0 ? 1.0 : label_bound;
  const double x_bound =
      constant == 0.0 ? raw_x_bound
      : balanced      ? with_room(std::hypot(constant, raw_x_bound), 2)
                      : constant_column_norm_bound(constant, bound);
  norm_bound_ = label_bound > 0.0 ? with_room(std::hypot(x_bound, y_bound), out_cols())
                                  : x_bound;
  if (!std::isfinite(norm_bound_))
    fail(Status::InvalidArgument, "the norm bound of the rows [x, y] (||x|| <= ", x_bound,
         ", |y| <= ", label_bound, ") overflows");
}

int64_t RowBounding::out_cols() const {
  return cols_ + (constant_ != 0.0 || !scales_.empty() ? 1 : 0);
}

int64_t RowBounding::bound_rows(ConstMatrixView raw, std::vector<double> &out,
                                GramCounts &counts) const {
  if (raw.cols != cols_)
    fail(Status::Dimension, "rows have ", raw.cols, " columns but the bounding expects ", cols_);
  out.resize(static_cast<size_t>(raw.rows * out_cols()));
  if (scales_.empty()) return bound_norms(raw, out, counts);
  const MatrixView boxed{out.data(), raw.rows, out_cols(), out_cols(), Layout::RowMajor};
  counts.clamped += scale_rows_to_box(raw, scales_.data(), boxed);
  return raw.rows;
}

int64_t RowBounding::bound_norms(ConstMatrixView raw, std::vector<double> &out,
                                 GramCounts &counts) const {
  const bool label = label_bound_ > 0.0;
  const ConstMatrixView x{raw.data, raw.rows, cols_ - (label ? 1 : 0), raw.ld, raw.layout};
  std::vector<double> sums(static_cast<size_t>(raw.rows));
  row_sums_of_squares(x, 0, raw.rows, sums.data());
  const double limit_squared = within_limit_squared(bound_, x.cols);
  const int64_t width = out_cols();
  int64_t kept = 0;
  for (int64_t i = 0; i < raw.rows; ++i) {
    double factor = 1.0;
    bool over = false;
    if (constant_ != 0.0 || balanced_) {
      const ScaledNorm norm = measured_norm(x, i, sums[static_cast<size_t>(i)]);
      over = norm.value() > bound_;
      if (over && policy_ == BoundPolicy::Reject)
        fail_row_over(i, {norm.rest, norm.exponent}, "row ", i, " (0-based) has norm > bound ",
                      bound_);
      factor = over && policy_ == BoundPolicy::Drop ? 0.0
               : balanced_ ? balanced_factor(norm, bound_, x_scale_, x.cols)
                           : constant_column_factor(norm, bound_, x.cols);
    } else if (!surely_within(sums[static_cast<size_t>(i)], limit_squared)) {
      factor = row_factor(x, i, sums[static_cast<size_t>(i)], bound_, policy_);
      over = factor < 1.0;
    }
    double y = 0.0;
    if (label) {
      y = raw(i, cols_ - 1);
      if (!std::isfinite(y))
        fail_row(Status::NonFinite, i, "row ", i, ", column ", cols_ - 1,
                 " (0-based, the label) is not finite; rows must be finite");
      if (std::fabs(y) > label_bound_) {
        if (policy_ == BoundPolicy::Reject)
          fail_row_over(i, {std::fabs(y), 0, true}, "row ", i,
                        " (0-based) has label |y| > label bound ", label_bound_);
        over = true;
        if (policy_ == BoundPolicy::Drop) factor = 0.0;
        y = std::clamp(y, -label_bound_, label_bound_);
      }
      if (balanced_) y /= label_bound_;
    }
    if (policy_ == BoundPolicy::Drop && over && factor == 0.0) {
      ++counts.dropped;
      continue;
    }
    counts.clipped += over ? 1 : 0;
    double *o = out.data() + kept * width;
    if (constant_ != 0.0) *o++ = constant_;
    for (int64_t j = 0; j < x.cols; ++j) o[j] = factor * x(i, j);
    if (label) o[x.cols] = y;
    ++kept;
  }
  return kept;
}

void coefficient_factors(const RowBounding &bounding, double *factors) {
  const double label = bounding.balanced() && bounding.label_bound() > 0.0
                           ? bounding.label_bound() : 1.0;
  double *f = factors;
  if (bounding.constant() != 0.0) *f++ = bounding.constant() * label;
  const int64_t features = bounding.cols() - (bounding.label_bound() > 0.0 ? 1 : 0);
  for (int64_t j = 0; j < features; ++j) f[j] = bounding.x_scale() * label;
}

}  // namespace dpcov::data
