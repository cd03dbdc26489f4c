// Uniform points on the sphere and the angular central Gaussian against exact laws:
// on S^2 each coordinate is uniform on [-1, 1] (Archimedes); on S^{q-1} x_1^2 ~ Beta(1/2, (q-1)/2);
// for ACG(diag(1, w)) on the circle, sqrt(w) tan(phi) ~ Cauchy(0, 1) (constants.md section 9);
// for a general 2 x 2 Omega, the angle's CDF is the integral of the ACG log-density's exponential
// (Gauss-Kronrod quadrature), which ties the sampler to its density. One-sample KS throughout.
// alpha = 1e-6 per assertion on a correct sampler; 3 + 1 + 3 + 1 = 8 assertions, family-wise
// false-failure rate <= 8e-6. Mutants: normalised points of the cube; ACG drawn from
// N(0, Omega) instead of N(0, Omega^{-1}).
#include <gtest/gtest.h>

#include <boost/math/distributions/beta.hpp>
#include <boost/math/distributions/cauchy.hpp>
#include <boost/math/quadrature/gauss_kronrod.hpp>

#include <cmath>
#include <functional>
#include <numbers>
#include <string>
#include <vector>

#include "core/random/samplers.hpp"
#include "stat_support.hpp"

namespace dpcov::random {
namespace {

using PointSampler = std::function<void(Rng &, double *)>;

constexpr int64_t kDraws = 200000;

std::vector<std::vector<double>> points(const PointSampler &s, int64_t q, uint64_t seed) {
  Rng rng = Rng::from_seed(seed, 4);
  const int64_t n = stat::scaled(kDraws);
  std::vector<std::vector<double>> out(static_cast<size_t>(n), std::vector<double>(static_cast<size_t>(q)));
  for (auto &p : out) s(rng, p.data());
  return out;
}

// The deliberately wrong sphere sampler: a uniform point of the cube [-1, 1]^q, normalised.
void cube_direction(Rng &rng, double *x, int64_t q) {
  double n2 = 0.0;
  for (int64_t i = 0; i < q; ++i) {
    x[i] = 2.0 * uniform01(rng) - 1.0;
    n2 += x[i] * x[i];
  }
  for (int64_t i = 0; i < q; ++i) x[i] /= std::sqrt(n2);
}

std::vector<stat::Verdict> sphere_checks(const PointSampler &s3, const PointSampler &s7) {
  std::vector<stat::Verdict> out;
  const auto p3 = points(s3, 3, 31);
  for (size_t c = 0; c < 3; ++c) {
    std::vector<double> x;
    for (const auto &p : p3) x.push_back(p[c]);
    out.push_back(stat::ks_one_sample(
        x, [](double t) { return std::clamp((t + 1.0) / 2.0, 0.0, 1.0); },
        "S^2 coordinate " + std::to_string(c) + " ~ U(-1, 1)"));
  }
  const auto p7 = points(s7, 7, 32);
  std::vector<double> x2;
  for (const auto &p : p7) x2.push_back(p[0] * p[0]);
  const boost::math::beta_distribution<> beta(0.5, 3.0);
  out.push_back(stat::ks_one_sample(x2, [&](double t) { return boost::math::cdf(beta, std::clamp(t, 0.0, 1.0)); },
                                    "S^6: x_1^2 ~ Beta(1/2, 3)"));
  return out;
}

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

TEST(UniformSphereStatistics, CoordinatesFollowArchimedesAndTheBetaLaw) {
  const auto good = sphere_checks([](Rng &r, double *x) { uniform_sphere(r, x, 3); },
                                  [](Rng &r, double *x) { uniform_sphere(r, x, 7); });
  EXPECT_TRUE(all_pass(good)) << describe(good);
  const auto bad = sphere_checks([](Rng &r, double *x) { cube_direction(r, x, 3); },
                                 [](Rng &r, double *x) { cube_direction(r, x, 7); });
  EXPECT_FALSE(all_pass(bad)) << describe(bad);
}

Matrix inverse2(const Matrix &m) {
  const double det = m(0, 0) * m(1, 1) - m(0, 1) * m(1, 0);
  Matrix inv(2, 2);
  inv(0, 0) = m(1, 1) / det;
  inv(1, 1) = m(0, 0) / det;
  inv(0, 1) = inv(1, 0) = -m(0, 1) / det;
  return inv;
}

TEST(AcgStatistics, TangentOfTheAngleIsCauchyForADiagonalOmega) {
  for (double w : {4.0, 0.2, 30.0}) {
    Matrix omega(2, 2);
    omega(0, 0) = 1.0;
    omega(1, 1) = w;
    const boost::math::cauchy_distribution<> cauchy(0.0, 1.0);
    auto check = [&](const Matrix &used) {
      const AngularCentralGaussian acg(used);
      const auto p = points([&](Rng &r, double *x) { acg.sample(r, x); }, 2, 33);
      std::vector<double> t;
      for (const auto &u : p) t.push_back(std::sqrt(w) * u[1] / u[0]);
      return stat::ks_one_sample(t, [&](double v) { return boost::math::cdf(cauchy, v); },
                                 "sqrt(w) tan(phi) ~ Cauchy(0, 1)");
    };
    const stat::Verdict good = check(omega);
    EXPECT_TRUE(good.pass) << good << " w = " << w;
    const stat::Verdict bad = check(inverse2(omega));
    EXPECT_FALSE(bad.pass) << bad << " (Omega^-1 used) w = " << w;
  }
}

TEST(AcgStatistics, AngleFollowsTheIntegralOfTheLogDensityForAGeneralOmega) {
  Matrix omega(2, 2);
  omega(0, 0) = 2.0;
  omega(1, 1) = 0.5;
  omega(0, 1) = omega(1, 0) = 0.7;
  const AngularCentralGaussian density(omega);
  // The angle of +-u folded to [0, pi); its density is 2 exp(log_density(u(phi))) / (2 pi).
  const auto pdf = [&](double phi) {
    const double u[2] = {std::cos(phi), std::sin(phi)};
    return std::exp(density.log_density(u)) / std::numbers::pi;
  };
  // The CDF is tabulated by Gauss-Kronrod on 4000 cells of [0, pi] and interpolated linearly
  // (error below 1e-7, far under the KS critical value 0.006); the total must be 1.
  constexpr int kCells = 4000;
  const double h = std::numbers::pi / kCells;
  std::vector<double> table(kCells + 1, 0.0);
  using GK = boost::math::quadrature::gauss_kronrod<double, 31>;
  for (int i = 0; i < kCells; ++i)
    table[static_cast<size_t>(i + 1)] =
        table[static_cast<size_t>(i)] + GK::integrate(pdf, i * h, (i + 1) * h, 0);
  ASSERT_NEAR(table[kCells], 1.0, 1e-12);
  const auto cdf = [&](double phi) {
    const double pos = std::clamp(phi / h, 0.0, static_cast<double>(kCells));
    const int i = std::min(kCells - 1, static_cast<int>(pos));
    const double f = pos - i;
    return (1.0 - f) * table[static_cast<size_t>(i)] + f * table[static_cast<size_t>(i + 1)];
  };
  auto check = [&](const Matrix &used) {
    const AngularCentralGaussian acg(used);
    const auto p = points([&](Rng &r, double *x) { acg.sample(r, x); }, 2, 34);
    std::vector<double> phi;
    for (const auto &u : p) {
      double a = std::atan2(u[1], u[0]);
      if (a < 0.0) a += std::numbers::pi;
      phi.push_back(a);
    }
    return stat::ks_one_sample(phi, cdf, "ACG angle vs its density");
  };
  const stat::Verdict good = check(omega);
  EXPECT_TRUE(good.pass) << good;
  const stat::Verdict bad = check(inverse2(omega));
  EXPECT_FALSE(bad.pass) << bad;
}

}  // namespace
}  // namespace dpcov::random
