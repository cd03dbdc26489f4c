// Every argument of every dpcov_gram_* entry point: the failure status, the message, and that
// outputs and state are untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

std::string last() { return dpcov_last_error_message(); }

class CapiGram : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(dpcov_gram_create(&g_, 3), DPCOV_OK);
    ASSERT_EQ(dpcov_gram_add_rows(g_, DPCOV_ROW_MAJOR, 2, 3, rows_.data(), 3, 1.0,
                                  DPCOV_BOUND_CLIP),
              DPCOV_OK);
  }
  void TearDown() override { dpcov_gram_destroy(&g_); }

  // The accumulator is as SetUp left it.
  void expect_unchanged() {
    dpcov_gram_info info{};
    info.struct_size = sizeof info;
    ASSERT_EQ(dpcov_gram_get_info(g_, &info), DPCOV_OK);
    EXPECT_EQ(info.rows, 2);
    EXPECT_EQ(info.clipped, 0);
    std::vector<double> m(9);
    ASSERT_EQ(dpcov_gram_get_matrix(g_, DPCOV_COL_MAJOR, m.data(), 3), DPCOV_OK);
    EXPECT_DOUBLE_EQ(m[0], 0.1 * 0.1 + 0.4 * 0.4);
    EXPECT_DOUBLE_EQ(m[8], 0.3 * 0.3 + 0.6 * 0.6);
  }

  dpcov_status add(int32_t layout, int64_t n, int64_t d, const double *a, int64_t lda,
                   double bound, int32_t policy) {
    return dpcov_gram_add_rows(g_, layout, n, d, a, lda, bound, policy);
  }

  dpcov_gram *g_ = nullptr;
  std::vector<double> rows_ = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
};

TEST(CapiGramCreate, RejectsNullOutAndBadDimensions) {
  EXPECT_EQ(dpcov_gram_create(nullptr, 3), DPCOV_E_NULL_POINTER);
  EXPECT_NE(last().find("out"), std::string::npos);
  dpcov_gram *g = reinterpret_cast<dpcov_gram *>(0x1);
  EXPECT_EQ(dpcov_gram_create(&g, 0), DPCOV_E_DIMENSION);
  EXPECT_EQ(dpcov_gram_create(&g, -4), DPCOV_E_DIMENSION);
  EXPECT_EQ(dpcov_gram_create(&g, 100000), DPCOV_E_TOO_LARGE);
  EXPECT_EQ(g, reinterpret_cast<dpcov_gram *>(0x1)) << "output written on failure";
}

TEST(CapiGramDestroy, AcceptsNullAndSetsHandleToNull) {
  dpcov_gram_destroy(nullptr);
  dpcov_gram *g = nullptr;
  dpcov_gram_destroy(&g);
  ASSERT_EQ(dpcov_gram_create(&g, 2), DPCOV_OK);
  dpcov_gram_destroy(&g);
  EXPECT_EQ(g, nullptr);
}

