// Sheffet's JL mechanisms and private OLS against exact laws (constants.md sections 5.1, 6).
//  - S^T S ~ W_d(r, M), M = G + w^2 I, for fixed data: the trace law tr(M^{-1} S^T S) ~ chi2_{rd}
//    (KS) and the mean E[S^T S / r] = M (z-tests), both from the Gram path and from the sketch
//    accumulator (a fresh generator key per repetition);
//  - OLS by projection: t~_j = (beta~_j - beta_hat_j) / se~_j ~ T_{r-p} exactly (KS), so the
//    intervals cover beta_hat_j with probability exactly 0.95 (binomial test), for fixed data.
// Each check is also run on a deliberately wrong sampler (a mis-scaled covariance, or a ridge
// block left in the OLS projection) and must reject it.
// alpha = 1e-6 per assertion; 8 assertions on correct samplers: family-wise false-failure rate
// <= 8e-6 (Bonferroni).
#include <gtest/gtest.h>

#include <boost/math/distributions/binomial.hpp>

#include <cmath>

#include "core/data/sketch.hpp"
#include "core/solvers/regression.hpp"
#include "core/math/student_t.hpp"
#include "core/linalg/blas.hpp"
#include "core/mechanisms/jl_ridge.hpp"
#include "core/mechanisms/ols_ptr.hpp"
#include "core/mechanisms/projection.hpp"
#include "core/random/normal.hpp"
#include "stat_support.hpp"

