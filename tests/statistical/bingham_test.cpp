// The Kent-Ganeiber-Mardia Bingham sampler against exact laws (constants.md section 9):
//  - q = 2, A = R diag(0, a) R^T: the folded angle phi - theta in [0, pi) has density
//    exp(-a sin^2 phi) / (pi e^{-a/2} I_0(a/2)) (von Mises on 2 phi). KS against its CDF
//    [phi I_0(k) + sum_j I_j(k) sin(2 j phi) / j] / (pi I_0(k)), k = a / 2, itself checked against
//    Gauss-Kronrod quadrature of the density; chi-square on 40 bins; E x_2^2 =
//    (1 - I_1(a/2) / I_0(a/2)) / 2 (Hoeffding); the mean number of proposals against
//    1 / acceptance, acceptance = e^{-a/2} I_0(a/2) |Omega|^{1/2} / M (z-test).
//  - q = 3, A = Q diag(0, 0, a) Q^T: P(|x.q3| <= t) = erf(sqrt(a) t) / erf(sqrt(a)) (KS), and
//    E (x.q3)^2 = (erf(sqrt a) - 2 sqrt(a / pi) e^{-a}) / (2 a erf(sqrt a)) (Hoeffding).
//  - q = 10, A = diag(0, ..., 0, a): |x_q| has density prop. to (1 - t^2)^{7/2} exp(-a t^2) on
//    [0, 1] (KS against its quadrature CDF).
// alpha = 1e-6 per assertion on a correct sampler: 3 x 4 (q = 2) + 2 x 2 (q = 3) + 2 (q = 10) =
// 18 assertions, family-wise false-failure rate <= 1.8e-5. Every check also runs on the
// accept-everything sampler and on the inverted acceptance ratio of diffprivlib / OpenDP
// (constants.md section 10.1), and must reject both; the q = 2 checks also reject an acceptance
// test whose envelope constant b is not the proposals' (halved).
#include <gtest/gtest.h>

#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/special_functions/bessel.hpp>
#include <boost/math/special_functions/erf.hpp>

#include <cmath>
#include <functional>
#include <numbers>
#include <string>
#include <vector>

#include "core/random/samplers.hpp"
#include "bingham_laws.hpp"
#include "stat_support.hpp"

