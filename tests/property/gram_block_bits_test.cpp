// The floating-point Gram matrix's bits do not depend on how the caller chunks the rows: the
// accumulator cuts the stream into kernel blocks counted from the first row (core/data/gram.hpp),
// so one call, single rows and random chunk sizes give the same bytes, in both layouts, under
// clipping and dropping; a rejected chunk and a read of the matrix change nothing that follows;
// and the threads that share a call's blocks change no byte either.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "core/data/gram.hpp"
#include "core/error.hpp"
#include "core/linalg/panel_gram.hpp"
#include "support/blas_threads.hpp"
#include "support/naive.hpp"

namespace dpcov {
namespace {

bool same_bytes(const Matrix &a, const Matrix &b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), static_cast<size_t>(a.rows() * a.cols()) *
                                             sizeof(double)) == 0;
}

bool same_counts(const GramCounts &a, const GramCounts &b) {
  return a.rows == b.rows && a.clipped == b.clipped && a.dropped == b.dropped;
}

// Short rows (the AVX-512 short-row kernel or dsyrk), rows just past its limit and wider rows
// (the panel kernel): up to two and a half kernel blocks of them.
RC_GTEST_PROP(GramBlockBits, AnyChunkingGivesTheSameBytes, ()) {
  const int64_t d = *rc::gen::oneOf(rc::gen::inRange<int64_t>(1, 21), rc::gen::just<int64_t>(60));
  GramAccumulator whole(d);
  const int64_t block = whole.block_rows();
  const int64_t n = *rc::gen::inRange<int64_t>(0, block * 5 / 2);
  const auto layout = *rc::gen::element(Layout::RowMajor, Layout::ColMajor);
  const int64_t pad = *rc::gen::inRange<int64_t>(0, 3);
  // Row norms are about 0.6 sqrt(d): from most rows clipped to none.
  const double bound = *rc::gen::element(0.5, 1.0, 3.0) * 0.6 * std::sqrt(static_cast<double>(d));
  const auto policy = *rc::gen::element(BoundPolicy::Clip, BoundPolicy::Drop);
  const auto data = test::random_rows(n, d, layout, pad, 0.6, *rc::gen::arbitrary<uint32_t>());
  whole.add_rows(data.view(), bound, policy);

  GramAccumulator chunked(d);
  // A read closes nothing, and reads the pending block as a block of its own: at the first chunk
  // that ends at or past `check`, the bytes of the rows so far in one call, wherever the pending
  // rows stop (the short-row kernel's chains within a cache block, the panel kernel's packed
  // cache blocks).
  int64_t check = *rc::gen::inRange<int64_t>(0, n + 1);
  for (int64_t first = 0; first < n;) {
    const int64_t want = *rc::gen::oneOf(rc::gen::inRange<int64_t>(1, 4),
                                         rc::gen::inRange<int64_t>(1, block + block / 2));
    const int64_t count = std::min(n - first, want);
    chunked.add_rows(data.view().row_block(first, count), bound, policy);
    first += count;
    if (first >= check) {
      GramAccumulator prefix(d);
      prefix.add_rows(data.view().row_block(0, first), bound, policy);
      RC_ASSERT(same_bytes(chunked.matrix(), prefix.matrix()));
      check = n + 1;
    } else if (*rc::gen::inRange(0, 8) == 0) {
      (void)chunked.matrix();
    }
  }
  RC_ASSERT(same_counts(chunked.counts(), whole.counts()));
  RC_ASSERT(same_bytes(chunked.matrix(), whole.matrix()));
}

