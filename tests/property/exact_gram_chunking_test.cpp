// The exact integer Gram (core/data/exact_gram.hpp) does not depend on how the rows are chunked,
// in which order partial accumulators are merged, or on the layout and leading dimension the rows
// arrive in: the integers are identical, bit for bit, to one accumulator given every row at once;
// and a chunk refused anywhere leaves an accumulator exactly as it was.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/data/exact_gram.hpp"
#include "core/error.hpp"
#include "support/naive.hpp"

namespace dpcov::data {
namespace {

// A grid as the plan makes them: r2 = (2^bits + ceil(sqrt(d) / 2) + 1)^2.
ExactGridSpec grid_for(int64_t d, double bound, int bits) {
  int64_t h = 0;
  while (4 * h * h < d) ++h;
  const int64_t r = (int64_t{1} << bits) + h + 1;
  return {d, bound, bits, r * r};
}

RC_GTEST_PROP(ExactGramProperty, AnyChunkingAndMergeOrderGiveTheSameIntegers, ()) {
  const int64_t d = *rc::gen::inRange<int64_t>(1, 12);
  const int64_t n = *rc::gen::inRange<int64_t>(0, 300);
  const auto layout = *rc::gen::element(Layout::RowMajor, Layout::ColMajor);
  const int64_t pad = *rc::gen::inRange<int64_t>(0, 3);
  const double bound = *rc::gen::element(0.5, 1.0, 3.0);
  const int bits = *rc::gen::inRange(4, 13);
  const auto data = test::random_rows(n, d, layout, pad, 0.6, *rc::gen::arbitrary<uint32_t>());
  const ExactGridSpec grid = grid_for(d, bound, bits);

  ExactGramAccumulator whole(grid, BoundPolicy::Clip);
  whole.add_rows(data.view());

  // The rows cut at random points into parts, each fed to its own accumulator in random chunks
  // (a chunk in the other layout now and then), the parts merged in a random order.
  auto cuts = *rc::gen::container<std::vector<int64_t>>(rc::gen::inRange<int64_t>(0, n + 1));
  cuts.push_back(0);
  cuts.push_back(n);
  std::sort(cuts.begin(), cuts.end());
  std::vector<ExactGramAccumulator> parts;
  for (size_t k = 0; k + 1 < cuts.size(); ++k) {
    ExactGramAccumulator part(grid, BoundPolicy::Clip);
    for (int64_t first = cuts[k]; first < cuts[k + 1];) {
      const int64_t count = std::min(cuts[k + 1] - first, *rc::gen::inRange<int64_t>(1, 64));
      const ConstMatrixView block = data.view().row_block(first, count);
      if (*rc::gen::inRange(0, 4) == 0) {
        // The same rows copied into the other layout.
        const Layout other = layout == Layout::RowMajor ? Layout::ColMajor : Layout::RowMajor;
        test::Rows copy(count, d, other, 0);
        for (int64_t i = 0; i < count; ++i)
          for (int64_t j = 0; j < d; ++j) copy.at(i, j) = block(i, j);
        part.add_rows(copy.view());
      } else {
        part.add_rows(block);
      }
      first += count;
    }
    parts.push_back(std::move(part));
  }
  const auto order = *rc::gen::unique<std::vector<size_t>>(
      parts.size(), rc::gen::inRange<size_t>(0, parts.size()));
  ExactGramAccumulator merged(grid, BoundPolicy::Clip);
  for (size_t k : order) merged.merge(parts[k]);

  RC_ASSERT(merged.upper() == whole.upper());
  RC_ASSERT(merged.counts().rows == n);
  RC_ASSERT(merged.counts().clipped == whole.counts().clipped);
}

RC_GTEST_PROP(ExactGramProperty, ARefusedChunkChangesNothing, ()) {
  const int64_t d = *rc::gen::inRange<int64_t>(1, 8);
  const int64_t n = *rc::gen::inRange<int64_t>(1, 200);
  const auto policy = *rc::gen::element(BoundPolicy::Clip, BoundPolicy::Reject);
  const ExactGridSpec grid = grid_for(d, 1.0, *rc::gen::inRange(4, 13));
  // Rows well inside the bound, so that Reject refuses only the planted row.
  const auto before = test::random_rows(n, d, Layout::RowMajor, 0, 0.05, *rc::gen::arbitrary<uint32_t>());
  auto bad = test::random_rows(n, d, Layout::RowMajor, 0, 0.05, *rc::gen::arbitrary<uint32_t>());
  const int64_t row = *rc::gen::inRange<int64_t>(0, n);
  const int64_t col = *rc::gen::inRange<int64_t>(0, d);
  bad.at(row, col) = *rc::gen::element(NAN, INFINITY, -INFINITY,
                                        policy == BoundPolicy::Reject ? 5.0 : NAN);
  ExactGramAccumulator acc(grid, policy);
  acc.add_rows(before.view());
  const std::vector<ExactInt> upper = acc.upper();
  const GramCounts counts = acc.counts();
  RC_ASSERT_THROWS_AS(acc.add_rows(bad.view()), Error);
  RC_ASSERT(acc.upper() == upper);
  RC_ASSERT(acc.counts().rows == counts.rows);
  RC_ASSERT(acc.counts().clipped == counts.clipped);
}

}  // namespace
}  // namespace dpcov::data
