// The BLAS/LAPACK wrappers against hand-checked small cases and identities.
#include "core/linalg/blas.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "core/error.hpp"
#include "core/linalg/power_of_two.hpp"

namespace dpcov::linalg {
namespace {

Matrix spd3() {
  Matrix a(3, 3);
  const double v[9] = {4, 1, 0.5, 1, 3, 0.2, 0.5, 0.2, 2};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) a(i, j) = v[i * 3 + j];
  return a;
}

TEST(Linalg, EighReconstructsMatrixWithAscendingValues) {
  const Matrix a = spd3();
  const SymmetricEigen e = eigh(a);
  EXPECT_LT(e.values[0], e.values[1]);
  EXPECT_LT(e.values[1], e.values[2]);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0;
      for (int k = 0; k < 3; ++k) s += e.vectors(i, k) * e.values[k] * e.vectors(j, k);
      EXPECT_NEAR(s, a(i, j), 1e-13);
    }
  const auto values = eigvalsh(a);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(values[k], e.values[k], 1e-13);
}

// Found by fuzzing: dsyevr's bisection never returned on this matrix (entries from 1e-63 to
// 1e241). eigh scales by a power of two first; the values come back in the matrix's own units.
TEST(Linalg, EighReturnsOnEntriesAtTheEndsOfTheRange) {
  const double v[9] = {-8.918415268712836e-63, 1.5768918720289001e+84, 0,
                       1.5768918720289001e+84, -1.3336035805033451e+241, 5.4276548326015472e-05,
                       0, 5.4276548326015472e-05, -0.00042006000876426697};
  Matrix a(3, 3);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) a(i, j) = v[i * 3 + j];
  const SymmetricEigen e = eigh(a);
  EXPECT_DOUBLE_EQ(e.values[0], -1.3336035805033451e+241);
  double trace = 0.0;
  for (double x : e.values) {
    EXPECT_TRUE(std::isfinite(x));
    trace += x;
  }
  EXPECT_DOUBLE_EQ(trace, v[0] + v[4] + v[8]);
}

TEST(Linalg, EighScalesBackExactly) {
  Matrix a = spd3();
  const auto base = eigvalsh(a);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) a(i, j) = std::ldexp(a(i, j), 900);
  const auto scaled = eigvalsh(a);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(scaled[k], std::ldexp(base[k], 900)) << k;
}

TEST(Linalg, CholeskyLogDetAndInverseAgree) {
  const Matrix a = spd3();
  Matrix l;
  ASSERT_TRUE(cholesky(a, l));
  EXPECT_EQ(l(0, 2), 0.0);
  // det by cofactor expansion.
  const double det = a(0, 0) * (a(1, 1) * a(2, 2) - a(1, 2) * a(2, 1)) -
                     a(0, 1) * (a(1, 0) * a(2, 2) - a(1, 2) * a(2, 0)) +
                     a(0, 2) * (a(1, 0) * a(2, 1) - a(1, 1) * a(2, 0));
  EXPECT_NEAR(log_det_from_cholesky(l), std::log(det), 1e-13);
  const Matrix inv = spd_inverse(a);
  const Matrix id = multiply(a, inv);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(id(i, j), i == j ? 1.0 : 0.0, 1e-13);
  EXPECT_EQ(inv(0, 1), inv(1, 0));
}

TEST(Linalg, CholeskyReportsIndefiniteMatrix) {
  Matrix a = Matrix::identity(2);
  a(0, 1) = a(1, 0) = 2.0;
  Matrix l;
  EXPECT_FALSE(cholesky(a, l));
  EXPECT_THROW(spd_inverse(a), Error);
}

// A NaN or an infinity (an overflow upstream) is a numerical failure, not an invalid argument
// (LAPACKE's NaN check) nor an indefinite matrix; found by fuzz_solvers through the glasso.
TEST(Linalg, CholeskyOfANonFiniteMatrixIsANumericalFailure) {
  for (const double bad : {std::nan(""), std::numeric_limits<double>::infinity()}) {
    Matrix a = Matrix::identity(3);
    a(2, 1) = a(1, 2) = bad;
    Matrix l;
    try {
      cholesky(a, l);
      FAIL() << "accepted " << bad;
    } catch (const Error &e) {
      EXPECT_EQ(e.status(), dpcov::Status::Numerical) << e.what();
    }
  }
}

TEST(Linalg, TriangularMultiplyAndSolveAreInverse) {
  Matrix l;
  ASSERT_TRUE(cholesky(spd3(), l));
  Matrix b(3, 2);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j) b(i, j) = i - 2.0 * j + 0.5;
  Matrix c = b;
  trmm_lower(Side::Left, Trans::Yes, 2.0, l, c);
  trsm_lower(Side::Left, Trans::Yes, 0.5, l, c);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j) EXPECT_NEAR(c(i, j), b(i, j), 1e-13);
}

TEST(Linalg, Nrm2AvoidsOverflow) {
  const double x[2] = {3e200, 4e200};
  EXPECT_NEAR(nrm2(2, x, 1) / 5e200, 1.0, 1e-15);
}

// scale_by_power_of_two is std::scalbn bit for bit, at every exponent a double can reach and
// beyond, on normal, subnormal, huge, signed-zero, infinite and NaN inputs, including the products
// that round into the subnormals or overflow (fails if the product path took an exponent whose
// 2^e is not normal, or rounded twice).
TEST(Linalg, ScaleByPowerOfTwoIsScalbnBitForBit) {
  const double inputs[] = {1.0, -1.0, 0.75, 1.0 - 0x1p-53, 1.0 + 0x1p-52, 0x1.fffffffffffffp1023,
                           std::numeric_limits<double>::min(),
                           std::numeric_limits<double>::denorm_min(), 0x1.8p-1070, 0x1.3p-1030,
                           -0x1.5555555555555p-3, 0.0, -0.0,
                           std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::quiet_NaN(), 3.0e-300, 7.1e300};
  for (const double x : inputs)
    for (int e = -1100; e <= 1100; ++e)
      ASSERT_EQ(std::bit_cast<uint64_t>(scale_by_power_of_two(x, e)),
                std::bit_cast<uint64_t>(std::scalbn(x, e)))
          << x << " * 2^" << e;
}

}  // namespace
}  // namespace dpcov::linalg