// A chunk refused anywhere (a non-finite value at a random row, under clipping or dropping; a row
// over the bound under rejection) after any chunking leaves the accumulator as one that never saw
// it: wherever the pending rows stopped, the refused chunk's rows fed to the pending block before
// the refusal, the blocks it closed and the rows it left pending are all undone.
RC_GTEST_PROP(GramBlockBits, ARefusedChunkAnywhereChangesNothing, ()) {
  const int64_t d = *rc::gen::oneOf(rc::gen::inRange<int64_t>(1, 21),
                                    rc::gen::element<int64_t>(40, 100));
  GramAccumulator clean(d);
  const int64_t block = clean.block_rows();
  const int64_t n = *rc::gen::inRange<int64_t>(1, block * 2);
  const auto layout = *rc::gen::element(Layout::RowMajor, Layout::ColMajor);
  const double bound = *rc::gen::element(0.5, 3.0) * 0.6 * std::sqrt(static_cast<double>(d));
  const auto data = test::random_rows(n, d, layout, 1, 0.6, *rc::gen::arbitrary<uint32_t>());
  const int64_t m = *rc::gen::inRange<int64_t>(1, block * 2);
  auto bad = test::random_rows(m, d, layout, 1, 0.6, *rc::gen::arbitrary<uint32_t>());
  const bool reject = *rc::gen::arbitrary<bool>();
  // Every row within the bound under rejection but the planted one.
  const double good_bound = reject ? 1e6 : bound;
  const int64_t at = *rc::gen::inRange<int64_t>(0, m);
  if (reject) {
    for (int64_t j = 0; j < d; ++j) bad.at(at, j) = 2.0 * good_bound;
  } else {
    bad.at(at, *rc::gen::inRange<int64_t>(0, d)) = std::numeric_limits<double>::infinity();
  }
  const auto policy = reject ? BoundPolicy::Reject
                             : *rc::gen::element(BoundPolicy::Clip, BoundPolicy::Drop);
  GramAccumulator hit(d);
  const int64_t head = *rc::gen::inRange<int64_t>(0, n + 1);
  for (int64_t first = 0; first < head;) {
    const int64_t count = std::min(head - first, *rc::gen::inRange<int64_t>(1, block + 3));
    clean.add_rows(data.view().row_block(first, count), good_bound, policy);
    hit.add_rows(data.view().row_block(first, count), good_bound, policy);
    first += count;
  }
  RC_ASSERT_THROWS_AS(hit.add_rows(bad.view(), good_bound, policy), Error);
  clean.add_rows(data.view().row_block(head, n - head), good_bound, policy);
  hit.add_rows(data.view().row_block(head, n - head), good_bound, policy);
  RC_ASSERT(same_counts(hit.counts(), clean.counts()));
  RC_ASSERT(same_bytes(hit.matrix(), clean.matrix()));
}

// Wide rows (the panel kernel, which runs on as many threads as OpenBLAS is set to) through the
// same random chunking on one thread and on 2 to 4: the same bytes and counts. A call's threads
// work through all the blocks it closes (core/data/gram_stripes.hpp), the pending block among
// them, and whichever thread finishes a stripe, each block must still be added up in stripe order
// and the blocks in row order.
RC_GTEST_PROP(GramBlockBits, AnyThreadCountGivesTheBytesOfOneThread, ()) {
  const int64_t d = *rc::gen::oneOf(rc::gen::inRange<int64_t>(17, 41),
                                    rc::gen::element<int64_t>(60, 100, 131));
  if (!linalg::panel_gram_applies(d)) RC_SUCCEED("no panel kernel on this CPU: one thread only");
  const int threads = *rc::gen::inRange(2, 5);
  GramAccumulator probe(d);
  const int64_t block = probe.block_rows();
  const int64_t n = *rc::gen::inRange<int64_t>(0, block * 5 / 2);
  const auto layout = *rc::gen::element(Layout::RowMajor, Layout::ColMajor);
  const double bound = *rc::gen::element(0.5, 1.0, 3.0) * 0.6 * std::sqrt(static_cast<double>(d));
  const auto policy = *rc::gen::element(BoundPolicy::Clip, BoundPolicy::Drop);
  const auto data = test::random_rows(n, d, layout, 1, 0.6, *rc::gen::arbitrary<uint32_t>());
  std::vector<int64_t> chunks;
  for (int64_t first = 0; first < n;) {
    const int64_t want = *rc::gen::oneOf(rc::gen::inRange<int64_t>(1, 4),
                                         rc::gen::inRange<int64_t>(1, 2 * block));
    chunks.push_back(std::min(n - first, want));
    first += chunks.back();
  }
  const auto accumulate = [&](int on) {
    const test::BlasThreads scope(on);
    GramAccumulator acc(d);
    int64_t first = 0;
    for (const int64_t count : chunks) {
      acc.add_rows(data.view().row_block(first, count), bound, policy);
      first += count;
    }
    return acc;
  };
  const GramAccumulator one = accumulate(1), many = accumulate(threads);
  RC_ASSERT(same_counts(many.counts(), one.counts()));
  RC_ASSERT(same_bytes(many.matrix(), one.matrix()));
}

