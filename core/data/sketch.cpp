#include "sketch.hpp"

#include <algorithm>
#include <cmath>

#include "../check.hpp"
#include "../error.hpp"
#include "../linalg/blas.hpp"
#include "../random/normal.hpp"
#include "row_bound.hpp"

namespace dpcov {

namespace {

using Ranges = std::vector<std::pair<int64_t, int64_t>>;

// The weights of about this many doubles are generated at a time (1 MiB), with at least
// kMinBlockRows rows so that dgemm's inner dimension stays large enough to run at full speed.
constexpr int64_t kBlockDoubles = 131072;
constexpr int64_t kMinBlockRows = 64;

// The union of two sorted lists of disjoint, non-adjacent ranges, with adjacent ranges joined.
// Throws Status::InvalidArgument if the lists overlap.
Ranges unite(const Ranges &a, const Ranges &b) {
  Ranges all;
  all.reserve(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(all));
  Ranges out;
  out.reserve(all.size());
  for (const auto &r : all) {
    if (!out.empty() && r.first < out.back().second)
      fail(Status::InvalidArgument, "row indices [", r.first, ", ", r.second,
           ") overlap row indices [", out.back().first, ", ", out.back().second,
           ") already in the sketch: each global row index may be used once, since two rows ",
           "sharing Gaussian weights are not covered by the privacy guarantee");
    if (!out.empty() && r.first == out.back().second)
      out.back().second = r.second;
    else
      out.push_back(r);
  }
  return out;
}

// r, once d and r are checked: before the generator is split, so that a refused shape draws nothing.
int64_t checked_projection_rows(int64_t dim, int64_t projection_rows) {
  check::dimension(dim, "dimension");
  if (projection_rows < 1)
    fail(Status::Dimension, "the number of projection rows r must be >= 1, got ", projection_rows);
  if (projection_rows > check::kBlasIntMax / dim)
    fail(Status::TooLarge, "the sketch r x d = ", projection_rows, " x ", dim,
         " must fit a 32-bit BLAS integer");
  return projection_rows;
}

}  // namespace

SketchAccumulator::SketchAccumulator(int64_t dim, int64_t projection_rows, random::Rng &generator)
    : SketchAccumulator(dim, checked_projection_rows(dim, projection_rows), generator.split(),
                        Weights{}) {}

SketchAccumulator::SketchAccumulator(int64_t dim, int64_t projection_rows,
                                     random::Rng weights, Weights)
    : rows_(projection_rows), generator_(std::move(weights)), gram_(dim) {
  sum_.assign(static_cast<size_t>(rows_ * dim), 0.0);
  comp_.assign(static_cast<size_t>(rows_ * dim), 0.0);
}

SketchAccumulator SketchAccumulator::partial() const {
  return SketchAccumulator(dim(), rows_, generator_, Weights{});
}

GramCounts SketchAccumulator::add_rows(ConstMatrixView a, int64_t first_index, double bound,
                                       BoundPolicy policy) {
  const int64_t d = dim();
  if (a.cols != d)
    fail(Status::Dimension, "rows have ", a.cols, " columns but the sketch has ", d);
  data::check_row_bound(bound, "bound");
  if (first_index < 0)
    fail(Status::InvalidArgument, "first_index must be >= 0, got ", first_index);
  if (a.rows > INT64_MAX - first_index)
    fail(Status::InvalidArgument, "row indices ", first_index, " + ", a.rows,
         " overflow a 64-bit integer");
  if (a.rows == 0) return gram_.add_rows(a, bound, policy);
  const Ranges used = unite(used_, {{first_index, first_index + a.rows}});

  // The chunk's sketch in scratch, block by block: the weights of each block's rows, each column
  // scaled by the factor that bounds its row (0 for a dropped row), times the rows themselves,
  // straight from the caller's memory. Nothing is committed until the whole chunk is validated.
  const int64_t block_rows = std::max(kMinBlockRows, kBlockDoubles / rows_);
  Matrix chunk(rows_, d);
  Matrix weights(rows_, block_rows);
  std::vector<double> sums(static_cast<size_t>(block_rows));
  const double limit_squared = data::within_limit_squared(bound, d);
  for (int64_t first = 0; first < a.rows; first += block_rows) {
    const int64_t count = std::min(block_rows, a.rows - first);
    data::row_sums_of_squares(a, first, count, sums.data());
    for (int64_t i = 0; i < count; ++i) {
      const double sum = sums[static_cast<size_t>(i)];
      const double factor = data::surely_within(sum, limit_squared)
                                ? 1.0
                                : data::row_factor(a, first + i, sum, bound, policy);
      double *column = weights.data() + i * rows_;
      if (factor == 0.0) {
        std::fill(column, column + rows_, 0.0);
        continue;
      }
      random::Rng stream =
          generator_.substream(static_cast<uint64_t>(first_index + first + i));
      for (int64_t k = 0; k < rows_; ++k) column[k] = factor * random::standard_normal(stream);
    }
    linalg::gemm_views(1.0, {weights.data(), rows_, count, rows_, Layout::ColMajor},
                       a.row_block(first, count), 1.0, chunk.view());
  }

  // The Gram of the same rows validates them again (the same code, so it cannot disagree) and can
  // only throw before changing anything; the commit below cannot throw.
  const GramCounts added = gram_.add_rows(a, bound, policy);
  for (size_t at = 0; at < sum_.size(); ++at) data::neumaier_add(sum_[at], comp_[at], chunk.data()[at]);
  used_ = std::move(used);
  return added;
}

void SketchAccumulator::merge(const SketchAccumulator &other) {
  if (&other == this) fail(Status::InvalidArgument, "cannot merge a sketch into itself");
  if (other.dim() != dim() || other.rows_ != rows_)
    fail(Status::Incompatible, "cannot merge sketches of shapes ", rows_, " x ", dim(), " and ",
         other.rows_, " x ", other.dim());
  if (other.generator_.key() != generator_.key())
    fail(Status::Incompatible,
         "cannot merge sketches whose Gaussian weights come from different generator keys");
  Ranges used = unite(used_, other.used_);
  gram_.merge(other.gram_);  // throws, changing nothing, if the bounds differ
  for (size_t at = 0; at < sum_.size(); ++at) {
    data::neumaier_add(sum_[at], comp_[at], other.sum_[at]);
    data::neumaier_add(sum_[at], comp_[at], other.comp_[at]);
  }
  used_ = std::move(used);
}

Matrix SketchAccumulator::data_sketch() const {
  Matrix s(rows_, dim());
  for (size_t at = 0; at < sum_.size(); ++at) s.data()[at] = sum_[at] + comp_[at];
  return s;
}

Matrix SketchAccumulator::identity_weights() const {
  Matrix r(rows_, dim());
  for (int64_t j = 0; j < dim(); ++j) {
    random::Rng stream = generator_.substream(kIdentityDomain + static_cast<uint64_t>(j));
    for (int64_t k = 0; k < rows_; ++k) r(k, j) = random::standard_normal(stream);
  }
  return r;
}

Matrix SketchAccumulator::sketch(double w) const {
  if (!(std::isfinite(w) && w >= 0.0))
    fail(Status::InvalidArgument, "w must be finite and >= 0, got ", w);
  Matrix s = data_sketch();
  if (w == 0.0) return s;
  const Matrix r = identity_weights();
  for (int64_t j = 0; j < dim(); ++j)
    for (int64_t k = 0; k < rows_; ++k) s(k, j) += w * r(k, j);
  return s;
}

SketchAccumulator SketchAccumulator::from_state(random::Rng &generator, int64_t projection_rows,
                                                const GramAccumulator &gram,
                                                ConstMatrixView data_sketch) {
  if (gram.bound() == 0.0)
    fail(Status::InvalidArgument,
         "gram holds no chunk of rows, so the bound of the sketch's rows is unknown");
  checked_projection_rows(gram.dim(), projection_rows);
  if (data_sketch.rows != projection_rows || data_sketch.cols != gram.dim())
    fail(Status::Dimension, "data_sketch must be r x d = ", projection_rows, " x ", gram.dim(),
         ", got ", data_sketch.rows, " x ", data_sketch.cols);
  check::all_finite(data_sketch, "data_sketch");
  SketchAccumulator acc(gram.dim(), projection_rows, generator);
  for (int64_t j = 0; j < acc.dim(); ++j)
    for (int64_t k = 0; k < projection_rows; ++k)
      acc.sum_[static_cast<size_t>(k + j * projection_rows)] = data_sketch(k, j);
  acc.gram_ = gram;
  // Every data row index counts as used: the indices behind the sum are unknown, and adding a row
  // whose index is among them would reuse its Gaussian weights.
  acc.used_ = {{0, INT64_MAX}};
  return acc;
}

}  // namespace dpcov