namespace dpcov::mechanisms {
namespace {

// n rows of A = [X, y], y = X beta + e with Gaussian X and e, each row scaled to norm <= 1.
Matrix model_rows(int64_t n, int64_t p, random::Rng &rng) {
  Matrix a(n, p + 1);
  for (int64_t i = 0; i < n; ++i) {
    double y = 0.0, norm = 0.0;
    for (int64_t j = 0; j < p; ++j) {
      a(i, j) = random::standard_normal(rng);
      y += (j % 2 == 0 ? 0.5 : -0.25) * a(i, j);
    }
    a(i, p) = y + random::standard_normal(rng);
    for (int64_t j = 0; j <= p; ++j) norm += a(i, j) * a(i, j);
    const double scale = std::sqrt(norm) > 1.0 ? 1.0 / (std::sqrt(norm) * 1.000001) : 1.0;
    for (int64_t j = 0; j <= p; ++j) a(i, j) *= scale;
  }
  return a;
}

Matrix gram_of(const Matrix &a) {
  GramAccumulator acc(a.cols());
  acc.add_rows(a.view(), 1.0, BoundPolicy::Clip);
  return acc.matrix();
}

double chi2_cdf(double k, double x) {
  return boost::math::cdf(boost::math::chi_squared(k), x);
}

// tr(M^{-1} S^T S) for a sketch S.
double trace_statistic(const Matrix &s, const Matrix &m_inverse) {
  const Matrix sts = linalg::multiply(s, s, linalg::Trans::Yes, linalg::Trans::No);
  double t = 0.0;
  for (int64_t i = 0; i < sts.rows(); ++i)
    for (int64_t j = 0; j < sts.cols(); ++j) t += m_inverse(i, j) * sts(j, i);
  return t;
}

constexpr int64_t kD = 3, kR = 5;

struct JlSetup {
  Matrix a, g, m;
  Request request;
};

JlSetup jl_setup() {
  random::Rng rng = random::Rng::from_seed(2026);
  JlSetup s{model_rows(200, kD - 1, rng), Matrix(), Matrix(), Request{kD, 200, 1.0, 1.0, 1e-6, {}}};
  s.g = gram_of(s.a);
  s.request.options.projection_rows = kR;
  const Receipt r = plan_jl_ridge(s.request);
  s.m = add_ridge(s.g.view(), r.appended_w * r.appended_w);
  return s;
}

// Trace law of sketches drawn by `draw`, checked against chi2_{rd} under the correct M.
stat::Verdict trace_law(const JlSetup &s, const std::function<Matrix(int64_t)> &draw,
                        const std::string &what) {
  const Matrix m_inverse = linalg::spd_inverse(s.m);
  std::vector<double> t;
  const int64_t reps = stat::scaled(4000);
  for (int64_t k = 0; k < reps; ++k) t.push_back(trace_statistic(draw(k), m_inverse));
  return stat::ks_one_sample(t, [](double x) { return chi2_cdf(kR * kD, x); }, what);
}

TEST(JlStatistical, GramPathSketchFollowsTheWishartTraceLaw) {
  const JlSetup s = jl_setup();
  random::Rng rng = random::Rng::from_seed(1);
  EXPECT_TRUE(trace_law(s, [&](int64_t) {
    return release_jl_ridge_sketch(s.g.view(), s.request, plan_jl_ridge(s.request), rng).sketch;
  }, "gram path trace law").pass);
  Matrix wrong = s.m;
  for (int64_t i = 0; i < kD; ++i) wrong(i, i) *= 1.15;
  EXPECT_FALSE(trace_law(s, [&](int64_t) { return gaussian_sketch(rng, kR, wrong); },
                         "mutant: diagonal scaled by 1.15").pass);
}

TEST(JlStatistical, AccumulatedSketchFollowsTheWishartTraceLaw) {
  const JlSetup s = jl_setup();
  const double w = plan_jl_ridge(s.request).appended_w;
  EXPECT_TRUE(trace_law(s, [&](int64_t k) {
    random::Rng generator = random::Rng::from_seed(1000 + static_cast<uint64_t>(k));
    SketchAccumulator acc(kD, kR, generator);
    acc.add_rows(s.a.view().row_block(0, 77), 0, 1.0, BoundPolicy::Clip);
    acc.add_rows(s.a.view().row_block(77, 123), 77, 1.0, BoundPolicy::Clip);
    return acc.sketch(w);
  }, "accumulator trace law").pass);
  // Mutant: the block appended with 0.8 w instead of w.
  EXPECT_FALSE(trace_law(s, [&](int64_t k) {
    random::Rng generator = random::Rng::from_seed(5000 + static_cast<uint64_t>(k));
    SketchAccumulator acc(kD, kR, generator);
    acc.add_rows(s.a.view(), 0, 1.0, BoundPolicy::Clip);
    return acc.sketch(0.8 * w);
  }, "mutant: block 0.8 w").pass);
}

TEST(JlStatistical, ReleasedSecondMomentHasMeanGPlusW2I) {
  const JlSetup s = jl_setup();
  random::Rng rng = random::Rng::from_seed(3);
  const int64_t reps = stat::scaled(20000);
  std::vector<double> diag, off;
  for (int64_t k = 0; k < reps; ++k) {
    const Release r = release_jl_ridge(s.g.view(), s.request, plan_jl_ridge(s.request), rng);
    diag.push_back(r.matrix(0, 0));
    off.push_back(r.matrix(0, 1));
  }
  // Var[(S^T S)_ij] = r (M_ij^2 + M_ii M_jj) (Wishart), divided by r^2 for the release.
  const auto se = [&](int64_t i, int64_t j) {
    return std::sqrt((s.m(i, j) * s.m(i, j) + s.m(i, i) * s.m(j, j)) / kR / static_cast<double>(reps));
  };
  EXPECT_TRUE(stat::z_test(stat::mean_and_error(diag).mean, s.m(0, 0), se(0, 0), "E diag").pass);
  EXPECT_TRUE(stat::z_test(stat::mean_and_error(off).mean, s.m(0, 1), se(0, 1), "E off").pass);
  EXPECT_FALSE(stat::z_test(stat::mean_and_error(diag).mean, 1.03 * s.m(0, 0), se(0, 0),
                            "mutant: expectation 1.03 M_00").pass);
}

constexpr int64_t kP = 3, kRows = 40;

struct OlsSetup {
  Matrix g;
  solvers::RegressionResult exact;
  solvers::RegressionSpec spec;
  Request request;
};

OlsSetup ols_setup() {
  random::Rng rng = random::Rng::from_seed(77);
  OlsSetup s{gram_of(model_rows(20000, kP, rng)), {}, {}, Request{kP + 1, 20000, 1.0, 1.0, 1e-6, {}}};
  s.spec.label = kP;
  s.spec.features = {0, 1, 2};
  s.spec.rows = 20000;
  s.exact = solvers::regress(s.g.view(), s.spec);
  s.request.options.projection_rows = kRows;
  return s;
}

// t~_0 about beta_hat_0 and the coverage count of beta_hat over repetitions of `fit`.
struct TStats {
  std::vector<double> t;
  int64_t covered = 0;
};
TStats collect(const OlsSetup &s, const std::function<solvers::RegressionResult()> &fit) {
  TStats out;
  const int64_t reps = stat::scaled(4000);
  for (int64_t k = 0; k < reps; ++k) {
    const solvers::RegressionResult r = fit();
    out.t.push_back((r.coefficients[0] - s.exact.coefficients[0]) / r.std_errors[0]);
    for (int64_t j = 0; j < kP; ++j)
      if (k % kP == j)  // one coordinate per repetition keeps the coverage draws independent
        out.covered += r.ci_lower[static_cast<size_t>(j)] <= s.exact.coefficients[static_cast<size_t>(j)] &&
                       s.exact.coefficients[static_cast<size_t>(j)] <= r.ci_upper[static_cast<size_t>(j)];
  }
  return out;
}

// Coverage count ~ Binomial(reps, 0.95): two-sided exact binomial bounds at alpha.
stat::Verdict coverage(int64_t covered, int64_t reps, const std::string &what) {
  const boost::math::binomial b(static_cast<double>(reps), 0.95);
  const double lo = boost::math::quantile(b, stat::kAlpha / 2);
  const double hi = boost::math::quantile(boost::math::complement(b, stat::kAlpha / 2));
  const double c = static_cast<double>(covered);
  return stat::reported({c >= lo && c <= hi, c, c < lo ? lo : hi, what});
}

TEST(OlsStatistical, ProjectedTValuesAreStudentTAboutTheOlsEstimateAndCoverIt) {
  const OlsSetup s = ols_setup();
  random::Rng rng = random::Rng::from_seed(9);
  const TStats good = collect(s, [&] {
    return ols_jl_inference(s.g.view(), s.request, s.spec, rng).fit;
  });
  const double dof = static_cast<double>(kRows - kP);
  EXPECT_TRUE(stat::ks_one_sample(good.t, [dof](double x) { return math::student_t_cdf(x, dof); },
                                  "t about beta_hat ~ T_{r-p}").pass);
  EXPECT_TRUE(coverage(good.covered, static_cast<int64_t>(good.t.size()), "coverage of beta_hat").pass);

  // Mutant: a ridge block left in the projection biases beta~ towards 0.
  solvers::RegressionSpec projected = s.spec;
  projected.rows = kRows;
  const TStats bad = collect(s, [&] {
    return solvers::regress(
        sketch_second_moment(gaussian_sketch(rng, kRows, add_ridge(s.g.view(), 3000.0))).view(),
        projected);
  });
  EXPECT_FALSE(stat::ks_one_sample(bad.t, [dof](double x) { return math::student_t_cdf(x, dof); },
                                   "mutant: ridge 3000 in the projection").pass);
  EXPECT_FALSE(coverage(bad.covered, static_cast<int64_t>(bad.t.size()), "mutant coverage").pass);
}

}  // namespace
}  // namespace dpcov::mechanisms
