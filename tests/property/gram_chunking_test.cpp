// The Gram matrix does not depend on how the rows are chunked, in which order partial
// accumulators are merged, or on the layout and leading dimension the rows arrive in.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/data/gram.hpp"
#include "support/naive.hpp"

namespace dpcov {
namespace {

double max_abs_diff(const Matrix &a, const Matrix &b) {
  double m = 0.0;
  for (int64_t j = 0; j < a.cols(); ++j)
    for (int64_t i = 0; i < a.rows(); ++i) m = std::max(m, std::fabs(a(i, j) - b(i, j)));
  return m;
}

// Relative tolerance of the comparison: the partial sums are compensated, so differences come
// only from the dsyrk blocking inside each chunk (a few ulps of the largest entry per chunk).
constexpr double kRelTol = 1e-13;

RC_GTEST_PROP(GramProperty, AnyChunkingAndMergeOrderGiveTheSameGram, ()) {
  const int64_t d = *rc::gen::inRange<int64_t>(1, 12);
  const int64_t n = *rc::gen::inRange<int64_t>(0, 300);
  const auto layout = *rc::gen::element(Layout::RowMajor, Layout::ColMajor);
  const int64_t pad = *rc::gen::inRange<int64_t>(0, 3);
  const double bound = *rc::gen::element(0.5, 1.0, 3.0);
  const auto policy = *rc::gen::element(BoundPolicy::Clip, BoundPolicy::Drop);
  const auto data = test::random_rows(n, d, layout, pad, 0.6, *rc::gen::arbitrary<uint32_t>());

  GramAccumulator whole(d);
  whole.add_rows(data.view(), bound, policy);

  // Cut the rows at random points into parts; each part gets its own accumulator, fed in random
  // chunks; the parts are then merged in a random order.
  auto cuts = *rc::gen::container<std::vector<int64_t>>(rc::gen::inRange<int64_t>(0, n + 1));
  cuts.push_back(0);
  cuts.push_back(n);
  std::sort(cuts.begin(), cuts.end());
  std::vector<GramAccumulator> parts;
  for (size_t k = 0; k + 1 < cuts.size(); ++k) {
    GramAccumulator part(d);
    for (int64_t first = cuts[k]; first < cuts[k + 1];) {
      const int64_t count = std::min(cuts[k + 1] - first, *rc::gen::inRange<int64_t>(1, 64));
      part.add_rows(data.view().row_block(first, count), bound, policy);
      first += count;
    }
    parts.push_back(std::move(part));
  }
  const auto order = *rc::gen::unique<std::vector<size_t>>(
      parts.size(), rc::gen::inRange<size_t>(0, parts.size()));
  GramAccumulator merged(d);
  for (size_t k : order) merged.merge(parts[k]);

  RC_ASSERT(merged.counts().rows == whole.counts().rows);
  RC_ASSERT(merged.counts().clipped == whole.counts().clipped);
  RC_ASSERT(merged.counts().dropped == whole.counts().dropped);
  const double scale = std::max(1.0, static_cast<double>(n)) * bound * bound;
  RC_ASSERT(max_abs_diff(merged.matrix(), whole.matrix()) <= kRelTol * scale);
  RC_ASSERT(max_abs_diff(whole.matrix(), test::naive_bounded_gram(data.view(), bound, policy)) <=
            kRelTol * scale);
}

RC_GTEST_PROP(GramProperty, LayoutDoesNotChangeTheResult, ()) {
  const int64_t d = *rc::gen::inRange<int64_t>(1, 10);
  const int64_t n = *rc::gen::inRange<int64_t>(1, 200);
  const uint32_t seed = *rc::gen::arbitrary<uint32_t>();
  const auto rowmajor = test::random_rows(n, d, Layout::RowMajor, 1, 1.0, seed);
  const auto colmajor = test::random_rows(n, d, Layout::ColMajor, 2, 1.0, seed);
  GramAccumulator a(d), b(d);
  a.add_rows(rowmajor.view(), 2.0, BoundPolicy::Clip);
  b.add_rows(colmajor.view(), 2.0, BoundPolicy::Clip);
  RC_ASSERT(max_abs_diff(a.matrix(), b.matrix()) <= kRelTol * static_cast<double>(n) * 4.0);
}

}  // namespace
}  // namespace dpcov
