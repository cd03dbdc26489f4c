// Finite or failed: the rows privacy units keep for the zCDP row mechanisms
// (dpcov_unit_rows_keep) with values anywhere in the doubles, any k and ids sorted or not:
// DPCOV_OK with every output finite, or a documented failure with the canary output untouched.
// And the policy: for random unit sizes, id gaps and row orders, each unit's k output rows are
// distinct rows of that unit (all of them when it has at most k) followed by zero rows; the
// choice of a larger unit's rows is uniform over its k-subsets (a chi-square test at a stated
// false-failure rate, which fails on a selector that keeps the first k rows).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <numeric>
#include <vector>

#include "dpcov.h"
#include "finite_or_failed.hpp"

namespace {

using finite_or_failed::kCanary;

rc::Gen<double> entry() {
  return rc::gen::map(
      rc::gen::pair(finite_or_failed::extreme_positive(), rc::gen::arbitrary<bool>()),
      [](std::pair<double, bool> p) { return p.second ? -p.first : p.first; });
}

int64_t runs(const std::vector<int64_t> &ids) {
  int64_t n = 0;
  for (size_t i = 0; i < ids.size(); ++i) n += i == 0 || ids[i] != ids[i - 1];
  return n;
}

RC_GTEST_PROP(UnitRowsKeepFiniteOrFailed, AnyValuesAndIds, ()) {
  const int64_t cols = *rc::gen::inRange<int64_t>(1, 4);
  const int64_t rows = *rc::gen::inRange<int64_t>(0, 12);
  const std::vector<double> a =
      *rc::gen::container<std::vector<double>>(static_cast<size_t>(rows * cols), entry());
  std::vector<int64_t> ids = *rc::gen::container<std::vector<int64_t>>(
      static_cast<size_t>(rows), rc::gen::inRange<int64_t>(-3, 4));
  if (*rc::gen::arbitrary<bool>()) std::sort(ids.begin(), ids.end());
  const int64_t k = *rc::gen::element(int64_t{1}, int64_t{2}, int64_t{3}, int64_t{1} << 20);
  const int64_t out_rows = k * runs(ids);
  if (out_rows * cols > (int64_t{1} << 21)) return;  // k = 2^20 with many units: memory only
  std::vector<double> out(static_cast<size_t>(std::max<int64_t>(out_rows * cols, 1)), kCanary);
  dpcov_rng *rng = nullptr;
  RC_ASSERT(dpcov_rng_create_seeded(&rng, 5, 0) == DPCOV_OK);
  int64_t truncated = -1;
  const dpcov_status s = dpcov_unit_rows_keep(rng, k, DPCOV_ROW_MAJOR, rows, cols,
                                              rows ? a.data() : nullptr, cols,
                                              rows ? ids.data() : nullptr, out.data(), out_rows,
                                              cols, &truncated);
  dpcov_rng_destroy(&rng);
  if (s != DPCOV_OK) {
    finite_or_failed::check_failure(s, "dpcov_unit_rows_keep");
    RC_ASSERT(truncated == -1);
    for (double v : out) RC_ASSERT(std::memcmp(&v, &kCanary, sizeof v) == 0);
    return;
  }
  RC_ASSERT(truncated >= 0 && truncated <= rows);
  for (int64_t i = 0; i < out_rows * cols; ++i)
    RC_ASSERT(std::isfinite(out[static_cast<size_t>(i)]));
}

// Units of random sizes (some over k, some under), ids increasing with random gaps, each row
// tagged with its index + 1 so that the output names the rows it kept (0: a zero row).
RC_GTEST_PROP(UnitRowsKeep, EachUnitKeepsKOfItsOwnRowsThenZeroRows, ()) {
  const int64_t k = *rc::gen::inRange<int64_t>(1, 5);
  const std::vector<int64_t> sizes =
      *rc::gen::container<std::vector<int64_t>>(rc::gen::inRange<int64_t>(1, 9));
  std::vector<int64_t> ids;
  int64_t id = *rc::gen::inRange<int64_t>(-100, 100);
  for (int64_t size : sizes) {
    id += *rc::gen::inRange<int64_t>(1, 1000);
    ids.insert(ids.end(), static_cast<size_t>(size), id);
  }
  const auto rows = static_cast<int64_t>(ids.size());
  std::vector<double> a(static_cast<size_t>(rows));
  std::iota(a.begin(), a.end(), 1.0);
  const int64_t units = static_cast<int64_t>(sizes.size());
  std::vector<double> out(static_cast<size_t>(std::max<int64_t>(k * units, 1)), kCanary);
  dpcov_rng *rng = nullptr;
  RC_ASSERT(dpcov_rng_create_seeded(&rng, *rc::gen::arbitrary<uint32_t>(), 0) == DPCOV_OK);
  int64_t truncated = -1;
  const dpcov_status s = dpcov_unit_rows_keep(rng, k, DPCOV_ROW_MAJOR, rows, 1,
                                              rows ? a.data() : nullptr, 1,
                                              rows ? ids.data() : nullptr, out.data(), k * units,
                                              1, &truncated);
  dpcov_rng_destroy(&rng);
  RC_ASSERT(s == DPCOV_OK);
  int64_t first = 0, want_truncated = 0;
  for (int64_t u = 0; u < units; ++u) {
    const int64_t size = sizes[static_cast<size_t>(u)];
    const int64_t kept = std::min(size, k);
    want_truncated += size - kept;
    std::vector<double> mine(out.begin() + u * k, out.begin() + u * k + kept);
    std::sort(mine.begin(), mine.end());
    RC_ASSERT(std::adjacent_find(mine.begin(), mine.end()) == mine.end());
    for (double tag : mine) RC_ASSERT(tag >= static_cast<double>(first + 1) &&
                                      tag <= static_cast<double>(first + size));
    for (int64_t r = kept; r < k; ++r) RC_ASSERT(out[static_cast<size_t>(u * k + r)] == 0.0);
    first += size;
  }
  RC_ASSERT(truncated == want_truncated);
}

// A selector: the kept rows (tags 1..size) of one unit of `size` rows, k of them.
using Selector = std::function<std::vector<double>(dpcov_rng *, int64_t size, int64_t k)>;

std::vector<double> library_selector(dpcov_rng *rng, int64_t size, int64_t k) {
  std::vector<double> a(static_cast<size_t>(size)), out(static_cast<size_t>(k));
  std::iota(a.begin(), a.end(), 1.0);
  const std::vector<int64_t> ids(static_cast<size_t>(size), 3);
  int64_t truncated = 0;
  EXPECT_EQ(dpcov_unit_rows_keep(rng, k, DPCOV_ROW_MAJOR, size, 1, a.data(), 1, ids.data(),
                                 out.data(), k, 1, &truncated),
            DPCOV_OK);
  return out;
}

// Pearson's statistic of the k-subsets kept in `draws` calls against the uniform distribution
// over the C(size, k) subsets.
double chi_square(const Selector &select, int64_t size, int64_t k, int draws) {
  dpcov_rng *rng = nullptr;
  EXPECT_EQ(dpcov_rng_create_seeded(&rng, 20261129, 34), DPCOV_OK);
  std::map<std::vector<double>, int> counts;
  for (int t = 0; t < draws; ++t) {
    std::vector<double> kept = select(rng, size, k);
    std::sort(kept.begin(), kept.end());
    ++counts[kept];
  }
  dpcov_rng_destroy(&rng);
  double subsets = 1;
  for (int64_t i = 0; i < k; ++i) subsets = subsets * static_cast<double>(size - i) / (i + 1);
  const double expected = draws / subsets;
  double stat = (subsets - static_cast<double>(counts.size())) * expected;  // subsets never seen
  for (const auto &[subset, n] : counts) stat += (n - expected) * (n - expected) / expected;
  return stat;
}

// C(5, 2) = 10 subsets, 9 degrees of freedom: the chi-square's upper 1e-6 quantile is 44.81
// (scipy.stats.chi2.isf(1e-6, 9)), so a uniform selector fails this test with probability 1e-6
// (seed fixed: it passes or fails the same way every run). 20000 draws, 2000 expected per
// subset: "the first k rows" gives 20000 * 9 = 180000.
TEST(UnitRowsKeep, ChoiceIsUniformOverTheKSubsets) {
  EXPECT_LT(chi_square(library_selector, 5, 2, 20000), 44.81);
  // k = 3 of 4: 4 subsets, 3 degrees of freedom, upper 1e-6 quantile 30.66.
  EXPECT_LT(chi_square(library_selector, 4, 3, 20000), 30.66);
}

TEST(UnitRowsKeep, ChiSquareCatchesASelectorKeepingTheFirstKRows) {
  const Selector first_k = [](dpcov_rng *, int64_t, int64_t k) {
    std::vector<double> kept(static_cast<size_t>(k));
    std::iota(kept.begin(), kept.end(), 1.0);
    return kept;
  };
  EXPECT_GT(chi_square(first_k, 5, 2, 20000), 44.81);
  // And a reservoir that swaps each later row in with probability 1/2 instead of k/t: closer
  // to uniform, still caught.
  const Selector biased = [](dpcov_rng *rng, int64_t size, int64_t k) {
    std::vector<double> kept(static_cast<size_t>(k));
    std::iota(kept.begin(), kept.end(), 1.0);
    for (int64_t t = k + 1; t <= size; ++t) {
      uint64_t u = 0;
      EXPECT_EQ(dpcov_rng_next_u64(rng, &u), DPCOV_OK);
      if (u & 1)
        kept[static_cast<size_t>((u >> 1) % static_cast<uint64_t>(k))] = static_cast<double>(t);
    }
    return kept;
  };
  EXPECT_GT(chi_square(biased, 5, 2, 20000), 44.81);
}

}  // namespace
