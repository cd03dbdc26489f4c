// Contracts of the samplers and their log-densities: argument checks, exact symmetry, support,
// differential checks against naive formulas, and the Bingham envelope constants of
// constants.md section 9. Distributional correctness is the business of tests/statistical.
#include <gtest/gtest.h>

#include <boost/math/distributions/chi_squared.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <vector>

#include "core/error.hpp"
#include "core/linalg/blas.hpp"
#include "core/random/samplers.hpp"
#include "dpcov.h"

namespace dpcov::random {
namespace {

dpcov_status status_of(const std::function<void()> &f) {
  try {
    f();
  } catch (const Error &e) {
    return static_cast<dpcov_status>(e.status());
  }
  return DPCOV_OK;
}

Matrix spd3() {
  Matrix s(3, 3);
  const double v[3][3] = {{2.0, 0.5, -0.3}, {0.5, 1.0, 0.2}, {-0.3, 0.2, 3.0}};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) s(i, j) = v[i][j];
  return s;
}

Matrix naive_product(const Matrix &a, const Matrix &b, bool transpose_b) {
  Matrix c(a.rows(), transpose_b ? b.rows() : b.cols());
  for (int64_t i = 0; i < c.rows(); ++i)
    for (int64_t j = 0; j < c.cols(); ++j) {
      double s = 0.0;
      for (int64_t k = 0; k < a.cols(); ++k) s += a(i, k) * (transpose_b ? b(j, k) : b(k, j));
      c(i, j) = s;
    }
  return c;
}

double max_abs_difference(const Matrix &a, const Matrix &b) {
  double m = 0.0;
  for (int64_t j = 0; j < a.cols(); ++j)
    for (int64_t i = 0; i < a.rows(); ++i) m = std::max(m, std::fabs(a(i, j) - b(i, j)));
  return m;
}

bool exactly_symmetric(const Matrix &m) {
  for (int64_t j = 0; j < m.cols(); ++j)
    for (int64_t i = 0; i < j; ++i)
      if (m(i, j) != m(j, i)) return false;
  return true;
}

TEST(Uniform01, LiesOnTheOddMultiplesOf2ToTheMinus53) {
  Rng rng = Rng::from_seed(1);
  for (int i = 0; i < 100000; ++i) {
    const double u = uniform01(rng);
    ASSERT_GT(u, 0.0);
    ASSERT_LT(u, 1.0);
    const double m = u * 0x1.0p53;  // exact: a power-of-two scaling
    ASSERT_EQ(m, std::floor(m));
    ASSERT_EQ(std::fmod(m, 2.0), 1.0);
  }
}

TEST(Uniform01, EndsOfTheWordGiveTheEndsOfTheOpenIntervalAndTheGridIsSymmetric) {
  // The extreme words give 2^-53 and 1 - 2^-53, never 0 or 1 (the former (k + 1/2) 2^-53 on 53
  // bits rounded the top word to exactly 1.0).
  EXPECT_EQ(uniform01_from_bits(0), 0x1.0p-53);
  EXPECT_EQ(uniform01_from_bits(~uint64_t{0}), 1.0 - 0x1.0p-53);
  EXPECT_LT(uniform01_from_bits(~uint64_t{0}), 1.0);
  // 1 - u is the value of the complementary top bits: same grid and weights on both halves.
  for (uint64_t k : {uint64_t{0}, uint64_t{1}, uint64_t{12345}, (uint64_t{1} << 51) - 1,
                     uint64_t{1} << 51, (uint64_t{1} << 52) - 2, (uint64_t{1} << 52) - 1}) {
    const uint64_t bits = k << 12, mirror = (((uint64_t{1} << 52) - 1 - k) << 12);
    EXPECT_EQ(1.0 - uniform01_from_bits(bits), uniform01_from_bits(mirror)) << k;
  }
}

TEST(Exponential, EndsOfTheWordAreFiniteAndTheTailIsNotTruncated) {
  Rng rng = Rng::from_seed(3);
  // Largest cell: -ln(1 - 2^-53) > 0.
  const double smallest = exponential_from_word(~uint64_t{0}, rng);
  EXPECT_GT(smallest, 0.0);
  EXPECT_LT(smallest, 1e-15);
  // The lowest cell, whatever its low 12 bits: 52 ln 2 plus a fresh exponential, so beyond the
  // 53 ln 2 = 36.7 where the fixed-grid inversion stopped, and finite.
  for (uint64_t low : {uint64_t{0}, uint64_t{0xfff}}) {
    for (int i = 0; i < 100; ++i) {
      const double e = exponential_from_word(low, rng);
      EXPECT_GT(e, 52.0 * std::numbers::ln2);
      EXPECT_TRUE(std::isfinite(e));
    }
  }
  // Every cell above the lowest one stays below 52 ln 2 = 36.04.
  EXPECT_LT(exponential_from_word(uint64_t{1} << 12, rng), 52.0 * std::numbers::ln2);
}

TEST(Laplace, SignIsTheLowestBitAndTheTailIsNotTruncated) {
  Rng rng = Rng::from_seed(4);
  const uint64_t word = uint64_t{977} << 12;
  EXPECT_EQ(laplace_from_word(word, rng, 2.0), -laplace_from_word(word | 1U, rng, 2.0));
  EXPECT_EQ(laplace_from_word(word, rng, 2.0), 2.0 * exponential_from_word(word, rng));
  // The former sampler's largest magnitude was 36.7 scales; the lowest cell now goes beyond it.
  EXPECT_GT(laplace_from_word(0, rng, 1.0), 36.0);
  EXPECT_LT(laplace_from_word(1, rng, 1.0), -36.0);
  EXPECT_TRUE(std::isfinite(laplace_from_word(~uint64_t{0}, rng, 1e300)));
}

TEST(StandardNormals, BatchGivesTheDrawsOfSingleCallsInTurnFromTheSameWords) {
  // 10^5 draws reach the ziggurat's wedge and tail branches (about 1% and 0.03% of draws), which
  // consume extra words: a batch that buffered or skipped words would drift from here on.
  constexpr int64_t kDraws = 100000;
  Rng batch_rng = Rng::from_seed(11), single_rng = Rng::from_seed(11);
  std::vector<double> batch(static_cast<size_t>(kDraws));
  standard_normals(batch_rng, batch.data(), kDraws);
  for (int64_t i = 0; i < kDraws; ++i)
    ASSERT_EQ(batch[static_cast<size_t>(i)], standard_normal(single_rng)) << "draw " << i;
  EXPECT_EQ(batch_rng.next_u64(), single_rng.next_u64());
}

TEST(ScalarSamplers, RefuseNonPositiveOrNonFiniteParameters) {
  Rng rng = Rng::from_seed(1);
  for (double bad : {0.0, -1.0}) {
    EXPECT_EQ(status_of([&] { laplace(rng, bad); }), DPCOV_E_INVALID_ARGUMENT);
    EXPECT_EQ(status_of([&] { gamma(rng, bad); }), DPCOV_E_INVALID_ARGUMENT);
    EXPECT_EQ(status_of([&] { chi_square(rng, bad); }), DPCOV_E_INVALID_ARGUMENT);
  }
  for (double bad : {NAN, INFINITY}) {
    EXPECT_EQ(status_of([&] { laplace(rng, bad); }), DPCOV_E_NON_FINITE);
    EXPECT_EQ(status_of([&] { gamma(rng, bad); }), DPCOV_E_NON_FINITE);
    EXPECT_EQ(status_of([&] { chi_square(rng, bad); }), DPCOV_E_NON_FINITE);
  }
}

TEST(ScalarSamplers, GiveValuesInTheirSupport) {
  Rng rng = Rng::from_seed(2);
  for (int i = 0; i < 20000; ++i) {
    EXPECT_GT(exponential(rng), 0.0);
    EXPECT_TRUE(std::isfinite(laplace(rng, 1e-300)));
    EXPECT_GE(gamma(rng, 0.05), 0.0);
    EXPECT_GT(gamma(rng, 3.0), 0.0);
    EXPECT_TRUE(std::isfinite(standard_normal(rng)));
  }
}

TEST(UniformSphere, GivesUnitVectorsAndSignsInDimensionOne) {
  Rng rng = Rng::from_seed(3);
  std::vector<double> x(50);
  for (int i = 0; i < 100; ++i) {
    uniform_sphere(rng, x.data(), 50);
    double n2 = 0.0;
    for (double v : x) n2 += v * v;
    EXPECT_NEAR(n2, 1.0, 1e-14);
    uniform_sphere(rng, x.data(), 1);
    EXPECT_EQ(std::fabs(x[0]), 1.0);
  }
  EXPECT_EQ(status_of([&] { uniform_sphere(rng, x.data(), 0); }), DPCOV_E_DIMENSION);
}

TEST(Wishart, RefusesBadParametersWithTheirStatus) {
  Rng rng = Rng::from_seed(4);
  const Matrix s = spd3();
  EXPECT_EQ(status_of([&] { wishart(rng, 2.0, s); }), DPCOV_E_PRECONDITION);
  EXPECT_EQ(status_of([&] { wishart(rng, 1.5, s); }), DPCOV_E_PRECONDITION);
  EXPECT_EQ(status_of([&] { wishart(rng, NAN, s); }), DPCOV_E_NON_FINITE);
  EXPECT_EQ(status_of([&] { wishart(rng, INFINITY, s); }), DPCOV_E_NON_FINITE);
  Matrix not_pd = s;
  not_pd(2, 2) = -1.0;
  EXPECT_EQ(status_of([&] { wishart(rng, 5.0, not_pd); }), DPCOV_E_NOT_POSITIVE_DEFINITE);
  Matrix not_symmetric = s;
  not_symmetric(0, 1) += 1e-12;
  EXPECT_EQ(status_of([&] { wishart(rng, 5.0, not_symmetric); }), DPCOV_E_INVALID_ARGUMENT);
  Matrix nan = s;
  nan(1, 1) = NAN;
  EXPECT_EQ(status_of([&] { wishart(rng, 5.0, nan); }), DPCOV_E_NON_FINITE);
  EXPECT_EQ(status_of([&] { wishart(rng, 5.0, Matrix()); }), DPCOV_E_DIMENSION);
  EXPECT_EQ(status_of([&] { wishart(rng, 5.0, Matrix(2, 3)); }), DPCOV_E_DIMENSION);
  EXPECT_EQ(status_of([&] { inverse_wishart(rng, 2.0, s); }), DPCOV_E_PRECONDITION);
  EXPECT_EQ(status_of([&] { inverse_wishart(rng, 5.0, not_pd); }), DPCOV_E_NOT_POSITIVE_DEFINITE);
}

TEST(Wishart, AcceptsRealDegreesOfFreedomJustAboveDMinusOne) {
  Rng rng = Rng::from_seed(5);
  const Matrix w = wishart(rng, 2.0001, spd3());
  EXPECT_TRUE(exactly_symmetric(w));
}

TEST(Wishart, IsLTTransposedTimesLTForTheBartlettFactorOfTheSameStream) {
  const Matrix s = spd3();
  Rng a = Rng::from_seed(6), b = Rng::from_seed(6);
  const Matrix w = wishart(a, 7.5, s);
  const Matrix t = bartlett_factor(b, 7.5, 3);
  Matrix l;
  ASSERT_TRUE(linalg::cholesky(s, l));
  const Matrix lt = naive_product(l, t, false);
  EXPECT_LT(max_abs_difference(w, naive_product(lt, lt, true)), 1e-12 * 50.0);
  EXPECT_TRUE(exactly_symmetric(w));
  for (int64_t j = 0; j < 3; ++j)
    for (int64_t i = 0; i < j; ++i) EXPECT_EQ(t(i, j), 0.0);
}

TEST(Wishart, InOneDimensionIsTheScaleTimesAChiSquare) {
  Matrix s(1, 1);
  s(0, 0) = 2.5;
  Rng a = Rng::from_seed(7), b = Rng::from_seed(7);
  for (int i = 0; i < 100; ++i) {
    const double t = std::sqrt(chi_square(b, 3.3));
    EXPECT_DOUBLE_EQ(wishart(a, 3.3, s)(0, 0), 2.5 * t * t);
  }
}

TEST(Wishart, HandlesDegreesOfFreedomOfOneHundredThousand) {
  Rng rng = Rng::from_seed(8);
  const Matrix w = wishart(rng, 1e5 + 3, spd3());
  // E W = k S: each entry is within a few standard deviations (sqrt(k) scale) of k S.
  const Matrix s = spd3();
  for (int64_t i = 0; i < 3; ++i) EXPECT_NEAR(w(i, i) / 1e5, s(i, i), 0.1);
}

TEST(InverseWishart, IsTheInverseOfTheWishartBuiltFromTheSameBartlettFactor) {
  const Matrix psi = spd3();
  Rng a = Rng::from_seed(9), b = Rng::from_seed(9);
  const Matrix x = inverse_wishart(a, 6.0, psi);
  const Matrix t = bartlett_factor(b, 6.0, 3);
  // X = U (T T^T)^{-1} U^T with psi = U U^T, so X^{-1} = U^{-T} (T T^T) U^{-1}, formed here by
  // two triangular solves, and X X^{-1} must be the identity.
  Matrix u;
  ASSERT_TRUE(linalg::cholesky(psi, u));
  Matrix winv = naive_product(t, t, true);
  linalg::trsm_lower(linalg::Side::Left, linalg::Trans::Yes, 1.0, u, winv);
  linalg::trsm_lower(linalg::Side::Right, linalg::Trans::No, 1.0, u, winv);
  const Matrix id = naive_product(x, winv, false);
  EXPECT_LT(max_abs_difference(id, Matrix::identity(3)), 1e-12);
  EXPECT_TRUE(exactly_symmetric(x));
}

TEST(LogMultivariateGamma, ReducesToLgammaProducts) {
  EXPECT_DOUBLE_EQ(log_multivariate_gamma(1, 3.7), std::lgamma(3.7));
  EXPECT_NEAR(log_multivariate_gamma(2, 3.7),
              0.5 * std::log(std::numbers::pi) + std::lgamma(3.7) + std::lgamma(3.2), 1e-13);
}

TEST(WishartLogDensity, InOneDimensionIsTheScaledChiSquareDensity) {
  Matrix s(1, 1), w(1, 1);
  s(0, 0) = 1.7;
  for (double k : {0.5, 1.0, 4.0, 30.0})
    for (double x : {0.01, 0.9, 3.0, 40.0}) {
      w(0, 0) = x;
      const double expected =
          std::log(boost::math::pdf(boost::math::chi_squared(k), x / 1.7) / 1.7);
      EXPECT_NEAR(wishart_log_density(w, k, s), expected, 1e-11 * (1.0 + std::fabs(expected)));
    }
}

TEST(WishartLogDensity, MatchesTheClosedFormInTwoDimensions) {
  // W_2(k, C) by hand: |W|^{(k-3)/2} e^{-tr(C^{-1}W)/2} / (2^k |C|^{k/2} Gamma_2(k/2)).
  Matrix c(2, 2), w(2, 2);
  c(0, 0) = 2.0; c(1, 1) = 1.0; c(0, 1) = c(1, 0) = 0.3;
  w(0, 0) = 5.0; w(1, 1) = 2.0; w(0, 1) = w(1, 0) = -0.7;
  const double k = 4.5;
  const double det_c = 2.0 - 0.09, det_w = 10.0 - 0.49;
  const double tr = (1.0 * 5.0 + 2.0 * 2.0 - 2.0 * 0.3 * -0.7) / det_c;
  const double expected = 0.5 * (k - 3.0) * std::log(det_w) - 0.5 * tr - k * std::log(2.0) -
                          0.5 * k * std::log(det_c) - 0.5 * std::log(std::numbers::pi) -
                          std::lgamma(k / 2) - std::lgamma(k / 2 - 0.5);
  EXPECT_NEAR(wishart_log_density(w, k, c), expected, 1e-12 * std::fabs(expected));
}

TEST(WishartLogDensity, IsMinusInfinityOutsideTheSupport) {
  const Matrix s = spd3();
  Matrix not_pd = s;
  not_pd(0, 0) = -1.0;
  EXPECT_EQ(wishart_log_density(not_pd, 5.0, s), -INFINITY);
  Matrix not_symmetric = s;
  not_symmetric(1, 0) += 0.1;
  EXPECT_EQ(wishart_log_density(not_symmetric, 5.0, s), -INFINITY);
  EXPECT_EQ(inverse_wishart_log_density(not_pd, 5.0, s), -INFINITY);
  EXPECT_EQ(status_of([&] { wishart_log_density(s, 2.0, s); }), DPCOV_E_PRECONDITION);
  EXPECT_EQ(status_of([&] { wishart_log_density(Matrix(2, 2), 5.0, s); }), DPCOV_E_DIMENSION);
}

TEST(InverseWishartLogDensity, IsTheWishartDensityOfTheInverseTimesTheJacobian) {
  // X ~ W^{-1}(psi, m)  <=>  X^{-1} ~ W(m, psi^{-1}); dX^{-1} = |X|^{-(d+1)} dX.
  Rng rng = Rng::from_seed(10);
  const Matrix psi = spd3();
  for (int rep = 0; rep < 5; ++rep) {
    const Matrix x = inverse_wishart(rng, 7.0, psi);
    Matrix xinv = linalg::spd_inverse(x);
    linalg::symmetrize_from_upper(xinv);
    Matrix psi_inv = linalg::spd_inverse(psi);
    linalg::symmetrize_from_upper(psi_inv);
    Matrix lx;
    ASSERT_TRUE(linalg::cholesky(x, lx));
    const double expected =
        wishart_log_density(xinv, 7.0, psi_inv) - 4.0 * linalg::log_det_from_cholesky(lx);
    EXPECT_NEAR(inverse_wishart_log_density(x, 7.0, psi), expected, 1e-9 * (1 + std::fabs(expected)));
  }
}

TEST(AcgLogDensity, IntegratesToOneOverTheCircle) {
  Matrix omega(2, 2);
  omega(0, 0) = 1.0; omega(1, 1) = 6.0; omega(0, 1) = omega(1, 0) = 1.5;
  const AngularCentralGaussian acg(omega);
  // The trapezoid rule on a periodic analytic integrand converges geometrically.
  const int m = 4000;
  double sum = 0.0;
  for (int i = 0; i < m; ++i) {
    const double phi = 2.0 * std::numbers::pi * i / m;
    const double u[2] = {std::cos(phi), std::sin(phi)};
    sum += std::exp(acg.log_density(u));
  }
  EXPECT_NEAR(sum / m, 1.0, 1e-12);
}

TEST(AcgLogDensity, IsZeroForMultiplesOfTheIdentityAndMinusInfinityOffTheSphere) {
  Matrix omega = Matrix::identity(4);
  const double u[4] = {0.5, 0.5, 0.5, 0.5};
  EXPECT_NEAR(acg_log_density(omega, u), 0.0, 1e-15);
  const double off[4] = {0.5, 0.5, 0.5, 0.6};
  EXPECT_EQ(acg_log_density(omega, off), -INFINITY);
  Matrix not_pd = omega;
  not_pd(3, 3) = 0.0;
  EXPECT_EQ(status_of([&] { AngularCentralGaussian{not_pd}; }), DPCOV_E_NOT_POSITIVE_DEFINITE);
}

TEST(Acg, GivesUnitVectors) {
  Rng rng = Rng::from_seed(11);
  const AngularCentralGaussian acg(spd3());
  double x[3];
  for (int i = 0; i < 100; ++i) {
    acg.sample(rng, x);
    EXPECT_NEAR(x[0] * x[0] + x[1] * x[1] + x[2] * x[2], 1.0, 1e-14);
  }
}

TEST(BinghamEnvelope, MatchesTheExactValuesOfConstantsSection9) {
  // (a, b, M) for q = 2, A = diag(0, a), to the 10 decimals of the table.
  const double table[3][3] = {{1.0, 1.4142135624, 1.0551472931},
                              {5.0, 1.0990195136, 1.1597894805},
                              {20.0, 1.0249843945, 1.1983696287}};
  for (const auto &row : table) {
    Matrix a(2, 2);
    a(1, 1) = row[0];
    const BinghamSampler s(a);
    EXPECT_NEAR(s.b(), row[1], 6e-11) << row[0];
    EXPECT_NEAR(std::exp(s.log_m()), row[2], 6e-11) << row[0];
  }
}

TEST(BinghamEnvelope, SolvesTheDefiningEquationForLargeSpectra) {
  for (int64_t q : {3, 10, 100, 500}) {
    std::vector<double> lambda(static_cast<size_t>(q));
    for (int64_t i = 1; i < q; ++i) lambda[static_cast<size_t>(i)] = 1e3 * std::pow(0.9, q - i);
    const double b = bingham_envelope_b(lambda);
    double sum = 0.0;
    for (double l : lambda) sum += 1.0 / (b + 2.0 * l);
    EXPECT_NEAR(sum, 1.0, 1e-13) << q;
    EXPECT_GE(b, 1.0);
    EXPECT_LE(b, static_cast<double>(q));
  }
}

TEST(BinghamEnvelope, AcceptanceRatioEqualsTheLogSpaceTestAndPeaksAtOne) {
  Matrix a(5, 5);
  for (int i = 0; i < 5; ++i) a(i, i) = 3.0 * i;
  const BinghamSampler s(a);
  const double q = 5.0, b = s.b();
  for (double t = 0.0; t <= 12.0; t += 0.25) {
    const double direct = -t + 0.5 * q * std::log(1.0 + 2.0 * t / b) - s.log_m();
    EXPECT_NEAR(s.log_accept_ratio(t), direct, 1e-12);
    EXPECT_LE(s.log_accept_ratio(t), 0.0);
  }
  EXPECT_NEAR(s.log_accept_ratio(0.5 * (q - b)), 0.0, 1e-15);
}

TEST(BinghamEnvelope, IsUniformWhenAIsAMultipleOfTheIdentity) {
  const BinghamSampler s(Matrix::identity(4));
  EXPECT_DOUBLE_EQ(s.b(), 4.0);
  EXPECT_DOUBLE_EQ(s.log_m(), 0.0);
  for (double l : s.shifted_eigenvalues()) EXPECT_EQ(l, 0.0);
}

TEST(BinghamEnvelope, DoesNotDependOnAddingAMultipleOfTheIdentity) {
  Matrix a = spd3(), shifted = spd3();
  for (int i = 0; i < 3; ++i) shifted(i, i) += 40.0;
  const BinghamSampler s(a), t(shifted);
  EXPECT_NEAR(s.b(), t.b(), 1e-12);
  EXPECT_NEAR(s.log_m(), t.log_m(), 1e-12);
}

TEST(Bingham, GivesUnitVectorsAndCountsItsProposals) {
  Rng rng = Rng::from_seed(12);
  Matrix a = spd3();
  double x[3];
  int64_t total = 0;
  for (int i = 0; i < 200; ++i) {
    const int64_t tries = bingham(rng, a, x);
    EXPECT_GE(tries, 1);
    total += tries;
    EXPECT_NEAR(x[0] * x[0] + x[1] * x[1] + x[2] * x[2], 1.0, 1e-14);
  }
  EXPECT_GT(total, 200);
}

TEST(Bingham, ColumnsAreTheDrawsOfSuccessiveSamplesRotatedTogether) {
  // A dense A (rotated by one product for all the columns) and a diagonal one (no rotation).
  Matrix dense = spd3();
  for (int64_t i = 0; i < 3; ++i) dense(i, i) *= 4.0;
  const BinghamSampler rotated(dense), diagonal(std::vector<double>{0.0, 2.0, 9.0});
  for (const BinghamSampler *s : {&rotated, &diagonal}) {
    constexpr int64_t kDraws = 50, kLd = 4;
    Rng one_by_one = Rng::from_seed(15), together = Rng::from_seed(15);
    std::vector<double> columns(kLd * kDraws, -7.0), x(3);
    const int64_t tries = s->sample_columns(together, kDraws, columns.data(), kLd);
    int64_t expected_tries = 0;
    for (int64_t i = 0; i < kDraws; ++i) {
      expected_tries += s->sample(one_by_one, x.data());
      for (int64_t r = 0; r < 3; ++r)
        EXPECT_NEAR(columns[static_cast<size_t>(i * kLd + r)], x[static_cast<size_t>(r)], 1e-15);
      EXPECT_EQ(columns[static_cast<size_t>(i * kLd + 3)], -7.0);  // the padding row is untouched
    }
    EXPECT_EQ(tries, expected_tries);
    EXPECT_GT(tries, kDraws);
    EXPECT_EQ(together.next_u64(), one_by_one.next_u64());
  }
}

TEST(Bingham, InDimensionOneGivesPlusOrMinusOne) {
  Rng rng = Rng::from_seed(13);
  Matrix a(1, 1);
  a(0, 0) = 5.0;
  double x = 0.0;
  EXPECT_EQ(bingham(rng, a, &x), 1);
  EXPECT_EQ(std::fabs(x), 1.0);
}

TEST(Bingham, ReportsNoConvergenceAtItsCapInsteadOfLoopingForever) {
  Rng rng = Rng::from_seed(14);
  Matrix a(2, 2);
  a(1, 1) = 20.0;  // acceptance about 0.67: a cap of one try fails within a few draws
  const BinghamSampler s(a, 1);
  double x[2];
  EXPECT_EQ(status_of([&] {
              for (int i = 0; i < 200; ++i) s.sample(rng, x);
            }),
            DPCOV_E_NO_CONVERGENCE);
}

TEST(Bingham, RefusesBadParameters) {
  Matrix a = spd3();
  a(0, 2) = 1.0;
  EXPECT_EQ(status_of([&] { BinghamSampler{a}; }), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status_of([&] { BinghamSampler(spd3(), 0); }), DPCOV_E_INVALID_ARGUMENT);
  Matrix inf = spd3();
  inf(1, 1) = INFINITY;
  EXPECT_EQ(status_of([&] { BinghamSampler{inf}; }), DPCOV_E_NON_FINITE);
}

TEST(SymmetricNoise, IsExactlySymmetricAndDrawsTheUpperTriangleColumnByColumn) {
  Rng a = Rng::from_seed(15), b = Rng::from_seed(15);
  Matrix n(4, 4);
  symmetric_gaussian_noise(a, 2.0, n);
  EXPECT_TRUE(exactly_symmetric(n));
  for (int64_t j = 0; j < 4; ++j)
    for (int64_t i = 0; i <= j; ++i) EXPECT_EQ(n(i, j), 2.0 * standard_normal(b));
  Matrix l(4, 4);
  symmetric_laplace_noise(a, 0.5, l);
  EXPECT_TRUE(exactly_symmetric(l));
  for (int64_t j = 0; j < 4; ++j)
    for (int64_t i = 0; i <= j; ++i) EXPECT_EQ(l(i, j), laplace(b, 0.5));
}

TEST(SymmetricNoise, LogDensitiesSumOverTheUpperTriangle) {
  Matrix n(2, 2);
  n(0, 0) = 0.3; n(1, 1) = -1.2; n(0, 1) = n(1, 0) = 2.0;
  const double sigma = 1.5, b = 0.7;
  double gauss = 0.0, lap = 0.0;
  for (double x : {0.3, -1.2, 2.0}) {
    gauss += -0.5 * (x / sigma) * (x / sigma) - std::log(sigma * std::sqrt(2 * std::numbers::pi));
    lap += -std::fabs(x) / b - std::log(2 * b);
  }
  EXPECT_NEAR(symmetric_gaussian_log_density(n, sigma), gauss, 1e-14);
  EXPECT_NEAR(symmetric_laplace_log_density(n, b), lap, 1e-14);
  n(1, 0) = 2.5;
  EXPECT_EQ(symmetric_gaussian_log_density(n, sigma), -INFINITY);
  EXPECT_EQ(symmetric_laplace_log_density(n, b), -INFINITY);
  Matrix out(3, 3);
  Rng rng = Rng::from_seed(16);
  EXPECT_EQ(status_of([&] { symmetric_gaussian_noise(rng, 0.0, out); }), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status_of([&] { laplace_log_normaliser(0.0); }), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status_of([&] { symmetric_laplace_noise(rng, NAN, out); }), DPCOV_E_NON_FINITE);
  Matrix rect(2, 3);
  EXPECT_EQ(status_of([&] { symmetric_gaussian_noise(rng, 1.0, rect); }), DPCOV_E_DIMENSION);
}

// ln(2 b) for every finite b > 0, up to DBL_MAX, where 2 b overflows: the Laplace log-density of
// a release at a scale above DBL_MAX / 2 was -infinity, and the auditor reported the draw as
// outside the sampler's support (a false sampler mismatch at epsilon = 1.9e-314).
TEST(SymmetricNoise, LaplaceLogDensityIsFiniteAtEveryScale) {
  const double max = std::numeric_limits<double>::max();
  for (double b : {std::numeric_limits<double>::denorm_min(), 1e-300, 0.7, 1e300, 0.5 * max,
                   std::nextafter(0.5 * max, max), 0.75 * max, max}) {
    // ln 2 + ln b, each rounded once: within 2 ulps of the exact ln(2 b) (computed in long double).
    const long double exact = std::log(2.0L * static_cast<long double>(b));
    EXPECT_NEAR(laplace_log_normaliser(b), static_cast<double>(exact),
                4.0 * std::numeric_limits<double>::epsilon() * std::fabs(static_cast<double>(exact)))
        << "b = " << b;
    Matrix n(2, 2);
    n(0, 0) = b; n(1, 1) = -b; n(0, 1) = n(1, 0) = b;
    const double log_density = symmetric_laplace_log_density(n, b);
    EXPECT_TRUE(std::isfinite(log_density)) << "b = " << b;
    EXPECT_NEAR(log_density, -3.0 - 3.0 * laplace_log_normaliser(b),
                1e-12 * (1.0 + std::fabs(log_density)));
  }
}

}  // namespace
}  // namespace dpcov::random
