// CoinPress mean estimation (core/mechanisms/coinpress_mean.hpp, core/privacy/coinpress_mean.hpp):
// constants pinned against mpmath at 40 digits (proofs/check/coinpress_mean.py recomputes them at
// many more points), the projection's sensitivity, and the release's contract.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "core/mechanisms/coinpress_mean.hpp"
#include "core/privacy/coinpress.hpp"
#include "core/privacy/coinpress_mean.hpp"
#include "core/random/normal.hpp"

namespace {

using namespace dpcov;

mechanisms::CoinpressMeanRequest worked_request() {
  mechanisms::CoinpressMeanRequest r;
  r.dim = 50;
  r.n = 1000;
  r.rho = 0.5;
  r.radius = 70.710678118654755;  // 10 sqrt(50), the authors' r
  return r;
}

// mpmath, 40 digits, from the inputs alone (the chain r_1 = r, R_i, sigma_i, r_{i+1}).
TEST(CoinpressMeanConstants, MatchHighPrecisionValues) {
  const mechanisms::CoinpressMeanReceipt r = mechanisms::coinpress_mean_plan(worked_request());
  EXPECT_NEAR(r.tail_radius, 9.4635555136364635663, 1e-14);
  const double clip[] = {74.255120710100579633, 11.374046546417638086, 9.6999995121638122768};
  const double sigma[] = {0.42005039513550211194, 0.064341323540026746995, 0.022401189317948062453};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_NEAR(r.step_clip_radius[i], clip[i], 1e-13 * clip[i]);
    EXPECT_NEAR(r.step_sigma[i], sigma[i], 1e-13 * sigma[i]);
    // Privacy: never below (2 R / n) / sqrt(2 rho_i) for the R and rho_i actually used.
    const long double safe = 2.0L * r.step_clip_radius[i] / 1000.0L / std::sqrt(2.0L * r.step_rho[i]);
    EXPECT_GE(static_cast<long double>(r.step_sigma[i]), safe);
  }
}

TEST(CoinpressMeanConstants, RefuseOutOfRangeArguments) {
  EXPECT_THROW(privacy::coinpress_mean_clip_radius(-1.0, 1.0, 3.0), Error);
  EXPECT_THROW(privacy::coinpress_mean_clip_radius(1.0, 0.0, 3.0), Error);
  EXPECT_THROW(privacy::coinpress_mean_clip_radius(1.797e308, 1e305, 3.0), Error);  // overflows
  EXPECT_THROW(privacy::coinpress_mean_step_sigma(1.0, 0, 0.5), Error);
  EXPECT_THROW(privacy::coinpress_mean_step_sigma(1e200, 1, 1e-300), Error);  // overflows
  EXPECT_THROW(privacy::coinpress_mean_next_radius(1.0, 3.0, 10, std::nan("")), Error);
  EXPECT_THROW(privacy::coinpress_centring_split(0.0), Error);
  const auto [m, c] = privacy::coinpress_centring_split(0.3);
  EXPECT_LE(m, 0.3 / 8);
  EXPECT_LE(static_cast<long double>(m) + c, 0.3L);
}

// Two rows at opposite ends of a line through the centre, far outside the ball: their projected
// means differ by exactly the sensitivity 2 R / n, and never by more.
TEST(CoinpressMeanProjection, AttainsButNeverExceedsTheSensitivity) {
  const std::vector<double> centre = {1.0, -2.0};
  Matrix x(4, 2, 0.5), x_prime(4, 2, 0.5);
  x(0, 0) = 1e9;
  x_prime(0, 0) = -1e9;
  const double radius = 3.0;
  const std::vector<double> a = mechanisms::coinpress_mean_projected_offset(x.view(), centre, radius);
  const std::vector<double> b = mechanisms::coinpress_mean_projected_offset(x_prime.view(), centre, radius);
  const double shift = std::hypot(a[0] - b[0], a[1] - b[1]);
  EXPECT_LE(shift, 2.0 * radius / 4);
  EXPECT_GE(shift, 2.0 * radius / 4 * (1 - 1e-8));
  // An offset that overflows (x - c beyond the largest double) is projected towards x: measured
  // at half scale, its projection has norm R (up to the shaved ulps).
  Matrix far(1, 2, 0.0);
  far(0, 0) = 1.7e308;
  const std::vector<double> c =
      mechanisms::coinpress_mean_projected_offset(far.view(), {-1.7e308, 0.0}, radius);
  EXPECT_LE(c[0], radius);
  EXPECT_GT(c[0], radius * (1 - 1e-14));
  EXPECT_EQ(c[1], 0.0);
}

