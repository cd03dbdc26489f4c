// Inverse Wishart W^{-1}_d(Psi, m) through the exact oracles of constants.md section 9:
// tr(Psi X^{-1}) ~ chi2(m d) (X^{-1} ~ W_d(m, Psi^{-1})); (a^T Psi a) / (a^T X a) ~ chi2(m - d + 1);
// (a^T X^{-1} a) / (a^T Psi^{-1} a) ~ chi2(m) (one-sample KS); and E X = Psi / (m - d - 1)
// (z-tests, m large enough for finite variance).
// alpha = 1e-6 per assertion on a correct sampler; 3 values of m x 4 oracles + 6 mean entries =
// 18 assertions, family-wise false-failure rate <= 1.8e-5. Mutants that must be rejected: Psi^{-1}
// used in place of Psi (the usual inversion slip), m + 1, Psi scaled by 1.05.
#include <gtest/gtest.h>

#include <boost/math/distributions/chi_squared.hpp>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "core/linalg/blas.hpp"
#include "core/random/samplers.hpp"
#include "stat_support.hpp"

namespace dpcov::random {
namespace {

using Sampler = std::function<Matrix(Rng &)>;

constexpr int64_t kDraws = 20000;

Matrix psi3() {
  const double v[3][3] = {{1.5, 0.4, -0.2}, {0.4, 0.8, 0.1}, {-0.2, 0.1, 2.5}};
  Matrix s(3, 3);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) s(i, j) = v[i][j];
  return s;
}

Matrix scaled_by(const Matrix &m, double f) {
  Matrix out = m;
  for (int64_t j = 0; j < m.cols(); ++j)
    for (int64_t i = 0; i < m.rows(); ++i) out(i, j) *= f;
  return out;
}

double quad(const Matrix &m, const std::vector<double> &a) {
  double s = 0.0;
  for (int64_t i = 0; i < m.rows(); ++i)
    for (int64_t j = 0; j < m.cols(); ++j)
      s += a[static_cast<size_t>(i)] * m(i, j) * a[static_cast<size_t>(j)];
  return s;
}

stat::Verdict chi2_ks(const std::vector<double> &x, double dof, const std::string &what) {
  const boost::math::chi_squared dist(dof);
  return stat::ks_one_sample(x, [&](double v) { return boost::math::cdf(dist, v); }, what);
}

std::vector<stat::Verdict> oracles(const Sampler &s, double m, const Matrix &psi, uint64_t seed) {
  const Matrix psi_inv = linalg::spd_inverse(psi);
  const double d = static_cast<double>(psi.rows());
  Rng rng = Rng::from_seed(seed, 3);
  std::vector<double> trace, forward_a, forward_b, inverse;
  const std::vector<double> a = {1.0, -0.5, 0.25}, b = {0.0, 1.0, 1.0};
  const int64_t n = stat::scaled(kDraws);
  for (int64_t r = 0; r < n; ++r) {
    const Matrix x = s(rng);
    const Matrix x_inv = linalg::spd_inverse(x);
    double t = 0.0;
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 3; ++j) t += psi(i, j) * x_inv(j, i);
    trace.push_back(t);
    forward_a.push_back(quad(psi, a) / quad(x, a));
    forward_b.push_back(quad(psi, b) / quad(x, b));
    inverse.push_back(quad(x_inv, a) / quad(psi_inv, a));
  }
  return {chi2_ks(trace, m * d, "tr(Psi X^-1) ~ chi2(m d)"),
          chi2_ks(forward_a, m - d + 1.0, "(a'Psi a)/(a'X a) ~ chi2(m - d + 1)"),
          chi2_ks(forward_b, m - d + 1.0, "(b'Psi b)/(b'X b) ~ chi2(m - d + 1)"),
          chi2_ks(inverse, m, "(a'X^-1 a)/(a'Psi^-1 a) ~ chi2(m)")};
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

class InverseWishartOracles : public ::testing::TestWithParam<double> {};

TEST_P(InverseWishartOracles, ChiSquareIdentitiesHoldAndMutantsBreakThem) {
  const double m = GetParam();
  const Matrix psi = psi3();
  Matrix psi_inv = linalg::spd_inverse(psi);
  const auto good = oracles([&](Rng &r) { return inverse_wishart(r, m, psi); }, m, psi, 21);
  EXPECT_TRUE(all_pass(good)) << describe(good);
  const Matrix wide = scaled_by(psi, 1.05);
  const std::vector<std::pair<std::string, Sampler>> mutants = {
      {"Psi^-1 in place of Psi", [&](Rng &r) { return inverse_wishart(r, m, psi_inv); }},
      {"m + 1", [&](Rng &r) { return inverse_wishart(r, m + 1.0, psi); }},
      {"scale 1.05 Psi", [&](Rng &r) { return inverse_wishart(r, m, wide); }}};
  for (const auto &[name, mutant] : mutants) {
    const auto bad = oracles(mutant, m, psi, 21);
    EXPECT_FALSE(all_pass(bad)) << name << "\n" << describe(bad);
  }
}

INSTANTIATE_TEST_SUITE_P(DegreesOfFreedom, InverseWishartOracles,
                         ::testing::Values(3.0, 4.5, 12.0));

TEST(InverseWishartMoments, MeanIsPsiOverMMinusDMinusOne) {
  // m = 12 > d + 3: the entries have finite variance, so the z-test applies.
  const double m = 12.0;
  const Matrix psi = psi3();
  auto check = [&](const Sampler &s) {
    Rng rng = Rng::from_seed(22, 3);
    std::vector<std::vector<double>> entries(6);
    const int64_t n = stat::scaled(kDraws);
    for (int64_t r = 0; r < n; ++r) {
      const Matrix x = s(rng);
      size_t e = 0;
      for (int64_t j = 0; j < 3; ++j)
        for (int64_t i = 0; i <= j; ++i) entries[e++].push_back(x(i, j));
    }
    std::vector<stat::Verdict> out;
    size_t e = 0;
    for (int64_t j = 0; j < 3; ++j)
      for (int64_t i = 0; i <= j; ++i) {
        const stat::MeanAndError me = stat::mean_and_error(entries[e++]);
        out.push_back(stat::z_test(me.mean, psi(i, j) / (m - 4.0), me.error, "E X_ij"));
      }
    return out;
  };
  const auto good = check([&](Rng &r) { return inverse_wishart(r, m, psi); });
  EXPECT_TRUE(all_pass(good)) << describe(good);
  const auto bad = check([&](Rng &r) { return inverse_wishart(r, m, scaled_by(psi, 1.05)); });
  EXPECT_FALSE(all_pass(bad)) << describe(bad);
}

}  // namespace
}  // namespace dpcov::random
