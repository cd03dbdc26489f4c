// Iterative eigenvector sampling (Amin et al. 2019, Alg. 1) and its Kapralov-Talwar rank-one
// variant: pinned constants (constants.md section 8, worked values), plan/release agreement,
// orthonormal eigenvectors, the deferred rotations against the forward loop, clipping, rank-k,
// the densities the auditor uses, and utility sanity.
// Distributional checks of each step live in tests/statistical, the per-step privacy bound in
// tests/privacy.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

#include "core/error.hpp"
#include "core/linalg/blas.hpp"
#include "core/mechanisms/eigenvector_sampling.hpp"
#include "core/mechanisms/mechanism.hpp"
#include "core/privacy/iev_budget.hpp"
#include "core/random/bingham.hpp"
#include "core/random/bingham_dense.hpp"
#include "core/random/exponential.hpp"
#include "dpcov.h"

namespace dpcov::mechanisms {
namespace {

using privacy::Neighbour;

dpcov_status status_of(const std::function<void()> &f) {
  try {
    f();
  } catch (const Error &e) {
    return static_cast<dpcov_status>(e.status());
  }
  return DPCOV_OK;
}

// The pins of constants.md section 8 are given to 6 decimal places: agree to half a unit of the
// sixth.
void expect_pinned(double value, double pinned) { EXPECT_NEAR(value, pinned, 5e-7); }

Request worked_request() {
  // constants.md worked values: eps = 1, d = 10, n = 1e4, B = 1.
  return Request{10, 10000, 1.0, 1.0, 0.0, Options{}};
}

// n rows of norm <= B in dimension d from a fixed generator; G = A^T A.
Matrix synthetic_gram(int64_t d, int64_t n, double bound, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::normal_distribution<double> normal;
  Matrix a(n, d);
  for (int64_t i = 0; i < n; ++i) {
    double norm2 = 0.0;
    for (int64_t j = 0; j < d; ++j) {
      // Decaying scales give a spread spectrum, as real data do.
      a(i, j) = normal(gen) / static_cast<double>(j + 1);
      norm2 += a(i, j) * a(i, j);
    }
    const double scale = bound * std::min(1.0, 1.0 / std::sqrt(norm2));
    for (int64_t j = 0; j < d; ++j) a(i, j) *= scale;
  }
  Matrix g = linalg::multiply(a, a, linalg::Trans::Yes, linalg::Trans::No);
  linalg::symmetrize_from_upper(g);
  return g;
}

double frobenius_distance(const Matrix &x, const Matrix &y) {
  double s = 0.0;
  for (int64_t j = 0; j < x.cols(); ++j)
    for (int64_t i = 0; i < x.rows(); ++i) s += (x(i, j) - y(i, j)) * (x(i, j) - y(i, j));
  return std::sqrt(s);
}

TEST(IevBudget, WorkedValuesMatchConstantsMdSection8) {
  expect_pinned(privacy::iev_eigenvalue_epsilon(1.0), 0.5);
  expect_pinned(privacy::gram_eigenvalue_l1_sensitivity(Neighbour::ReplaceOne, 1.0), 2.0);
  expect_pinned(privacy::gram_eigenvalue_l1_sensitivity(Neighbour::AddRemove, 1.0), 1.0);
  expect_pinned(privacy::iev_uniform_step_epsilon(1.0, 10), 0.05);
  expect_pinned(privacy::iev_adaptive_tau(4.0, 10, 0.05), 23.965858);
  // Finite down to the smallest beta (ln 20 + 744.44), where 2 steps / beta overflowed.
  EXPECT_NEAR(privacy::iev_adaptive_tau(4.0, 10, std::numeric_limits<double>::denorm_min()),
              4.0 * (std::log(20.0) + 1074.0 * std::numbers::ln2), 1e-9);
  const std::vector<double> lambda_hat{500, 200, 100, 50, 20, 10, 5, 2, 1, 0.5};
  const std::vector<double> split = privacy::iev_adaptive_step_epsilons(lambda_hat, 23.965858, 0.5);
  const double pinned[] = {0.126509, 0.082710, 0.061535, 0.047532, 0.036646,
                           0.032210, 0.029745, 0.028162, 0.027615, 0.027337};
  double sum = 0.0;
  for (size_t i = 0; i < split.size(); ++i) {
    expect_pinned(split[i], pinned[i]);
    sum += split[i];
  }
  EXPECT_LE(sum, 0.5);
  EXPECT_NEAR(sum, 0.5, 1e-15);
}

TEST(IevBudget, BinghamExponentIsAQuarterAsPublishedAndHalfOrOneBySensitivity) {
  using privacy::BinghamExponent;
  // eps_i = 0.05, B = 2: eps_i / (4 B^2) = 0.003125; eps_i / (2 B^2) and eps_i / B^2.
  expect_pinned(privacy::bingham_exponent(BinghamExponent::Published, Neighbour::ReplaceOne, 0.05, 2.0), 0.003125);
  expect_pinned(privacy::bingham_exponent(BinghamExponent::Published, Neighbour::AddRemove, 0.05, 2.0), 0.003125);
  expect_pinned(privacy::bingham_exponent(BinghamExponent::Sensitivity, Neighbour::ReplaceOne, 0.05, 2.0), 0.00625);
  expect_pinned(privacy::bingham_exponent(BinghamExponent::Sensitivity, Neighbour::AddRemove, 0.05, 2.0), 0.0125);
  // The step privacy of each exponent: the published one spends half (replace) or a quarter
  // (add/remove) of eps_i, the sensitivity one all of it.
  expect_pinned(privacy::bingham_step_epsilon(Neighbour::ReplaceOne, 0.003125, 2.0), 0.025);
  expect_pinned(privacy::bingham_step_epsilon(Neighbour::AddRemove, 0.003125, 2.0), 0.0125);
  expect_pinned(privacy::bingham_step_epsilon(Neighbour::ReplaceOne, 0.00625, 2.0), 0.05);
  expect_pinned(privacy::bingham_step_epsilon(Neighbour::AddRemove, 0.0125, 2.0), 0.05);
}

TEST(IevBudget, RoundsSharesDownAndNeverSpendsMoreThanEpsilon) {
  // 1/3 is not a double: each half and share rounds down.
  const double eps = 1.0 / 3.0;
  EXPECT_LE(privacy::iev_eigenvalue_epsilon(eps) + privacy::iev_eigenvector_epsilon(eps), eps);
  EXPECT_LE(7.0 * privacy::iev_uniform_step_epsilon(eps, 7), eps / 2.0);
  const double kappa = privacy::bingham_exponent(privacy::BinghamExponent::Published,
                                                 Neighbour::ReplaceOne, 0.1, 3.0);
  EXPECT_LE(kappa * 36.0, 0.1);
}

TEST(IevBudget, AdaptiveSplitCountsNegativeWeightsAsZeroAndFallsBackToUniform) {
  const std::vector<double> some_negative{10.0, -100.0};
  const std::vector<double> split = privacy::iev_adaptive_step_epsilons(some_negative, 6.0, 1.0);
  EXPECT_EQ(split[1], 0.0);
  EXPECT_NEAR(split[0], 1.0, 1e-15);
  const std::vector<double> all_negative{-10.0, -100.0};
  const std::vector<double> uniform = privacy::iev_adaptive_step_epsilons(all_negative, 1.0, 1.0);
  EXPECT_EQ(uniform[0], 0.5);
  EXPECT_EQ(uniform[1], 0.5);
}

TEST(IevBudget, RejectsOutOfRangeArguments) {
  EXPECT_EQ(status_of([] { privacy::iev_uniform_step_epsilon(1.0, 0); }), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status_of([] { privacy::iev_adaptive_tau(4.0, 10, 1.0); }), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status_of([] { privacy::iev_adaptive_tau(4.0, 10, 0.0); }), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status_of([] { privacy::iev_adaptive_step_epsilons({}, 1.0, 1.0); }),
            DPCOV_E_INVALID_ARGUMENT);
  const std::vector<double> nan{NAN};
  EXPECT_EQ(status_of([&] { privacy::iev_adaptive_step_epsilons(nan, 1.0, 1.0); }), DPCOV_E_NON_FINITE);
}

// The paper's configuration, by name (the default is the adaptive split with the sensitivity
// exponent, below).
TEST(IevPlan, RecordsEveryConstantOfTheUniformSplit) {
  Request request = worked_request();
  request.options.budget_split = BudgetSplit::Uniform;
  request.options.calibration = Calibration::BinghamPublished;
  const Receipt r = plan(MechanismId::Iev, request);
  EXPECT_EQ(r.mechanism, MechanismId::Iev);
  EXPECT_EQ(r.calibration, Calibration::BinghamPublished);
  EXPECT_EQ(r.budget_split, BudgetSplit::Uniform);
  EXPECT_EQ(r.sensitivity_norm, SensitivityNorm::L1);
  EXPECT_EQ(r.rank, 10);
  EXPECT_EQ(r.delta, 0.0);
  expect_pinned(r.sensitivity, 2.0);
  expect_pinned(r.epsilon_eigenvalues, 0.5);
  expect_pinned(r.scale, 4.0);
  expect_pinned(r.epsilon_step, 0.05);
  expect_pinned(r.exponent_factor, 0.25);
  expect_pinned(r.clip_upper, 10000.0);
  EXPECT_EQ(r.beta, 0.0);
  EXPECT_EQ(r.tau, 0.0);
  EXPECT_EQ(r.bingham_proposals, 0);
}

TEST(IevPlan, DefaultsToTheAdaptiveSplitWithTheSensitivityExponent) {
  const Receipt r = plan(MechanismId::Iev, worked_request());
  EXPECT_EQ(r.budget_split, BudgetSplit::Adaptive);
  EXPECT_EQ(r.calibration, Calibration::BinghamSensitivity);
  expect_pinned(r.exponent_factor, 0.5);
  expect_pinned(r.beta, 0.05);
  const Receipt kt = plan(MechanismId::KtRank1, worked_request());
  EXPECT_EQ(kt.budget_split, BudgetSplit::Uniform);
  EXPECT_EQ(kt.calibration, Calibration::BinghamPublished);
}

TEST(IevPlan, RecordsTauAndBetaOfTheAdaptiveSplit) {
  Request request = worked_request();
  request.options.budget_split = BudgetSplit::Adaptive;
  const Receipt r = plan(MechanismId::Iev, request);
  EXPECT_EQ(r.budget_split, BudgetSplit::Adaptive);
  expect_pinned(r.beta, 0.05);
  expect_pinned(r.tau, 23.965858);
  EXPECT_EQ(r.epsilon_step, 0.0);
  request.options.beta = 0.01;
  expect_pinned(plan(MechanismId::Iev, request).tau, 4.0 * std::log(2000.0));
}

TEST(IevPlan, AddRemoveHalvesTheScaleAndDropsTheUpperClip) {
  Request request = worked_request();
  request.options.neighbour = Neighbour::AddRemove;
  request.options.calibration = Calibration::BinghamSensitivity;
  const Receipt r = plan(MechanismId::KtRank1, request);
  expect_pinned(r.scale, 2.0);
  expect_pinned(r.exponent_factor, 1.0);
  EXPECT_EQ(r.clip_upper, std::numeric_limits<double>::infinity());
}

TEST(IevPlan, RankKSplitsOverKSteps) {
  Request request = worked_request();
  request.options.rank = 4;
  request.options.budget_split = BudgetSplit::Uniform;
  const Receipt r = plan(MechanismId::Iev, request);
  EXPECT_EQ(r.rank, 4);
  expect_pinned(r.epsilon_step, 0.125);
  expect_pinned(r.scale, 4.0);
}

TEST(IevPlan, RejectsOptionsOutOfRange) {
  Request request = worked_request();
  request.options.rank = 11;
  EXPECT_EQ(status_of([&] { plan(MechanismId::Iev, request); }), DPCOV_E_INVALID_ARGUMENT);
  request.options.rank = -1;
  EXPECT_EQ(status_of([&] { plan(MechanismId::Iev, request); }), DPCOV_E_INVALID_ARGUMENT);
  request.options.rank = 0;
  request.options.budget_split = BudgetSplit::Uniform;
  request.options.beta = 0.1;  // beta without the adaptive split
  EXPECT_EQ(status_of([&] { plan(MechanismId::Iev, request); }), DPCOV_E_INVALID_ARGUMENT);
  request.options.budget_split = BudgetSplit::Adaptive;
  request.options.beta = 1.5;
  EXPECT_EQ(status_of([&] { plan(MechanismId::Iev, request); }), DPCOV_E_INVALID_ARGUMENT);
  request.options.beta = 0.0;
  request.options.calibration = Calibration::AnalyticGaussian;
  EXPECT_EQ(status_of([&] { plan(MechanismId::Iev, request); }), DPCOV_E_INVALID_ARGUMENT);
  // The eigenvector options do not apply to other mechanisms, nor the Bingham calibrations.
  Request other = worked_request();
  other.options.rank = 3;
  EXPECT_EQ(status_of([&] { plan(MechanismId::LaplaceSym, other); }), DPCOV_E_INVALID_ARGUMENT);
  other.options.rank = 0;
  other.options.calibration = Calibration::BinghamPublished;
  EXPECT_EQ(status_of([&] { plan(MechanismId::LaplaceSym, other); }), DPCOV_E_INVALID_ARGUMENT);
}

class EigenvectorReleaseTest : public ::testing::TestWithParam<MechanismId> {};

TEST_P(EigenvectorReleaseTest, ReceiptEqualsThePlanExceptSeedAndSamplingCounts) {
  const Matrix g = synthetic_gram(6, 50, 1.0, 1);
  Request request{6, 50, 1.0, 1.0, 0.0, Options{}};
  request.options.budget_split = BudgetSplit::Adaptive;
  random::Rng rng = random::Rng::from_seed(3);
  const Release out = release(GetParam(), g.view(), request, rng);
  Receipt planned = plan(GetParam(), request);
  EXPECT_GE(out.receipt.bingham_proposals, 6);
  EXPECT_EQ(out.receipt.bingham_rejections, out.receipt.bingham_proposals - 6);
  planned.seed_fixed = out.receipt.seed_fixed;
  planned.generator = out.receipt.generator;
  planned.bingham_proposals = out.receipt.bingham_proposals;
  planned.bingham_rejections = out.receipt.bingham_rejections;
  EXPECT_EQ(out.receipt, planned);
  EXPECT_TRUE(out.receipt.seed_fixed);
}

TEST_P(EigenvectorReleaseTest, IsSymmetricPsdWithSpectrumInsideTheClip) {
  const int64_t d = 8, n = 30;
  const Matrix g = synthetic_gram(d, n, 1.0, 2);
  const Request request{d, n, 1.0, 0.3, 0.0, Options{}};
  random::Rng rng = random::Rng::from_seed(4);
  const Release out = release(GetParam(), g.view(), request, rng);
  for (int64_t i = 0; i < d; ++i)
    for (int64_t j = 0; j < d; ++j) EXPECT_EQ(out.matrix(i, j), out.matrix(j, i));
  const std::vector<double> values = linalg::eigvalsh(out.matrix);
  const double scale = static_cast<double>(n);
  EXPECT_GE(values.front(), -1e-12 * scale);
  EXPECT_LE(values.back(), scale * (1.0 + 1e-12));
}

TEST_P(EigenvectorReleaseTest, IsReproducibleFromASeed) {
  const Matrix g = synthetic_gram(5, 40, 1.0, 5);
  const Request request{5, 40, 1.0, 1.0, 0.0, Options{}};
  random::Rng a = random::Rng::from_seed(9), b = random::Rng::from_seed(9);
  EXPECT_EQ(frobenius_distance(release(GetParam(), g.view(), request, a).matrix,
                               release(GetParam(), g.view(), request, b).matrix),
            0.0);
}

TEST_P(EigenvectorReleaseTest, HasNoClosedFormDensity) {
  const Matrix g = synthetic_gram(3, 10, 1.0, 6);
  const Request request{3, 10, 1.0, 1.0, 0.0, Options{}};
  EXPECT_EQ(status_of([&] { log_density(GetParam(), g.view(), g.view(), request); }),
            DPCOV_E_INVALID_ARGUMENT);
}

INSTANTIATE_TEST_SUITE_P(IevAndKt, EigenvectorReleaseTest,
                         ::testing::Values(MechanismId::Iev, MechanismId::KtRank1),
                         [](const auto &param_info) { return std::string(mechanism_name(param_info.param)); });

TEST(IevRelease, ThetasAreOrthonormalTo1e10) {
  for (int64_t d : {1, 2, 7, 40, 120}) {
    const Matrix g = synthetic_gram(d, 3 * d, 1.0, static_cast<uint64_t>(d));
    const Request request{d, 3 * d, 1.0, 2.0, 0.0, Options{}};
    random::Rng rng = random::Rng::from_seed(static_cast<uint64_t>(d));
    const EigenvectorRelease out = release_eigenvector_sampling(MechanismId::Iev, g.view(), request,
                                                                 plan_eigenvector_sampling(MechanismId::Iev, request), rng);
    const Matrix gram = linalg::multiply(out.transcript.thetas, out.transcript.thetas,
                                         linalg::Trans::Yes, linalg::Trans::No);
    double worst = 0.0;
    for (int64_t i = 0; i < d; ++i)
      for (int64_t j = 0; j < d; ++j) worst = std::max(worst, std::fabs(gram(i, j) - (i == j)));
    EXPECT_LE(worst, 1e-10) << "d = " << d;
  }
}

TEST(IevRelease, ThetasAreOrthonormalForARankDeficientGram) {
  // n < d: most eigenvalues are 0 up to roundoff (a (d - n)-fold cluster at the bottom).
  const int64_t d = 30, n = 4;
  const Matrix g = synthetic_gram(d, n, 1.0, 11);
  const Request request{d, n, 1.0, 5.0, 0.0, Options{}};
  random::Rng rng = random::Rng::from_seed(12);
  const EigenvectorRelease out = release_eigenvector_sampling(MechanismId::Iev, g.view(), request,
                                                                 plan_eigenvector_sampling(MechanismId::Iev, request), rng);
  const Matrix gram = linalg::multiply(out.transcript.thetas, out.transcript.thetas,
                                       linalg::Trans::Yes, linalg::Trans::No);
  for (int64_t i = 0; i < d; ++i)
    for (int64_t j = 0; j < d; ++j) EXPECT_NEAR(gram(i, j), i == j ? 1.0 : 0.0, 1e-10);
}

TEST(IevRelease, RankKReleaseHasRankAtMostK) {
  const int64_t d = 9;
  const Matrix g = synthetic_gram(d, 60, 1.0, 13);
  Request request{d, 60, 1.0, 1.0, 0.0, Options{}};
  request.options.rank = 3;
  random::Rng rng = random::Rng::from_seed(14);
  const EigenvectorRelease out = release_eigenvector_sampling(MechanismId::Iev, g.view(), request,
                                                                 plan_eigenvector_sampling(MechanismId::Iev, request), rng);
  EXPECT_EQ(out.transcript.thetas.cols(), 3);
  EXPECT_EQ(out.transcript.lambda_hat.size(), 3u);
  const std::vector<double> values = linalg::eigvalsh(out.release.matrix);
  for (int64_t i = 0; i < d - 3; ++i) EXPECT_NEAR(values[static_cast<size_t>(i)], 0.0, 1e-10);
}

TEST(IevRelease, TranscriptRebuildsTheReleaseAndRecordsTheSplit) {
  const int64_t d = 6;
  const Matrix g = synthetic_gram(d, 200, 1.0, 15);
  Request request{d, 200, 1.0, 1.0, 0.0, Options{}};
  request.options.budget_split = BudgetSplit::Adaptive;
  request.options.calibration = Calibration::BinghamPublished;
  random::Rng rng = random::Rng::from_seed(16);
  const EigenvectorRelease out = release_eigenvector_sampling(MechanismId::Iev, g.view(), request,
                                                                 plan_eigenvector_sampling(MechanismId::Iev, request), rng);
  const EigenvectorTranscript &t = out.transcript;
  const std::vector<double> split = privacy::iev_adaptive_step_epsilons(
      t.lambda_hat, out.release.receipt.tau, privacy::iev_eigenvector_epsilon(1.0));
  EXPECT_EQ(t.step_epsilons, split);
  Matrix rebuilt(d, d);
  for (int64_t k = 0; k < d; ++k) {
    const double l = std::clamp(t.lambda_hat[static_cast<size_t>(k)], 0.0, 200.0);
    EXPECT_EQ(t.kappas[static_cast<size_t>(k)], privacy::bingham_exponent(
        privacy::BinghamExponent::Published, Neighbour::ReplaceOne, split[static_cast<size_t>(k)], 1.0));
    for (int64_t i = 0; i < d; ++i)
      for (int64_t j = 0; j < d; ++j) rebuilt(i, j) += l * t.thetas(i, k) * t.thetas(j, k);
  }
  EXPECT_LE(frobenius_distance(rebuilt, out.release.matrix), 1e-10 * 200.0);
}

// IEV compresses C_i in place by Householder reflections and forms the thetas from their product;
// KT updates C_i in place. Against plain forward loops fed the same generator (IEV: an explicit
// orthonormal basis B_i of the complement, C_i = B_i^T G B_i formed anew each step; KT: C_i formed
// anew from G and the earlier draws): the same draws in the same order, thetas that differ by
// rounding (a small multiple of d eps times the spectrum's spread; 1e-10 allowed).
constexpr double kForwardTolerance = 1e-10;

// IEV's reference: C_i = B_i^T G B_i from an explicit basis, theta_i = B_i y_i, then
// B_{i+1} = B_i H_i without H_i's first column (H_i y_i = +-e_0).
Matrix forward_projected_thetas(const Matrix &g, const EigenvectorTranscript &t,
                                random::Rng &rng) {
  const int64_t d = g.rows(), steps = t.thetas.cols();
  Matrix basis = Matrix::identity(d), thetas(d, steps);
  random::DenseBinghamSampler sampler;
  for (int64_t i = 0; i < steps; ++i) {
    const size_t ui = static_cast<size_t>(i);
    const int64_t q = d - i;
    const Matrix gb = linalg::multiply(g, basis);
    const Matrix c = linalg::multiply(basis, gb, linalg::Trans::Yes);
    std::vector<double> y(static_cast<size_t>(q));
    EXPECT_EQ(sampler.sample(rng, q, c.data(), q, t.kappas[ui], y.data()), t.proposals[ui]);
    for (int64_t r = 0; r < d; ++r) {
      double sum = 0.0;
      for (int64_t k = 0; k < q; ++k) sum += basis(r, k) * y[static_cast<size_t>(k)];
      thetas(r, i) = sum;
    }
    if (i + 1 == steps) break;
    std::vector<double> v = y;
    const double tau = linalg::householder_reflector(q, v.data());
    v[0] = 1.0;
    Matrix next(d, q - 1);
    for (int64_t k = 1; k < q; ++k)
      for (int64_t r = 0; r < d; ++r) {
        double sum = basis(r, k);
        for (int64_t l = 0; l < q; ++l)
          sum -= tau * basis(r, l) * v[static_cast<size_t>(l)] * v[static_cast<size_t>(k)];
        next(r, k - 1) = sum;
      }
    basis = std::move(next);
  }
  return thetas;
}

// KT's reference: C_i formed anew each step from G and the earlier draws, every draw on the whole
// sphere.
Matrix forward_deflated_thetas(const Matrix &g, const EigenvectorTranscript &t, random::Rng &rng) {
  const int64_t d = g.rows(), steps = t.thetas.cols();
  Matrix thetas(d, steps);
  random::DenseBinghamSampler sampler;
  for (int64_t i = 0; i < steps; ++i) {
    const size_t ui = static_cast<size_t>(i);
    Matrix c = g;
    for (int64_t j = 0; j < i; ++j)
      for (int64_t b = 0; b < d; ++b)
        for (int64_t a = 0; a < d; ++a)
          c(a, b) -= t.lambda_hat[static_cast<size_t>(j)] * thetas(a, j) * thetas(b, j);
    EXPECT_EQ(sampler.sample(rng, d, c.data(), d, t.kappas[ui], &thetas(0, i)), t.proposals[ui]);
  }
  return thetas;
}

// The release's draws replayed: the eigenvalue noise first (the same generator words), then the
// mechanism's steps.
Matrix forward_thetas(MechanismId mechanism, const Matrix &g, const EigenvectorTranscript &t,
                      double scale, random::Rng &rng) {
  const int64_t steps = t.thetas.cols();
  std::vector<double> mu = linalg::eigvalsh(g);  // as the release
  std::reverse(mu.begin(), mu.end());
  for (int64_t i = 0; i < steps; ++i) {
    const size_t ui = static_cast<size_t>(i);
    EXPECT_NEAR(t.lambda_hat[ui], mu[ui] + random::laplace(rng, scale),
                1e-12 * (1.0 + std::fabs(mu[0])));
  }
  return mechanism == MechanismId::Iev ? forward_projected_thetas(g, t, rng)
                                       : forward_deflated_thetas(g, t, rng);
}

struct LoopCase {
  int64_t d, n, rank;
};

class ForwardLoop : public ::testing::TestWithParam<MechanismId> {};

TEST_P(ForwardLoop, GivesTheThetasOfTheRelease) {
  const MechanismId mechanism = GetParam();
  // n < d (d = 30, n = 4) leaves a cluster of zero eigenvalues.
  const LoopCase cases[] = {{1, 5, 0},   {2, 20, 0},   {7, 70, 0},      {7, 70, 3},
                                {30, 4, 0},  {40, 400, 0}, {120, 1200, 0},  {120, 1200, 5}};
  uint64_t seed = 1;
  for (const LoopCase &c : cases) {
    const Matrix g = synthetic_gram(c.d, c.n, 1.0, ++seed);
    Request request{c.d, c.n, 1.0, 2.0, 0.0, Options{}};
    request.options.rank = c.rank;
    const Receipt planned = plan_eigenvector_sampling(mechanism, request);
    random::Rng rng = random::Rng::from_seed(seed), again = random::Rng::from_seed(seed);
    const EigenvectorRelease out =
        release_eigenvector_sampling(mechanism, g.view(), request, planned, rng);
    const Matrix forward = forward_thetas(mechanism, g, out.transcript, planned.scale, again);
    const double scale = 1.0 + std::fabs(out.transcript.lambda_hat[0]);
    EXPECT_LE(frobenius_distance(out.transcript.thetas, forward), kForwardTolerance * scale)
        << "d = " << c.d << ", n = " << c.n << ", rank = " << c.rank;
  }
}

INSTANTIATE_TEST_SUITE_P(IevAndKt, ForwardLoop,
                         ::testing::Values(MechanismId::Iev, MechanismId::KtRank1),
                         [](const auto &param_info) {
                           return std::string(mechanism_name(param_info.param));
                         });

TEST(IevDensities, EigenvaluePartIsTheLaplaceDensityAroundTheTrueSpectrum) {
  const int64_t d = 3;
  Matrix g(d, d);
  g(0, 0) = 5.0;
  g(1, 1) = 3.0;
  g(2, 2) = 1.0;
  const Request request{d, 10, 1.0, 1.0, 0.0, Options{}};  // b = 2 B^2 / 0.5 = 4
  const std::vector<double> lambda_hat{6.0, 3.0, -1.0};
  const double expected = -(1.0 + 0.0 + 2.0) / 4.0 - 3.0 * std::log(8.0);
  EXPECT_NEAR(eigenvalue_log_density(MechanismId::Iev, lambda_hat, g.view(), request), expected, 1e-14);
}

TEST(IevDensities, StepDensityIsKappaTimesTheScoreAndChecksOrthogonality) {
  const int64_t d = 3;
  Matrix g(d, d);
  g(0, 0) = 5.0;
  g(1, 1) = 3.0;
  g(2, 2) = 1.0;
  EigenvectorTranscript t;
  t.lambda_hat = {4.0, 3.0, 1.0};
  t.kappas = {0.5, 0.25, 0.125};
  t.thetas = Matrix(d, d);
  t.thetas(0, 0) = 1.0;
  const double e2[] = {0.0, 1.0, 0.0};
  const double diagonal[] = {std::sqrt(0.5), std::sqrt(0.5), 0.0};
  EXPECT_DOUBLE_EQ(step_log_unnormalised_density(MechanismId::Iev, g.view(), t, 1, e2), 0.25 * 3.0);
  EXPECT_EQ(status_of([&] { step_log_unnormalised_density(MechanismId::Iev, g.view(), t, 1, diagonal); }),
            DPCOV_E_INVALID_ARGUMENT);
  // KT: C_2 = G - 4 e1 e1^T, so the score at (e1 + e2)/sqrt 2 is (5 - 4 + 3) / 2 = 2.
  EXPECT_DOUBLE_EQ(step_log_unnormalised_density(MechanismId::KtRank1, g.view(), t, 1, diagonal),
                   0.25 * 2.0);
}

// Utility sanity on a fixed synthetic dataset: the mean normalised Frobenius error falls as
// epsilon grows (averaged over 20 seeds; a sanity check, not a statistical claim). The comparison
// with the baselines on real data is iev_wine_test.cpp.
double mean_error(MechanismId id, const Matrix &g, const Request &request, int repeats) {
  double sum = 0.0;
  for (int r = 0; r < repeats; ++r) {
    random::Rng rng = random::Rng::from_seed(1000 + static_cast<uint64_t>(r));
    const Release out = release(id, g.view(), request, rng);
    sum += frobenius_distance(out.matrix, g) / frobenius_distance(g, Matrix(g.rows(), g.cols()));
  }
  return sum / repeats;
}

TEST(IevUtility, ErrorFallsAsEpsilonGrows) {
  const int64_t d = 10, n = 500;
  const Matrix g = synthetic_gram(d, n, 1.0, 17);
  for (MechanismId id : {MechanismId::Iev, MechanismId::KtRank1}) {
    double previous = std::numeric_limits<double>::infinity();
    for (double eps : {0.1, 0.5, 2.0, 8.0}) {
      const double error = mean_error(id, g, Request{d, n, 1.0, eps, 0.0, Options{}}, 20);
      EXPECT_LT(error, previous) << mechanism_name(id) << " at eps " << eps;
      previous = error;
    }
  }
}

}  // namespace
}  // namespace dpcov::mechanisms