// A bound whose square overflows (B = 1.35e154: B^2 = inf) and a row of norm 1.41e154 > B whose
// sum of squares overflows too: the row is above the bound, rejected or clipped, never taken as
// within it because inf <= inf (found by fuzz_sketch, where the sketch rejected what the Gram
// accepted). Both accumulators agree.
TEST(CapiGramBound, ARowWhoseSumOfSquaresOverflowsIsMeasuredAgainstAnOverflowingBound) {
  const double bound = 1.35e154, row[2] = {1e154, 1e154};
  dpcov_gram *g = nullptr;
  ASSERT_EQ(dpcov_gram_create(&g, 2), DPCOV_OK);
  EXPECT_EQ(dpcov_gram_add_rows(g, DPCOV_ROW_MAJOR, 1, 2, row, 2, bound, DPCOV_BOUND_REJECT),
            DPCOV_E_NORM_BOUND);
  ASSERT_EQ(dpcov_gram_add_rows(g, DPCOV_ROW_MAJOR, 1, 2, row, 2, bound, DPCOV_BOUND_CLIP),
            DPCOV_OK);
  dpcov_gram_info info{};
  info.struct_size = sizeof info;
  ASSERT_EQ(dpcov_gram_get_info(g, &info), DPCOV_OK);
  EXPECT_EQ(info.clipped, 1);
  std::vector<double> m(4);
  ASSERT_EQ(dpcov_gram_get_matrix(g, DPCOV_ROW_MAJOR, m.data(), 2), DPCOV_OK);
  EXPECT_LE(std::hypot(std::sqrt(m[0]), std::sqrt(m[3])), bound * (1 + 1e-15));  // clipped to B
  dpcov_gram_destroy(&g);

  dpcov_rng *key = nullptr;
  ASSERT_EQ(dpcov_rng_create_seeded(&key, 1, 0), DPCOV_OK);
  dpcov_sketch *sk = nullptr;
  ASSERT_EQ(dpcov_sketch_create(&sk, 2, 3, key), DPCOV_OK);
  EXPECT_EQ(dpcov_sketch_add_rows(sk, DPCOV_ROW_MAJOR, 1, 2, row, 2, 0, bound, DPCOV_BOUND_REJECT),
            DPCOV_E_NORM_BOUND);
  dpcov_sketch_destroy(&sk);
  dpcov_rng_destroy(&key);
}

