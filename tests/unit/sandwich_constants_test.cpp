// The constants of the robust (sandwich) intervals (privacy/sandwich_constants.hpp): pinned values,
// the budget never over-spent, and refusals out of range. proofs/sandwich.md derives them.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "core/privacy/sandwich_constants.hpp"

namespace dpcov::privacy {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(SandwichBudget, GivesTheMeatAFifthAndTheFitTheRest) {
  const SandwichBudget b = sandwich_budget(4.0, 1e-6);
  EXPECT_DOUBLE_EQ(b.meat_epsilon, 0.8);
  EXPECT_DOUBLE_EQ(b.fit_epsilon, 3.2);
  EXPECT_DOUBLE_EQ(b.meat_delta, 2e-7);
  EXPECT_DOUBLE_EQ(b.fit_delta, 8e-7);
}

TEST(SandwichBudget, NeverSpendsMoreThanTheRequest) {
  for (double eps : {1e-300, 0.1, 0.3, 1.0, 4.0, 7.7, 1e300})
    for (double delta : {1e-300, 1e-12, 1e-6, 0.3, 0.999999}) {
      const SandwichBudget b = sandwich_budget(eps, delta);
      // The sums, evaluated in long double, are not above the request.
      EXPECT_LE(static_cast<long double>(b.fit_epsilon) + b.meat_epsilon, eps);
      EXPECT_LE(static_cast<long double>(b.fit_delta) + b.meat_delta, delta);
      EXPECT_GT(b.fit_epsilon, 0.0);
      EXPECT_GT(b.fit_delta, 0.0);
    }
}

TEST(SandwichBudget, RefusesEpsilonAndDeltaOutOfRange) {
  const double nan = std::nan("");
  for (double eps : {0.0, -1.0, nan, kInf})
    EXPECT_THROW(sandwich_budget(eps, 1e-6), Error);
  for (double delta : {0.0, 1.0, -1e-6, nan})
    EXPECT_THROW(sandwich_budget(1.0, delta), Error);
}

TEST(SandwichRowBound, IsTwiceBYTimesBXRoundedUp) {
  EXPECT_EQ(sandwich_residual_bound(1.0), 2.0);
  EXPECT_EQ(sandwich_meat_row_bound(1.0, 2.0), 2.0);
  const double r = sandwich_residual_bound(0.1);
  EXPECT_GE(static_cast<long double>(r), 2.0L * 0.1L);
  EXPECT_GE(static_cast<long double>(sandwich_meat_row_bound(0.3, r)), 0.3L * r);
  EXPECT_THROW(sandwich_residual_bound(0.0), Error);
  EXPECT_THROW(sandwich_meat_row_bound(1.0, -1.0), Error);
  EXPECT_THROW(sandwich_meat_row_bound(kInf, 1.0), Error);
}

}  // namespace
}  // namespace dpcov::privacy