namespace dpcov::random {
namespace {

constexpr int64_t kDraws = 200000;

enum class Rule { Kgm, AcceptAll, Inverted, WrongEnvelope };

const char *name(Rule r) {
  switch (r) {
    case Rule::Kgm: return "KGM";
    case Rule::AcceptAll: return "accept-everything";
    case Rule::Inverted: return "inverted ratio (diffprivlib / OpenDP)";
    case Rule::WrongEnvelope: return "acceptance with b / 2 for the proposals' b";
  }
  return "";
}

struct Draws {
  std::vector<std::vector<double>> x;
  std::vector<double> tries;
};

// The library sampler for Rule::Kgm; for the mutants, the same proposals (the library's own ACG
// envelope) with a wrong acceptance rule.
Draws sample(const Matrix &a, Rule rule, uint64_t seed) {
  const BinghamSampler s(a);
  const int64_t q = a.rows();
  const double half_q = 0.5 * static_cast<double>(q);
  Rng rng = Rng::from_seed(seed, 5);
  const int64_t n = stat::scaled(kDraws);
  Draws out;
  std::vector<double> y(static_cast<size_t>(q)), x(static_cast<size_t>(q));
  for (int64_t i = 0; i < n; ++i) {
    int64_t tries = 0;
    if (rule == Rule::Kgm) {
      tries = s.sample(rng, x.data());
    } else {
      for (;;) {
        ++tries;
        const double t = s.propose(rng, y.data());
        if (rule == Rule::AcceptAll) break;
        if (rule == Rule::WrongEnvelope) {
          // The library's acceptance form, a valid probability for any b, with an envelope
          // constant that is not the one the proposals were drawn with.
          const double delta = (0.5 * s.b() + 2.0 * t - 2.0 * half_q) / (2.0 * half_q);
          if (std::log(uniform01(rng)) < half_q * (std::log1p(delta) - delta)) break;
          continue;
        }
        const double inverted = -t - half_q * std::log1p(2.0 * t / s.b()) - s.log_m();
        if (std::log(uniform01(rng)) < inverted) break;
      }
      s.rotate(y.data(), x.data());
    }
    out.x.push_back(x);
    out.tries.push_back(static_cast<double>(tries));
  }
  return out;
}

Matrix rotated2(double a, double theta) {
  // R diag(0, a) R^T with R the rotation by theta: a v v^T, v = (-sin, cos).
  const double s = std::sin(theta), c = std::cos(theta);
  Matrix m(2, 2);
  m(0, 0) = a * s * s;
  m(1, 1) = a * c * c;
  m(0, 1) = m(1, 0) = -a * s * c;
  return m;
}

// CDF of the folded angle on [0, pi) for density prop. to exp(-a sin^2 phi).
struct CircleLaw {
  double a;
  std::vector<double> bessel_ratio;  // I_j(a/2) / I_0(a/2), j = 1..
  explicit CircleLaw(double a_) : a(a_) {
    const double k = a / 2.0;
    const double i0 = boost::math::cyl_bessel_i(0, k);
    for (int j = 1; j < 200; ++j) {
      const double r = boost::math::cyl_bessel_i(j, k) / i0;
      if (r < 1e-18) break;
      bessel_ratio.push_back(r);
    }
  }
  double cdf(double phi) const {
    double s = phi;
    for (size_t j = 0; j < bessel_ratio.size(); ++j)
      s += bessel_ratio[j] * std::sin(2.0 * static_cast<double>(j + 1) * phi) /
           static_cast<double>(j + 1);
    return std::clamp(s / std::numbers::pi, 0.0, 1.0);
  }
  double normaliser() const {
    return std::numbers::pi * std::exp(-a / 2.0) * boost::math::cyl_bessel_i(0, a / 2.0);
  }
};

bool all_pass(const std::vector<stat::Verdict> &v) {
  for (const auto &x : v)
    if (!x.pass) return false;
  return true;
}

std::string describe(const std::vector<stat::Verdict> &v) {
  std::string s;
  for (const auto &x : v) s += (x.pass ? "  pass " : "  FAIL ") + x.what + "\n";
  return s;
}

std::vector<stat::Verdict> circle_checks(double a, double theta, Rule rule) {
  const Matrix am = rotated2(a, theta);
  const Draws d = sample(am, rule, 41);
  const CircleLaw law(a);
  std::vector<double> phi, x2;
  const double s = std::sin(theta), c = std::cos(theta);
  for (const auto &x : d.x) {
    // Coordinates in the rotated frame: along (cos, sin) and along (-sin, cos).
    const double u = c * x[0] + s * x[1], v = -s * x[0] + c * x[1];
    double angle = std::atan2(v, u);
    if (angle < 0.0) angle += std::numbers::pi;
    if (angle >= std::numbers::pi) angle -= std::numbers::pi;
    phi.push_back(angle);
    x2.push_back(v * v);
  }
  std::vector<stat::Verdict> out;
  out.push_back(stat::ks_one_sample(phi, [&](double p) { return law.cdf(p); }, "angle KS"));
  constexpr int kBins = 40;
  std::vector<int64_t> counts(kBins, 0);
  for (double p : phi)
    ++counts[static_cast<size_t>(std::min(kBins - 1, static_cast<int>(p / std::numbers::pi * kBins)))];
  std::vector<double> probabilities(kBins);
  for (int b = 0; b < kBins; ++b)
    probabilities[static_cast<size_t>(b)] =
        law.cdf(std::numbers::pi * (b + 1) / kBins) - law.cdf(std::numbers::pi * b / kBins);
  out.push_back(stat::chi_square_bins(counts, probabilities, "angle chi-square, 40 bins"));
  const double k = a / 2.0;
  const double moment =
      0.5 * (1.0 - boost::math::cyl_bessel_i(1, k) / boost::math::cyl_bessel_i(0, k));
  out.push_back(stat::hoeffding_mean(x2, moment, 0.0, 1.0, "E x2^2"));
  // Acceptance probability p and the geometric number of tries: mean 1/p, variance (1-p)/p^2.
  const BinghamSampler envelope(am);
  const double p = std::exp(-k) * boost::math::cyl_bessel_i(0, k) *
                   std::sqrt(1.0 + 2.0 * a / envelope.b()) / std::exp(envelope.log_m());
  const double n = static_cast<double>(d.tries.size());
  out.push_back(stat::z_test(stat::mean_and_error(d.tries).mean, 1.0 / p,
                             std::sqrt((1.0 - p) / (p * p) / n), "mean tries = 1 / acceptance"));
  return out;
}

TEST(BinghamCircle, ExactCdfMatchesQuadratureOfTheDensity) {
  for (double a : {1.0, 5.0, 20.0}) {
    const CircleLaw law(a);
    const auto density = [a](double p) { return std::exp(-a * std::sin(p) * std::sin(p)); };
    using GK = boost::math::quadrature::gauss_kronrod<double, 61>;
    EXPECT_NEAR(GK::integrate(density, 0.0, std::numbers::pi, 15, 1e-14), law.normaliser(),
                1e-12);
    for (double phi : {0.1, 0.7, 1.5, 2.9})
      EXPECT_NEAR(GK::integrate(density, 0.0, phi, 15, 1e-14) / law.normaliser(), law.cdf(phi),
                  1e-12);
  }
}

TEST(BinghamCircle, AcceptanceMatchesTheTableOfConstantsSection9) {
  const double table[3][2] = {{1.0, 0.949857}, {5.0, 0.739944}, {20.0, 0.674868}};
  for (const auto &row : table) {
    Matrix a(2, 2);
    a(1, 1) = row[0];
    const BinghamSampler s(a);
    const double k = row[0] / 2.0;
    const double p = std::exp(-k) * boost::math::cyl_bessel_i(0, k) *
                     std::sqrt(1.0 + 2.0 * row[0] / s.b()) / std::exp(s.log_m());
    EXPECT_NEAR(p, row[1], 5e-7);
  }
}

class BinghamCircleLaw : public ::testing::TestWithParam<double> {};

TEST_P(BinghamCircleLaw, MatchesTheExactAngularLawAndRejectsTheBrokenSamplers) {
  const double a = GetParam();
  const double theta = 0.7;
  const auto good = circle_checks(a, theta, Rule::Kgm);
  EXPECT_TRUE(all_pass(good)) << describe(good);
  for (Rule r : {Rule::AcceptAll, Rule::Inverted, Rule::WrongEnvelope}) {
    const auto bad = circle_checks(a, theta, r);
    EXPECT_FALSE(all_pass(bad)) << name(r) << "\n" << describe(bad);
    // The angle law alone must already catch the wrong distribution.
    EXPECT_FALSE(bad[0].pass) << name(r) << ": " << bad[0];
  }
}

INSTANTIATE_TEST_SUITE_P(Concentrations, BinghamCircleLaw, ::testing::Values(1.0, 5.0, 20.0));

// An orthonormal basis (columns) of R^3, fixed and far from the axes.
Matrix rotation3() {
  const double v[3][3] = {{2.0 / 3, -1.0 / 3, 2.0 / 3},
                          {2.0 / 3, 2.0 / 3, -1.0 / 3},
                          {-1.0 / 3, 2.0 / 3, 2.0 / 3}};
  Matrix q(3, 3);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) q(i, j) = v[i][j];
  return q;
}

std::vector<stat::Verdict> sphere_checks(double a, Rule rule) {
  const Matrix q = rotation3();
  Matrix am(3, 3);
  // a q3 q3^T, q3 the third column; computed symmetrically so it is exactly symmetric.
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t j = 0; j <= i; ++j) am(i, j) = am(j, i) = a * q(i, 2) * q(j, 2);
  const Draws d = sample(am, rule, 42);
  std::vector<double> t, t2;
  for (const auto &x : d.x) {
    const double proj = x[0] * q(0, 2) + x[1] * q(1, 2) + x[2] * q(2, 2);
    t.push_back(std::fabs(proj));
    t2.push_back(proj * proj);
  }
  const double ra = std::sqrt(a), erf_a = std::erf(ra);
  const double moment =
      (erf_a - 2.0 * std::sqrt(a / std::numbers::pi) * std::exp(-a)) / (2.0 * a * erf_a);
  return {stat::ks_one_sample(t, [&](double v) { return std::erf(ra * std::clamp(v, 0.0, 1.0)) / erf_a; },
                              "P(|x.q3| <= t) = erf(sqrt(a) t) / erf(sqrt(a))"),
          stat::hoeffding_mean(t2, moment, 0.0, 1.0, "E (x.q3)^2")};
}

