#include "row_pass.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>

#include "../check.hpp"
#include "../data/row_bound.hpp"
#include "../linalg/blas.hpp"
#include "coinpress.hpp"
#include "coinpress_mean.hpp"

namespace dpcov::mechanisms {

namespace {

// Exponents beyond these would scale a bounded row out of the normal doubles.
constexpr int32_t kMaxExponent = 1100;

// Scales every row of norm > radius onto the sphere of that radius (data::row_factor shaves the
// factor so the computed norm is <= radius).
void clip_rows(Matrix &x, double radius) {
  const int64_t n = x.rows();
  std::vector<double> sums(static_cast<size_t>(n));
  data::row_sums_of_squares(x.view(), 0, n, sums.data());
  for (int64_t i = 0; i < n; ++i) {
    const double factor =
        data::row_factor(x.view(), i, sums[static_cast<size_t>(i)], radius, BoundPolicy::Clip);
    if (factor != 1.0)
      for (int64_t j = 0; j < x.cols(); ++j) x(i, j) *= factor;
  }
}

void scale(Matrix &x, int exponent) {
  for (int64_t j = 0; j < x.cols(); ++j)
    for (int64_t i = 0; i < x.rows(); ++i) x(i, j) = std::ldexp(x(i, j), -exponent);
}

// The code's get_bincounts: counts[l], l = 1..m-1, is the number of rows whose norm u (in units of
// r) lies in (2^-l, 2^(1-l)]; rows at or below 2^(1-m) are not counted. The norms are computed on
// the rows scaled by 2^-e, r < 2^e, so that no sum of squares overflows.
void count_norms(const Matrix &x, double r, int e, std::vector<int64_t> &counts) {
  const int64_t m = static_cast<int64_t>(counts.size());
  for (int64_t i = 0; i < x.rows(); ++i) {
    double sum = 0.0;
    for (int64_t j = 0; j < x.cols(); ++j) {
      const double v = std::ldexp(x(i, j), -e);
      sum += v * v;
    }
    const double u = std::sqrt(sum) / std::ldexp(r, -e);
    int64_t l = 1;
    while (l < m && !(u > std::ldexp(1.0, static_cast<int>(-l)))) ++l;
    if (l < m) ++counts[static_cast<size_t>(l)];
  }
}

// The rows whose outer products a pass sums (already scaled by 2^-moment_exponent), counting
// the histogram on the way.
Matrix mapped_rows(const RowPass &pass, ConstMatrixView rows, std::vector<int64_t> &counts) {
  if (pass.kind == RowPassKind::CoinpressStep) {
    Matrix a(pass.dim, pass.dim);
    std::copy(pass.transform.begin(), pass.transform.end(), a.data());
    if (pass.centre.empty())
      return coinpress_whitened_rows(rows, a, pass.clip_radii[0], pass.authors_code);
    const Matrix centred = coinpress_centred_rows(rows, pass.centre);
    return coinpress_whitened_rows(centred.view(), a, pass.clip_radii[0], pass.authors_code);
  }
  Matrix x = Matrix::from(rows);
  if (pass.pre_clip > 0.0) clip_rows(x, pass.pre_clip);
  scale(x, pass.scale_exponent);
  for (size_t k = 0; k < pass.clip_radii.size(); ++k) {
    clip_rows(x, pass.clip_radii[k]);
    if (k == 0 && pass.histogram_bins > 0)
      count_norms(x, pass.clip_radii[0], std::ilogb(pass.clip_radii[0]) + 1, counts);
  }
  scale(x, pass.moment_exponent);
  return x;
}

}  // namespace

void check_row_pass(const RowPass &pass) {
  if (pass.kind != RowPassKind::DlyMoment && pass.kind != RowPassKind::CoinpressStep &&
      pass.kind != RowPassKind::CoinpressMeanStep)
    fail(Status::InvalidArgument, "unknown pass kind ", static_cast<int32_t>(pass.kind));
  check::dimension(pass.dim, "d");
  if (pass.index < 0) fail(Status::InvalidArgument, "pass index must be >= 0, got ", pass.index);
  if (pass.clip_radii.empty() || pass.clip_radii.size() > 2)
    fail(Status::InvalidArgument, "a pass clips to one or two radii, got ",
         pass.clip_radii.size());
  for (double r : pass.clip_radii) data::check_row_bound(r, "pass clip radius");
  if (pass.pre_clip != 0.0) data::check_row_bound(pass.pre_clip, "pass pre-clip radius");
  if (std::abs(pass.scale_exponent) > kMaxExponent || std::abs(pass.moment_exponent) > kMaxExponent)
    fail(Status::InvalidArgument, "pass exponents must be within +-", kMaxExponent);
  if (pass.histogram_bins < 0 || pass.histogram_bins > 80)
    fail(Status::InvalidArgument, "pass histogram bins must be in [0, 80], got ",
         pass.histogram_bins);
  if (pass.kind == RowPassKind::CoinpressMeanStep) {
    if (static_cast<int64_t>(pass.transform.size()) != pass.dim)
      fail(Status::Dimension, "a CoinPress mean pass's centre must hold d = ", pass.dim,
           " values, got ", pass.transform.size());
    for (double v : pass.transform) check::finite(v, "pass centre");
    if (pass.clip_radii.size() != 1 || pass.histogram_bins != 0 || pass.pre_clip != 0.0 ||
        pass.scale_exponent != 0 || pass.moment_exponent < 0 || pass.authors_code)
      fail(Status::InvalidArgument, "a CoinPress mean pass clips to one radius, scales its sum ",
           "down only and counts nothing");
    if (!pass.centre.empty())
      fail(Status::InvalidArgument, "a CoinPress mean pass's centre is its transform");
  } else if (pass.kind == RowPassKind::CoinpressStep) {
    if (static_cast<int64_t>(pass.transform.size()) != pass.dim * pass.dim)
      fail(Status::Dimension, "a CoinPress pass's transform must hold d^2 = ", pass.dim * pass.dim,
           " values, got ", pass.transform.size());
    for (double v : pass.transform) check::finite(v, "pass transform");
    if (pass.clip_radii.size() != 1 || pass.histogram_bins != 0)
      fail(Status::InvalidArgument, "a CoinPress pass clips to one radius and counts nothing");
    if (!pass.centre.empty() && static_cast<int64_t>(pass.centre.size()) != pass.dim)
      fail(Status::Dimension, "a CoinPress pass's centre must hold d = ", pass.dim,
           " values, got ", pass.centre.size());
    for (double v : pass.centre) check::finite(v, "pass centre");
  } else if (!pass.transform.empty() || !pass.centre.empty() || pass.authors_code) {
    fail(Status::InvalidArgument, "a Dong-Liang-Yi pass has no transform");
  }
}

uint64_t sum_entry_count(const RowPass &pass) {
  const auto d = static_cast<uint64_t>(pass.dim);
  return pass.kind == RowPassKind::CoinpressMeanStep ? d : d * (d + 1) / 2;
}

RowPartial row_partial(const RowPass &pass) {
  check_row_pass(pass);
  RowPartial p;
  p.pass = pass;
  const int64_t sum_rows = pass.kind == RowPassKind::CoinpressMeanStep ? 1 : pass.dim;
  p.sum = Matrix(sum_rows, pass.dim);
  p.compensation = Matrix(sum_rows, pass.dim);
  p.counts.assign(static_cast<size_t>(pass.histogram_bins), 0);
  return p;
}

void check_partial_sums(const RowPartial &partial) {
  const RowPass &pass = partial.pass;
  if (partial.rows < 0) fail(Status::InvalidArgument, "a partial's row count is negative");
  const double b = std::ldexp(pass.clip_radii.back(), -pass.moment_exponent);
  // Rounded up: rows b^2 with a margin of the summation's rounding, so that no sum of bounded
  // rows is refused.
  const double limit = static_cast<double>(partial.rows) * b * b * (1.0 + 1e-9) + 1e-300;
  // A mean pass sums vectors of norm <= b: each entry is within rows b.
  const double vector_limit = static_cast<double>(partial.rows) * b * (1.0 + 1e-9) + 1e-300;
  const bool vector = pass.kind == RowPassKind::CoinpressMeanStep;
  for_each_sum_entry(pass, [&](int64_t i, int64_t j) {
    const double v = partial.sum(i, j) + partial.compensation(i, j);
    check::finite(partial.sum(i, j), "a partial's sum");
    check::finite(partial.compensation(i, j), "a partial's compensation");
    // Each part within the entry's own limit too: a sum and a compensation that cancel far out
    // (+-DBL_MAX) would pass the check of their total and overflow a merge.
    const double entry_limit = vector ? vector_limit : limit;
    if (!(std::abs(partial.sum(i, j)) <= entry_limit &&
          std::abs(partial.compensation(i, j)) <= entry_limit))
      fail(Status::InvalidArgument, "a partial's sum or compensation at entry (", i, ", ", j,
           ") is outside the bound of its row count");
    if (vector && !(std::abs(v) <= vector_limit))
      fail(Status::InvalidArgument, "a partial's entry ", j,
           " is outside +-rows b for its row count");
    if (!vector && i == j && !(v >= 0.0 && v <= limit))
      fail(Status::InvalidArgument, "a partial's diagonal entry ", i,
           " is outside [0, rows b^2] for its row count");
    // A Gram matrix's off-diagonal entry is within the mean of its two diagonal entries, so
    // within rows b^2.
    if (!vector && i != j && !(std::abs(v) <= limit))
      fail(Status::InvalidArgument, "a partial's entry (", i, ", ", j,
           ") is outside +-rows b^2 for its row count");
  });
  int64_t total = 0;
  for (int64_t c : partial.counts) {
    if (c < 0 || c > partial.rows - total)
      fail(Status::InvalidArgument, "a partial's histogram counts must be >= 0 and add up to at ",
           "most its row count");
    total += c;
  }
}

void add_rows(RowPartial &partial, ConstMatrixView rows) {
  const int64_t d = partial.pass.dim;
  if (rows.cols != d) fail(Status::Dimension, "rows must have d = ", d, " columns, got ", rows.cols);
  if (rows.rows == 0) return;
  if (rows.rows > std::numeric_limits<int64_t>::max() - partial.rows)
    fail(Status::TooLarge, "the partial's row count overflows a 64-bit integer");
  check::all_finite(rows, "rows");
  if (partial.pass.kind == RowPassKind::CoinpressMeanStep) {
    coinpress_mean_add_offsets(rows, partial.pass.transform, partial.pass.clip_radii[0],
                               partial.pass.moment_exponent, partial.sum, partial.compensation);
    partial.rows += rows.rows;
    return;
  }
  std::vector<int64_t> counts = partial.counts;
  const Matrix y = mapped_rows(partial.pass, rows, counts);
  Matrix chunk(d, d);
  linalg::syrk_upper(y.view(), 0.0, chunk.data(), d);
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i <= j; ++i)
      data::neumaier_add(partial.sum(i, j), partial.compensation(i, j), chunk(i, j));
  partial.counts = std::move(counts);
  partial.rows += rows.rows;
}

