// The mean and centred covariance from a second moment with a constant column (dpcov/centring.h):
// exact on an exact moment, the count from the release when n is private, and bad arguments
// refused with the outputs untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "dpcov.h"

namespace {

// Rows [x1, 2, x2] (the constant 2 in the middle column), 5 rows, and their second moment.
const std::vector<double> kRows = {1, 2, 10,  3, 2, 14,  -2, 2, 9,  0, 2, 11,  4, 2, 6};

std::vector<double> moment() {
  std::vector<double> s(9, 0.0);
  for (int k = 0; k < 5; ++k)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        s[static_cast<size_t>(3 * i + j)] += kRows[static_cast<size_t>(3 * k + i)] * kRows[static_cast<size_t>(3 * k + j)];
  return s;
}

TEST(CapiCentring, MeanAndCovarianceOfAnExactMomentAreTheDatas) {
  const std::vector<double> s = moment();
  for (int64_t n : {int64_t{5}, int64_t{0}}) {
    std::vector<double> mean(2), cov(4);
    double count = 0.0;
    ASSERT_EQ(dpcov_centre_second_moment(DPCOV_ROW_MAJOR, 3, s.data(), 3, 1, 2.0, n, mean.data(),
                                         cov.data(), 2, &count),
              DPCOV_OK)
        << dpcov_last_error_message();
    EXPECT_EQ(count, 5.0);
    EXPECT_NEAR(mean[0], 1.2, 1e-14);
    EXPECT_NEAR(mean[1], 10.0, 1e-14);
    // 1/n covariance: var(x1) = (1 + 9 + 4 + 0 + 16)/5 - 1.44, cov = (10 + 42 - 18 + 0 + 24)/5 - 12.
    EXPECT_NEAR(cov[0], 6.0 - 1.44, 1e-12);
    EXPECT_NEAR(cov[1], 58.0 / 5.0 - 12.0, 1e-12);
    EXPECT_EQ(cov[1], cov[2]);
    EXPECT_NEAR(cov[3], (100 + 196 + 81 + 121 + 36) / 5.0 - 100.0, 1e-12);
  }
}

TEST(CapiCentring, ABadArgumentOrASwampedCountLeavesTheOutputsUntouched) {
  const std::vector<double> s = moment();
  std::vector<double> mean(2, 7.0), cov(4, 7.0);
  double count = 7.0;
  const auto call = [&](int32_t layout, int64_t dim, const double *m, int64_t column, double c,
                        int64_t n, double *mu, double *sigma, int64_t ld) {
    return dpcov_centre_second_moment(layout, dim, m, 3, column, c, n, mu, sigma, ld, &count);
  };
  EXPECT_EQ(call(DPCOV_ROW_MAJOR, 3, nullptr, 1, 2.0, 5, mean.data(), cov.data(), 2), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(DPCOV_ROW_MAJOR, 3, s.data(), 1, 2.0, 5, nullptr, cov.data(), 2), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(DPCOV_ROW_MAJOR, 3, s.data(), 1, 2.0, 5, mean.data(), nullptr, 2), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(call(DPCOV_ROW_MAJOR, 1, s.data(), 0, 2.0, 5, mean.data(), cov.data(), 2), DPCOV_E_DIMENSION);
  EXPECT_EQ(call(DPCOV_ROW_MAJOR, 3, s.data(), 3, 2.0, 5, mean.data(), cov.data(), 2), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(DPCOV_ROW_MAJOR, 3, s.data(), -1, 2.0, 5, mean.data(), cov.data(), 2), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(DPCOV_ROW_MAJOR, 3, s.data(), 1, 0.0, 5, mean.data(), cov.data(), 2), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(DPCOV_ROW_MAJOR, 3, s.data(), 1, NAN, 5, mean.data(), cov.data(), 2), DPCOV_E_NON_FINITE);
  // c^2 overflows: no release's S_cc = n c^2 was in range.
  EXPECT_EQ(call(DPCOV_ROW_MAJOR, 3, s.data(), 1, 1e200, 0, mean.data(), cov.data(), 2), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("overflows"), std::string::npos);
  EXPECT_EQ(call(DPCOV_ROW_MAJOR, 3, s.data(), 1, 2.0, -1, mean.data(), cov.data(), 2), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(call(DPCOV_ROW_MAJOR, 3, s.data(), 1, 2.0, 5, mean.data(), cov.data(), 1), DPCOV_E_LAYOUT);
  EXPECT_EQ(call(9, 3, s.data(), 1, 2.0, 5, mean.data(), cov.data(), 2), DPCOV_E_LAYOUT);
  std::vector<double> bad = s;
  bad[1] += 1.0;
  EXPECT_EQ(call(DPCOV_ROW_MAJOR, 3, bad.data(), 1, 2.0, 5, mean.data(), cov.data(), 2), DPCOV_E_INVALID_ARGUMENT);
  bad = s;
  bad[4] = std::numeric_limits<double>::infinity();
  EXPECT_EQ(call(DPCOV_ROW_MAJOR, 3, bad.data(), 1, 2.0, 5, mean.data(), cov.data(), 2), DPCOV_E_NON_FINITE);
  // A released count of 0.5 rows, n private: refused.
  bad = s;
  bad[4] = 2.0;
  EXPECT_EQ(call(DPCOV_ROW_MAJOR, 3, bad.data(), 1, 2.0, 0, mean.data(), cov.data(), 2), DPCOV_E_PRECONDITION);
  for (double v : mean) EXPECT_EQ(v, 7.0);
  for (double v : cov) EXPECT_EQ(v, 7.0);
  EXPECT_EQ(count, 7.0);
}

// A tiny constant: the released count S_cc / c^2 overflows while the mean and covariance stay
// finite; a numerical failure with every output untouched, never an infinite count with DPCOV_OK
// (found by fuzz_solvers).
TEST(CapiCentring, AnOverflowingCountIsANumericalFailure) {
  const std::vector<double> m = {1.0, 0.5, 0.5, 1.0};
  double mean = -7.0, cov = -7.0, count = -7.0;
  EXPECT_EQ(dpcov_centre_second_moment(DPCOV_ROW_MAJOR, 2, m.data(), 2, 0, 1e-160, 0, &mean, &cov,
                                       1, &count),
            DPCOV_E_NUMERICAL);
  EXPECT_EQ(mean, -7.0);
  EXPECT_EQ(cov, -7.0);
  EXPECT_EQ(count, -7.0);
}

}  // namespace
