// Wishart W_d(k, S) by Bartlett against the exact oracles of constants.md section 9:
// tr(S^{-1} W) ~ chi2(k d); W_ii / S_ii ~ chi2(k); (a^T S^{-1} a) / (a^T W^{-1} a) ~ chi2(k - d + 1)
// (one-sample KS, exact CDFs); E W = k S and Var W_ij = k (S_ij^2 + S_ii S_jj) (z-tests); and
// agreement in distribution with the naive sum of k outer products of N(0, S) vectors drawn from
// an independent generator (two-sample KS on scalar statistics).
// alpha = 1e-6 per assertion on a correct sampler; 50 such assertions here, so the family-wise
// false-failure rate is <= 5e-5. Every check also runs on wrong samplers (scale 5% too large, one
// degree of freedom too many, a Bartlett diagonal of chi2(k) for every i, the transposed
// Cholesky factor) and must reject at least one of them as stated.
#include <gtest/gtest.h>

#include <boost/math/distributions/chi_squared.hpp>

#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/linalg/blas.hpp"
#include "core/random/samplers.hpp"
#include "stat_support.hpp"

namespace dpcov::random {
namespace {

using WishartSampler = std::function<Matrix(Rng &)>;

constexpr int64_t kDraws = 20000;

Matrix scale4() {
  const double v[4][4] = {{2.0, 0.6, -0.4, 0.1},
                          {0.6, 1.0, 0.3, 0.0},
                          {-0.4, 0.3, 1.5, -0.2},
                          {0.1, 0.0, -0.2, 0.7}};
  Matrix s(4, 4);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) s(i, j) = v[i][j];
  return s;
}

// Cholesky by the textbook recurrence, independent of the LAPACK path under test.
Matrix naive_cholesky(const Matrix &a) {
  const int64_t d = a.rows();
  Matrix l(d, d);
  for (int64_t j = 0; j < d; ++j) {
    double s = a(j, j);
    for (int64_t k = 0; k < j; ++k) s -= l(j, k) * l(j, k);
    l(j, j) = std::sqrt(s);
    for (int64_t i = j + 1; i < d; ++i) {
      double t = a(i, j);
      for (int64_t k = 0; k < j; ++k) t -= l(i, k) * l(j, k);
      l(i, j) = t / l(j, j);
    }
  }
  return l;
}

Matrix transpose(const Matrix &a) {
  Matrix t(a.cols(), a.rows());
  for (int64_t i = 0; i < a.rows(); ++i)
    for (int64_t j = 0; j < a.cols(); ++j) t(j, i) = a(i, j);
  return t;
}

// W = F T T^T F^T with T a Bartlett factor and F a given square factor: the building block of
// the mutants. With constant_diagonal every T_ii^2 is chi2(k) instead of chi2(k - i) (0-based),
// the classic slip of forgetting the index.
Matrix bartlett_with(Rng &rng, double k, const Matrix &f, bool constant_diagonal) {
  const int64_t d = f.rows();
  Matrix t(d, d);
  for (int64_t j = 0; j < d; ++j) {
    t(j, j) = std::sqrt(chi_square(rng, constant_diagonal ? k : k - static_cast<double>(j)));
    for (int64_t i = j + 1; i < d; ++i) t(i, j) = standard_normal(rng);
  }
  const Matrix ft = linalg::multiply(f, t);
  Matrix w = linalg::multiply(ft, ft, linalg::Trans::No, linalg::Trans::Yes);
  linalg::symmetrize_from_upper(w);
  return w;
}

std::vector<Matrix> draws(const WishartSampler &s, uint64_t seed) {
  Rng rng = Rng::from_seed(seed, 2);
  std::vector<Matrix> out;
  const int64_t n = stat::scaled(kDraws);
  for (int64_t i = 0; i < n; ++i) out.push_back(s(rng));
  return out;
}

double trace_product(const Matrix &a, const Matrix &b) {
  double t = 0.0;
  for (int64_t i = 0; i < a.rows(); ++i)
    for (int64_t j = 0; j < a.cols(); ++j) t += a(i, j) * b(j, i);
  return t;
}

double quad(const Matrix &m, const std::vector<double> &a) {
  double s = 0.0;
  for (int64_t i = 0; i < m.rows(); ++i)
    for (int64_t j = 0; j < m.cols(); ++j) s += a[static_cast<size_t>(i)] * m(i, j) * a[static_cast<size_t>(j)];
  return s;
}

stat::Verdict chi2_ks(const std::vector<double> &x, double dof, const std::string &what) {
  const boost::math::chi_squared dist(dof);
  return stat::ks_one_sample(x, [&](double v) { return boost::math::cdf(dist, v); }, what);
}

// All chi-square oracles at once; returns the verdicts in a fixed order.
std::vector<stat::Verdict> chi_square_oracles(const WishartSampler &s, double k, const Matrix &c,
                                              uint64_t seed) {
  const int64_t d = c.rows();
  Matrix c_inv = linalg::spd_inverse(c);
  const std::vector<Matrix> ws = draws(s, seed);
  std::vector<stat::Verdict> out;
  std::vector<double> trace, ratio;
  const std::vector<double> a = {0.3, -1.0, 0.5, 2.0};
  for (const Matrix &w : ws) {
    trace.push_back(trace_product(c_inv, w));
    ratio.push_back(quad(c_inv, a) / quad(linalg::spd_inverse(w), a));
  }
  out.push_back(chi2_ks(trace, k * static_cast<double>(d), "tr(S^-1 W) ~ chi2(k d)"));
  out.push_back(chi2_ks(ratio, k - static_cast<double>(d) + 1.0,
                        "(a'S^-1 a)/(a'W^-1 a) ~ chi2(k - d + 1)"));
  for (int64_t i = 0; i < d; ++i) {
    std::vector<double> diag;
    for (const Matrix &w : ws) diag.push_back(w(i, i) / c(i, i));
    out.push_back(chi2_ks(diag, k, "W_ii / S_ii ~ chi2(k), i = " + std::to_string(i)));
  }
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

class WishartOracles : public ::testing::TestWithParam<double> {};

TEST_P(WishartOracles, ChiSquareIdentitiesHoldAndEachMutantBreaksOne) {
  const double k = GetParam();
  const Matrix c = scale4();
  const Matrix l = naive_cholesky(c);
  Matrix c_wide = c;
  for (int64_t j = 0; j < 4; ++j)
    for (int64_t i = 0; i < 4; ++i) c_wide(i, j) *= 1.05;
  const auto good = chi_square_oracles([&](Rng &r) { return wishart(r, k, c); }, k, c, 11);
  EXPECT_TRUE(all_pass(good)) << describe(good);
  const WishartSampler wrong_scale = [&](Rng &r) { return wishart(r, k, c_wide); };
  const WishartSampler extra_dof = [&](Rng &r) { return wishart(r, k + 1.0, c); };
  const WishartSampler constant_diagonal = [&](Rng &r) { return bartlett_with(r, k, l, true); };
  const WishartSampler transposed = [&](Rng &r) {
    return bartlett_with(r, k, transpose(l), false);
  };
  std::vector<std::pair<std::string, WishartSampler>> mutants = {{"scale 1.05 S", wrong_scale},
                                                                 {"factor L^T", transposed}};
  // One degree of freedom in 10^5 changes every statistic by about 1e-5 of its spread: no test
  // of any size can see it, so the degree-of-freedom mutants are only tried at moderate k.
  if (k < 1000.0) {
    mutants.emplace_back("k + 1", extra_dof);
    mutants.emplace_back("Bartlett diagonal chi2(k) for every i", constant_diagonal);
  }
  for (const auto &[name, mutant] : mutants) {
    const auto bad = chi_square_oracles(mutant, k, c, 11);
    EXPECT_FALSE(all_pass(bad)) << name << "\n" << describe(bad);
  }
}

// k = d (smallest integer), a real k, a moderate k, and a huge k that the naive sum could not do.
INSTANTIATE_TEST_SUITE_P(DegreesOfFreedom, WishartOracles,
                         ::testing::Values(4.0, 5.5, 12.0, 100000.0));

// Mean and variance of every upper-triangle entry against k S and k (S_ij^2 + S_ii S_jj).
std::vector<stat::Verdict> moment_checks(const WishartSampler &s, double k, const Matrix &c,
                                         uint64_t seed) {
  const std::vector<Matrix> ws = draws(s, seed);
  std::vector<stat::Verdict> out;
  for (int64_t j = 0; j < c.cols(); ++j)
    for (int64_t i = 0; i <= j; ++i) {
      std::vector<double> x;
      for (const Matrix &w : ws) x.push_back(w(i, j));
      const stat::MeanAndError m = stat::mean_and_error(x);
      out.push_back(stat::z_test(m.mean, k * c(i, j), m.error, "E W_ij"));
      const stat::MeanAndError v = stat::variance_and_error(x);
      out.push_back(stat::z_test(v.mean, k * (c(i, j) * c(i, j) + c(i, i) * c(j, j)), v.error,
                                 "Var W_ij"));
    }
  return out;
}

TEST(WishartMoments, MeanIsDegreesTimesScaleAndVarianceMatches) {
  const Matrix c = scale4();
  Matrix c_wide = c;
  for (int64_t j = 0; j < 4; ++j)
    for (int64_t i = 0; i < 4; ++i) c_wide(i, j) *= 1.05;
  const double k = 9.0;
  // 20 assertions (10 entries x mean and variance).
  const auto good = moment_checks([&](Rng &r) { return wishart(r, k, c); }, k, c, 12);
  EXPECT_TRUE(all_pass(good)) << describe(good);
  const auto wide = moment_checks([&](Rng &r) { return wishart(r, k, c_wide); }, k, c, 12);
  EXPECT_FALSE(all_pass(wide)) << describe(wide);
  const auto extra = moment_checks([&](Rng &r) { return wishart(r, k + 1.0, c); }, k, c, 12);
  EXPECT_FALSE(all_pass(extra)) << describe(extra);
}

// The naive definition: sum of k outer products z z^T, z = L g, g from std::mt19937_64.
std::vector<Matrix> naive_sums(int64_t k, const Matrix &c, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::normal_distribution<double> normal;
  const Matrix l = naive_cholesky(c);
  const int64_t d = c.rows();
  std::vector<Matrix> out;
  const int64_t n = stat::scaled(kDraws);
  std::vector<double> g(static_cast<size_t>(d)), z(static_cast<size_t>(d));
  for (int64_t r = 0; r < n; ++r) {
    Matrix w(d, d);
    for (int64_t t = 0; t < k; ++t) {
      for (double &x : g) x = normal(gen);
      for (int64_t i = 0; i < d; ++i) {
        z[static_cast<size_t>(i)] = 0.0;
        for (int64_t m = 0; m <= i; ++m) z[static_cast<size_t>(i)] += l(i, m) * g[static_cast<size_t>(m)];
      }
      for (int64_t j = 0; j < d; ++j)
        for (int64_t i = 0; i < d; ++i) w(i, j) += z[static_cast<size_t>(i)] * z[static_cast<size_t>(j)];
    }
    out.push_back(w);
  }
  return out;
}

std::vector<stat::Verdict> against_naive(const WishartSampler &s, const std::vector<Matrix> &ref,
                                         uint64_t seed) {
  const std::vector<Matrix> ws = draws(s, seed);
  auto statistic = [](const std::vector<Matrix> &v, const std::function<double(const Matrix &)> &f) {
    std::vector<double> out;
    for (const Matrix &w : v) out.push_back(f(w));
    return out;
  };
  const auto log_det = [](const Matrix &w) {
    Matrix l;
    linalg::cholesky(w, l);
    return linalg::log_det_from_cholesky(l);
  };
  const auto off_diagonal = [](const Matrix &w) { return w(0, 1); };
  const auto max_entry_ratio = [](const Matrix &w) { return w(2, 3) / std::sqrt(w(2, 2) * w(3, 3)); };
  return {stat::ks_two_sample(statistic(ws, log_det), statistic(ref, log_det), "ln det W"),
          stat::ks_two_sample(statistic(ws, off_diagonal), statistic(ref, off_diagonal), "W_01"),
          stat::ks_two_sample(statistic(ws, max_entry_ratio), statistic(ref, max_entry_ratio),
                              "sample correlation 2-3")};
}

TEST(WishartNaive, AgreesInDistributionWithTheSumOfKOuterProducts) {
  const Matrix c = scale4();
  const Matrix l = naive_cholesky(c);
  for (int64_t k : {4, 7}) {
    const std::vector<Matrix> ref = naive_sums(k, c, 13 + static_cast<uint64_t>(k));
    const double kd = static_cast<double>(k);
    // 3 assertions per k.
    const auto good = against_naive([&](Rng &r) { return wishart(r, kd, c); }, ref, 14);
    EXPECT_TRUE(all_pass(good)) << describe(good);
    const auto extra = against_naive([&](Rng &r) { return wishart(r, kd + 1.0, c); }, ref, 14);
    EXPECT_FALSE(all_pass(extra)) << "k + 1\n" << describe(extra);
    const auto constant_diagonal =
        against_naive([&](Rng &r) { return bartlett_with(r, kd, l, true); }, ref, 14);
    EXPECT_FALSE(all_pass(constant_diagonal))
        << "Bartlett diagonal chi2(k) for every i\n" << describe(constant_diagonal);
  }
}

}  // namespace
}  // namespace dpcov::random
