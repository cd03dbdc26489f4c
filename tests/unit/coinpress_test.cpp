// CoinPress (core/mechanisms/coinpress.hpp) and the zCDP conversion (core/privacy/zcdp.hpp):
// constants pinned against mpmath (proofs/check/coinpress.py recomputes them at many more
// points), and the estimate's accuracy on Gaussian data at fixed seeds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/error.hpp"
#include "core/linalg/blas.hpp"
#include "core/mechanisms/coinpress.hpp"
#include "core/privacy/coinpress.hpp"
#include "core/privacy/zcdp.hpp"
#include "core/random/normal.hpp"

namespace {

using namespace dpcov;

TEST(ZcdpEpsilon, MatchesHighPrecisionInfimumFromAbove) {
  // mpmath at 50 digits: inf over alpha > 1 of Canonne-Kamath-Steinke's bound.
  const struct {
    double rho, delta, exact;
  } cases[] = {{0.5, 1e-6, 5.2215344445301690534},
               {0.1, 1e-6, 2.1419389283854737304},
               {1.0, 1e-10, 10.03434358134762988},
               {0.005, 1e-5, 0.37526123569902315339}};
  for (const auto &c : cases) {
    const double eps = privacy::zcdp_epsilon(c.rho, c.delta);
    EXPECT_GE(eps, c.exact);
    EXPECT_LE(eps, c.exact * (1 + 1e-9));
    EXPECT_LT(eps, privacy::zcdp_epsilon_bun_steinke(c.rho, c.delta));
  }
}

// The bound is negative for a small rho at a large delta; the guarantee is then (0, delta)-DP
// (fuzz_solvers found dpcov_zcdp_epsilon returning -1.46 with DPCOV_OK at the first point).
TEST(ZcdpEpsilon, IsNeverNegative) {
  EXPECT_EQ(privacy::zcdp_epsilon(0x1.8801p-206, 0x1.898bp-1), 0.0);
  EXPECT_EQ(privacy::zcdp_epsilon(1e-6, 0.01), 0.0);
  EXPECT_EQ(privacy::zcdp_epsilon(1e-30, 0.5), 0.0);
  EXPECT_GT(privacy::zcdp_epsilon(1e-6, 1e-6), 0.0);
  for (double rho = 1e-12; rho < 1e4; rho *= 3.7)
    for (double delta = 1e-300; delta < 0.9; delta *= 7.3e3) {
      const double eps = privacy::zcdp_epsilon(rho, delta);
      EXPECT_TRUE(std::isfinite(eps) && eps >= 0.0) << rho << " " << delta << " " << eps;
    }
}

// rho near the largest double: epsilon overflows; a numerical failure, never an infinite epsilon
// with DPCOV_OK (fuzz_solvers found a Dong-Liang-Yi plan whose receipt did that).
TEST(ZcdpEpsilon, FailsWhereEpsilonOverflows) {
  try {
    privacy::zcdp_epsilon(1.7976931348623157e308, 1e-6);
    ADD_FAILURE() << "no failure";
  } catch (const Error &e) {
    EXPECT_EQ(e.status(), dpcov::Status::Numerical);
  }
  EXPECT_TRUE(std::isfinite(privacy::zcdp_epsilon(1e300, 1e-6)));
}

TEST(ZcdpEpsilon, RhoForEpsilonMeetsTheTargetAndIsTight) {
  EXPECT_NEAR(privacy::zcdp_rho_for_epsilon(1.0, 1e-6), 0.024355970359538372796, 1e-12);
  EXPECT_NEAR(privacy::zcdp_rho_for_epsilon(4.0, 1e-6), 0.31106495494083506672, 1e-11);
  EXPECT_LE(privacy::zcdp_epsilon(privacy::zcdp_rho_for_epsilon(4.0, 1e-6), 1e-6), 4.0);
}

TEST(ZcdpEpsilon, RhoForEpsilonGrowsWithEpsilon) {
  // A larger epsilon never buys a smaller rho, also on the plateau at tiny epsilon where the bound
  // is 0 below a rho fixed by delta (a relative stop of the bisection made rho fall by up to 1e-13
  // as epsilon grew there, in about half of all steps of a sweep). Sorted targets log-uniform in
  // [1e-300, 1e3] at four deltas, from a fixed seed; each answer also meets its target. Where no
  // rho > 0 is a double (epsilon^2 / (4 ln(1/delta)) below 2^-1074) the search refuses, and only
  // below every target it answers.
  std::mt19937_64 gen(20261124);
  std::uniform_real_distribution<double> exponent(-300.0, 3.0);
  for (double delta : {1e-6, 1e-10, 0.5, 1e-300}) {
    std::vector<double> targets(60);
    for (double &e : targets) e = std::pow(10.0, exponent(gen));
    std::sort(targets.begin(), targets.end());
    double previous = 0.0;
    for (double epsilon : targets) {
      double rho = 0.0;
      try {
        rho = privacy::zcdp_rho_for_epsilon(epsilon, delta);
      } catch (const Error &e) {
        EXPECT_EQ(previous, 0.0) << "refused epsilon " << epsilon << " above an answered one";
        EXPECT_EQ(e.status(), dpcov::Status::Numerical);
        continue;
      }
      EXPECT_GE(rho, previous) << "epsilon " << epsilon << ", delta " << delta;
      EXPECT_LE(privacy::zcdp_epsilon(rho, delta), epsilon);
      previous = rho;
    }
  }
}

TEST(ZcdpEpsilon, RejectsParametersOutOfRange) {
  EXPECT_THROW(privacy::zcdp_epsilon(0.0, 1e-6), Error);
  EXPECT_THROW(privacy::zcdp_epsilon(NAN, 1e-6), Error);
  EXPECT_THROW(privacy::zcdp_epsilon(1.0, 0.0), Error);
  EXPECT_THROW(privacy::zcdp_epsilon(1.0, 1.0), Error);
  EXPECT_THROW(privacy::zcdp_rho_for_epsilon(-1.0, 1e-6), Error);
  EXPECT_THROW(privacy::zcdp_gaussian_sigma(1.0, INFINITY), Error);
}

TEST(CoinpressConstants, MatchTheAuthorsCode) {
  // gaussian_tailbound(10, 0.1) and noise sd gamma^2 / (n sqrt(rho_i)) of algos.py.
  const double gamma = privacy::coinpress_clip_radius(10, 0.1);
  EXPECT_NEAR(gamma, 4.919575389234751, 1e-14);
  const std::vector<double> split = privacy::coinpress_budget_split(0.5, 3);
  ASSERT_EQ(split.size(), 3u);
  EXPECT_EQ(split[0], 0.0625);
  EXPECT_EQ(split[1], 0.0625);
  EXPECT_EQ(split[2], 0.375);
  const double sigma = privacy::coinpress_step_sigma(gamma, 3000, 0.0625);
  EXPECT_GE(sigma, gamma * gamma / (3000 * 0.25));
  EXPECT_NEAR(sigma, gamma * gamma / (3000 * 0.25), 1e-16);
  EXPECT_NEAR(privacy::coinpress_eta(10, 3000), std::sqrt(10.0 / 3000) + 5.0 / 3000, 1e-16);
  EXPECT_EQ(privacy::coinpress_budget_split(0.5, 1), std::vector<double>{0.5});
  EXPECT_THROW(privacy::coinpress_budget_split(0.5, 0), Error);
  EXPECT_THROW(privacy::coinpress_budget_split(0.5, privacy::kCoinpressMaxSteps + 1), Error);
}

TEST(CoinpressConstants, SharesNeverSumAboveRho) {
  for (double rho : {0.1, 0.3, 0.7, 1.3, 1e-7, 12345.678})
    for (int64_t t = 1; t <= privacy::kCoinpressMaxSteps; ++t) {
      double sum = 0.0;
      for (double s : privacy::coinpress_budget_split(rho, t)) sum += s;  // rounding down too
      EXPECT_LE(sum, rho) << rho << " " << t;
    }
}

// The Mahalanobis error ||L^{-1} S L^{-T} - I||_F for Sigma = L L^T with L diagonal.
double mahalanobis_error(const Matrix &s, const std::vector<double> &scale) {
  double sum = 0.0;
  for (int64_t j = 0; j < s.cols(); ++j)
    for (int64_t i = 0; i < s.rows(); ++i) {
      const double e = s(i, j) / (scale[static_cast<size_t>(i)] * scale[static_cast<size_t>(j)]) -
                       (i == j ? 1.0 : 0.0);
      sum += e * e;
    }
  return std::sqrt(sum);
}

// Rows x = L z, z ~ N(0, I), then rotated by a fixed orthogonal matrix Q (Sigma = Q L^2 Q^T), so
// that Sigma is not diagonal and the whitening transform is not symmetric after the first step.
struct Problem {
  Matrix rows;
  Matrix q;
  std::vector<double> scale;
};

Problem gaussian_rows(int64_t n, int64_t d, double k_max, uint64_t seed) {
  random::Rng rng = random::Rng::from_seed(seed);
  Problem p;
  for (int64_t i = 0; i < d; ++i)
    p.scale.push_back(std::sqrt(1.0 + (k_max - 1.0) * static_cast<double>(i) / static_cast<double>(d)));
  Matrix g(d, d);
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i < d; ++i) g(i, j) = random::standard_normal(rng);
  Matrix sym = linalg::multiply(g, g, linalg::Trans::Yes);
  linalg::symmetrize_from_upper(sym);
  p.q = linalg::eigh(sym).vectors;
  Matrix z(n, d);
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i < n; ++i) z(i, j) = p.scale[static_cast<size_t>(j)] * random::standard_normal(rng);
  p.rows = linalg::multiply(z, p.q, linalg::Trans::No, linalg::Trans::Yes);
  return p;
}

