// Finite or failed: the row bounding of the C ABI (dpcov_row_bounding_apply, and a bounded
// accumulator's dpcov_gram_add_raw_rows) on rows and bounds anywhere in the doubles, with a
// constant column, a label or neither, under every policy: DPCOV_OK with every bounded row finite
// and within the reported norm bound, and the reported counts and bound finite; or a documented
// failure with the outputs (rows and counts) untouched and the refusal's measure finite.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <cstring>
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

RC_GTEST_PROP(RowBoundingFiniteOrFailed, ApplyAndAddRawRows, ()) {
  const int64_t cols = *rc::gen::inRange<int64_t>(2, 5);
  const int64_t rows = *rc::gen::inRange<int64_t>(0, 6);
  const auto a = *rc::gen::container<std::vector<double>>(static_cast<size_t>(rows * cols), entry());
  dpcov_row_bounding spec;
  RC_ASSERT(dpcov_row_bounding_default(&spec) == DPCOV_OK);
  RC_ASSERT(spec.bound == 1.0);
  spec.bound = *extreme_positive();
  spec.policy = *rc::gen::element(DPCOV_BOUND_CLIP, DPCOV_BOUND_REJECT, DPCOV_BOUND_DROP);
  spec.neighbour = *rc::gen::element(DPCOV_NEIGHBOUR_REPLACE_ONE, DPCOV_NEIGHBOUR_ADD_REMOVE);
  const int shape = *rc::gen::inRange(0, 3);
  if (shape == 1) spec.constant = *rc::gen::element(spec.bound, 1.0, *extreme_positive());
  if (shape == 2) spec.label_bound = *extreme_positive();

  const int64_t width = cols + 1;
  std::vector<double> out(static_cast<size_t>(rows * width), kCanary);
  dpcov_gram_info info = finite_or_failed::canary_struct<dpcov_gram_info>();
  const dpcov_gram_info info_before = info;
  dpcov_row_refusal refusal{};
  refusal.struct_size = sizeof refusal;
  const dpcov_status s = dpcov_row_bounding_apply(&spec, DPCOV_ROW_MAJOR, rows, cols, a.data(),
                                                  cols, rows ? out.data() : nullptr, width, &info,
                                                  &refusal);
  RC_ASSERT(std::isfinite(refusal.norm_rest));
  if (s != DPCOV_OK) {
    finite_or_failed::check_failure(s, "dpcov_row_bounding_apply");
    RC_ASSERT(finite_or_failed::bytes_equal(info, info_before));
    for (double v : out) RC_ASSERT(v == kCanary);
  } else {
    RC_ASSERT(std::isfinite(info.bound) && info.bound > 0.0);
    for (int64_t i = 0; i < info.rows; ++i) {
      long double sum = 0.0L;
      for (int64_t j = 0; j < info.dim; ++j) {
        const double v = out[static_cast<size_t>(i * width + j)];
        RC_ASSERT(std::isfinite(v));
        sum += static_cast<long double>(v) * v;
      }
      RC_ASSERT(std::sqrt(sum) <= static_cast<long double>(info.bound) * (1 + 1e-15L));
    }
  }

  dpcov_gram *g = nullptr;
  const dpcov_status c = dpcov_gram_create_bounded(&g, cols, &spec);
  if (c != DPCOV_OK) {
    if (g != nullptr) RC_FAIL("handle set on error");
    return;
  }
  const dpcov_status t = dpcov_gram_add_raw_rows(g, DPCOV_ROW_MAJOR, rows, cols, a.data(), cols,
                                                 &refusal);
  RC_ASSERT(std::isfinite(refusal.norm_rest));
  dpcov_gram_info after{};
  after.struct_size = sizeof after;
  RC_ASSERT(dpcov_gram_get_info(g, &after) == DPCOV_OK);
  RC_ASSERT(std::isfinite(after.bound) && after.bound > 0.0);
  if (t != DPCOV_OK) RC_ASSERT(after.rows == 0 && after.clipped == 0);
  dpcov_gram_destroy(&g);
}

}  // namespace
