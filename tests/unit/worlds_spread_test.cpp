// The worlds' spread de-noised (estimators/worlds_spread.hpp, proofs/bootstrap_worlds.md, "The
// worlds' spread"): the shrinkage factor of the coefficients their X'X noise multiplies solves its
// equation, is 1 where the worlds' spread is nothing against |beta_w|^2 and 0 where it exceeds it,
// and the refits keep the worlds' median of that part; the deflation takes H Q(V) H off each
// coefficient's variance about its median, and nothing without noise. Exact checks on fixed
// numbers: no false failures.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "core/estimators/worlds_spread.hpp"
#include "core/estimators/worlds_truth.hpp"

namespace dpcov::estimators {
namespace {

using Parts = std::vector<std::vector<double>>;

// Worlds' parts u_b = a * s_b, v_b = k * t_b for fixed patterns s, t of interquartile range 2
// (the points -1, ..., 1 evenly spaced, t a reordering of s so the two are not proportional).
Parts pattern(int64_t p, double scale, bool reorder) {
  Parts out(static_cast<size_t>(p));
  const int worlds = 201;
  for (auto &row : out)
    for (int b = 0; b < worlds; ++b) {
      const int k = reorder ? (b * 77) % worlds : b;
      row.push_back(scale * (-1.0 + 2.0 * k / (worlds - 1)));
    }
  return out;
}

// The robust variance of one row: (IQR / 1.349)^2.
double robust_variance(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const auto q = [&](double t) {
    const double x = t * static_cast<double>(v.size() - 1);
    const auto i = static_cast<size_t>(std::floor(x));
    return i + 1 < v.size() ? v[i] + (x - static_cast<double>(i)) * (v[i + 1] - v[i]) : v[i];
  };
  const double iqr = (q(0.75) - q(0.25)) / 1.3489795003921634;
  return iqr * iqr;
}

TEST(WorldsSpread, TheFactorSolvesItsEquation) {
  const Parts u = pattern(3, 0.1, false), v = pattern(3, 0.2, true);
  const std::vector<double> centre = {0.5, -0.4, 0.3};
  const double c = interaction_shrinkage(u, v, centre);
  ASSERT_GT(c, 0.0);
  ASSERT_LT(c, 1.0);
  double square = 0.0, spread = 0.0;
  for (double b : centre) square += b * b;
  for (size_t j = 0; j < u.size(); ++j) {
    std::vector<double> w(u[j].size());
    for (size_t b = 0; b < w.size(); ++b) w[b] = u[j][b] - c * v[j][b];
    spread += robust_variance(w);
  }
  EXPECT_NEAR(c * c * square + spread, square, 1e-7);
}

TEST(WorldsSpread, IsOneWithoutSpreadAndZeroWhereTheSpreadExceedsTheSquare) {
  const std::vector<double> centre = {0.5, -0.4, 0.3};
  const Parts none(3, std::vector<double>(201, 0.0));
  EXPECT_NEAR(interaction_shrinkage(none, none, centre), 1.0, 1e-8);
  // T(0) = 3 (2 / 1.349)^2 = 6.6 > |beta_w|^2 = 0.5.
  EXPECT_EQ(interaction_shrinkage(pattern(3, 1.0, false), pattern(3, 1.0, true), centre), 0.0);
  EXPECT_EQ(interaction_shrinkage(none, none, {0.0, 0.0, 0.0}), 0.0);
}

TEST(WorldsSpread, RefitsAreTheCentrePlusUMinusVAtFactorOne) {
  // No spread in u, v constant per coefficient: T = 0, c = 1, and the refits are the plain
  // refits beta_w + u - v (the construction without shrinkage).
  const std::vector<double> centre = {0.5, -0.4};
  const Parts u = {{0.1, 0.1, 0.1}, {-0.2, -0.2, -0.2}}, v = {{0.3, 0.3, 0.3}, {0.05, 0.05, 0.05}};
  const Parts refits = shrunk_refits(u, v, centre);
  for (size_t j = 0; j < 2; ++j)
    for (size_t b = 0; b < 3; ++b) EXPECT_NEAR(refits[j][b], centre[j] + u[j][b] - v[j][b], 1e-12);
}

TEST(WorldsSpread, KeepsTheMedianOfTheInteractionAndShrinksItsSpread) {
  const std::vector<double> centre = {0.05, -0.05};
  const Parts u(2, std::vector<double>(201, 0.0));
  Parts v = pattern(2, 0.1, true);
  for (auto &row : v)
    for (double &x : row) x += 0.02;  // a median of 0.02: the second-order bias, kept
  const double c = interaction_shrinkage(u, v, centre);
  const Parts refits = shrunk_refits(u, v, centre);
  for (size_t j = 0; j < 2; ++j) {
    std::vector<double> r = refits[j];
    std::nth_element(r.begin(), r.begin() + 100, r.end());
    EXPECT_NEAR(r[100], centre[j] - 0.02, 1e-12);
    for (size_t b = 0; b < r.size(); ++b)
      EXPECT_NEAR(refits[j][b], centre[j] - 0.02 - c * (v[j][b] - 0.02), 1e-12);
  }
}

TEST(WorldsSpread, RejectsPartsOfOtherShapes) {
  const Parts two(2, std::vector<double>(5, 0.0));
  EXPECT_THROW(interaction_shrinkage(two, two, {0.1}), Error);
  EXPECT_THROW(interaction_shrinkage(two, Parts(2, std::vector<double>(4, 0.0)), {0.1, 0.2}), Error);
  EXPECT_THROW(interaction_shrinkage(Parts(1, {0.0}), Parts(1, {0.0}), {0.1}), Error);
}

TEST(WorldsSpread, DeflationTakesTheSecondOrderTermOffEachVariance) {
  // Two rows (the second a reordering of the first, scaled), X'X_w = 4 I, so H = I / 4 and
  // H Q(V) H = Q(V) / 16, Q(V) = sigma^2 (V + tr(V) I) - sigma^2 diag(V) for the symmetric
  // Gaussian law.
  Parts refits = {pattern(1, 1.0, false)[0], pattern(1, 2.0, true)[0]};
  for (double &x : refits[0]) x += 0.3;  // a median of 0.3, kept
  Matrix xtx(2, 2);
  xtx(0, 0) = xtx(1, 1) = 4.0;
  const double sigma = 1.5;
  const std::vector<double> before = {robust_variance(refits[0]), robust_variance(refits[1])};
  const Parts original = refits;
  deflate_spread(refits, xtx, ReleaseNoise{ReleaseNoise::Kind::SymmetricGaussian, sigma, 0.0});
  // Q(V)_jj = sigma^2 (V_jj + tr V) - sigma^2 V_jj = sigma^2 tr V whatever V's off-diagonal
  // entries (the rows' small sample correlation), and H is diagonal.
  const double trace = before[0] + before[1];
  for (size_t j = 0; j < 2; ++j) {
    const double excess = sigma * sigma * trace / 16.0;
    EXPECT_NEAR(robust_variance(refits[j]), before[j] - excess, 1e-9 * before[j]);
    std::vector<double> sorted = refits[j];
    std::nth_element(sorted.begin(), sorted.begin() + 100, sorted.end());
    std::vector<double> old = original[j];
    std::nth_element(old.begin(), old.begin() + 100, old.end());
    EXPECT_NEAR(sorted[100], old[100], 1e-12);
  }
}

TEST(WorldsSpread, DeflationLeavesTheRefitsWithoutNoise) {
  Parts refits = {pattern(1, 1.0, false)[0], pattern(1, 2.0, true)[0]};
  const Parts original = refits;
  Matrix xtx(2, 2);
  xtx(0, 0) = xtx(1, 1) = 4.0;
  deflate_spread(refits, xtx, ReleaseNoise{ReleaseNoise::Kind::SymmetricGaussian, 0.0, 0.0});
  for (size_t j = 0; j < 2; ++j)
    for (size_t b = 0; b < refits[j].size(); ++b) EXPECT_NEAR(refits[j][b], original[j][b], 1e-15);
}

}  // namespace
}  // namespace dpcov::estimators
