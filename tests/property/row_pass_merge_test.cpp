// The zCDP row mechanisms as passes over the rows (core/mechanisms/row_pass.hpp): a release whose
// passes sum the rows in any partition, in chunks of any size, merged in any order, is the
// in-memory release with the same generator: the same receipt (every constant and every private
// choice: Adaptive's radius, branch and first look) and the same matrix up to the rounding of the
// compensated sums (kRelTol of the bound on each row's square norm; the noise is the same draws).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "core/mechanisms/coinpress.hpp"
#include "core/mechanisms/dong_liang_yi.hpp"
#include "core/mechanisms/row_pass.hpp"
#include "support/naive.hpp"

namespace dpcov {
namespace {

using namespace mechanisms;

// The moments differ by a few ulps of their largest entry (the chunks' syrk blocking; the sums
// across chunks are compensated); the eigendecompositions and, for CoinPress, the inverse square
// roots of matrices regularised by eta > 0 that follow amplify that by far less than 1e5.
constexpr double kRelTol = 1e-10;

double max_abs_diff(const Matrix &a, const Matrix &b) {
  double m = 0.0;
  for (int64_t j = 0; j < a.cols(); ++j)
    for (int64_t i = 0; i < a.rows(); ++i) m = std::max(m, std::fabs(a(i, j) - b(i, j)));
  return m;
}

// The merged partial of one pass over `rows`, cut at random points into parts, each part fed
// in random chunks, exported to no one: the parts are merged in a random order.
RowPartial partitioned_sums(const RowPass &pass, ConstMatrixView rows) {
  const int64_t n = rows.rows;
  auto cuts = *rc::gen::container<std::vector<int64_t>>(rc::gen::inRange<int64_t>(0, n + 1));
  cuts.push_back(0);
  cuts.push_back(n);
  std::sort(cuts.begin(), cuts.end());
  std::vector<RowPartial> parts;
  for (size_t k = 0; k + 1 < cuts.size(); ++k) {
    RowPartial part = row_partial(pass);
    for (int64_t first = cuts[k]; first < cuts[k + 1];) {
      const int64_t count = std::min(cuts[k + 1] - first, *rc::gen::inRange<int64_t>(1, 64));
      add_rows(part, rows.row_block(first, count));
      first += count;
    }
    parts.push_back(std::move(part));
  }
  const auto order = *rc::gen::unique<std::vector<size_t>>(
      parts.size(), rc::gen::inRange<size_t>(0, parts.size()));
  RowPartial merged = row_partial(pass);
  for (size_t k : order) merge(merged, parts[k]);
  return merged;
}

RC_GTEST_PROP(RowPassProperty, DlyPassesOverAnyPartitionGiveTheInMemoryRelease, ()) {
  const int64_t d = *rc::gen::inRange<int64_t>(1, 8);
  const int64_t n = *rc::gen::inRange<int64_t>(1, 300);
  const auto layout = *rc::gen::element(Layout::RowMajor, Layout::ColMajor);
  DlyRequest request;
  request.variant = *rc::gen::element(DlyVariant::Gauss, DlyVariant::Separate,
                                      DlyVariant::Adaptive, DlyVariant::AdaptivePaper);
  request.dim = d;
  request.n = n;
  request.rho = *rc::gen::element(0.01, 1.0, 100.0);
  request.radius = *rc::gen::element(0.3, 1.0, 6.0);
  // Rows from well inside the ball to far outside it, so that Adaptive picks radii below r.
  const double spread = request.radius * *rc::gen::element(0.02, 0.2, 1.0);
  const auto data = test::random_rows(n, d, layout, 1, spread, *rc::gen::arbitrary<uint32_t>());
  const uint64_t seed = *rc::gen::arbitrary<uint64_t>();

  random::Rng whole_rng = random::Rng::from_seed(seed);
  const DlyRelease whole = dly_release(data.view(), request, whole_rng);

  random::Rng rng = random::Rng::from_seed(seed);
  DlyPasses passes(request, rng);
  while (!passes.done()) passes.finish_pass(partitioned_sums(passes.pass(), data.view()));
  const DlyRelease &parted = passes.release();
  RC_TAG(parted.receipt.clip_radius < request.radius ? "second pass" : "one pass");
  RC_ASSERT(parted.receipt == whole.receipt);
  RC_ASSERT(max_abs_diff(parted.covariance, whole.covariance) <=
            kRelTol * request.radius * request.radius);
  // The same number of draws: the generators stand at the same place.
  RC_ASSERT(rng.next_u64() == whole_rng.next_u64());
}

RC_GTEST_PROP(RowPassProperty, CoinpressPassesOverAnyPartitionGiveTheInMemoryRelease, ()) {
  const int64_t d = *rc::gen::inRange<int64_t>(1, 6);
  const int64_t n = *rc::gen::inRange<int64_t>(2, 300);
  CoinpressRequest request;
  request.dim = d;
  request.n = n;
  request.rho = *rc::gen::element(0.1, 1.0, 10.0);
  request.k_bound = *rc::gen::element(1.0, 4.0, 100.0);
  request.steps = *rc::gen::inRange<int64_t>(1, 5);
  const auto data = test::random_rows(n, d, *rc::gen::element(Layout::RowMajor, Layout::ColMajor),
                                      0, *rc::gen::element(1.0, 3.0),
                                      *rc::gen::arbitrary<uint32_t>());
  const uint64_t seed = *rc::gen::arbitrary<uint64_t>();

  random::Rng whole_rng = random::Rng::from_seed(seed);
  const CoinpressRelease whole = coinpress_release(data.view(), request, whole_rng);

  random::Rng rng = random::Rng::from_seed(seed);
  CoinpressPasses passes(coinpress_steps(coinpress_plan(request)), d, n, rng);
  while (!passes.done()) passes.finish_pass(partitioned_sums(passes.pass(), data.view()));
  double scale = 1.0;
  for (int64_t i = 0; i < d; ++i) scale = std::max(scale, std::fabs(whole.covariance(i, i)));
  RC_ASSERT(max_abs_diff(passes.estimate(), whole.covariance) <= kRelTol * scale);
  RC_ASSERT(rng.next_u64() == whole_rng.next_u64());
}

TEST(RowPass, PartialsOfDifferentPassesDoNotMerge) {
  RowPass a;
  a.dim = 2;
  a.clip_radii = {1.0};
  RowPass b = a;
  b.index = 1;
  RowPartial pa = row_partial(a);
  const RowPartial pb = row_partial(b);
  EXPECT_THROW(merge(pa, pb), Error);
  EXPECT_THROW(check_pass_sums(a, 1, pa), Error);  // no rows: not the n = 1 of the release
}

// What an import of a partial checks, on partials built from sums a worker cannot produce: an
// off-diagonal entry beyond rows b^2, and a sum and a compensation that cancel far out, whose
// merge overflowed to inf (the session then drew its noise before failing). A row count that
// would overflow is refused by add_rows and leaves the partial as it was.
TEST(RowPass, ForgedSumsAndOverflowingCountsAreRefused) {
  RowPass pass;
  pass.dim = 2;
  pass.clip_radii = {1.0};
  RowPartial good = row_partial(pass);
  const std::vector<double> rows = {0.6, 0.0, 0.0, 0.8, 0.5, 0.5};
  add_rows(good, ConstMatrixView{rows.data(), 3, 2, 2, Layout::RowMajor});
  check_partial_sums(good);
  RowPartial far = good;
  far.sum(0, 1) = 4.0;  // |G_01| <= rows b^2 = 3
  EXPECT_THROW(check_partial_sums(far), Error);
  RowPartial cancelling = good;
  cancelling.sum(0, 1) = std::numeric_limits<double>::max();
  cancelling.compensation(0, 1) = -std::numeric_limits<double>::max();
  EXPECT_THROW(check_partial_sums(cancelling), Error);
  RowPartial twice = cancelling;
  EXPECT_THROW(merge(twice, cancelling), Error);  // 2 DBL_MAX: a merge never makes inf
  EXPECT_EQ(twice.sum(0, 1), cancelling.sum(0, 1));  // and a refused merge changes nothing
  RowPartial full = good;
  full.rows = std::numeric_limits<int64_t>::max();
  EXPECT_THROW(add_rows(full, ConstMatrixView{rows.data(), 1, 2, 2, Layout::RowMajor}), Error);
  EXPECT_EQ(full.rows, std::numeric_limits<int64_t>::max());
}

TEST(RowPass, MalformedPassesAreRefused) {
  RowPass p;
  p.dim = 2;
  EXPECT_THROW(row_partial(p), Error);  // no radius
  p.clip_radii = {std::nan("")};
  EXPECT_THROW(row_partial(p), Error);
  p.clip_radii = {1.0};
  p.transform = {1.0, 0.0, 0.0, 1.0};
  EXPECT_THROW(row_partial(p), Error);  // a transform on a Dong-Liang-Yi pass
  p.kind = RowPassKind::CoinpressStep;
  p.transform = {1.0, 0.0, 0.0};
  EXPECT_THROW(row_partial(p), Error);  // not d^2
  p.transform.push_back(INFINITY);
  EXPECT_THROW(row_partial(p), Error);
}

TEST(RowPass, NonFiniteRowsLeaveThePartialUnchanged) {
  RowPass p;
  p.dim = 2;
  p.clip_radii = {1.0};
  p.histogram_bins = 4;
  RowPartial partial = row_partial(p);
  const double good[] = {0.1, 0.2};
  add_rows(partial, {good, 1, 2, 2, Layout::RowMajor});
  const RowPartial before = partial;
  const double bad[] = {0.1, 0.2, NAN, 0.0};
  EXPECT_THROW(add_rows(partial, {bad, 2, 2, 2, Layout::RowMajor}), Error);
  EXPECT_EQ(partial.rows, before.rows);
  EXPECT_EQ(partial.counts, before.counts);
  EXPECT_EQ(max_abs_diff(partial.sum, before.sum), 0.0);
}

}  // namespace
}  // namespace dpcov