TEST(BinghamSphere, MatchesTheErfLawAndMomentsOnTheTwoSphere) {
  for (double a : {1.0, 10.0}) {
    const auto good = sphere_checks(a, Rule::Kgm);
    EXPECT_TRUE(all_pass(good)) << "a = " << a << "\n" << describe(good);
    for (Rule r : {Rule::AcceptAll, Rule::Inverted}) {
      const auto bad = sphere_checks(a, r);
      EXPECT_FALSE(all_pass(bad)) << name(r) << " a = " << a << "\n" << describe(bad);
    }
  }
}

TEST(BinghamSphere, MomentsMatchTheTableOfConstantsSection9) {
  // The closed form used above, against the table's values (a = 1 and a = 10).
  for (const auto &[a, expected] : {std::pair{1.0, 0.2537041018}, std::pair{10.0, 0.0499919000}}) {
    const double ra = std::sqrt(a), erf_a = std::erf(ra);
    EXPECT_NEAR((erf_a - 2.0 * std::sqrt(a / std::numbers::pi) * std::exp(-a)) / (2.0 * a * erf_a),
                expected, 1e-10);
  }
}

// q = 10, A = diag(0, ..., 0, a): |x_q| against SpikeLaw.
stat::Verdict high_dimension_check(double a, Rule rule) {
  constexpr int64_t q = 10;
  Matrix am(q, q);
  am(q - 1, q - 1) = a;
  const SpikeLaw law(q, a);
  const Draws d = sample(am, rule, 43);
  std::vector<double> t;
  for (const auto &x : d.x) t.push_back(std::fabs(x[q - 1]));
  return stat::ks_one_sample(t, [&](double v) { return law.cdf(v); }, "q = 10: |x_q| law");
}

TEST(BinghamHighDimension, SpikeCoordinateFollowsItsMarginalLaw) {
  // At small a the ACG envelope is already close to the target in q = 10 (an accept-everything
  // sampler is nearly right there), so the concentrations are chosen where it is not.
  for (double a : {8.0, 30.0}) {
    const stat::Verdict good = high_dimension_check(a, Rule::Kgm);
    EXPECT_TRUE(good.pass) << good << " a = " << a;
    for (Rule r : {Rule::AcceptAll, Rule::Inverted}) {
      const stat::Verdict bad = high_dimension_check(a, r);
      EXPECT_FALSE(bad.pass) << name(r) << ": " << bad << " a = " << a;
    }
  }
}

}  // namespace
}  // namespace dpcov::random
