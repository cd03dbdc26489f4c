// Wang, Huai, Xu (GlobalSIP 2018): the constants of output perturbation, the two bounds its
// published sensitivity rests on (checked on solved neighbouring pairs), the support miss that makes
// it non-private, and the covariance-perturbation pipeline recovering a sparse graph.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "core/error.hpp"
#include "core/solvers/glasso.hpp"
#include "core/estimators/metrics.hpp"
#include "core/linalg/blas.hpp"
#include "core/mechanisms/glasso_output.hpp"
#include "core/mechanisms/mechanism.hpp"
#include "core/mechanisms/private_glasso.hpp"
#include "core/privacy/glasso_output.hpp"
#include "core/random/samplers.hpp"
#include "dpcov.h"

namespace dpcov::mechanisms {
namespace {

template <class F>
dpcov_status status_of(F &&f) {
  try {
    f();
  } catch (const Error &e) {
    return static_cast<dpcov_status>(e.status());
  }
  return DPCOV_OK;
}

// n rows of d iid uniforms on [-1, 1], scaled into the unit ball (fixed seed).
Matrix unit_ball_rows(int64_t n, int64_t d, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Matrix x(n, d);
  for (int64_t i = 0; i < n; ++i) {
    double norm2 = 0.0;
    for (int64_t j = 0; j < d; ++j) norm2 += (x(i, j) = u(gen)) * x(i, j);
    const double scale = 1.0 / std::max(1.0, std::sqrt(norm2));
    for (int64_t j = 0; j < d; ++j) x(i, j) *= scale;
  }
  return x;
}

Matrix gram_of(const Matrix &x) {
  Matrix g = linalg::multiply(x, x, linalg::Trans::Yes);
  linalg::symmetrize_from_upper(g);
  return g;
}

Matrix scaled(const Matrix &a, double c) {
  Matrix out = a;
  for (int64_t j = 0; j < a.cols(); ++j)
    for (int64_t i = 0; i < a.rows(); ++i) out(i, j) *= c;
  return out;
}

solvers::GlassoResult solve(const Matrix &s, double rho) {
  solvers::GlassoOptions options;
  options.rho = rho;
  options.tol = 1e-10;
  options.max_iter = 10000;
  return solvers::graphical_lasso(s, options, nullptr);
}

Request output_request(int64_t d, int64_t n, double eps, double rho) {
  Request r;
  r.dim = d;
  r.n = n;
  r.bound = 1.0;
  r.epsilon = eps;
  r.options.audit_only_not_private = true;
  r.options.glasso_rho = rho;
  return r;
}

TEST(GlassoOutputConstants, MatchThePublishedFormulaAndWorkedValues) {
  // d^{5/2} / (n eps rho^2) at d = 10, n = 1e4, eps = 1 (constants.md section 7): 10^{2.5} / 100
  // and 10^{2.5} / 2500; the digits are sqrt(10) and sqrt(10) / 25 by hand.
  EXPECT_NEAR(privacy::glasso_output_wishart_scale_not_dp(10, 10000, 1.0, 1.0, 0.1),
              3.1622776601683795, 4e-15);
  EXPECT_NEAR(privacy::glasso_output_wishart_scale_not_dp(10, 10000, 1.0, 1.0, 0.5),
              0.12649110640673517, 2e-16);
  // Rows of norm <= B scale the noise like S, by B^2.
  EXPECT_NEAR(privacy::glasso_output_wishart_scale_not_dp(10, 10000, 3.0, 1.0, 0.5),
              9.0 * 0.12649110640673517, 4e-15);
  EXPECT_EQ(privacy::glasso_output_wishart_dof_not_dp(10), 11.0);
  EXPECT_EQ(privacy::glasso_precision_norm_bound(10, 0.5), 20.0);
  EXPECT_EQ(status_of([] { privacy::glasso_output_wishart_scale_not_dp(10, 0, 1.0, 1.0, 0.1); }),
            DPCOV_E_DIMENSION);
  EXPECT_EQ(status_of([] { privacy::glasso_output_wishart_scale_not_dp(10, 10, 1.0, 1.0, 0.0); }),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status_of([] { privacy::glasso_precision_norm_bound(10, NAN); }), DPCOV_E_NON_FINITE);
}

TEST(GlassoOutputConstants, ScaleIsTheTraceNormSensitivityOverTwoEpsilon) {
  // proofs/glasso_output.md, section 2: sqrt(d) (d / rho)^2 (2 B^2 / n) / (2 eps).
  for (const int64_t d : {1, 5, 20})
    for (const double rho : {0.01, 0.3}) {
      const double beta = privacy::glasso_precision_norm_bound(d, rho);
      const double trace_norm = std::sqrt(static_cast<double>(d)) * beta * beta * 2.0 / 500.0;
      EXPECT_NEAR(privacy::glasso_output_wishart_scale_not_dp(d, 500, 1.0, 0.7, rho),
                  trace_norm / (2.0 * 0.7), 1e-13 * trace_norm);
    }
}

TEST(GlassoPrecisionBounds, L1NormIsAtMostDOverRhoOnSolvedProblems) {
  for (const double rho : {0.005, 0.05, 0.5}) {
    const Matrix s = scaled(gram_of(unit_ball_rows(200, 6, 7)), 1.0 / 200);
    const Matrix theta = solve(s, rho).precision;
    double l1 = 0.0;
    for (int64_t j = 0; j < 6; ++j)
      for (int64_t i = 0; i < 6; ++i) l1 += std::fabs(theta(i, j));
    EXPECT_LE(l1, privacy::glasso_precision_norm_bound(6, rho) * (1.0 + 1e-8)) << rho;
  }
}

TEST(GlassoPrecisionBounds, FrobeniusChangeIsAtMostBetaSquaredTimesTheCovarianceChange) {
  // Replace-one neighbours: row 0 replaced by another row of the unit ball; the strong-convexity
  // bound of proofs/glasso_output.md, step 2, on the exact solutions.
  const int64_t d = 5, n = 40;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    const double rho = seed % 2 == 0 ? 0.02 : 0.2;
    Matrix x = unit_ball_rows(n, d, seed);
    const Matrix s = scaled(gram_of(x), 1.0 / n);
    const Matrix other = unit_ball_rows(1, d, 1000 + seed);
    for (int64_t j = 0; j < d; ++j) x(0, j) = other(0, j);
    const Matrix s_prime = scaled(gram_of(x), 1.0 / n);
    const double change = estimators::frobenius_error(solve(s, rho).precision.view(),
                                                      solve(s_prime, rho).precision.view(), false);
    const double beta = privacy::glasso_precision_norm_bound(d, rho);
    const double bound = beta * beta * estimators::frobenius_error(s.view(), s_prime.view(), false);
    EXPECT_LE(change, bound) << seed;
    EXPECT_GT(change, 0.0) << seed;
  }
}

// The counterexample of proofs/glasso_output.md at d = n = rho = eps = B = 1: D = {0}, D' = {e_1}.
// Theta_D = 1/rho = 1, Theta_D' = 1/(1 + rho) = 1/2, c = 1, and the release under D' falls outside
// the support of D's output (Y < Theta_D) with probability 1 - exp(-1/4).
constexpr double kSupportMissProbability = 0.22119921692859512;  // 1 - exp(-1/4)

// Counts how often D's log-density is -infinity at n_draws releases `draw` makes under D'.
template <class Draw>
int64_t support_misses(int64_t n_draws, Draw draw) {
  const Matrix g_d(1, 1, 0.0);
  int64_t misses = 0;
  for (int64_t t = 0; t < n_draws; ++t) {
    const Matrix y = draw();
    const double log_p = log_density_glasso_output(y.view(), g_d.view(), output_request(1, 1, 1.0, 1.0));
    if (log_p == -std::numeric_limits<double>::infinity()) ++misses;
  }
  return misses;
}

// The count is Binomial(N, p); |count / N - p| <= z sqrt(p (1 - p) / N) with z = 4.892 (two-sided
// normal quantile at alpha = 1e-6; N p > 4000, so the normal approximation is accurate far beyond
// the needed precision).
bool binomial_matches(int64_t count, int64_t n_draws, double p) {
  const double z = 4.892;
  return std::fabs(static_cast<double>(count) / static_cast<double>(n_draws) - p) <=
         z * std::sqrt(p * (1.0 - p) / static_cast<double>(n_draws));
}

TEST(GlassoOutput, SupportMissHasTheProbabilityOfTheCounterexample) {
  const Matrix g_d_prime(1, 1, 1.0);
  const Request request = output_request(1, 1, 1.0, 1.0);
  EXPECT_NEAR(glasso_output_solution(g_d_prime.view(), request).precision(0, 0), 0.5, 1e-12);
  EXPECT_NEAR(glasso_output_solution(Matrix(1, 1, 0.0).view(), request).precision(0, 0), 1.0, 1e-12);
  random::Rng rng = random::Rng::from_seed(2018);
  const int64_t n_draws = 20000;
  const int64_t misses = support_misses(n_draws, [&] {
    const Release r = release_glasso_output(g_d_prime.view(), request, plan_glasso_output(request), rng);
    // The release is always inside the support of its own dataset.
    EXPECT_TRUE(std::isfinite(log_density_glasso_output(r.matrix.view(), g_d_prime.view(), request)));
    return r.matrix;
  });
  EXPECT_TRUE(binomial_matches(misses, n_draws, kSupportMissProbability)) << misses;
}

TEST(GlassoOutput, SupportMissTestRejectsAWrongNoiseScale) {
  // The same count with twice the published scale (miss probability 1 - exp(-1/8)) must fail.
  random::Rng rng = random::Rng::from_seed(2019);
  const int64_t n_draws = 20000;
  const int64_t misses = support_misses(n_draws, [&] {
    Matrix y = random::wishart(rng, 2.0, Matrix(1, 1, 2.0));
    y(0, 0) += 0.5;
    return y;
  });
  EXPECT_FALSE(binomial_matches(misses, n_draws, kSupportMissProbability)) << misses;
}

TEST(GlassoOutput, RefusesWithoutUnlockRhoOrReplaceOne) {
  Request r = output_request(3, 10, 1.0, 0.1);
  EXPECT_TRUE(plan_glasso_output(r).not_dp);
  EXPECT_EQ(plan_glasso_output(r).dof, 4.0);
  r.options.audit_only_not_private = false;
  EXPECT_EQ(status_of([&] { plan_glasso_output(r); }), DPCOV_E_NOT_PRIVATE);
  r = output_request(3, 10, 1.0, 0.0);
  EXPECT_EQ(status_of([&] { plan_glasso_output(r); }), DPCOV_E_INVALID_ARGUMENT);
  r = output_request(3, 10, 1.0, 0.1);
  r.options.neighbour = privacy::Neighbour::AddRemove;
  EXPECT_EQ(status_of([&] { plan_glasso_output(r); }), DPCOV_E_INVALID_ARGUMENT);
  // rho belongs to this mechanism only.
  Request laplace;
  laplace.dim = 3;
  laplace.n = 10;
  laplace.bound = 1.0;
  laplace.epsilon = 1.0;
  laplace.options.glasso_rho = 0.1;
  EXPECT_EQ(status_of([&] { plan(MechanismId::LaplaceSym, laplace); }), DPCOV_E_INVALID_ARGUMENT);
}

// A chain graph: Theta_ii = 1, Theta_{i,i+1} = 0.4 (positive definite: eigenvalues
// 1 + 0.8 cos(k pi / (d + 1)) > 0.2). Rows x ~ N(0, Theta^{-1}) scaled by 1 / (3 sqrt(tr Sigma)) and
// clipped into the unit ball.
struct ChainProblem {
  Matrix truth;
  Matrix gram;
  int64_t n;
};

ChainProblem chain_problem(int64_t d, int64_t n, uint64_t seed) {
  Matrix theta(d, d);
  for (int64_t i = 0; i < d; ++i) {
    theta(i, i) = 1.0;
    if (i + 1 < d) theta(i, i + 1) = theta(i + 1, i) = 0.4;
  }
  Matrix sigma = linalg::spd_inverse(theta);
  linalg::symmetrize_from_upper(sigma);
  Matrix l;
  EXPECT_TRUE(linalg::cholesky(sigma, l));
  double trace = 0.0;
  for (int64_t i = 0; i < d; ++i) trace += sigma(i, i);
  const double scale = 1.0 / (3.0 * std::sqrt(trace));
  std::mt19937_64 gen(seed);
  std::normal_distribution<double> normal;
  Matrix z(n, d);
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i < n; ++i) z(i, j) = normal(gen);
  Matrix x = linalg::multiply(z, l, linalg::Trans::No, linalg::Trans::Yes);
  for (int64_t i = 0; i < n; ++i) {
    double norm2 = 0.0;
    for (int64_t j = 0; j < d; ++j) norm2 += x(i, j) * x(i, j);
    const double shrink = scale / std::max(1.0, scale * std::sqrt(norm2));
    for (int64_t j = 0; j < d; ++j) x(i, j) *= shrink;
  }
  return {theta, gram_of(x), n};
}

