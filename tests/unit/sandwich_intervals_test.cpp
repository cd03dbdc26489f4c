// The robust (sandwich) intervals' kernel contracts (estimators/sandwich_intervals.hpp): the meat
// against a hand computation with clipped residuals, the row bound it keeps, and the refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "core/estimators/sandwich_intervals.hpp"

namespace dpcov::estimators {
namespace {

Matrix rows_of(const std::vector<std::vector<double>> &v) {
  Matrix m(static_cast<int64_t>(v.size()), static_cast<int64_t>(v[0].size()));
  for (size_t i = 0; i < v.size(); ++i)
    for (size_t j = 0; j < v[i].size(); ++j)
      m(static_cast<int64_t>(i), static_cast<int64_t>(j)) = v[i][j];
  return m;
}

TEST(SandwichMeat, IsTheGramOfClippedResidualsTimesRows) {
  // beta0 = (1, 0): residuals 0.5 - 0.6 = -0.1 and 3 - 0 = 3, clipped to R = 2.
  const Matrix x = rows_of({{0.6, 0.8}, {0.0, 1.0}});
  const Matrix m = sandwich_meat(x.view(), {0.5, 3.0}, {1.0, 0.0}, 1.0, 2.0);
  EXPECT_NEAR(m(0, 0), 0.01 * 0.36, 1e-15);
  EXPECT_NEAR(m(0, 1), 0.01 * 0.48, 1e-15);
  EXPECT_NEAR(m(1, 1), 0.01 * 0.64 + 4.0, 1e-15);
  EXPECT_EQ(m(0, 1), m(1, 0));
}

TEST(SandwichMeat, KeepsEveryRowWithinBXTimesR) {
  // A row above bound_x (the caller's contract broken): its u is scaled to bound_x R = 2.
  const Matrix x = rows_of({{3.0, 4.0}});
  const Matrix m = sandwich_meat(x.view(), {10.0}, {0.0, 0.0}, 1.0, 2.0);
  EXPECT_NEAR(m(0, 0) + m(1, 1), 4.0, 1e-12);
}

TEST(SandwichMeat, RefusesMismatchedSizesAndBadBounds) {
  const Matrix x = rows_of({{0.6, 0.8}});
  EXPECT_THROW(sandwich_meat(x.view(), {0.5, 0.1}, {1.0, 0.0}, 1.0, 2.0), Error);
  EXPECT_THROW(sandwich_meat(x.view(), {0.5}, {1.0}, 1.0, 2.0), Error);
  EXPECT_THROW(sandwich_meat(x.view(), {0.5}, {1.0, 0.0}, 0.0, 2.0), Error);
  EXPECT_THROW(sandwich_meat(x.view(), {0.5}, {1.0, 0.0}, 1.0, std::nan("")), Error);
}

mechanisms::AdasspReceipt receipt_of(int64_t p) {
  mechanisms::AdasspReceipt r;
  r.dim = p;
  r.sigma_gram = 1.0;
  r.sigma_gram_off_diagonal = 1.0 / std::sqrt(2.0);
  r.sigma_cross = 1.0;
  return r;
}

TEST(SandwichIntervals, AreFiniteWhenTheReleasedMeatIsIndefinite) {
  Matrix xtx(2, 2), meat(2, 2);
  xtx(0, 0) = xtx(1, 1) = 1000.0;
  meat(0, 0) = 50.0;
  meat(1, 1) = -5.0;  // noise: raised to 0, so no sampling noise in that direction
  random::Rng rng = random::Rng::from_seed(7);
  const BootstrapIntervals ci =
      adassp_sandwich_intervals(xtx, {100.0, -50.0}, receipt_of(2), meat, 0.95, 199, rng);
  ASSERT_EQ(ci.ci_lower.size(), 2u);
  for (size_t j = 0; j < 2; ++j) {
    EXPECT_TRUE(std::isfinite(ci.ci_lower[j]) && std::isfinite(ci.ci_upper[j]));
    EXPECT_LT(ci.ci_lower[j], ci.coefficients[j]);
    EXPECT_GT(ci.ci_upper[j], ci.coefficients[j]);
  }
  EXPECT_NEAR(ci.coefficients[0], 0.1, 1e-12);
}

// A meat near the largest doubles with a tiny X'X: w_j' M w_j overflows, to inf - inf = NaN in
// about half the worlds. Those worlds count as failed (at both ends), so the intervals are never
// NaN: here too many fail and the intervals refuse.
TEST(SandwichIntervals, AMeatThatOverflowsGivesNoNaNInterval) {
  Matrix xtx(2, 2), meat(2, 2);
  xtx(0, 0) = xtx(1, 1) = 1e-3;
  meat(0, 0) = meat(1, 1) = 1e308;
  meat(0, 1) = meat(1, 0) = -1e308;
  mechanisms::AdasspReceipt r = receipt_of(2);
  r.sigma_gram = r.sigma_cross = 1e-6;
  r.sigma_gram_off_diagonal = 1e-6 / std::sqrt(2.0);
  random::Rng rng = random::Rng::from_seed(7);
  try {
    const BootstrapIntervals ci =
        adassp_sandwich_intervals(xtx, {1e-3, 0.0}, r, meat, 0.95, 199, rng);
    for (size_t j = 0; j < 2; ++j)
      EXPECT_FALSE(std::isnan(ci.ci_lower[j]) || std::isnan(ci.ci_upper[j])) << j;
  } catch (const Error &e) {
    EXPECT_EQ(e.status(), Status::Precondition);
  }
}

// Where the fit's noise swamps X'X no world's refit is usable: the intervals refuse
// (Status::Precondition) rather than read the meat's noise shift off no worlds at all. With the
// meat's noise law and weak coefficients flagged (not refused), the worlds run to the end.
TEST(SandwichIntervals, RefuseWhenNoWorldIsUsable) {
  const int64_t p = 6;
  Matrix xtx(p, p), meat(p, p);
  for (int64_t i = 0; i < p; ++i) xtx(i, i) = meat(i, i) = 1.0;
  mechanisms::AdasspReceipt r = receipt_of(p);
  r.sigma_gram = 100.0;
  r.sigma_gram_off_diagonal = 100.0 / std::sqrt(2.0);
  const ReleaseNoise meat_noise{ReleaseNoise::Kind::SymmetricGaussian, 1.0, 0.0};
  random::Rng rng = random::Rng::from_seed(11);
  try {
    adassp_sandwich_intervals(xtx, std::vector<double>(p, 0.0), r, meat, 0.95, 199, rng,
                              &meat_noise, WeakCoefficients::Flag);
    ADD_FAILURE() << "no world is usable, yet the intervals answered";
  } catch (const Error &e) {
    EXPECT_EQ(e.status(), Status::Precondition) << e.what();
  }
}

TEST(SandwichIntervals, RefuseBadInputs) {
  Matrix xtx(2, 2), meat(2, 2), small(1, 1);
  xtx(0, 0) = xtx(1, 1) = 1000.0;
  random::Rng rng = random::Rng::from_seed(7);
  const std::vector<double> xty = {1.0, 1.0};
  const Matrix empty(0, 0);
  EXPECT_THROW(adassp_sandwich_intervals(empty, {}, receipt_of(0), empty, 0.95, 199, rng), Error);
  EXPECT_THROW(adassp_sandwich_intervals(xtx, xty, receipt_of(2), small, 0.95, 199, rng), Error);
  EXPECT_THROW(adassp_sandwich_intervals(xtx, xty, receipt_of(2), meat, 1.0, 199, rng), Error);
  EXPECT_THROW(adassp_sandwich_intervals(xtx, xty, receipt_of(2), meat, 0.95, 10, rng), Error);
  Matrix asymmetric = meat;
  asymmetric(0, 1) = 1.0;
  EXPECT_THROW(adassp_sandwich_intervals(xtx, xty, receipt_of(2), asymmetric, 0.95, 199, rng),
               Error);
  Matrix indefinite = xtx;
  indefinite(1, 1) = -1.0;
  try {
    adassp_sandwich_intervals(indefinite, xty, receipt_of(2), meat, 0.95, 199, rng);
    FAIL() << "an indefinite X'X gave intervals";
  } catch (const Error &e) {
    EXPECT_EQ(e.status(), Status::Precondition);
  }
}

// meat_noise_shift: s^2 / (tau^2 + s), by hand; 0 without noise; the second-order shift
// s^2 / tau^2 where the noise is small against the total; at most s however small the total.
TEST(MeatNoiseShift, IsTheNoiseVarianceOverTheTotalPlusTheNoiseSd) {
  EXPECT_EQ(meat_noise_shift(0.0, 1.0), 0.0);
  EXPECT_EQ(meat_noise_shift(-1.0, 1.0), 0.0);
  EXPECT_DOUBLE_EQ(meat_noise_shift(4.0, 1.0), 4.0 / 3.0);
  EXPECT_DOUBLE_EQ(meat_noise_shift(4.0, -1.0), 2.0);  // a negative total read as 0
  EXPECT_DOUBLE_EQ(meat_noise_shift(9.0, 0.0), 3.0);
  const double s2 = 1e-6, tau2 = 2.0;
  EXPECT_NEAR(meat_noise_shift(s2, tau2) / (s2 / tau2), 1.0, 1e-3);
  for (double total : {0.0, 0.5, 10.0}) EXPECT_LE(meat_noise_shift(2.25, total), 1.5);
}

}  // namespace
}  // namespace dpcov::estimators
