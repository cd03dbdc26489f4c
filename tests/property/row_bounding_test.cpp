// Finite or failed: the row bounding of the C ABI (dpcov_row_bounding_apply, and a bounded
// accumulator's dpcov_gram_add_raw_rows) on rows and bounds anywhere in the doubles, with a
// constant column, a label or neither, balanced or not, under every policy: DPCOV_OK with every bounded row finite
// and within the reported norm bound, and the reported counts and bound finite; or a documented
// failure with the outputs (rows and counts) untouched and the refusal's measure finite; and the
// exact release from such an accumulator, finite or failed with its output untouched.
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

struct RawRows {
  int64_t cols;
  int64_t rows;
  std::vector<double> values;  // row-major, leading dimension cols
  dpcov_row_bounding spec;     // the defaults with a bound anywhere in the positive doubles
};

// 0 to 5 rows of 2 to 4 columns anywhere in the doubles, and a bounding for them.
RawRows raw_rows() {
  const int64_t cols = *rc::gen::inRange<int64_t>(2, 5);
  const int64_t rows = *rc::gen::inRange<int64_t>(0, 6);
  RawRows raw{cols, rows,
              *rc::gen::container<std::vector<double>>(static_cast<size_t>(rows * cols), entry()),
              {}};
  RC_ASSERT(dpcov_row_bounding_default(&raw.spec) == DPCOV_OK);
  RC_ASSERT(raw.spec.bound == 1.0);
  raw.spec.bound = *extreme_positive();
  return raw;
}

RC_GTEST_PROP(RowBoundingFiniteOrFailed, ApplyAndAddRawRows, ()) {
  const RawRows raw = raw_rows();
  const int64_t cols = raw.cols, rows = raw.rows;
  const std::vector<double> &a = raw.values;
  dpcov_row_bounding spec = raw.spec;
  spec.policy = *rc::gen::element(DPCOV_BOUND_CLIP, DPCOV_BOUND_REJECT, DPCOV_BOUND_DROP);
  spec.neighbour = *rc::gen::element(DPCOV_NEIGHBOUR_REPLACE_ONE, DPCOV_NEIGHBOUR_ADD_REMOVE);
  const int shape = *rc::gen::inRange(0, 3);
  if (shape == 1) spec.constant = *rc::gen::element(spec.bound, 1.0, *extreme_positive());
  if (shape == 2) spec.label_bound = *extreme_positive();
  if (spec.constant == 0.0 || spec.constant == 1.0) spec.balanced = *rc::gen::inRange(0, 2);

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

  // The factors that map a fit on these rows back: finite and > 0, or untouched.
  std::vector<double> factors(static_cast<size_t>(cols + 1), kCanary);
  const int64_t count = cols + (spec.constant != 0.0 ? 1 : 0) - (spec.label_bound > 0.0 ? 1 : 0);
  const dpcov_status f = dpcov_row_bounding_coefficient_factors(&spec, cols, factors.data(), count);
  if (f != DPCOV_OK) {
    finite_or_failed::check_failure(f, "dpcov_row_bounding_coefficient_factors");
    for (double v : factors) RC_ASSERT(v == kCanary);
  } else {
    for (int64_t j = 0; j < count; ++j)
      RC_ASSERT(std::isfinite(factors[static_cast<size_t>(j)]) &&
                factors[static_cast<size_t>(j)] > 0.0);
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

// The exact row path (a bounded accumulator naming analyze_gauss or laplace_sym, released by
// dpcov_mechanism_release_gram) on the same rows and bounds, at any budget: a finite release
// labelled exact, or a documented failure with the output untouched.
RC_GTEST_PROP(RowBoundingFiniteOrFailed, ExactReleaseFromRawRows, ()) {
  const RawRows raw = raw_rows();
  const int64_t cols = raw.cols, rows = raw.rows;
  const std::vector<double> &a = raw.values;
  dpcov_row_bounding spec = raw.spec;
  if (*rc::gen::arbitrary<bool>()) spec.constant = spec.bound;
  spec.mechanism = *rc::gen::element(DPCOV_MECHANISM_ANALYZE_GAUSS, DPCOV_MECHANISM_LAPLACE_SYM);
  spec.epsilon = *extreme_positive();
  spec.delta = *rc::gen::element(1e-300, 1e-6, 0.5);
  dpcov_gram *g = nullptr;
  const dpcov_status c = dpcov_gram_create_bounded(&g, cols, &spec);
  if (c != DPCOV_OK) {
    finite_or_failed::check_failure(c, "dpcov_gram_create_bounded (exact)");
    if (g != nullptr) RC_FAIL("handle set on error");
    return;
  }
  static_cast<void>(dpcov_gram_add_raw_rows(g, DPCOV_ROW_MAJOR, rows, cols, a.data(), cols,
                                            nullptr));
  dpcov_rng *rng = nullptr;
  RC_ASSERT(dpcov_rng_create_seeded(&rng, 3, 0) == DPCOV_OK);
  const int64_t d = cols + (spec.constant != 0.0 ? 1 : 0);
  std::vector<double> out(static_cast<size_t>(d * d), kCanary);
  dpcov_receipt receipt{};
  receipt.struct_size = sizeof receipt;
  const dpcov_status r = dpcov_mechanism_release_gram(spec.mechanism, g, spec.epsilon, spec.delta,
                                                      nullptr, rng, DPCOV_ROW_MAJOR, out.data(),
                                                      d, &receipt);
  RC_CLASSIFY(r == DPCOV_OK, "released");
  if (r != DPCOV_OK) {
    finite_or_failed::check_failure(r, "dpcov_mechanism_release_gram (exact)");
    for (double v : out) RC_ASSERT(v == kCanary);
  } else {
    RC_ASSERT(receipt.numerics == DPCOV_NUMERICS_EXACT);
    for (double v : out) RC_ASSERT(std::isfinite(v));
  }
  dpcov_rng_destroy(&rng);
  dpcov_gram_destroy(&g);
}

}  // namespace