// Single rows across two block boundaries, as from a row-at-a-time reader, against one call.
TEST(GramBlockBits, RowsOneAtATimeGiveTheBytesOfOneCall) {
  for (const int64_t d : {3, 16, 40}) {
    GramAccumulator whole(d), single(d);
    const int64_t n = 2 * whole.block_rows() + 5;
    const auto data = test::random_rows(n, d, Layout::RowMajor, 0, 0.6, 7);
    const double bound = 0.6 * std::sqrt(static_cast<double>(d));  // about half clipped
    whole.add_rows(data.view(), bound, BoundPolicy::Clip);
    for (int64_t i = 0; i < n; ++i)
      single.add_rows(data.view().row_block(i, 1), bound, BoundPolicy::Clip);
    EXPECT_TRUE(same_counts(single.counts(), whole.counts())) << "d = " << d;
    EXPECT_TRUE(same_bytes(single.matrix(), whole.matrix())) << "d = " << d;
    EXPECT_GT(whole.counts().clipped, n / 4) << "d = " << d;
  }
}

// A chunk that finishes the pending block, holds a whole block and leaves rows pending, with a
// non-finite value in its last row: refused, and the accumulator goes on exactly as one that
// never saw it (the pending rows it finished are still there).
TEST(GramBlockBits, ARejectedChunkThatClosedBlocksLeavesTheAccumulatorUnchanged) {
  for (const int64_t d : {5, 40}) {
    GramAccumulator probe(d);
    const int64_t block = probe.block_rows(), n = 3 * block;
    const auto data = test::random_rows(n, d, Layout::RowMajor, 0, 0.6, 11);
    auto bad = test::random_rows(2 * block, d, Layout::RowMajor, 0, 0.6, 12);
    bad.at(2 * block - 1, d - 1) = std::numeric_limits<double>::quiet_NaN();
    const double bound = 0.6 * std::sqrt(static_cast<double>(d));
    GramAccumulator clean(d), hit(d);
    const int64_t head = block / 3;
    clean.add_rows(data.view().row_block(0, head), bound, BoundPolicy::Clip);
    hit.add_rows(data.view().row_block(0, head), bound, BoundPolicy::Clip);
    EXPECT_THROW(hit.add_rows(bad.view(), bound, BoundPolicy::Clip), Error) << "d = " << d;
    clean.add_rows(data.view().row_block(head, n - head), bound, BoundPolicy::Clip);
    hit.add_rows(data.view().row_block(head, n - head), bound, BoundPolicy::Clip);
    EXPECT_TRUE(same_counts(hit.counts(), clean.counts())) << "d = " << d;
    EXPECT_TRUE(same_bytes(hit.matrix(), clean.matrix())) << "d = " << d;
  }
}

// Saving the state closes the pending block: the saved accumulator and the one restored from its
// parts continue with the same bytes, and the matrix equals the one before saving.
TEST(GramBlockBits, ARestoredStateContinuesAsTheSavedOne) {
  const int64_t d = 7;
  GramAccumulator saved(d);
  const int64_t block = saved.block_rows(), n = 2 * block;
  const auto data = test::random_rows(n, d, Layout::RowMajor, 0, 0.6, 13);
  const double bound = 1.5;
  saved.add_rows(data.view().row_block(0, block / 2), bound, BoundPolicy::Clip);
  const Matrix before = saved.matrix();
  std::vector<double> sum, comp;
  saved.upper_parts(sum, comp);
  EXPECT_TRUE(same_bytes(saved.matrix(), before));
  GramAccumulator restored =
      GramAccumulator::from_parts(d, sum, comp, saved.counts(), saved.bound());
  saved.add_rows(data.view().row_block(block / 2, n - block / 2), bound, BoundPolicy::Clip);
  restored.add_rows(data.view().row_block(block / 2, n - block / 2), bound, BoundPolicy::Clip);
  EXPECT_TRUE(same_bytes(restored.matrix(), saved.matrix()));
}

}  // namespace
}  // namespace dpcov
