// The row-level budget of privacy units by group privacy through the C ABI (dpcov/unit_budget.h):
// the steps of each pair of relations, the budgets of the proof's worked examples, and every bad
// argument refused with a message and the outputs untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "dpcov.h"

namespace {

constexpr double kCanary = -12345.0;
constexpr int32_t kReplace = DPCOV_NEIGHBOUR_REPLACE_ONE;
constexpr int32_t kAddRemove = DPCOV_NEIGHBOUR_ADD_REMOVE;

TEST(CapiUnitBudget, StepsAreKOrTwoKAsTheRelationsSay) {
  double e = 0.0, d = 0.0, r = 0.0;
  // k = 5, (1, 1e-6): m = 5 (add/remove; replace-one rows padded to k under unit replace) or 10.
  ASSERT_EQ(dpcov_unit_row_budget(kAddRemove, kAddRemove, 5, 1.0, 1e-6, &e, &d), DPCOV_OK);
  EXPECT_DOUBLE_EQ(e, 0.2);
  EXPECT_NEAR(d, 1.28851248085841e-7, 1e-19);
  ASSERT_EQ(dpcov_unit_row_budget(kReplace, kReplace, 5, 1.0, 1e-6, &e, &d), DPCOV_OK);
  EXPECT_DOUBLE_EQ(e, 0.2);
  EXPECT_NEAR(d, 1.28851248085841e-7, 1e-19);
  ASSERT_EQ(dpcov_unit_row_budget(kReplace, kAddRemove, 5, 1.0, 1e-6, &e, &d), DPCOV_OK);
  EXPECT_DOUBLE_EQ(e, 0.1);
  EXPECT_NEAR(d, 6.12070245600891e-8, 1e-19);
  // Pure: delta 0 stays 0.
  ASSERT_EQ(dpcov_unit_row_budget(kAddRemove, kAddRemove, 4, 1.0, 0.0, &e, &d), DPCOV_OK);
  EXPECT_EQ(e, 0.25);
  EXPECT_EQ(d, 0.0);
  // zCDP: rho / m^2.
  ASSERT_EQ(dpcov_unit_row_rho(kReplace, kReplace, 4, 0.5, &r), DPCOV_OK);
  EXPECT_EQ(r, 0.5 / 16);
  ASSERT_EQ(dpcov_unit_row_rho(kReplace, kAddRemove, 4, 0.5, &r), DPCOV_OK);
  EXPECT_EQ(r, 0.5 / 64);
}

// One call with bad arguments: the status, a message, both outputs untouched.
void expect_refused(dpcov_status expected, int32_t unit, int32_t row, int64_t k, double eps,
                    double delta) {
  double e = kCanary, d = kCanary;
  EXPECT_EQ(dpcov_unit_row_budget(unit, row, k, eps, delta, &e, &d), expected);
  EXPECT_GT(std::strlen(dpcov_last_error_message()), 0u);
  EXPECT_EQ(e, kCanary);
  EXPECT_EQ(d, kCanary);
  if (delta != 0.0) return;
  double r = kCanary;
  EXPECT_EQ(dpcov_unit_row_rho(unit, row, k, eps, &r), expected);
  EXPECT_EQ(r, kCanary);
}

TEST(CapiUnitBudget, RefusesBadArgumentsWithOutputsUntouched) {
  const double nan = std::nan("");
  const double inf = INFINITY;
  double e = kCanary, d = kCanary, r = kCanary;
  EXPECT_EQ(dpcov_unit_row_budget(kAddRemove, kAddRemove, 3, 1.0, 1e-6, nullptr, &d),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(dpcov_unit_row_budget(kAddRemove, kAddRemove, 3, 1.0, 1e-6, &e, nullptr),
            DPCOV_E_NULL_POINTER);
  EXPECT_EQ(e, kCanary);
  EXPECT_EQ(d, kCanary);
  EXPECT_EQ(dpcov_unit_row_rho(kAddRemove, kAddRemove, 3, 1.0, nullptr), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(r, kCanary);
  for (const int32_t bad : {-1, 2, 1 << 30}) {
    expect_refused(DPCOV_E_INVALID_ARGUMENT, bad, kAddRemove, 3, 1.0, 0.0);
    expect_refused(DPCOV_E_INVALID_ARGUMENT, kAddRemove, bad, 3, 1.0, 0.0);
  }
  for (const int64_t k : {int64_t{0}, int64_t{-1}, int64_t{(1 << 20) + 1}, INT64_MAX})
    expect_refused(DPCOV_E_INVALID_ARGUMENT, kAddRemove, kAddRemove, k, 1.0, 0.0);
  expect_refused(DPCOV_E_INVALID_ARGUMENT, kAddRemove, kAddRemove, 3, 0.0, 0.0);
  expect_refused(DPCOV_E_INVALID_ARGUMENT, kAddRemove, kAddRemove, 3, -1.0, 0.0);
  expect_refused(DPCOV_E_NON_FINITE, kAddRemove, kAddRemove, 3, nan, 0.0);
  expect_refused(DPCOV_E_NON_FINITE, kAddRemove, kAddRemove, 3, inf, 0.0);
  expect_refused(DPCOV_E_INVALID_ARGUMENT, kAddRemove, kAddRemove, 3, 1.0, 1.0);
  expect_refused(DPCOV_E_INVALID_ARGUMENT, kAddRemove, kAddRemove, 3, 1.0, -1e-9);
  expect_refused(DPCOV_E_NON_FINITE, kAddRemove, kAddRemove, 3, 1.0, nan);
  // A replace-one mechanism (n public) cannot take units added or removed.
  expect_refused(DPCOV_E_INCOMPATIBLE, kAddRemove, kReplace, 3, 1.0, 0.0);
  // Underflow of the per-row budget.
  expect_refused(DPCOV_E_INVALID_ARGUMENT, kAddRemove, kAddRemove, 1 << 20, 4.9e-324, 0.0);
}

}  // namespace
