// Each eigenvector step of IEV (Amin et al. 2019, Alg. 1) against its exact Bingham law, through
// the whole release (Laplace eigenvalues, Householder compression, the dense step sampler), for d = 3 and the Gram
// matrix G = a e1 e1^T of n = a rows equal to e1 (B = 1), uniform split, published exponent, so
// that step i draws from exp(kappa theta^T C_i theta) with kappa = eps / (4 * 2 * 3):
//  - step 1, on S^2: t = |theta_1 . e1| has density prop. to exp(c t^2) on [0, 1], c = kappa a
//    (Archimedes); KS against its CDF (Gauss-Kronrod quadrature). KT's first step is the same.
//  - step 2, on the circle theta_1^perp: C_2 = a p p^T with p the projection of e1, |p|^2 = 1 - x^2
//    (x = theta_1 . e1), so s = |theta_2 . e1| / |p| = |cos psi| with psi of density prop. to
//    exp(c_2 cos^2 psi), c_2 = kappa a (1 - x^2), which changes from draw to draw: the probability
//    integral transform F_{c_2}(s) of each draw is uniform; KS against Uniform(0, 1).
//  - step 3, on S^0: theta_3 = +/- theta_1 x theta_2 with probability 1/2 each; z-test of the
//    proportion of +.
// alpha = 1e-6 per assertion on the correct sampler: 4 assertions, family-wise false-failure rate
// <= 4e-6 (KS critical values from the DKW-Massart bound, stat_support.hpp). Mutation checks: a
// release with twice the exponent (the sensitivity-calibrated kappa passed off as the published
// one, i.e. a sampler with the wrong law) must be rejected by the step 1 and step 2 checks, and a
// step 3 that always returns + by the sign check.
#include <gtest/gtest.h>

#include <boost/math/quadrature/gauss_kronrod.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <numbers>
#include <vector>

#include "core/mechanisms/eigenvector_sampling.hpp"
#include "stat_support.hpp"

