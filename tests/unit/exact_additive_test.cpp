// Floating-point-safe Analyze Gauss and symmetric Laplace (core/mechanisms/exact_additive.hpp):
// the zCDP calibration pinned against mpmath, the grid and its integer bounds, and releases that
// are grid^2 times (the exact integer Gram of the rounded rows + integer noise), checked against
// a naive integer reference.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/error.hpp"
#include "core/mechanisms/exact_additive.hpp"
#include "core/privacy/analytic_gaussian.hpp"
#include "core/privacy/discrete_gaussian.hpp"
#include "core/privacy/discrete_gaussian_smoothing.hpp"
#include "core/privacy/zcdp.hpp"
#include "core/random/rng.hpp"

namespace dpcov::mechanisms {
namespace {

TEST(ZcdpRho, IsOnTheSafeSideOfMpmathAndWithinOnePartPerMillion) {
  // The exact mechanisms' rho, zcdp_rho_for_epsilon(eps, delta), against rho_for(eps, delta) to
  // 20 digits by proofs/check/exact_additive.py (mpmath, 50 digits).
  struct Point { double eps, delta, rho; };
  const Point points[] = {{1, 1e-6, 0.024355970359538372796},
                          {0.1, 1e-6, 0.00032104769034574012888},
                          {2, 1e-9, 0.056130501796519819368},
                          {0.5, 1e-5, 0.0085055305911819113554},
                          {5, 1e-10, 0.28078875941037525265}};
  for (const Point &p : points) {
    const double rho = privacy::zcdp_rho_for_epsilon(p.eps, p.delta);
    EXPECT_LE(rho, p.rho) << p.eps << " " << p.delta;
    EXPECT_GT(rho, p.rho * (1.0 - 1e-6)) << p.eps << " " << p.delta;
  }
}

TEST(ZcdpRho, RejectsBadPrivacyParameters) {
  EXPECT_THROW(privacy::zcdp_rho_for_epsilon(0.0, 1e-6), Error);
  EXPECT_THROW(privacy::zcdp_rho_for_epsilon(1.0, 0.0), Error);
  EXPECT_THROW(privacy::zcdp_rho_for_epsilon(1.0, 1.0), Error);
}

TEST(DiscreteGaussianVariance, IsTheCeilingOfDeltaSquaredOverTwoRho) {
  EXPECT_EQ(privacy::discrete_gaussian_variance(8.0, 0.5), 8U);   // exactly 8
  EXPECT_EQ(privacy::discrete_gaussian_variance(8.0, 0.3), 14U);  // 13.33... rounded up
  // rho = 0.1 is not a double: 2 rho s2 >= 1 must hold for the exact product.
  const uint64_t s2 = privacy::discrete_gaussian_variance(1.0, 0.1);
  EXPECT_GE(std::fma(0.2, static_cast<double>(s2), -1.0), 0.0);
  EXPECT_LT(std::fma(0.2, static_cast<double>(s2 - 1), -1.0), 0.0);
  EXPECT_THROW(privacy::discrete_gaussian_variance(0x1.0p80, 0.5), Error);
}

// Above 2^53 doubles are 2 or more apart and adding 1 to one changes nothing: the quotient's
// ceiling "raised by one" stayed below Delta^2 / (2 rho) (the constants sweep found the Laplace
// twin: t = 55344244956805584 < 55344244956805585.4 = Delta_1 / eps). At random points with the
// quotient in [2^53, 2^62), 2 rho s2 >= Delta^2 holds for the exact product.
TEST(DiscreteGaussianVariance, IsNotBelowTheQuotientAbove2To53) {
  std::mt19937_64 gen(20261124);
  for (int i = 0; i < 10000; ++i) {
    const double delta_squared = std::floor(std::ldexp(1.0 + (gen() >> 11) * 0x1.0p-53, 40));
    const double quotient = std::ldexp(1.0 + (gen() >> 11) * 0x1.0p-53, 53 + static_cast<int>(gen() % 8));
    const double rho = delta_squared / (2.0 * quotient);
    const uint64_t s2 = privacy::discrete_gaussian_variance(delta_squared, rho);
    ASSERT_EQ(static_cast<uint64_t>(static_cast<double>(s2)), s2);
    ASSERT_GE(std::fma(2.0 * rho, static_cast<double>(s2), -delta_squared), 0.0)
        << "Delta^2 " << delta_squared << " rho " << rho << " s2 " << s2;
  }
}

TEST(DiscreteGaussianSmoothing, RejectsBadBudgetsAndBudgetsTheShiftExhausts) {
  for (double eps : {0.0, -1.0, double{NAN}, double{INFINITY}})
    EXPECT_THROW(privacy::discrete_gaussian_unit_sigma(eps, 1e-6, 10), Error) << eps;
  for (double delta : {0.0, 1.0, -1e-6, double{NAN}})
    EXPECT_THROW(privacy::discrete_gaussian_unit_sigma(1.0, delta, 10), Error) << delta;
  EXPECT_THROW(privacy::discrete_gaussian_unit_sigma(1.0, 1e-6, 0), Error);
  // m 2^-110 >= eps: nothing left for the continuous mechanism.
  EXPECT_THROW(privacy::discrete_gaussian_unit_sigma(1e-30, 1e-6, uint64_t{1} << 62), Error);
  // A variance of 2^62 or more is refused with 0 (the plan then tries a coarser grid).
  EXPECT_EQ(privacy::discrete_gaussian_variance_approx_dp(0x1.0p100, 1.0), 0U);
}

// The variance is the continuous analytic Gaussian's plus 4 (rounded up), far below the zCDP
// calibration's at every budget: the relative excess over Balle-Wang is below 1e-9 at these
// Delta, and the zCDP route's standard deviation is 6-9% larger.
TEST(DiscreteGaussianSmoothing, VarianceIsTheAnalyticGaussiansPlusFour) {
  struct Point { double eps, delta; };
  for (const Point p : {Point{1.0, 1e-6}, Point{0.1, 1e-6}, Point{4.0, 1e-6}, Point{1.0, 1e-5}}) {
    const double delta_squared = 2.0 * 16781313.0 * 16781313.0;  // replace-one, k = 12, d = 10
    const uint64_t s2 = privacy::discrete_gaussian_variance_approx_dp(
        delta_squared, privacy::discrete_gaussian_unit_sigma(p.eps, p.delta, 55));
    const double sigma = privacy::analytic_gaussian_sigma(p.eps, p.delta, std::sqrt(delta_squared));
    EXPECT_GE(static_cast<double>(s2), sigma * sigma + 4.0 - 1.0);
    EXPECT_LE(static_cast<double>(s2), (sigma * sigma + 4.0) * (1.0 + 1e-9) + 1.0);
    const uint64_t zcdp = privacy::discrete_gaussian_variance(
        delta_squared, privacy::zcdp_rho_for_epsilon(p.eps, p.delta));
    EXPECT_GT(std::sqrt(static_cast<double>(zcdp) / static_cast<double>(s2)), 1.06) << p.eps;
  }
}

Request request(int64_t d, int64_t n, double eps, double delta) {
  Request r;
  r.dim = d;
  r.n = n;
  r.bound = 1.0;
  r.epsilon = eps;
  r.delta = delta;
  return r;
}

TEST(ExactPlan, UsesTheFinestGridWhoseIntegersFitAndSaysExact) {
  ExactGrid grid;
  const Receipt g = plan_exact_additive(MechanismId::AnalyzeGauss, request(10, 1000, 1, 1e-6), &grid);
  EXPECT_EQ(g.numerics, Numerics::Exact);
  EXPECT_EQ(grid.bits, 12);
  EXPECT_EQ(grid.norm2_bound, (4096 + 2 + 1) * (4096 + 2 + 1));  // ceil(sqrt(10) / 2) = 2
  EXPECT_EQ(grid.grid_squared, std::ldexp(1.0, -24));
  EXPECT_GT(g.sigma, 0.0);
  const Receipt l = plan_exact_additive(MechanismId::LaplaceSym, request(10, 1000, 1, 0), &grid);
  EXPECT_EQ(l.numerics, Numerics::Exact);
  EXPECT_EQ(l.delta, 0.0);
  EXPECT_EQ(grid.noise_parameter, static_cast<uint64_t>(11 * (4096 + 3) * (4096 + 3)));
  // The grid never depends on n (private under add/remove).
  plan_exact_additive(MechanismId::AnalyzeGauss, request(10, int64_t{1} << 50, 1, 1e-6), &grid);
  EXPECT_EQ(grid.bits, 12);
  // A tiny epsilon pushes the noise parameter out of the samplers' range: fewer bits.
  plan_exact_additive(MechanismId::LaplaceSym, request(1000, 10, 1e-8, 0), &grid);
  EXPECT_LT(grid.bits, 12);
  EXPECT_LT(grid.noise_parameter, uint64_t{1} << 56);
  EXPECT_THROW(plan_exact_additive(MechanismId::WishartAdditive, request(3, 10, 0.5, 1e-6)), Error);
}

TEST(ExactPlan, LaplaceScaleIsNotBelowTheSensitivityOverEpsilonAbove2To53) {
  ExactGrid grid;
  Request found = request(43755, 1000, 6.9798686062749856e-06, 0);
  found.options.neighbour = privacy::Neighbour::AddRemove;
  plan_exact_additive(MechanismId::LaplaceSym, found, &grid);
  const double d1 = 43756.0 * static_cast<double>(grid.norm2_bound) / 2.0;
  EXPECT_GE(std::fma(static_cast<double>(grid.noise_parameter), found.epsilon, -d1), 0.0);
  EXPECT_GT(grid.noise_parameter, uint64_t{55344244956805585});
  std::mt19937_64 gen(17);
  for (int i = 0; i < 2000; ++i) {
    const int64_t d = 1 + static_cast<int64_t>(gen() % 46340);
    const double eps = std::exp(std::log(1e-6) + (gen() >> 11) * 0x1.0p-53 * std::log(1e8));
    Request r = request(d, 10, eps, 0);
    if (gen() % 2) r.options.neighbour = privacy::Neighbour::AddRemove;
    try {
      plan_exact_additive(MechanismId::LaplaceSym, r, &grid);
    } catch (const Error &) {
      continue;  // no grid fits: refused
    }
    const double sens = static_cast<double>(d + 1) * static_cast<double>(grid.norm2_bound) /
                        (r.options.neighbour == privacy::Neighbour::AddRemove ? 2.0 : 1.0);
    ASSERT_GE(std::fma(static_cast<double>(grid.noise_parameter), eps, -sens), 0.0)
        << "d " << d << " eps " << eps << " t " << grid.noise_parameter;
  }
}

// The exact Analyze Gauss's noise in data units is the idealized one's at the grid's sensitivity:
// sigma / sensitivity is Balle-Wang's at (eps, delta), not the 7% larger ratio that the zCDP
// conversion (CKS Cor. 13) gave (the accuracy tax of issue 36).
TEST(ExactPlan, GaussNoiseIsTheAnalyticGaussiansAtTheGridsSensitivity) {
  for (const int64_t d : {3, 10, 100})
    for (const double eps : {0.5, 1.0, 4.0}) {
      const Receipt r = plan_exact_additive(MechanismId::AnalyzeGauss, request(d, 1000, eps, 1e-6));
      const double analytic = privacy::analytic_gaussian_sigma(eps, 1e-6, r.sensitivity);
      EXPECT_GT(r.sigma, analytic * (1.0 - 1e-9)) << d << " " << eps;
      EXPECT_LT(r.sigma, analytic * (1.0 + 1e-6)) << d << " " << eps;
    }
}

// A bound whose grid unit squared underflows (B below about 6e-151, at or above 2^-500 = 3.05e-151,
// below which every mechanism on the Gram refuses the bound, kSmallestGramBound): refused with
// DPCOV_E_NUMERICAL, not a plan of zero constants whose release converted NaN to an integer (found
// by fuzz_solvers); smaller bounds with DPCOV_E_INVALID_ARGUMENT.
TEST(ExactPlan, RefusesABoundWhoseSquaredGridUnitUnderflows) {
  for (auto mechanism : {MechanismId::AnalyzeGauss, MechanismId::LaplaceSym})
    for (double bound : {1e-280, 1e-200, 1e-160, 4e-151}) {
      Request r = request(3, 10, 1.0, mechanism == MechanismId::AnalyzeGauss ? 1e-6 : 0.0);
      r.bound = bound;
      try {
        plan_exact_additive(mechanism, r);
        ADD_FAILURE() << "no failure at B = " << bound;
      } catch (const Error &e) {
        EXPECT_EQ(e.status(), bound < kSmallestGramBound ? dpcov::Status::InvalidArgument
                                                         : dpcov::Status::Numerical)
            << "B = " << bound;
      }
    }
  Request fine = request(3, 10, 1.0, 1e-6);
  fine.bound = 1e-140;
  EXPECT_GT(plan_exact_additive(MechanismId::AnalyzeGauss, fine).sigma, 0.0);
}

// Naive reference: the integer Gram of round(x 2^bits) for rows of norm <= 1.
std::vector<int64_t> integer_gram(const Matrix &rows, int bits) {
  const int64_t n = rows.rows(), d = rows.cols();
  std::vector<int64_t> g(static_cast<size_t>(d * d), 0);
  for (int64_t r = 0; r < n; ++r)
    for (int64_t i = 0; i < d; ++i)
      for (int64_t j = 0; j < d; ++j)
        g[static_cast<size_t>(i + d * j)] +=
            static_cast<int64_t>(std::nearbyint(std::ldexp(rows(r, i), bits))) *
            static_cast<int64_t>(std::nearbyint(std::ldexp(rows(r, j), bits)));
  return g;
}

TEST(ExactRelease, IsGridSquaredTimesTheExactIntegerGramPlusIntegerNoise) {
  const int64_t n = 200, d = 4;
  random::Rng data_rng = random::Rng::from_seed(5);
  Matrix rows(n, d);
  for (int64_t r = 0; r < n; ++r)
    for (int64_t j = 0; j < d; ++j)
      rows(r, j) = static_cast<double>(data_rng.next_u64() >> 11) * 0x1.0p-53 - 0.5;
  for (const MechanismId m : {MechanismId::AnalyzeGauss, MechanismId::LaplaceSym}) {
    const Request req = request(d, n, 2.0, m == MechanismId::AnalyzeGauss ? 1e-6 : 0.0);
    ExactGrid grid;
    plan_exact_additive(m, req, &grid);
    random::Rng rng = random::Rng::from_entropy();
    const Release rel = release_exact_additive(m, rows.view(), req, rng);
    EXPECT_EQ(rel.receipt.numerics, Numerics::Exact);
    EXPECT_EQ(rel.receipt.generator, Generator::ChaCha20);
    const std::vector<int64_t> exact = integer_gram(rows, grid.bits);
    const std::vector<ExactInt> packed = rounded_gram(rows.view(), req, grid);
    size_t k = 0;
    for (int64_t j = 0; j < d; ++j)
      for (int64_t i = 0; i <= j; ++i)
        EXPECT_EQ(static_cast<int64_t>(packed[k++]), exact[static_cast<size_t>(i + d * j)]);
    for (int64_t i = 0; i < d; ++i)
      for (int64_t j = 0; j < d; ++j) {
        const double units = rel.matrix(i, j) / grid.grid_squared;
        ASSERT_EQ(units, std::floor(units));
        EXPECT_EQ(rel.matrix(i, j), rel.matrix(j, i));
        // The noise is an integer, small against the grid's 2^24 per unit of B^2.
        const double noise = units - static_cast<double>(exact[static_cast<size_t>(i + d * j)]);
        EXPECT_LT(std::fabs(noise), 1e12);
      }
  }
}

TEST(ExactRelease, ClipsRowsAboveTheBoundAndRejectsNonFiniteOnes) {
  Matrix rows(3, 2);
  rows(0, 0) = 5.0;  // norm 5 > B = 1: clipped
  rows(1, 1) = 0.5;
  rows(2, 0) = 0.25;
  random::Rng rng = random::Rng::from_seed(9);
  const Release rel =
      release_exact_additive(MechanismId::AnalyzeGauss, rows.view(), request(2, 3, 50, 1e-6), rng);
  // Clipped: 1 + 0.0625 plus noise of sd sigma (about 0.23 here); unclipped it would be 25.0625.
  EXPECT_NEAR(rel.matrix(0, 0), 1.0 + 0.0625, 6.0 * rel.receipt.sigma);
  EXPECT_LT(rel.receipt.sigma, 0.5);
  rows(2, 1) = NAN;
  EXPECT_THROW(release_exact_additive(MechanismId::AnalyzeGauss, rows.view(),
                                      request(2, 3, 1, 1e-6), rng),
               Error);
}

}  // namespace
}  // namespace dpcov::mechanisms
