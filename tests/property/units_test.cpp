// Finite or failed: the C ABI's privacy units (dpcov_gram_add_unit_rows, dpcov_gram_finish_units)
// on rows anywhere in the doubles, any k, sorted or unsorted unit ids, every policy and numerics:
// DPCOV_OK with the counters consistent (units <= rows seen, rows kept <= k units) and the bound
// finite, or a documented failure with the counters untouched and the refusal's measure finite;
// the release from such an accumulator finite or failed with its output untouched. And the merge
// property: units split into partitions by ranges of their ids, in any order within a unit, some
// through their saved states, and merged in any order, release the single-stream matrix byte for
// byte (exact numerics, k at least
// every unit's size so no draw precedes the noise); a unit split between partitions is refused.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "dpcov.h"
#include "finite_or_failed.hpp"

namespace {

using finite_or_failed::extreme_positive;
using finite_or_failed::kCanary;

rc::Gen<double> entry() {
  return rc::gen::map(rc::gen::pair(extreme_positive(), rc::gen::arbitrary<bool>()),
                      [](std::pair<double, bool> p) { return p.second ? -p.first : p.first; });
}

dpcov_gram_info info_of(const dpcov_gram *g) {
  dpcov_gram_info info{};
  info.struct_size = sizeof info;
  RC_ASSERT(dpcov_gram_get_info(g, &info) == DPCOV_OK);
  return info;
}

RC_GTEST_PROP(UnitsFiniteOrFailed, AddFinishAndRelease, ()) {
  const int64_t cols = *rc::gen::inRange<int64_t>(1, 4);
  const int64_t rows = *rc::gen::inRange<int64_t>(0, 12);
  const std::vector<double> a =
      *rc::gen::container<std::vector<double>>(static_cast<size_t>(rows * cols), entry());
  std::vector<int64_t> ids =
      *rc::gen::container<std::vector<int64_t>>(static_cast<size_t>(rows),
                                                rc::gen::inRange<int64_t>(-3, 4));
  if (*rc::gen::arbitrary<bool>()) std::sort(ids.begin(), ids.end());
  dpcov_row_bounding spec;
  RC_ASSERT(dpcov_row_bounding_default(&spec) == DPCOV_OK);
  spec.bound = *extreme_positive();
  spec.max_rows_per_unit = *rc::gen::element(int64_t{1}, int64_t{2}, int64_t{3}, int64_t{1} << 20);
  spec.policy = *rc::gen::element(DPCOV_BOUND_CLIP, DPCOV_BOUND_DROP);
  spec.neighbour = *rc::gen::element(DPCOV_NEIGHBOUR_REPLACE_ONE, DPCOV_NEIGHBOUR_ADD_REMOVE);
  spec.numerics = *rc::gen::element(DPCOV_NUMERICS_EXACT, DPCOV_NUMERICS_IDEALIZED);
  spec.mechanism = *rc::gen::element(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_MECHANISM_LAPLACE_SYM);
  spec.epsilon = *extreme_positive();
  spec.delta = *rc::gen::element(1e-300, 1e-6, 0.5);
  dpcov_gram *g = nullptr;
  const dpcov_status c = dpcov_gram_create_bounded(&g, cols, &spec);
  if (c != DPCOV_OK) {
    finite_or_failed::check_failure(c, "dpcov_gram_create_bounded (units)");
    if (g != nullptr) RC_FAIL("handle set on error");
    return;
  }
  dpcov_rng *rng = nullptr;
  RC_ASSERT(dpcov_rng_create_seeded(&rng, 5, 0) == DPCOV_OK);
  const dpcov_gram_info before = info_of(g);
  RC_ASSERT(std::isfinite(before.bound) && before.bound > 0.0);
  dpcov_row_refusal refusal{};
  refusal.struct_size = sizeof refusal;
  const dpcov_status s = dpcov_gram_add_unit_rows(g, rng, DPCOV_ROW_MAJOR, rows, cols,
                                                  rows ? a.data() : nullptr, cols,
                                                  rows ? ids.data() : nullptr, &refusal);
  RC_ASSERT(std::isfinite(refusal.norm_rest));
  if (s != DPCOV_OK) {
    finite_or_failed::check_failure(s, "dpcov_gram_add_unit_rows");
    const dpcov_gram_info unchanged = info_of(g);
    RC_ASSERT(unchanged.rows == before.rows && unchanged.units == before.units &&
              unchanged.truncated == before.truncated && unchanged.clipped == before.clipped &&
              unchanged.dropped == before.dropped);
  }
  const dpcov_status f = dpcov_gram_finish_units(g);
  if (f != DPCOV_OK) finite_or_failed::check_failure(f, "dpcov_gram_finish_units");
  const dpcov_gram_info after = info_of(g);
  RC_ASSERT(after.units <= rows && after.truncated >= 0 && after.rows >= 0);
  RC_ASSERT(after.rows <= after.units * spec.max_rows_per_unit);
  RC_ASSERT(after.bound == before.bound);
  const int64_t d = after.dim;
  std::vector<double> out(static_cast<size_t>(d * d), kCanary);
  dpcov_mechanism_params params;
  RC_ASSERT(dpcov_mechanism_params_default(&params) == DPCOV_OK);
  params.neighbour = spec.neighbour;
  dpcov_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  const dpcov_status r = dpcov_mechanism_release_gram(spec.mechanism, g, spec.epsilon, spec.delta,
                                                      &params, rng, DPCOV_ROW_MAJOR, out.data(),
                                                      d, &receipt);
  RC_CLASSIFY(r == DPCOV_OK, "released");
  if (r != DPCOV_OK) {
    finite_or_failed::check_failure(r, "dpcov_mechanism_release_gram (units)");
    for (double v : out) RC_ASSERT(v == kCanary);
  } else {
    RC_ASSERT(receipt.n == after.units);
    for (double v : out) RC_ASSERT(std::isfinite(v));
  }
  dpcov_rng_destroy(&rng);
  dpcov_gram_destroy(&g);
}

// Rows of one unit per id 0..units-1, 1 to 3 rows each.
struct UnitData {
  int64_t cols;
  std::vector<std::vector<double>> unit_rows;  // per unit, row-major
};

dpcov_gram *accumulate(const dpcov_row_bounding &spec, const UnitData &data, int64_t first,
                       int64_t last, dpcov_rng *rng) {
  dpcov_gram *g = nullptr;
  RC_ASSERT(dpcov_gram_create_bounded(&g, data.cols, &spec) == DPCOV_OK);
  for (int64_t u = first; u < last; ++u) {
    std::vector<double> rows = data.unit_rows[static_cast<size_t>(u)];
    const int64_t n = static_cast<int64_t>(rows.size()) / data.cols;
    // Any order within the unit.
    if (n > 1 && *rc::gen::arbitrary<bool>())
      std::swap_ranges(rows.begin(), rows.begin() + data.cols, rows.end() - data.cols);
    const std::vector<int64_t> ids(static_cast<size_t>(n), 1000 + 3 * u);
    RC_ASSERT(dpcov_gram_add_unit_rows(g, rng, DPCOV_ROW_MAJOR, n, data.cols, rows.data(),
                                       data.cols, ids.data(), nullptr) == DPCOV_OK);
  }
  RC_ASSERT(dpcov_gram_finish_units(g) == DPCOV_OK);
  return g;
}

std::vector<double> released(int32_t mechanism, const dpcov_gram *g, const dpcov_row_bounding &s) {
  const int64_t d = info_of(g).dim;
  std::vector<double> out(static_cast<size_t>(d * d));
  dpcov_rng *rng = nullptr;
  RC_ASSERT(dpcov_rng_create_seeded(&rng, 42, 0) == DPCOV_OK);
  dpcov_mechanism_params params;
  RC_ASSERT(dpcov_mechanism_params_default(&params) == DPCOV_OK);
  params.neighbour = s.neighbour;
  dpcov_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  RC_ASSERT(dpcov_mechanism_release_gram(mechanism, g, s.epsilon, s.delta, &params, rng,
                                         DPCOV_ROW_MAJOR, out.data(), d, &receipt) == DPCOV_OK);
  dpcov_rng_destroy(&rng);
  return out;
}

RC_GTEST_PROP(UnitsMerge, PartitionsByIdRangesReleaseTheSingleStreamBytes, ()) {
  UnitData data{*rc::gen::inRange<int64_t>(1, 4), {}};
  const int64_t units = *rc::gen::inRange<int64_t>(1, 12);
  for (int64_t u = 0; u < units; ++u) {
    const int64_t n = *rc::gen::inRange<int64_t>(1, 4);
    data.unit_rows.push_back(*rc::gen::container<std::vector<double>>(
        static_cast<size_t>(n * data.cols), rc::gen::map(rc::gen::inRange(-1000, 1001), [](int v) {
          return v / 2000.0;
        })));
  }
  dpcov_row_bounding spec;
  RC_ASSERT(dpcov_row_bounding_default(&spec) == DPCOV_OK);
  spec.bound = 1.0;
  spec.max_rows_per_unit = 3;
  spec.neighbour = *rc::gen::element(DPCOV_NEIGHBOUR_REPLACE_ONE, DPCOV_NEIGHBOUR_ADD_REMOVE);
  spec.mechanism = *rc::gen::element(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_MECHANISM_LAPLACE_SYM);
  spec.epsilon = 1.0;
  spec.delta = 1e-6;
  // Cut points 0 = c_0 <= ... <= c_p = units: partition i holds units [c_i, c_{i+1}).
  std::vector<int64_t> cuts = *rc::gen::container<std::vector<int64_t>>(
      static_cast<size_t>(*rc::gen::inRange(0, 4)), rc::gen::inRange<int64_t>(0, units + 1));
  cuts.push_back(0);
  cuts.push_back(units);
  std::sort(cuts.begin(), cuts.end());
  dpcov_rng *rng = nullptr;
  RC_ASSERT(dpcov_rng_create_seeded(&rng, 7, 0) == DPCOV_OK);
  dpcov_gram *single = accumulate(spec, data, 0, units, rng);
  std::vector<dpcov_gram *> parts;
  for (size_t i = 0; i + 1 < cuts.size(); ++i) {
    parts.push_back(accumulate(spec, data, cuts[i], cuts[i + 1], rng));
    // Now and then through its saved state, as from another process.
    if (*rc::gen::arbitrary<bool>()) {
      size_t size = 0;
      RC_ASSERT(dpcov_gram_export_state(parts.back(), nullptr, 0, &size) == DPCOV_OK);
      std::vector<unsigned char> bytes(size);
      RC_ASSERT(dpcov_gram_export_state(parts.back(), bytes.data(), size, &size) == DPCOV_OK);
      dpcov_gram_destroy(&parts.back());
      RC_ASSERT(dpcov_gram_import_state(&parts.back(), bytes.data(), size) == DPCOV_OK);
    }
  }
  std::vector<size_t> order(parts.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::mt19937 shuffle(*rc::gen::arbitrary<uint32_t>());
  std::shuffle(order.begin(), order.end(), shuffle);
  dpcov_gram *merged = parts[order[0]];
  for (size_t i = 1; i < order.size(); ++i)
    if (dpcov_gram_merge(merged, parts[order[i]]) != DPCOV_OK) RC_FAIL(dpcov_last_error_message());
  const std::vector<double> one = released(spec.mechanism, single, spec);
  const std::vector<double> many = released(spec.mechanism, merged, spec);
  RC_ASSERT(std::memcmp(one.data(), many.data(), one.size() * sizeof(double)) == 0);
  // A unit split between two partitions: refused, dst unchanged.
  if (data.unit_rows.back().size() > static_cast<size_t>(data.cols)) {
    dpcov_gram *a = nullptr, *b = nullptr;
    RC_ASSERT(dpcov_gram_create_bounded(&a, data.cols, &spec) == DPCOV_OK);
    RC_ASSERT(dpcov_gram_create_bounded(&b, data.cols, &spec) == DPCOV_OK);
    const std::vector<double> &rows = data.unit_rows.back();
    const int64_t id = 1000 + 3 * (units - 1);
    RC_ASSERT(dpcov_gram_add_unit_rows(a, rng, DPCOV_ROW_MAJOR, 1, data.cols, rows.data(),
                                       data.cols, &id, nullptr) == DPCOV_OK);
    RC_ASSERT(dpcov_gram_add_unit_rows(b, rng, DPCOV_ROW_MAJOR, 1, data.cols,
                                       rows.data() + data.cols, data.cols, &id,
                                       nullptr) == DPCOV_OK);
    RC_ASSERT(dpcov_gram_finish_units(a) == DPCOV_OK && dpcov_gram_finish_units(b) == DPCOV_OK);
    RC_ASSERT(dpcov_gram_merge(a, b) == DPCOV_E_INCOMPATIBLE);
    RC_ASSERT(info_of(a).units == 1 && info_of(a).rows == 1);
    dpcov_gram_destroy(&a);
    dpcov_gram_destroy(&b);
  }
  dpcov_gram_destroy(&single);
  for (dpcov_gram *p : parts) dpcov_gram_destroy(&p);
  dpcov_rng_destroy(&rng);
}

}  // namespace