TEST(Coinpress, EstimatesARotatedAnisotropicCovariance) {
  // d = 5, n = 20000, Sigma with eigenvalues in [1, 40], K = 50, rho = 1, t = 3. The non-private
  // error is about d / sqrt(n) = 0.035 and the privacy noise of the last step (sigma ~ 4e-3
  // per entry in whitened units) adds about 0.02; a transposed update (the authors' code outside
  // spherical Sigma) leaves errors of order 1. The bound 0.25 is many standard deviations away.
  const Problem p = gaussian_rows(20000, 5, 40.0, 11);
  mechanisms::CoinpressRequest request;
  request.dim = 5;
  request.n = 20000;
  request.rho = 1.0;
  request.k_bound = 50.0;
  random::Rng rng = random::Rng::from_seed(12);
  const mechanisms::CoinpressRelease release =
      mechanisms::coinpress_release(p.rows.view(), request, rng);
  // Back to the eigenbasis: Q^T Sigma_hat Q should be near diag(scale^2).
  const Matrix rotated = linalg::multiply(linalg::multiply(p.q, release.covariance, linalg::Trans::Yes), p.q);
  EXPECT_LT(mahalanobis_error(rotated, p.scale), 0.25);
  EXPECT_TRUE(release.receipt.seed_fixed);
  for (int64_t j = 0; j < 5; ++j)
    for (int64_t i = 0; i < 5; ++i) EXPECT_EQ(release.covariance(i, j), release.covariance(j, i));
}