namespace dpcov::mechanisms {
namespace {

constexpr int64_t kDim = 3;
constexpr int64_t kRows = 40;  // a = n: G = 40 e1 e1^T
// eps = 1.8: eps_i = 0.3, kappa = 0.075, c = kappa a = 3 (a clearly non-uniform law).
constexpr double kEpsilon = 1.8;

double integral(const std::function<double(double)> &f, double lo, double hi) {
  if (hi <= lo) return 0.0;
  return boost::math::quadrature::gauss_kronrod<double, 61>::integrate(f, lo, hi, 10, 1e-13);
}

// P(|t| <= x) for the density prop. to exp(c t^2) on [0, 1].
double step1_cdf(double c, double x) {
  const auto f = [c](double t) { return std::exp(c * t * t); };
  return integral(f, 0.0, x) / integral(f, 0.0, 1.0);
}

// P(|cos psi| <= s) for psi of density prop. to exp(c cos^2 psi) on [0, pi/2].
double step2_cdf(double c, double s) {
  const auto f = [c](double psi) { return std::exp(c * std::cos(psi) * std::cos(psi)); };
  return integral(f, std::acos(std::min(1.0, s)), std::numbers::pi / 2.0) /
         integral(f, 0.0, std::numbers::pi / 2.0);
}

struct Draws {
  std::vector<double> x1;      // |theta_1 . e1|
  std::vector<double> s2;      // |theta_2 . e1| / sqrt(1 - x^2)
  std::vector<double> c2;      // kappa a (1 - x^2)
  std::vector<double> sign3;   // 1 if theta_3 . (theta_1 x theta_2) > 0
  double kappa = 0.0;
};

Draws draw(MechanismId mechanism, double eps, int64_t count, uint64_t seed) {
  Matrix g(kDim, kDim);
  g(0, 0) = static_cast<double>(kRows);
  // The paper's configuration (uniform split, published exponent), whose kappa the checks pin.
  Options options;
  options.budget_split = BudgetSplit::Uniform;
  options.calibration = Calibration::BinghamPublished;
  const Request request{kDim, kRows, 1.0, eps, 0.0, options};
  random::Rng rng = random::Rng::from_seed(seed);
  Draws out;
  for (int64_t r = 0; r < count; ++r) {
    const EigenvectorRelease rel = release_eigenvector_sampling(
        mechanism, g.view(), request, plan_eigenvector_sampling(mechanism, request), rng);
    const Matrix &t = rel.transcript.thetas;
    out.kappa = rel.transcript.kappas[0];
    const double x = std::fabs(t(0, 0));
    out.x1.push_back(x);
    out.c2.push_back(out.kappa * static_cast<double>(kRows) * (1.0 - x * x));
    out.s2.push_back(std::min(1.0, std::fabs(t(0, 1)) / std::sqrt(1.0 - x * x)));
    const double cross[3] = {t(1, 0) * t(2, 1) - t(2, 0) * t(1, 1),
                             t(2, 0) * t(0, 1) - t(0, 0) * t(2, 1),
                             t(0, 0) * t(1, 1) - t(1, 0) * t(0, 1)};
    out.sign3.push_back(cross[0] * t(0, 2) + cross[1] * t(1, 2) + cross[2] * t(2, 2) > 0.0 ? 1.0 : 0.0);
  }
  return out;
}

stat::Verdict step1_check(const Draws &d, double kappa, const std::string &what) {
  const double c = kappa * static_cast<double>(kRows);
  return stat::ks_one_sample(d.x1, [c](double x) { return step1_cdf(c, x); }, what);
}

stat::Verdict step2_check(const Draws &d, double kappa_factor, const std::string &what) {
  std::vector<double> pit;
  for (size_t i = 0; i < d.s2.size(); ++i) pit.push_back(step2_cdf(kappa_factor * d.c2[i], d.s2[i]));
  return stat::ks_one_sample(pit, [](double u) { return std::clamp(u, 0.0, 1.0); }, what);
}

stat::Verdict step3_check(const std::vector<double> &signs, const std::string &what) {
  double plus = 0.0;
  for (double s : signs) plus += s;
  const double n = static_cast<double>(signs.size());
  return stat::z_test(plus / n, 0.5, 0.5 / std::sqrt(n), what);
}

TEST(IevStepLaws, EachStepFollowsItsBinghamLawAndTheChecksRejectAWrongSampler) {
  // 20000 draws: KS critical value 0.019; step 1 concentrates theta_1 near e1, which leaves step 2
  // a weak law (small c_2), so the mutant check needs this many to separate kappa from 2 kappa.
  const int64_t count = stat::scaled(20000);
  const Draws iev = draw(MechanismId::Iev, kEpsilon, count, 101);
  ASSERT_NEAR(iev.kappa, 0.075, 1e-15);
  EXPECT_TRUE(step1_check(iev, iev.kappa, "IEV step 1").pass);
  EXPECT_TRUE(step2_check(iev, 1.0, "IEV step 2").pass);
  EXPECT_TRUE(step3_check(iev.sign3, "IEV step 3 sign").pass);
  const Draws kt = draw(MechanismId::KtRank1, kEpsilon, count, 102);
  EXPECT_TRUE(step1_check(kt, kt.kappa, "KT step 1").pass);

  // Mutant: the exponent doubled (a release at 2 eps), tested against the law of eps.
  const Draws wrong = draw(MechanismId::Iev, 2.0 * kEpsilon, count, 103);
  EXPECT_FALSE(step1_check(wrong, iev.kappa, "mutant step 1 (2 kappa)").pass);
  EXPECT_FALSE(step2_check(wrong, 0.5, "mutant step 2 (2 kappa)").pass);
  // Mutant: a last step that always keeps the + sign.
  EXPECT_FALSE(step3_check(std::vector<double>(iev.sign3.size(), 1.0), "mutant step 3").pass);
}

}  // namespace
}  // namespace dpcov::mechanisms