TEST(PrivateGlasso, CovariancePerturbationRecoversTheChainAtLargeEpsilon) {
  const ChainProblem p = chain_problem(10, 20000, 5);
  const double rho = 2e-3;
  // The exact graphical lasso finds the chain ...
  const Matrix exact = solve(scaled(p.gram, 1.0 / p.n), rho).precision;
  const estimators::SupportRecovery base =
      estimators::support_recovery(exact.view(), p.truth.view(), 0.0);
  EXPECT_EQ(base.precision, 1.0);
  EXPECT_EQ(base.recall, 1.0);
  // ... and so do the private ones once epsilon is large.
  for (const MechanismId m : {MechanismId::LaplaceSym, MechanismId::AnalyzeGauss}) {
    Request r;
    r.dim = 10;
    r.n = p.n;
    r.bound = 1.0;
    r.epsilon = 50.0;
    r.delta = m == MechanismId::AnalyzeGauss ? 1e-6 : 0.0;
    random::Rng rng = random::Rng::from_seed(11);
    const PrivateGlasso out = private_glasso(m, p.gram.view(), r, rho, {}, rng);
    ASSERT_TRUE(out.has_solve);
    EXPECT_LE(out.solve.kkt_residual, 1e-6);
    const estimators::SupportRecovery s =
        estimators::support_recovery(out.precision.view(), p.truth.view(), 0.0);
    EXPECT_GE(s.precision, 0.9) << mechanism_name(m);
    EXPECT_GE(s.recall, 0.9) << mechanism_name(m);
    EXPECT_EQ(out.receipt.mechanism, m);
  }
}