TEST(Coinpress, ReleaseReceiptEqualsThePlan) {
  const Problem p = gaussian_rows(500, 3, 1.0, 3);
  mechanisms::CoinpressRequest request;
  request.dim = 3;
  request.n = 500;
  request.rho = 0.5;
  request.k_bound = 10.0;
  random::Rng rng = random::Rng::from_entropy();
  mechanisms::CoinpressReceipt released =
      mechanisms::coinpress_release(p.rows.view(), request, rng).receipt;
  EXPECT_FALSE(released.seed_fixed);
  EXPECT_EQ(released, mechanisms::coinpress_plan(request));
}

// A finite row at the top of the double range is clipped like any other. After the first step
// its whitened product overflowed, and the release failed on a dataset with that row but not on
// its neighbour without it (a data-dependent status, after noise was drawn); where only its norm
// overflowed, the row was dropped. It now releases what a release on the row at 1e3 in the same
// direction (also clipped to gamma) does.
TEST(Coinpress, ClipsFiniteRowsAtTheTopOfTheDoubleRange) {
  Problem reference = gaussian_rows(50, 3, 1.0, 5);
  for (int64_t j = 0; j < 3; ++j) reference.rows(0, j) = 1e3 * (j == 0 ? 1.0 : j == 1 ? -1.0 : 0.5);
  for (const double c : {1e200, 1e308, std::numeric_limits<double>::max()}) {
    Matrix rows = reference.rows;
    for (int64_t j = 0; j < 3; ++j) rows(0, j) = c * (j == 0 ? 1.0 : j == 1 ? -1.0 : 0.5);
    for (const double k : {1.0, 4.0})
      for (const int64_t steps : {2, 3})
        for (uint64_t seed = 0; seed < 10; ++seed) {
          mechanisms::CoinpressRequest request;
          request.dim = 3;
          request.n = 50;
          request.rho = 1.0;
          request.k_bound = k;
          request.steps = steps;
          random::Rng rng = random::Rng::from_seed(seed), same = random::Rng::from_seed(seed);
          const Matrix huge = mechanisms::coinpress_release(rows.view(), request, rng).covariance;
          const Matrix plain =
              mechanisms::coinpress_release(reference.rows.view(), request, same).covariance;
          double scale = 0.0;
          for (int64_t j = 0; j < 3; ++j)
            for (int64_t i = 0; i < 3; ++i) scale = std::max(scale, std::fabs(plain(i, j)));
          for (int64_t j = 0; j < 3; ++j)
            for (int64_t i = 0; i < 3; ++i) EXPECT_NEAR(huge(i, j), plain(i, j), 1e-9 * scale);
        }
  }
}

TEST(Coinpress, RefusesRowsOfTheWrongShapeOrNotFinite) {
  Problem p = gaussian_rows(50, 3, 1.0, 4);
  mechanisms::CoinpressRequest request;
  request.dim = 3;
  request.n = 49;
  request.rho = 0.5;
  request.k_bound = 10.0;
  random::Rng rng = random::Rng::from_seed(1);
  EXPECT_THROW(mechanisms::coinpress_release(p.rows.view(), request, rng), Error);
  request.n = 50;
  p.rows(7, 2) = NAN;
  EXPECT_THROW(mechanisms::coinpress_release(p.rows.view(), request, rng), Error);
  request.k_bound = 0.5;
  EXPECT_THROW(mechanisms::coinpress_plan(request), Error);
}

}  // namespace
