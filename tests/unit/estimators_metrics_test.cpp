// Accuracy metrics on hand-computed cases.
#include "core/estimators/metrics.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "core/error.hpp"

namespace dpcov::estimators {
namespace {

Matrix from_rows(int64_t r, int64_t c, std::initializer_list<double> v) {
  Matrix m(r, c);
  auto it = v.begin();
  for (int64_t i = 0; i < r; ++i)
    for (int64_t j = 0; j < c; ++j) m(i, j) = *it++;
  return m;
}

TEST(Metrics, FrobeniusErrorAbsoluteAndRelative) {
  const Matrix a = from_rows(2, 2, {1, 2, 2, 4});
  const Matrix b = from_rows(2, 2, {1, 0, 0, 1});
  EXPECT_NEAR(frobenius_error(a.view(), b.view(), false), std::sqrt(4.0 + 4.0 + 9.0), 1e-15);
  EXPECT_NEAR(frobenius_error(a.view(), b.view(), true), std::sqrt(17.0 / 2.0), 1e-15);
}

TEST(Metrics, SpectralErrorIsLargestSingularValueOfTheDifference) {
  const Matrix a = from_rows(2, 3, {3, 0, 0, 0, -5, 0});
  const Matrix b(2, 3);
  EXPECT_NEAR(spectral_error(a.view(), b.view(), false), 5.0, 1e-14);
  const Matrix c = from_rows(2, 3, {1, 0, 0, 0, -1, 0});
  EXPECT_NEAR(spectral_error(a.view(), c.view(), true), 4.0, 1e-14);
}

TEST(Metrics, VectorErrorOfCoefficients) {
  const double a[3] = {1.0, 2.0, 3.0}, b[3] = {1.0, 0.0, 3.0};
  EXPECT_DOUBLE_EQ(vector_error(a, b, 3, false), 2.0);
  EXPECT_DOUBLE_EQ(vector_error(a, b, 3, true), 2.0 / std::sqrt(10.0));
}

TEST(Metrics, RelativeErrorRefusesZeroReference) {
  const Matrix a = from_rows(1, 2, {1, 1});
  const Matrix zero(1, 2);
  EXPECT_THROW(frobenius_error(a.view(), zero.view(), true), Error);
  EXPECT_THROW(spectral_error(a.view(), zero.view(), true), Error);
  EXPECT_DOUBLE_EQ(frobenius_error(a.view(), zero.view(), false), std::sqrt(2.0));
  EXPECT_THROW(frobenius_error(a.view(), Matrix(2, 1).view(), false), Error);
}

TEST(Metrics, SupportRecoveryCountsUpperTriangleEdges) {
  // Truth: edges (0,1), (1,2). Estimate: edges (0,1), (0,2), and a tiny (1,2) below threshold.
  const Matrix truth = from_rows(3, 3, {2, -0.5, 0, -0.5, 2, 0.4, 0, 0.4, 2});
  const Matrix est = from_rows(3, 3, {1, -0.3, 0.2, -0.3, 1, 1e-9, 0.2, 1e-9, 1});
  const SupportRecovery s = support_recovery(est.view(), truth.view(), 1e-6);
  EXPECT_EQ(s.true_positives, 1);
  EXPECT_EQ(s.false_positives, 1);
  EXPECT_EQ(s.false_negatives, 1);
  EXPECT_EQ(s.true_negatives, 0);
  EXPECT_DOUBLE_EQ(s.precision, 0.5);
  EXPECT_DOUBLE_EQ(s.recall, 0.5);
  // Threshold 0 counts the tiny entry as an edge.
  EXPECT_EQ(support_recovery(est.view(), truth.view(), 0.0).true_positives, 2);
}

TEST(Metrics, SupportRecoveryOfEmptyGraphsIsPerfect) {
  const Matrix eye = Matrix::identity(4);
  const SupportRecovery s = support_recovery(eye.view(), eye.view(), 0.0);
  EXPECT_EQ(s.true_negatives, 6);
  EXPECT_EQ(s.precision, 1.0);
  EXPECT_EQ(s.recall, 1.0);
  EXPECT_THROW(support_recovery(eye.view(), eye.view(), -1.0), Error);
  EXPECT_THROW(support_recovery(eye.view(), eye.view(), NAN), Error);
}

}  // namespace
}  // namespace dpcov::estimators
