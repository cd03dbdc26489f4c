#include "gram.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "../check.hpp"
#include "../error.hpp"
#include "../linalg/blas.hpp"

namespace dpcov {

namespace {

// A row over the bound found by the validation pass, with the factor that clips it.
struct OverBound {
  int64_t row;
  double scale;  // 0 when the row is dropped
};

// Squared Euclidean norm of row i, or throws on a non-finite entry. The plain sum of squares is
// exact enough for the bound test in all but over/underflowing rows, which fall back to dnrm2.
double row_norm(ConstMatrixView a, int64_t i) {
  const double *r = a.row(i);
  const int64_t step = a.col_stride();
  double sum = 0.0;
  for (int64_t j = 0; j < a.cols; ++j) sum += r[j * step] * r[j * step];
  if (std::isfinite(sum) && sum > 1e-280) return std::sqrt(sum);
  for (int64_t j = 0; j < a.cols; ++j)
    if (!std::isfinite(r[j * step]))
      fail(DPCOV_E_NON_FINITE, "row ", i, ", column ", j, " (0-based) is ", r[j * step],
           "; rows must be finite");
  return linalg::nrm2(a.cols, r, step);
}

// Neumaier's compensated addition of x into (s, c).
inline void neumaier_add(double &s, double &c, double x) {
  const double t = s + x;
  c += std::fabs(s) >= std::fabs(x) ? (s - t) + x : (x - t) + s;
  s = t;
}

}  // namespace

GramAccumulator::GramAccumulator(int64_t dim) : dim_(dim) {
  check::dimension(dim, "dimension");
  sum_.assign(static_cast<size_t>(dim * dim), 0.0);
  comp_.assign(static_cast<size_t>(dim * dim), 0.0);
}

GramCounts GramAccumulator::add_rows(ConstMatrixView a, double bound, BoundPolicy policy) {
  if (a.cols != dim_)
    fail(DPCOV_E_DIMENSION, "rows have ", a.cols, " columns but the accumulator has ", dim_);
  check::positive_finite(bound, "bound");
  if (bound_ != 0.0 && bound != bound_)
    fail(DPCOV_E_INCOMPATIBLE, "bound ", bound, " differs from the bound ", bound_,
         " of the rows already accumulated");

  // Pass 1: validate every row before touching any state.
  std::vector<OverBound> over;
  for (int64_t i = 0; i < a.rows; ++i) {
    const double norm = row_norm(a, i);
    if (norm <= bound) continue;
    if (policy == BoundPolicy::Reject)
      fail(DPCOV_E_NORM_BOUND, "row ", i, " (0-based) has norm ", norm, " > bound ", bound);
    // The factor is shaved by a few ulps so that the clipped row's computed norm cannot round
    // above B: the bound is what the privacy proofs rely on.
    const double scale = policy == BoundPolicy::Clip
                             ? (bound / norm) * (1.0 - 4.0 * std::numeric_limits<double>::epsilon())
                             : 0.0;
    over.push_back({i, scale});
  }

  GramCounts added;
  added.dropped = policy == BoundPolicy::Drop ? static_cast<int64_t>(over.size()) : 0;
  added.clipped = policy == BoundPolicy::Clip ? static_cast<int64_t>(over.size()) : 0;
  added.rows = a.rows - added.dropped;
  if (counts_.rows > INT64_MAX - added.rows)
    fail(DPCOV_E_TOO_LARGE, "row count overflows a 64-bit integer");

  // Pass 2: the chunk's Gram into a scratch matrix. Runs of in-bound rows go to dsyrk straight
  // from the caller's memory (in the common case, one call for the whole chunk); rows over the
  // bound are scaled into a small buffer first.
  std::vector<double> chunk(static_cast<size_t>(dim_ * dim_), 0.0);
  constexpr int64_t kScratchRows = 256;
  std::vector<double> scratch;
  int64_t next = 0;  // first row not yet accumulated
  size_t k = 0;      // next entry of `over`
  while (next < a.rows) {
    const int64_t run_end = k < over.size() ? over[k].row : a.rows;
    if (run_end > next) {
      // Split so that the row count fits a BLAS integer.
      for (int64_t first = next; first < run_end; first += check::kBlasIntMax) {
        const int64_t count = std::min<int64_t>(check::kBlasIntMax, run_end - first);
        linalg::syrk_upper(a.row_block(first, count), 1.0, chunk.data(), dim_);
      }
      next = run_end;
      continue;
    }
    // Consecutive over-bound rows, scaled into row-major scratch (dropped rows are skipped).
    if (scratch.empty()) scratch.resize(static_cast<size_t>(kScratchRows * dim_));
    int64_t filled = 0;
    while (k < over.size() && over[k].row == next && filled < kScratchRows) {
      if (over[k].scale > 0.0) {
        for (int64_t j = 0; j < dim_; ++j)
          scratch[static_cast<size_t>(filled * dim_ + j)] = over[k].scale * a(next, j);
        ++filled;
      }
      ++k;
      ++next;
    }
    linalg::syrk_upper({scratch.data(), filled, dim_, dim_, Layout::RowMajor}, 1.0, chunk.data(),
                       dim_);
  }

  // Commit: nothing below can throw.
  if (a.rows > 0) {
    add_upper(chunk.data());
    bound_ = bound;
  }
  counts_.rows += added.rows;
  counts_.clipped += added.clipped;
  counts_.dropped += added.dropped;
  return added;
}

void GramAccumulator::add_upper(const double *chunk) {
  for (int64_t j = 0; j < dim_; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      const size_t at = static_cast<size_t>(i + j * dim_);
      neumaier_add(sum_[at], comp_[at], chunk[at]);
    }
}

void GramAccumulator::merge(const GramAccumulator &other) {
  if (&other == this) fail(DPCOV_E_INVALID_ARGUMENT, "cannot merge an accumulator into itself");
  if (other.dim_ != dim_)
    fail(DPCOV_E_INCOMPATIBLE, "cannot merge accumulators of dimensions ", dim_, " and ",
         other.dim_);
  if (bound_ != 0.0 && other.bound_ != 0.0 && bound_ != other.bound_)
    fail(DPCOV_E_INCOMPATIBLE, "cannot merge accumulators with bounds ", bound_, " and ",
         other.bound_);
  if (counts_.rows > INT64_MAX - other.counts_.rows ||
      counts_.dropped > INT64_MAX - other.counts_.dropped)
    fail(DPCOV_E_TOO_LARGE, "row count overflows a 64-bit integer");
  for (int64_t j = 0; j < dim_; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      const size_t at = static_cast<size_t>(i + j * dim_);
      neumaier_add(sum_[at], comp_[at], other.sum_[at]);
      neumaier_add(sum_[at], comp_[at], other.comp_[at]);
    }
  if (bound_ == 0.0) bound_ = other.bound_;
  counts_.rows += other.counts_.rows;
  counts_.clipped += other.counts_.clipped;
  counts_.dropped += other.counts_.dropped;
}

double GramAccumulator::entry(int64_t i, int64_t j) const {
  const size_t at = static_cast<size_t>(i + j * dim_);
  return sum_[at] + comp_[at];
}

Matrix GramAccumulator::matrix() const {
  Matrix g(dim_, dim_);
  write_matrix(g.view());
  return g;
}

void GramAccumulator::write_matrix(MatrixView out) const {
  for (int64_t j = 0; j < dim_; ++j)
    for (int64_t i = 0; i <= j; ++i) {
      const double v = entry(i, j);
      out(i, j) = v;
      out(j, i) = v;
    }
}

}  // namespace dpcov
