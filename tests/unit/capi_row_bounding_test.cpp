// The C ABI of the kernel's row bounding (dpcov_row_bounding_default, dpcov_gram_create_bounded,
// dpcov_gram_add_raw_rows, dpcov_row_bounding_apply): every bad argument refused with outputs and
// state untouched, a refused row returned as data, and the drop policy refused under replace-one
// whatever the rows, at creation and at release.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "dpcov.h"
#include "support/gram_info.hpp"

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

dpcov_row_bounding spec_with(double bound, int32_t policy, int32_t neighbour) {
  dpcov_row_bounding s;
  EXPECT_EQ(dpcov_row_bounding_default(&s), DPCOV_OK);
  s.bound = bound;
  s.policy = policy;
  s.neighbour = neighbour;
  return s;
}

using dpcov::test::gram_info_of;

TEST(CapiRowBounding, DefaultsAreClipReplaceOneBoundOne) {
  dpcov_row_bounding s;
  ASSERT_EQ(dpcov_row_bounding_default(&s), DPCOV_OK);
  EXPECT_EQ(s.struct_size, sizeof s);
  EXPECT_EQ(s.bound, 1.0);
  EXPECT_EQ(s.policy, DPCOV_BOUND_CLIP);
  EXPECT_EQ(s.neighbour, DPCOV_NEIGHBOUR_REPLACE_ONE);
  EXPECT_EQ(s.constant, 0.0);
  EXPECT_EQ(s.lower, nullptr);
  EXPECT_EQ(s.label_bound, 0.0);
  EXPECT_EQ(dpcov_row_bounding_default(nullptr), DPCOV_E_NULL_POINTER);
}

TEST(CapiRowBounding, CreateRefusesBadArgumentsAndLeavesTheHandleUnset) {
  dpcov_gram *g = nullptr;
  const dpcov_row_bounding good = spec_with(1.0, DPCOV_BOUND_CLIP, DPCOV_NEIGHBOUR_REPLACE_ONE);
  EXPECT_EQ(dpcov_gram_create_bounded(nullptr, 2, &good), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_gram_create_bounded(&g, 2, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_gram_create_bounded(&g, 0, &good), DPCOV_E_DIMENSION);
  dpcov_row_bounding bad = good;
  bad.struct_size = 4;
  EXPECT_EQ(dpcov_gram_create_bounded(&g, 2, &bad), DPCOV_E_INVALID_ARGUMENT);
  bad = good;
  bad.bound = kNaN;
  EXPECT_EQ(dpcov_gram_create_bounded(&g, 2, &bad), DPCOV_E_NON_FINITE);
  bad = good;
  bad.bound = -1.0;
  EXPECT_EQ(dpcov_gram_create_bounded(&g, 2, &bad), DPCOV_E_INVALID_ARGUMENT);
  bad = good;
  bad.policy = 9;
  EXPECT_EQ(dpcov_gram_create_bounded(&g, 2, &bad), DPCOV_E_INVALID_ARGUMENT);
  bad = good;
  bad.neighbour = 5;
  EXPECT_EQ(dpcov_gram_create_bounded(&g, 2, &bad), DPCOV_E_INVALID_ARGUMENT);
  bad = good;
  bad.constant = -2.0;
  EXPECT_EQ(dpcov_gram_create_bounded(&g, 2, &bad), DPCOV_E_INVALID_ARGUMENT);
  bad = good;
  bad.label_bound = kNaN;
  EXPECT_EQ(dpcov_gram_create_bounded(&g, 2, &bad), DPCOV_E_NON_FINITE);
  const double lower[2] = {0.0, 1.0}, upper[2] = {1.0, 0.5};
  bad = good;
  bad.lower = lower;
  bad.upper = upper;
  EXPECT_EQ(dpcov_gram_create_bounded(&g, 2, &bad), DPCOV_E_INVALID_ARGUMENT);
  bad.upper = nullptr;
  EXPECT_EQ(dpcov_gram_create_bounded(&g, 2, &bad), DPCOV_E_NULL_POINTER);
  bad = spec_with(1.0, DPCOV_BOUND_DROP, DPCOV_NEIGHBOUR_REPLACE_ONE);
  EXPECT_EQ(dpcov_gram_create_bounded(&g, 2, &bad), DPCOV_E_PRECONDITION);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("replace-one"), std::string::npos);
  EXPECT_EQ(g, nullptr);
}