TEST_F(CapiGram, AddRowsRejectsEachBadArgument) {
  const double *a = rows_.data();
  EXPECT_EQ(dpcov_gram_add_rows(nullptr, DPCOV_ROW_MAJOR, 2, 3, a, 3, 1.0, 0),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(add(DPCOV_ROW_MAJOR, 2, 3, nullptr, 3, 1.0, 0), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(add(7, 2, 3, a, 3, 1.0, 0), DPCOV_E_LAYOUT);
  EXPECT_EQ(add(DPCOV_ROW_MAJOR, -1, 3, a, 3, 1.0, 0), DPCOV_E_DIMENSION);
  EXPECT_EQ(add(DPCOV_ROW_MAJOR, 2, 0, a, 3, 1.0, 0), DPCOV_E_DIMENSION);
  EXPECT_EQ(add(DPCOV_ROW_MAJOR, 2, 2, a, 2, 1.0, 0), DPCOV_E_DIMENSION);
  EXPECT_NE(last().find("columns"), std::string::npos);
  EXPECT_EQ(add(DPCOV_ROW_MAJOR, 2, 3, a, 2, 1.0, 0), DPCOV_E_LAYOUT);
  EXPECT_EQ(add(DPCOV_COL_MAJOR, 2, 3, a, 1, 1.0, 0), DPCOV_E_LAYOUT);
  EXPECT_EQ(add(DPCOV_ROW_MAJOR, 2, 3, a, int64_t{1} << 40, 1.0, 0), DPCOV_E_TOO_LARGE);
  for (double bound : {0.0, -1.0}) {
    EXPECT_EQ(add(DPCOV_ROW_MAJOR, 2, 3, a, 3, bound, 0), DPCOV_E_INVALID_ARGUMENT);
    EXPECT_NE(last().find("bound"), std::string::npos);
  }
  for (double bound : {kNaN, kInf})
    EXPECT_EQ(add(DPCOV_ROW_MAJOR, 2, 3, a, 3, bound, 0), DPCOV_E_NON_FINITE);
  EXPECT_EQ(add(DPCOV_ROW_MAJOR, 2, 3, a, 3, 2.0, 0), DPCOV_E_INCOMPATIBLE);
  EXPECT_EQ(add(DPCOV_ROW_MAJOR, 2, 3, a, 3, 1.0, 3), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(add(DPCOV_ROW_MAJOR, 2, 3, a, 3, 1.0, -1), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(last().find("policy"), std::string::npos);
  std::vector<double> bad = rows_;
  for (double poison : {kNaN, kInf, -kInf}) {
    bad[4] = poison;
    EXPECT_EQ(add(DPCOV_ROW_MAJOR, 2, 3, bad.data(), 3, 1.0, 0), DPCOV_E_NON_FINITE);
    EXPECT_NE(last().find("row 1, column 1"), std::string::npos) << last();
  }
  bad[4] = 5.0;
  EXPECT_EQ(add(DPCOV_ROW_MAJOR, 2, 3, bad.data(), 3, 1.0, DPCOV_BOUND_REJECT),
            DPCOV_E_NORM_BOUND);
  expect_unchanged();
}

TEST_F(CapiGram, AddZeroRowsIsANoOpAndAcceptsNullData) {
  EXPECT_EQ(add(DPCOV_ROW_MAJOR, 0, 3, nullptr, 3, 1.0, 0), DPCOV_OK);
  expect_unchanged();
}

TEST_F(CapiGram, MergeRejectsNullSelfAndMismatch) {
  dpcov_gram *other = nullptr;
  ASSERT_EQ(dpcov_gram_create(&other, 4), DPCOV_OK);
  EXPECT_EQ(dpcov_gram_merge(nullptr, g_), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_gram_merge(g_, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_gram_merge(g_, g_), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(dpcov_gram_merge(g_, other), DPCOV_E_INCOMPATIBLE);
  dpcov_gram_destroy(&other);
  ASSERT_EQ(dpcov_gram_create(&other, 3), DPCOV_OK);
  const double row[3] = {0.1, 0.1, 0.1};
  ASSERT_EQ(dpcov_gram_add_rows(other, DPCOV_ROW_MAJOR, 1, 3, row, 3, 2.0, 0), DPCOV_OK);
  EXPECT_EQ(dpcov_gram_merge(g_, other), DPCOV_E_INCOMPATIBLE);
  EXPECT_NE(last().find("bounds"), std::string::npos);
  expect_unchanged();
  dpcov_gram_destroy(&other);
}

TEST_F(CapiGram, GetMatrixRejectsBadOutputAndLeavesItUntouched) {
  std::vector<double> out(9, -1.0);
  EXPECT_EQ(dpcov_gram_get_matrix(nullptr, DPCOV_ROW_MAJOR, out.data(), 3), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_gram_get_matrix(g_, DPCOV_ROW_MAJOR, nullptr, 3), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_gram_get_matrix(g_, 0, out.data(), 3), DPCOV_E_LAYOUT);
  EXPECT_EQ(dpcov_gram_get_matrix(g_, DPCOV_ROW_MAJOR, out.data(), 2), DPCOV_E_LAYOUT);
  for (double v : out) EXPECT_EQ(v, -1.0);
}

TEST_F(CapiGram, GetMatrixHonoursLayoutAndLeadingDimension) {
  std::vector<double> row(12, -1.0), col(12, -1.0);
  ASSERT_EQ(dpcov_gram_get_matrix(g_, DPCOV_ROW_MAJOR, row.data(), 4), DPCOV_OK);
  ASSERT_EQ(dpcov_gram_get_matrix(g_, DPCOV_COL_MAJOR, col.data(), 4), DPCOV_OK);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const double want = rows_[i] * rows_[j] + rows_[3 + i] * rows_[3 + j];
      EXPECT_NEAR(row[i * 4 + j], want, 1e-15);
      EXPECT_EQ(row[i * 4 + j], col[i + j * 4]);
    }
  EXPECT_EQ(row[3], -1.0) << "padding written";
}

TEST_F(CapiGram, GetInfoRejectsNullAndShortStruct) {
  dpcov_gram_info info{};
  info.struct_size = sizeof info;
  EXPECT_EQ(dpcov_gram_get_info(nullptr, &info), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_gram_get_info(g_, nullptr), DPCOV_E_NULL_POINTER);
  info.struct_size = 8;
  info.rows = -5;
  EXPECT_EQ(dpcov_gram_get_info(g_, &info), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(info.rows, -5);
  info.struct_size = sizeof info;
  ASSERT_EQ(dpcov_gram_get_info(g_, &info), DPCOV_OK);
  EXPECT_EQ(info.dim, 3);
  EXPECT_EQ(info.bound, 1.0);
}

}  // namespace
