// The sketch S = R [A; w I] does not depend on how the rows are chunked, in which order partial
// sketches are merged, or on the layout the rows arrive in: column i of R comes from the
// substream of the sketch's key (drawn from the generator) for the global row index i.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/data/sketch.hpp"
#include "core/random/normal.hpp"
#include "support/naive.hpp"

namespace dpcov {
namespace {

double max_abs_diff(const Matrix &a, const Matrix &b) {
  double m = 0.0;
  for (int64_t j = 0; j < a.cols(); ++j)
    for (int64_t i = 0; i < a.rows(); ++i) m = std::max(m, std::fabs(a(i, j) - b(i, j)));
  return m;
}

// Partial sums are compensated across chunks, so the sketches differ only by the dgemm rounding
// inside each chunk: a few ulps of sum_i |R_ki| |a_ij|, at most about sqrt(n) 5 B in magnitude.
constexpr double kRelTol = 1e-13;

RC_GTEST_PROP(SketchProperty, AnyChunkingAndMergeOrderGiveTheSameSketch, ()) {
  const int64_t d = *rc::gen::inRange<int64_t>(1, 8);
  const int64_t r = *rc::gen::inRange<int64_t>(1, 40);
  const int64_t n = *rc::gen::inRange<int64_t>(0, 200);
  const auto layout = *rc::gen::element(Layout::RowMajor, Layout::ColMajor);
  const double bound = *rc::gen::element(0.5, 1.0, 3.0);
  const auto policy = *rc::gen::element(BoundPolicy::Clip, BoundPolicy::Drop);
  const int64_t offset = *rc::gen::inRange<int64_t>(0, 1000000);
  const auto data = test::random_rows(n, d, layout, 1, 0.6, *rc::gen::arbitrary<uint32_t>());
  random::Rng generator = random::Rng::from_seed(*rc::gen::arbitrary<uint64_t>());

  SketchAccumulator whole(d, r, generator);
  whole.add_rows(data.view(), offset, bound, policy);

  auto cuts = *rc::gen::container<std::vector<int64_t>>(rc::gen::inRange<int64_t>(0, n + 1));
  cuts.push_back(0);
  cuts.push_back(n);
  std::sort(cuts.begin(), cuts.end());
  std::vector<SketchAccumulator> parts;
  for (size_t k = 0; k + 1 < cuts.size(); ++k) {
    SketchAccumulator part = whole.partial();
    for (int64_t first = cuts[k]; first < cuts[k + 1];) {
      const int64_t count = std::min(cuts[k + 1] - first, *rc::gen::inRange<int64_t>(1, 64));
      part.add_rows(data.view().row_block(first, count), offset + first, bound, policy);
      first += count;
    }
    parts.push_back(std::move(part));
  }
  const auto order = *rc::gen::unique<std::vector<size_t>>(
      parts.size(), rc::gen::inRange<size_t>(0, parts.size()));
  SketchAccumulator merged = whole.partial();
  for (size_t k : order) merged.merge(parts[k]);

  RC_ASSERT(merged.counts().rows == whole.counts().rows);
  RC_ASSERT(merged.counts().clipped == whole.counts().clipped);
  const double w = *rc::gen::element(0.0, 1.5);
  const double scale = (std::sqrt(static_cast<double>(n)) + 1.0) * 5.0 * (bound + w);
  RC_ASSERT(max_abs_diff(merged.sketch(w), whole.sketch(w)) <= kRelTol * scale);
  RC_ASSERT(max_abs_diff(merged.gram().matrix(), whole.gram().matrix()) <=
            kRelTol * (static_cast<double>(n) + 1.0) * bound * bound);
}

// The sketch's key is drawn from the generator, and the sketch equals R [A; w I] formed naively:
// column i of R from the key's substream(offset + i), the
// block's weights from substream(2^63 + j), rows bounded as the Gram accumulator bounds them.
RC_GTEST_PROP(SketchProperty, EqualsTheNaiveProduct, ()) {
  const int64_t d = *rc::gen::inRange<int64_t>(1, 6);
  const int64_t r = *rc::gen::inRange<int64_t>(1, 20);
  const int64_t n = *rc::gen::inRange<int64_t>(1, 60);
  const int64_t offset = *rc::gen::inRange<int64_t>(0, 1000);
  const double w = 2.5;
  const auto data = test::random_rows(n, d, Layout::RowMajor, 0, 0.8, *rc::gen::arbitrary<uint32_t>());
  random::Rng generator = random::Rng::from_seed(*rc::gen::arbitrary<uint64_t>());
  random::Rng before = generator;
  SketchAccumulator acc(d, r, generator);
  // The sketch's key is the generator's next four words, and the generator has moved past them.
  random::Rng::Key drawn;
  before.fill_u64(drawn.data(), drawn.size());
  RC_ASSERT(acc.generator().key() == drawn);
  RC_ASSERT(generator.next_u64() == before.next_u64());
  acc.add_rows(data.view(), offset, 1.0, BoundPolicy::Clip);
  // Rows clipped to norm 1 (the naive rule; the kernel shaves a few ulps more, far below the
  // tolerance).
  Matrix bounded = Matrix::from(data.view());
  for (int64_t i = 0; i < n; ++i) {
    double norm = 0.0;
    for (int64_t j = 0; j < d; ++j) norm += bounded(i, j) * bounded(i, j);
    norm = std::sqrt(norm);
    if (norm > 1.0)
      for (int64_t j = 0; j < d; ++j) bounded(i, j) /= norm;
  }
  Matrix expected(r, d);
  for (int64_t i = 0; i < n; ++i) {
    random::Rng stream = acc.generator().substream(static_cast<uint64_t>(offset + i));
    for (int64_t k = 0; k < r; ++k) {
      const double weight = random::standard_normal(stream);
      for (int64_t j = 0; j < d; ++j) expected(k, j) += weight * bounded(i, j);
    }
  }
  for (int64_t j = 0; j < d; ++j) {
    random::Rng stream =
        acc.generator().substream(SketchAccumulator::kIdentityDomain + static_cast<uint64_t>(j));
    for (int64_t k = 0; k < r; ++k) expected(k, j) += w * random::standard_normal(stream);
  }
  RC_ASSERT(max_abs_diff(acc.sketch(w), expected) <= 1e-12 * (static_cast<double>(n) + w) * 5.0);
}

}  // namespace
}  // namespace dpcov