TEST(CapiRowBounding, ARefusedRowComesBackAsDataAndTheAccumulatorIsUnchanged) {
  dpcov_gram *g = nullptr;
  const dpcov_row_bounding s = spec_with(1.0, DPCOV_BOUND_REJECT, DPCOV_NEIGHBOUR_REPLACE_ONE);
  ASSERT_EQ(dpcov_gram_create_bounded(&g, 2, &s), DPCOV_OK);
  const double ok[4] = {0.3, 0.4, 0.1, 0.2};
  ASSERT_EQ(dpcov_gram_add_raw_rows(g, DPCOV_ROW_MAJOR, 2, 2, ok, 2, nullptr), DPCOV_OK);
  const dpcov_gram_info before = gram_info_of(g);
  const double over[6] = {0.3, 0.4, 0.1, 0.2, 30.0, 40.0};
  dpcov_row_refusal r{};
  r.struct_size = sizeof r;
  EXPECT_EQ(dpcov_gram_add_raw_rows(g, DPCOV_ROW_MAJOR, 3, 2, over, 2, &r), DPCOV_E_NORM_BOUND);
  EXPECT_EQ(r.row, 2);
  EXPECT_EQ(r.label, 0);
  EXPECT_EQ(std::ldexp(r.norm_rest, r.norm_exponent), 50.0);
  const dpcov_gram_info after = gram_info_of(g);
  EXPECT_EQ(std::memcmp(&before, &after, sizeof before), 0);
  // Column-major, non-finite: the row too.
  const double nan_rows[4] = {0.1, kNaN, 0.2, 0.3};
  EXPECT_EQ(dpcov_gram_add_raw_rows(g, DPCOV_COL_MAJOR, 2, 2, nan_rows, 2, &r), DPCOV_E_NON_FINITE);
  EXPECT_EQ(r.row, 1);
  // Other failures: no row.
  EXPECT_EQ(dpcov_gram_add_raw_rows(g, DPCOV_ROW_MAJOR, 2, 3, ok, 3, &r), DPCOV_E_DIMENSION);
  EXPECT_EQ(r.row, -1);
  EXPECT_EQ(dpcov_gram_add_raw_rows(nullptr, DPCOV_ROW_MAJOR, 2, 2, ok, 2, &r),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_gram_add_raw_rows(g, 7, 2, 2, ok, 2, &r), DPCOV_E_LAYOUT);
  dpcov_row_refusal small{};
  small.struct_size = 3;
  EXPECT_EQ(dpcov_gram_add_raw_rows(g, DPCOV_ROW_MAJOR, 2, 2, ok, 2, &small),
            DPCOV_E_INVALID_ARGUMENT);
  dpcov_gram_destroy(&g);
  // An accumulator made by dpcov_gram_create has no bounding.
  ASSERT_EQ(dpcov_gram_create(&g, 2), DPCOV_OK);
  EXPECT_EQ(dpcov_gram_add_raw_rows(g, DPCOV_ROW_MAJOR, 2, 2, ok, 2, nullptr),
            DPCOV_E_INVALID_ARGUMENT);
  dpcov_gram_destroy(&g);
}

