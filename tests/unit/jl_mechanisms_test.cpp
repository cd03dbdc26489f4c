// Sheffet's JL ridge, inverse-Wishart and OLS mechanisms: pinned constants, receipts, the sketch
// accumulator's contracts, the refusal path and the preconditions.
#include <gtest/gtest.h>

#include <cmath>

#include "core/data/sketch.hpp"
#include "core/error.hpp"
#include "core/mechanisms/inverse_wishart.hpp"
#include "core/mechanisms/jl_ridge.hpp"
#include "core/mechanisms/mechanism.hpp"
#include "core/mechanisms/ols_ptr.hpp"
#include "core/mechanisms/projection.hpp"
#include "core/privacy/jl_threshold.hpp"
#include "core/privacy/sigma_min_test.hpp"
#include "core/random/normal.hpp"
#include "dpcov.h"

namespace dpcov::mechanisms {
namespace {

int status_of(const std::function<void()> &f) {
  try {
    f();
  } catch (const Error &e) {
    return static_cast<dpcov_status>(e.status());
  }
  return DPCOV_OK;
}

// Well-spread data A = [X, y]: n rows, Gaussian features, y = X beta + noise, each row scaled to
// norm <= 1 (the generative model of Sheffet's experiments).
Matrix spread_rows(int64_t n, int64_t p, uint64_t seed) {
  random::Rng rng = random::Rng::from_seed(seed);
  Matrix a(n, p + 1);
  for (int64_t i = 0; i < n; ++i) {
    double y = 0.0, norm = 0.0;
    for (int64_t j = 0; j < p; ++j) {
      a(i, j) = random::standard_normal(rng);
      y += 0.5 * a(i, j);
    }
    a(i, p) = y + random::standard_normal(rng);
    for (int64_t j = 0; j <= p; ++j) norm += a(i, j) * a(i, j);
    for (int64_t j = 0; j <= p; ++j) a(i, j) /= std::sqrt(norm) * 1.0000001;
  }
  return a;
}

Matrix gram_of(const Matrix &a) {
  GramAccumulator acc(a.cols());
  acc.add_rows(a.view(), 1.0, BoundPolicy::Clip);
  return acc.matrix();
}

Request request(int64_t d, int64_t n, double eps, double delta, int64_t r = 0, int64_t m = 0) {
  Request q{d, n, 1.0, eps, delta, {}};
  q.options.projection_rows = r;
  q.options.posterior_dof = m;
  return q;
}

TEST(JlConstants, ThresholdMatchesTheWorkedValuesOfConstantsSection5_1) {
  EXPECT_NEAR(privacy::jl_threshold_squared(1, 1, 1e-6, 10), 95.6805, 5e-5);
  EXPECT_NEAR(privacy::jl_threshold_squared(1, 1, 1e-6, 100), 171.0862, 5e-5);
  EXPECT_NEAR(privacy::jl_threshold_squared(1, 1, 1e-6, 1000), 409.5398, 5e-5);
  EXPECT_NEAR(privacy::jl_threshold_squared(1, 0.5, 1e-6, 100), 342.1723, 5e-5);
  EXPECT_NEAR(privacy::jl_threshold_squared(1, 1, 1e-3, 100), 114.6332, 5e-5);
  // Hand check: 2 (sqrt(200 ln 4e6) + 2 ln 4e6) with ln 4e6 = 15.201804919084164.
  EXPECT_NEAR(privacy::jl_threshold_squared(1, 1, 1e-6, 100), 171.08616, 1e-4);
  EXPECT_EQ(privacy::inverse_wishart_prior_squared(1, 1, 1e-6, 100),
            privacy::jl_threshold_squared(1, 1, 1e-6, 100));
}

TEST(JlConstants, OlsConstantsMatchConstantsSection6) {
  const Receipt r = plan_ols_jl(request(11, 10000, 1.0, 1e-6, 100));
  EXPECT_NEAR(r.threshold_w2, 352.689763, 5e-7);
  EXPECT_EQ(r.test_scale, 4.0);
  EXPECT_NEAR(r.test_shift, 55.262042, 5e-7);
  EXPECT_EQ(r.test_epsilon, 0.5);
  EXPECT_EQ(r.test_delta, 5e-7);
  EXPECT_EQ(r.appended_w, 0.0);
}

TEST(JlConstants, PreconditionsAreRefusedWithTheirStatus) {
  EXPECT_EQ(status_of([] { privacy::jl_threshold_squared(1, 1.5, 1e-6, 10); }), DPCOV_E_PRECONDITION);
  EXPECT_EQ(status_of([] { privacy::jl_threshold_squared(1, 0.5, 0.4, 10); }), DPCOV_E_PRECONDITION);
  EXPECT_EQ(status_of([] { privacy::jl_threshold_squared(1, 0.5, 1e-6, 0); }), DPCOV_E_DIMENSION);
  EXPECT_EQ(status_of([] { plan_jl_ridge(request(3, 10, 0.5, 1e-6)); }), DPCOV_E_DIMENSION);
  EXPECT_EQ(status_of([] { plan_inverse_wishart(request(3, 10, 0.5, 1e-6, 0, 2)); }),
            DPCOV_E_PRECONDITION);
  EXPECT_EQ(status_of([] { plan_inverse_wishart(request(3, 10, 0.5, 1e-6, 5, 4)); }),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status_of([] { plan_ols_jl(request(3, 10, 2.5, 1e-6, 5)); }), DPCOV_E_PRECONDITION);
}

// The three mechanisms that run the sigma_min test first hand half of the budget to the release
// step; a refusal of that share must name the epsilon the user passed, not only the share.
TEST(JlConstants, StepRefusalsNameTheRequestedEpsilonAndTheShare) {
  const std::vector<std::function<void()>> plans = {
      [] { plan_ols_jl(request(3, 10, 4.0, 1e-6, 5)); },
      [] { plan_jl_ridge_sigma_min(request(3, 10, 4.0, 1e-6, 5)); },
      [] { plan_inverse_wishart_sigma_min(request(3, 10, 4.0, 1e-6, 0, 5)); }};
  for (const auto &plan : plans) {
    try {
      plan();
      ADD_FAILURE() << "epsilon = 4 was accepted";
    } catch (const Error &e) {
      const std::string message = e.what();
      EXPECT_EQ(static_cast<dpcov_status>(e.status()), DPCOV_E_PRECONDITION);
      EXPECT_NE(message.find("requested epsilon = 4"), std::string::npos) << message;
      EXPECT_NE(message.find("epsilon = 2 of"), std::string::npos) << message;
      EXPECT_NE(message.find("must be <= 2"), std::string::npos) << message;
    }
  }
}

TEST(JlRidge, ReleaseReceiptEqualsThePlanAndTheReleaseIsPositiveSemidefinite) {
  const Matrix g = gram_of(spread_rows(500, 3, 1));
  const Request q = request(4, 500, 1.0, 1e-6, 50);
  random::Rng rng = random::Rng::from_seed(7);
  Release out = release(MechanismId::JlRidge, g.view(), q, rng);
  Receipt planned = plan(MechanismId::JlRidge, q);
  planned.seed_fixed = true;
  planned.generator = Generator::Pcg64;
  EXPECT_EQ(out.receipt, planned);
  EXPECT_GE(out.receipt.appended_w * out.receipt.appended_w, out.receipt.threshold_w2);
  EXPECT_TRUE(std::isfinite(log_density(MechanismId::JlRidge, out.matrix.view(), g.view(), q)));
}

TEST(JlRidge, SigmaMinVariantLowersTheBlockByTheReleasedTestValue) {
  const Matrix g = gram_of(spread_rows(20000, 3, 2));
  const Request q = request(4, 20000, 1.0, 1e-6, 30);
  random::Rng rng = random::Rng::from_seed(8);
  const Release out = release_jl_ridge_sigma_min(g.view(), q, plan_jl_ridge_sigma_min(q), rng);
  const Receipt &r = out.receipt;
  EXPECT_EQ(r.test_epsilon, 0.5);
  EXPECT_EQ(r.appended_w, appended_w_after_test(r.test_value, r.threshold_w2));
  EXPECT_TRUE(r.test_value > 0.0);
  EXPECT_LT(r.appended_w * r.appended_w, r.threshold_w2);
  EXPECT_TRUE(std::isfinite(
      log_density_tested(MechanismId::JlRidgeSigmaMin, out.matrix.view(), r.test_value, g.view(), q)));
  EXPECT_EQ(status_of([&] { log_density(MechanismId::JlRidgeSigmaMin, out.matrix.view(), g.view(), q); }),
            DPCOV_E_INVALID_ARGUMENT);
}

TEST(JlRidge, FromSketchUsesTheAccumulatedWeightsExactly) {
  const Matrix a = spread_rows(300, 2, 3);
  random::Rng generator = random::Rng::from_seed(9);
  SketchAccumulator acc(3, 20, generator);
  acc.add_rows(a.view(), 0, 1.0, BoundPolicy::Clip);
  Options o;
  o.projection_rows = 20;
  random::Rng rng = random::Rng::from_seed(10);
  const SketchRelease out =
      release_jl_ridge_from_sketch(acc, plan_jl_ridge(sketch_request(acc, 1.0, 1e-6, o)), rng);
  const Matrix s = acc.sketch(out.release.receipt.appended_w);
  for (int64_t j = 0; j < 3; ++j)
    for (int64_t i = 0; i < 20; ++i) EXPECT_EQ(out.sketch(i, j), s(i, j));
  EXPECT_EQ(out.release.receipt.n, 300);
  o.projection_rows = 21;
  EXPECT_EQ(status_of([&] { sketch_request(acc, 1.0, 1e-6, o); }),
            DPCOV_E_INCOMPATIBLE);
}

TEST(SketchAccumulator, RefusesReusedRowIndicesAndLeavesItselfUnchanged) {
  const Matrix a = spread_rows(10, 2, 4);
  random::Rng generator = random::Rng::from_seed(1);
  SketchAccumulator acc(3, 5, generator);
  acc.add_rows(a.view(), 100, 1.0, BoundPolicy::Clip);
  const Matrix before = acc.data_sketch();
  EXPECT_EQ(status_of([&] { acc.add_rows(a.view(), 105, 1.0, BoundPolicy::Clip); }),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(status_of([&] { acc.add_rows(a.view(), -1, 1.0, BoundPolicy::Clip); }),
            DPCOV_E_INVALID_ARGUMENT);
  SketchAccumulator other = acc.partial();
  other.add_rows(a.view(), 109, 1.0, BoundPolicy::Clip);
  EXPECT_EQ(status_of([&] { acc.merge(other); }), DPCOV_E_INVALID_ARGUMENT);
  // A second sketch of the same generator has weights of its own (its key drawn from it).
  SketchAccumulator second(3, 5, generator);
  EXPECT_EQ(status_of([&] { acc.merge(second); }), DPCOV_E_INCOMPATIBLE);
  EXPECT_EQ(acc.counts().rows, 10);
  const Matrix after = acc.data_sketch();
  for (int64_t k = 0; k < 15; ++k) EXPECT_EQ(before.data()[k], after.data()[k]);
  acc.add_rows(a.view(), 110, 1.0, BoundPolicy::Clip);  // adjacent range: allowed
  EXPECT_EQ(acc.counts().rows, 20);
}

TEST(OlsJl, RefusesIllConditionedDataAndReleasesNothing) {
  // y is an exact copy of x_0: A = [X, y] is singular, sigma_min(A) = 0.
  Matrix a = spread_rows(5000, 2, 5);
  for (int64_t i = 0; i < a.rows(); ++i) a(i, 2) = a(i, 0);
  const Matrix g = gram_of(a);
  random::Rng rng = random::Rng::from_seed(11);
  solvers::RegressionSpec spec;
  spec.label = 2;
  spec.features = {0, 1};
  EXPECT_EQ(status_of([&] { ols_jl_inference(g.view(), request(3, 5000, 1.0, 1e-6, 50), spec, rng); }),
            DPCOV_E_REFUSED);
}

TEST(OlsJl, PassesOnWellSpreadDataWithRMinusPDegreesOfFreedom) {
  const Matrix g = gram_of(spread_rows(20000, 3, 6));
  random::Rng rng = random::Rng::from_seed(12);
  solvers::RegressionSpec spec;
  spec.label = 3;
  spec.features = {0, 1, 2};
  const OlsInference out = ols_jl_inference(g.view(), request(4, 20000, 1.0, 1e-6, 60), spec, rng);
  EXPECT_TRUE(out.data.release.receipt.test_passed);
  EXPECT_EQ(out.fit.dof, 57);
  EXPECT_TRUE(out.coverage_guarantee);
  EXPECT_EQ(out.reject.size(), 3u);
  EXPECT_EQ(out.data.sketch.rows(), 60);
  EXPECT_EQ(status_of([&] { ols_jl_inference(g.view(), request(4, 20000, 1.0, 1e-6, 3), spec, rng); }),
            DPCOV_E_PRECONDITION);
}

TEST(OlsAnalyzeGauss, IsMarkedWithoutCoverageGuarantee) {
  const Matrix g = gram_of(spread_rows(20000, 3, 7));
  random::Rng rng = random::Rng::from_seed(13);
  solvers::RegressionSpec spec;
  spec.label = 3;
  spec.features = {0, 1, 2};
  const OlsInference out = ols_analyze_gauss_inference(g.view(), request(4, 20000, 1.0, 1e-6), spec, rng);
  EXPECT_FALSE(out.coverage_guarantee);
  EXPECT_EQ(out.fit.dof, 19997);
}

TEST(InverseWishart, ReleaseIsPositiveDefiniteWithAFiniteDensity) {
  const Matrix g = gram_of(spread_rows(1000, 2, 8));
  const Request q = request(3, 1000, 1.0, 1e-6, 0, 20);
  random::Rng rng = random::Rng::from_seed(14);
  const Release out = release(MechanismId::InverseWishart, g.view(), q, rng);
  EXPECT_EQ(out.receipt.dof, 20.0);
  EXPECT_TRUE(std::isfinite(log_density(MechanismId::InverseWishart, out.matrix.view(), g.view(), q)));
  const Release five = release(MechanismId::InverseWishartSigmaMin, g.view(), q, rng);
  EXPECT_TRUE(std::isfinite(log_density_tested(MechanismId::InverseWishartSigmaMin, five.matrix.view(),
                                               five.receipt.test_value, g.view(), q)));
}

TEST(Projection, SecondMomentDensityAgreesWithTheSketchDensityUpToAFunctionOfTheSketch) {
  // For r >= d both densities depend on S only through S^T S; their difference for two sketches
  // with the same M must equal the Wishart formula's difference. Check on M = I: log p(S) =
  // -(rd/2) ln 2pi - tr(S^T S)/2 exactly.
  random::Rng rng = random::Rng::from_seed(15);
  const Matrix s = gaussian_sketch(rng, 6, Matrix::identity(2));
  double trace = 0.0;
  for (int64_t k = 0; k < 12; ++k) trace += s.data()[k] * s.data()[k];
  EXPECT_NEAR(sketch_log_density(s, Matrix::identity(2)), -6.0 * std::log(2.0 * M_PI) - trace / 2.0,
              1e-12);
  EXPECT_EQ(status_of([&] { second_moment_log_density(sketch_second_moment(s).view(), 1, Matrix::identity(2)); }),
            DPCOV_E_PRECONDITION);
}

}  // namespace
}  // namespace dpcov::mechanisms