TEST(PrivateGlasso, OutputPerturbationReturnsTheMechanismRelease) {
  const ChainProblem p = chain_problem(4, 500, 6);
  Request r;
  r.dim = 4;
  r.n = p.n;
  r.bound = 1.0;
  r.epsilon = 1.0;
  r.options.audit_only_not_private = true;
  random::Rng a = random::Rng::from_seed(3);
  random::Rng b = random::Rng::from_seed(3);
  const PrivateGlasso out = private_glasso(MechanismId::GlassoOutputWishart, p.gram.view(), r, 0.05, {}, a);
  r.options.glasso_rho = 0.05;
  const Release direct = release_glasso_output(p.gram.view(), r, plan_glasso_output(r), b);
  EXPECT_FALSE(out.has_solve);
  EXPECT_EQ(estimators::frobenius_error(out.precision.view(), direct.matrix.view(), false), 0.0);
  EXPECT_TRUE(out.receipt.not_dp);
}

TEST(PrivateGlasso, RefusesMechanismsOutsideThePaperAndBadPenalties) {
  Request r;
  r.dim = 3;
  r.n = 10;
  r.bound = 1.0;
  r.epsilon = 1.0;
  EXPECT_EQ(status_of([&] { plan_private_glasso(MechanismId::Iev, r, 0.1); }),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status_of([&] { plan_private_glasso(MechanismId::LaplaceSym, r, 0.0); }),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status_of([&] { plan_private_glasso(MechanismId::LaplaceSym, r, INFINITY); }),
            DPCOV_E_NON_FINITE);
  EXPECT_EQ(status_of([&] { plan_private_glasso(MechanismId::WishartJiang, r, 0.1); }),
            DPCOV_E_NOT_PRIVATE);
  r.n = 0;
  EXPECT_EQ(status_of([&] { plan_private_glasso(MechanismId::LaplaceSym, r, 0.1); }),
            DPCOV_E_DIMENSION);
}

}  // namespace
}  // namespace dpcov::mechanisms