TEST(CapiRowBounding, ApplyWritesTheBoundedRowsAndLeavesOutputsUntouchedOnError) {
  dpcov_row_bounding s = spec_with(2.0, DPCOV_BOUND_CLIP, DPCOV_NEIGHBOUR_REPLACE_ONE);
  s.constant = 2.0;
  const double raw[4] = {0.6, 0.8, 30.0, 40.0};
  std::vector<double> out(6, -1.0);
  dpcov_gram_info info{};
  info.struct_size = sizeof info;
  ASSERT_EQ(dpcov_row_bounding_apply(&s, DPCOV_ROW_MAJOR, 2, 2, raw, 2, out.data(), 3, &info,
                                     nullptr),
            DPCOV_OK);
  EXPECT_EQ(info.dim, 3);
  EXPECT_EQ(info.rows, 2);
  EXPECT_EQ(info.clipped, 1);
  EXPECT_EQ(out[0], 2.0);
  EXPECT_EQ(out[1], 0.6);
  EXPECT_EQ(out[3], 2.0);
  EXPECT_LE(std::hypot(out[4], out[5]), 2.0);
  const std::vector<double> kept = out;
  const dpcov_gram_info kept_info = info;
  const double bad[4] = {0.6, kNaN, 1.0, 1.0};
  dpcov_row_refusal r{};
  r.struct_size = sizeof r;
  EXPECT_EQ(dpcov_row_bounding_apply(&s, DPCOV_ROW_MAJOR, 2, 2, bad, 2, out.data(), 3, &info, &r),
            DPCOV_E_NON_FINITE);
  EXPECT_EQ(r.row, 0);
  EXPECT_EQ(out, kept);
  EXPECT_EQ(std::memcmp(&info, &kept_info, sizeof info), 0);
  EXPECT_EQ(dpcov_row_bounding_apply(&s, DPCOV_ROW_MAJOR, 2, 2, raw, 2, out.data(), 2, &info, &r),
            DPCOV_E_LAYOUT);
  EXPECT_EQ(dpcov_row_bounding_apply(&s, DPCOV_ROW_MAJOR, 2, 2, raw, 2, out.data(), 3, nullptr, &r),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_row_bounding_apply(nullptr, DPCOV_ROW_MAJOR, 2, 2, raw, 2, out.data(), 3, &info,
                                     &r),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(out, kept);
}

// The drop policy under replace-one: refused for a dataset with no row over the bound as for one
// with a row over it, so the refusal tells nothing about the rows (before, only the second was).
TEST(CapiRowBounding, AReleaseRefusesTheDropPolicyUnderReplaceOneWhateverTheRows) {
  const double within[4] = {0.3, 0.4, 0.1, 0.2};
  const double one_over[4] = {3.0, 4.0, 0.1, 0.2};
  std::string messages[2];
  for (int k = 0; k < 2; ++k) {
    dpcov_gram *g = nullptr;
    ASSERT_EQ(dpcov_gram_create(&g, 2), DPCOV_OK);
    ASSERT_EQ(dpcov_gram_add_rows(g, DPCOV_ROW_MAJOR, 2, 2, k == 0 ? within : one_over, 2, 1.0,
                                  DPCOV_BOUND_DROP),
              DPCOV_OK);
    dpcov_rng *rng = nullptr;
    ASSERT_EQ(dpcov_rng_create_seeded(&rng, 1, 0), DPCOV_OK);
    dpcov_mechanism_params p;
    ASSERT_EQ(dpcov_mechanism_params_default(&p), DPCOV_OK);
    double out[4] = {0, 0, 0, 0};
    dpcov_receipt receipt{};
    receipt.struct_size = sizeof receipt;
    EXPECT_EQ(dpcov_mechanism_release_gram(DPCOV_MECHANISM_ANALYZE_GAUSS, g, 1.0, 1e-6, &p, rng,
                                           DPCOV_ROW_MAJOR, out, 2, &receipt),
              DPCOV_E_PRECONDITION);
    messages[k] = dpcov_last_error_message();
    p.neighbour = DPCOV_NEIGHBOUR_ADD_REMOVE;
    EXPECT_EQ(dpcov_mechanism_release_gram(DPCOV_MECHANISM_ANALYZE_GAUSS, g, 1.0, 1e-6, &p, rng,
                                           DPCOV_ROW_MAJOR, out, 2, &receipt),
              DPCOV_OK);
    dpcov_rng_destroy(&rng);
    dpcov_gram_destroy(&g);
  }
  EXPECT_EQ(messages[0], messages[1]);
}

// The private bound's histogram of row norms, measured by the library (no caller computes a
// norm): cells as in dpcov/private_bound.h, a norm above the largest double and a non-finite row
// above every candidate, the counts added to and untouched on failure.
TEST(CapiRowBounding, PrivateBoundHistogramCountsRowsByTheirNormCell) {
  const double grid[3] = {1.0, 2.0, 4.0};
  const double big = std::numeric_limits<double>::max();
  const double rows[12] = {0.3, 0.4, 0.0, 2.0, 1.8, 2.4, big, big, kNaN, 0.0, 1e-200, 1e-200};
  int64_t histogram[4] = {1, 0, 0, 0};
  ASSERT_EQ(dpcov_private_bound_histogram(grid, 3, DPCOV_ROW_MAJOR, 6, 2, rows, 2, histogram),
            DPCOV_OK);
  const int64_t expected[4] = {3, 1, 1, 2};
  for (int k = 0; k < 4; ++k) EXPECT_EQ(histogram[k], expected[k]) << k;
  const double bad_grid[3] = {1.0, 1.0, 4.0};
  EXPECT_EQ(dpcov_private_bound_histogram(bad_grid, 3, DPCOV_ROW_MAJOR, 6, 2, rows, 2, histogram),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_private_bound_histogram(grid, 0, DPCOV_ROW_MAJOR, 6, 2, rows, 2, histogram),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_private_bound_histogram(grid, 3, DPCOV_ROW_MAJOR, 6, 2, nullptr, 2, histogram),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_private_bound_histogram(grid, 3, DPCOV_ROW_MAJOR, 6, 2, rows, 2, nullptr),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_private_bound_histogram(grid, 3, 5, 6, 2, rows, 2, histogram), DPCOV_E_LAYOUT);
  int64_t full[4] = {0, 0, 0, INT64_MAX};
  EXPECT_EQ(dpcov_private_bound_histogram(grid, 3, DPCOV_ROW_MAJOR, 6, 2, rows, 2, full),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(full[0], 0);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(histogram[k], expected[k]) << k;
}

}  // namespace