void merge(RowPartial &into, const RowPartial &from) {
  if (!(into.pass == from.pass))
    fail(Status::Incompatible, "the partials are of different passes (pass ", into.pass.index,
         " and pass ", from.pass.index, ", or another mechanism or step)");
  if (from.rows > std::numeric_limits<int64_t>::max() - into.rows)
    fail(Status::TooLarge, "the merged row count overflows");
  // On copies: a refusal leaves `into` unchanged.
  Matrix sum = into.sum, compensation = into.compensation;
  for_each_sum_entry(into.pass, [&](int64_t i, int64_t j) {
    data::neumaier_add(sum(i, j), compensation(i, j), from.sum(i, j));
    data::neumaier_add(sum(i, j), compensation(i, j), from.compensation(i, j));
    if (!std::isfinite(sum(i, j)) || !std::isfinite(compensation(i, j)))
      fail(Status::InvalidArgument, "the merged partials' entry (", i, ", ", j,
           ") is not finite: a partial's sums are outside the bound of its row count");
  });
  into.sum = std::move(sum);
  into.compensation = std::move(compensation);
  for (size_t l = 0; l < into.counts.size(); ++l) into.counts[l] += from.counts[l];
  into.rows += from.rows;
}

void check_pass_sums(const RowPass &pass, int64_t n, const RowPartial &merged) {
  if (!(merged.pass == pass))
    fail(Status::Incompatible, "the partial is of pass ", merged.pass.index,
         " of another release or step, not of pass ", pass.index, " of this one");
  if (merged.rows != n)
    fail(Status::Dimension, "the merged partial must hold all n = ", n,
         " rows the release was planned for, and holds another count");
}

Matrix pass_moment(const RowPartial &partial, int64_t n) {
  const int64_t d = partial.pass.dim;
  const int e = partial.pass.moment_exponent;
  const double inv_n = 1.0 / static_cast<double>(n);
  Matrix s(d, d);
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i <= j; ++i)
      s(i, j) = std::ldexp((partial.sum(i, j) + partial.compensation(i, j)) * inv_n, 2 * e);
  linalg::symmetrize_from_upper(s);
  return s;
}

}  // namespace dpcov::mechanisms
