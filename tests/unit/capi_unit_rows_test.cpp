// The rows privacy units keep for the zCDP row mechanisms through the C ABI
// (dpcov_unit_rows_keep): exactly k rows per unit, the unit's own rows then zero rows, and every
// bad argument refused with a message, the outputs untouched and nothing drawn.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "dpcov.h"

namespace {

constexpr double kCanary = -12345.0;

std::vector<unsigned char> state_of(const dpcov_rng *rng) {
  std::vector<unsigned char> state(dpcov_rng_state_size());
  EXPECT_EQ(dpcov_rng_state_save(rng, state.data(), state.size()), DPCOV_OK);
  return state;
}

struct Call {
  dpcov_rng *rng = nullptr;
  int64_t k = 2;
  int32_t layout = DPCOV_ROW_MAJOR;
  int64_t rows = 5, cols = 2, lda = 2;
  std::vector<double> a{1, 1, 2, 2, 3, 3, 4, 4, 5, 5};
  std::vector<int64_t> units{7, 7, 7, 9, 12};
  std::vector<double> out = std::vector<double>(12, kCanary);
  int64_t out_rows = 6, ldout = 2;
  int64_t truncated = -1;
  bool null_a = false, null_units = false, null_out = false, null_truncated = false;

  dpcov_status run() {
    return dpcov_unit_rows_keep(rng, k, layout, rows, cols, null_a ? nullptr : a.data(), lda,
                                null_units ? nullptr : units.data(),
                                null_out ? nullptr : out.data(), out_rows, ldout,
                                null_truncated ? nullptr : &truncated);
  }
};

class CapiUnitRows : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(dpcov_rng_create_seeded(&rng_, 11, 0), DPCOV_OK); }
  void TearDown() override { dpcov_rng_destroy(&rng_); }
  // A call changed by `change` fails with `status`, a message, nothing written or drawn.
  template <class F>
  void refused(F change, dpcov_status status) {
    Call c;
    c.rng = rng_;
    change(c);
    const std::vector<unsigned char> before = state_of(rng_);
    EXPECT_EQ(c.run(), status);
    EXPECT_GT(std::strlen(dpcov_last_error_message()), 0u);
    for (double v : c.out) EXPECT_EQ(v, kCanary);
    EXPECT_EQ(c.truncated, -1);
    EXPECT_EQ(state_of(rng_), before);
  }
  dpcov_rng *rng_ = nullptr;
};

TEST_F(CapiUnitRows, KeepsExactlyKRowsOfEachUnitThenZeroRows) {
  Call c;
  c.rng = rng_;
  ASSERT_EQ(c.run(), DPCOV_OK) << dpcov_last_error_message();
  EXPECT_EQ(c.truncated, 1);
  // Unit 7 (rows 1, 2, 3): two distinct ones of its rows; 9 and 12: their row, then a zero row.
  EXPECT_NE(c.out[0], c.out[2]);
  for (int r = 0; r < 2; ++r) {
    EXPECT_TRUE(c.out[2 * r] >= 1 && c.out[2 * r] <= 3);
    EXPECT_EQ(c.out[2 * r], c.out[2 * r + 1]);
  }
  EXPECT_EQ((std::vector<double>(c.out.begin() + 4, c.out.end())),
            (std::vector<double>{4, 4, 0, 0, 5, 5, 0, 0}));
}

TEST_F(CapiUnitRows, ColumnMajorKeepsTheSameRowsAsRowMajor) {
  Call row;
  row.rng = rng_;
  ASSERT_EQ(row.run(), DPCOV_OK);
  dpcov_rng *again = nullptr;
  ASSERT_EQ(dpcov_rng_create_seeded(&again, 11, 0), DPCOV_OK);
  Call col;
  col.rng = again;
  col.layout = DPCOV_COL_MAJOR;
  col.lda = 5;
  col.a = {1, 2, 3, 4, 5, 1, 2, 3, 4, 5};
  col.ldout = 6;
  ASSERT_EQ(col.run(), DPCOV_OK);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 2; ++j) EXPECT_EQ(row.out[i * 2 + j], col.out[j * 6 + i]);
  dpcov_rng_destroy(&again);
}

TEST_F(CapiUnitRows, NoRowsIsANoOp) {
  Call c;
  c.rng = rng_;
  c.rows = 0;
  c.out_rows = 0;
  c.null_a = c.null_units = c.null_out = true;
  const std::vector<unsigned char> before = state_of(rng_);
  ASSERT_EQ(c.run(), DPCOV_OK);
  EXPECT_EQ(c.truncated, 0);
  EXPECT_EQ(state_of(rng_), before);
}

TEST_F(CapiUnitRows, BadArgumentsAreRefusedUntouched) {
  refused([](Call &c) { c.rng = nullptr; }, DPCOV_E_NULL_POINTER);
  refused([](Call &c) { c.null_a = true; }, DPCOV_E_NULL_POINTER);
  refused([](Call &c) { c.null_units = true; }, DPCOV_E_NULL_POINTER);
  refused([](Call &c) { c.null_out = true; }, DPCOV_E_NULL_POINTER);
  refused([](Call &c) { c.null_truncated = true; }, DPCOV_E_NULL_POINTER);
  for (int64_t k : {int64_t{0}, int64_t{-1}, (int64_t{1} << 20) + 1})
    refused([k](Call &c) { c.k = k; }, DPCOV_E_INVALID_ARGUMENT);
  refused([](Call &c) { c.layout = 7; }, DPCOV_E_LAYOUT);
  refused([](Call &c) { c.rows = -1; }, DPCOV_E_DIMENSION);
  refused([](Call &c) { c.cols = 0; }, DPCOV_E_DIMENSION);
  refused([](Call &c) { c.lda = 1; }, DPCOV_E_LAYOUT);
  refused([](Call &c) { c.ldout = 1; }, DPCOV_E_LAYOUT);
  for (int64_t n : {int64_t{-1}, int64_t{0}, int64_t{5}, int64_t{4}})
    refused([n](Call &c) { c.out_rows = n; }, DPCOV_E_DIMENSION);
  refused([](Call &c) { c.units = {7, 7, 6, 9, 12}; }, DPCOV_E_INVALID_ARGUMENT);
  refused([](Call &c) { c.a[7] = std::nan(""); }, DPCOV_E_NON_FINITE);
  refused([](Call &c) { c.a[9] = -INFINITY; }, DPCOV_E_NON_FINITE);
  refused([](Call &c) { c.rows = INT64_MAX; }, DPCOV_E_TOO_LARGE);
}

}  // namespace