// On 20000 random neighbouring pairs (rows and centres over 24 orders of magnitude, the centre
// far from the rows or among them), the computed offsets differ by at most 2 R / n up to the
// compensated sum's rounding: the sensitivity holds for the values the noise is added to.
TEST(CoinpressMeanProjection, TheSensitivityHoldsOnRandomNeighbours) {
  random::Rng rng = random::Rng::from_seed(20261124);
  double worst = 0.0;
  for (int trial = 0; trial < 20000; ++trial) {
    const int64_t n = 1 + static_cast<int64_t>(rng.next_u64() % 30);
    const int64_t d = 1 + static_cast<int64_t>(rng.next_u64() % 5);
    const double spread = std::ldexp(1.0, static_cast<int>(rng.next_u64() % 80) - 40);
    const double shift = std::ldexp(1.0, static_cast<int>(rng.next_u64() % 80) - 40);
    const double radius = std::ldexp(1.0, static_cast<int>(rng.next_u64() % 60) - 30);
    Matrix x(n, d), x_prime(n, d);
    std::vector<double> centre(static_cast<size_t>(d));
    for (double &v : centre) v = shift * random::standard_normal(rng);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < d; ++j) x(i, j) = x_prime(i, j) = spread * random::standard_normal(rng);
    const int64_t k = static_cast<int64_t>(rng.next_u64() % static_cast<uint64_t>(n));
    for (int64_t j = 0; j < d; ++j) x_prime(k, j) = spread * 1e3 * random::standard_normal(rng);
    const std::vector<double> a = mechanisms::coinpress_mean_projected_offset(x.view(), centre, radius);
    const std::vector<double> b =
        mechanisms::coinpress_mean_projected_offset(x_prime.view(), centre, radius);
    long double sq = 0.0L;
    for (int64_t j = 0; j < d; ++j) {
      const long double diff = static_cast<long double>(a[static_cast<size_t>(j)]) - b[static_cast<size_t>(j)];
      sq += diff * diff;
    }
    worst = std::max(worst, static_cast<double>(std::sqrt(sq) / (2.0L * radius / n)));
  }
  EXPECT_LE(worst, 1.0 + 1e-13) << worst;
}

TEST(CoinpressMean, ReleaseReceiptEqualsThePlanAndTheShapesAreChecked) {
  mechanisms::CoinpressMeanRequest request = worked_request();
  request.dim = 2;
  request.n = 50;
  Matrix rows(50, 2, 1.0);
  random::Rng rng = random::Rng::from_seed(3);
  const auto release = mechanisms::coinpress_mean_release(rows.view(), {0.0, 0.0}, request, rng);
  mechanisms::CoinpressMeanReceipt plan = mechanisms::coinpress_mean_plan(request);
  plan.seed_fixed = true;
  EXPECT_EQ(release.receipt, plan);
  EXPECT_EQ(release.mean.size(), 2u);
  EXPECT_EQ(release.centres.rows(), 3);
  EXPECT_EQ(release.centres(2, 0), release.mean[0]);
  EXPECT_THROW(mechanisms::coinpress_mean_release(rows.view(), {0.0}, request, rng), Error);
  request.n = 49;
  EXPECT_THROW(mechanisms::coinpress_mean_release(rows.view(), {0.0, 0.0}, request, rng), Error);
}

}  // namespace
