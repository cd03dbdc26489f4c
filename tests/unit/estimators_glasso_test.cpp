// The graphical lasso: its solutions satisfy the KKT (subgradient) conditions, checked here with
// an independent inverse; closed-form special cases; starts on indefinite inputs; warm starts;
// stopping and errors. The comparison with scikit-learn is in tests/reference/.
#include "core/solvers/glasso.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "core/error.hpp"
#include "core/linalg/blas.hpp"
#include "dpcov.h"

namespace dpcov::solvers {
namespace {

// Sample covariance (1/n) X^T X of n rows of d correlated Gaussians (fixed seed).
Matrix sample_covariance(int64_t d, int64_t n, uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::normal_distribution<double> normal;
  Matrix mix(d, d);
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i < d; ++i) mix(i, j) = normal(gen) / std::sqrt(static_cast<double>(d));
  Matrix x(n, d);
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i < n; ++i) x(i, j) = normal(gen);
  const Matrix z = linalg::multiply(x, mix);
  Matrix s = linalg::multiply(z, z, linalg::Trans::Yes);
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i < d; ++i) s(i, j) /= static_cast<double>(n);
  linalg::symmetrize_from_upper(s);
  return s;
}

// Inverse by Gauss-Jordan with partial pivoting in long double, independent of LAPACK.
Matrix naive_inverse(const Matrix &a) {
  const int64_t d = a.rows();
  std::vector<std::vector<long double>> m(static_cast<size_t>(d),
                                          std::vector<long double>(static_cast<size_t>(2 * d), 0));
  for (int64_t i = 0; i < d; ++i) {
    for (int64_t j = 0; j < d; ++j) m[i][j] = a(i, j);
    m[i][d + i] = 1;
  }
  for (int64_t k = 0; k < d; ++k) {
    int64_t piv = k;
    for (int64_t i = k + 1; i < d; ++i)
      if (std::fabs(m[i][k]) > std::fabs(m[piv][k])) piv = i;
    std::swap(m[k], m[piv]);
    const long double p = m[k][k];
    for (auto &v : m[k]) v /= p;
    for (int64_t i = 0; i < d; ++i)
      if (i != k) {
        const long double f = m[i][k];
        for (int64_t j = 0; j < 2 * d; ++j) m[i][j] -= f * m[k][j];
      }
  }
  Matrix inv(d, d);
  for (int64_t i = 0; i < d; ++i)
    for (int64_t j = 0; j < d; ++j) inv(i, j) = static_cast<double>(m[i][d + j]);
  return inv;
}

// Checks the subgradient conditions of -log det Theta + tr(S Theta) + rho sum w_ij |Theta_ij|:
// with W = Theta^{-1}, W_ij - S_ij = rho_ij sign(Theta_ij) where Theta_ij != 0 and
// |W_ij - S_ij| <= rho_ij where Theta_ij = 0, each to tol * sqrt(W_ii W_jj).
void expect_kkt(const Matrix &s, const Matrix &theta, double rho, bool penalize_diagonal,
                double tol, const std::string &what) {
  const int64_t d = s.rows();
  const Matrix w = naive_inverse(theta);
  for (int64_t i = 0; i < d; ++i)
    for (int64_t j = 0; j < d; ++j) {
      ASSERT_EQ(theta(i, j), theta(j, i)) << what << " not symmetric";
      const double r = i == j ? (penalize_diagonal ? rho : 0.0) : rho;
      const double diff = w(i, j) - s(i, j);
      const double scale = tol * std::sqrt(w(i, i) * w(j, j));
      if (theta(i, j) == 0.0) {
        EXPECT_LE(std::fabs(diff), r + scale) << what << " zero entry (" << i << ", " << j << ")";
      } else {
        EXPECT_NEAR(diff, std::copysign(r, theta(i, j)), scale)
            << what << " support entry (" << i << ", " << j << ")";
      }
    }
}

TEST(Glasso, SolutionsSatisfyKktOnRandomProblems) {
  int problem = 0;
  // Both branches of the conditions must be exercised: entries set to zero and entries kept.
  int64_t zero_entries = 0, support_entries = 0;
  for (int64_t d : {5, 10, 20})
    for (bool penalize : {true, false})
      for (double rho : {0.02, 0.1, 0.3}) {
        const Matrix s = sample_covariance(d, 3 * d, static_cast<uint64_t>(100 + problem++));
        GlassoOptions o;
        o.rho = rho;
        o.penalize_diagonal = penalize;
        o.tol = 1e-10;
        const GlassoResult r = graphical_lasso(s, o, nullptr);
        const std::string what = "d=" + std::to_string(d) + " rho=" + std::to_string(rho) +
                                 (penalize ? " all" : " off-diagonal");
        EXPECT_LE(r.kkt_residual, 1e-10) << what;
        EXPECT_GE(r.duality_gap, -1e-9) << what;
        EXPECT_LE(r.duality_gap, 1e-7) << what;
        expect_kkt(s, r.precision, rho, penalize, 1e-8, what);
        for (int64_t i = 0; i < d; ++i)
          for (int64_t j = 0; j < i; ++j)
            ++(r.precision(i, j) == 0.0 ? zero_entries : support_entries);
        // The returned covariance is the inverse of the returned precision.
        const Matrix w = naive_inverse(r.precision);
        for (int64_t i = 0; i < d; ++i)
          for (int64_t j = 0; j < d; ++j)
            EXPECT_NEAR(r.covariance(i, j), w(i, j), 1e-10 * std::sqrt(w(i, i) * w(j, j)));
      }
  EXPECT_GT(zero_entries, 100);
  EXPECT_GT(support_entries, 100);
}

TEST(Glasso, LargePenaltyGivesTheDiagonalClosedForm) {
  const Matrix s = sample_covariance(6, 30, 7);
  double largest_off = 0.0;
  for (int64_t i = 0; i < 6; ++i)
    for (int64_t j = 0; j < 6; ++j)
      if (i != j) largest_off = std::max(largest_off, std::fabs(s(i, j)));
  for (bool penalize : {true, false}) {
    GlassoOptions o;
    o.rho = largest_off;
    o.penalize_diagonal = penalize;
    const GlassoResult r = graphical_lasso(s, o, nullptr);
    for (int64_t i = 0; i < 6; ++i)
      for (int64_t j = 0; j < 6; ++j)
        if (i == j)
          EXPECT_DOUBLE_EQ(r.precision(i, i), 1.0 / (s(i, i) + (penalize ? o.rho : 0.0)));
        else
          EXPECT_EQ(r.precision(i, j), 0.0);
  }
}

TEST(Glasso, ZeroPenaltyGivesTheInverse) {
  const Matrix s = sample_covariance(5, 50, 8);
  GlassoOptions o;
  o.rho = 0.0;
  o.tol = 1e-11;
  const GlassoResult r = graphical_lasso(s, o, nullptr);
  const Matrix inv = naive_inverse(s);
  for (int64_t i = 0; i < 5; ++i)
    for (int64_t j = 0; j < 5; ++j)
      EXPECT_NEAR(r.precision(i, j), inv(i, j), 1e-8 * std::sqrt(inv(i, i) * inv(j, j)));
}

TEST(Glasso, ScalingSAndRhoTogetherScalesThetaInversely) {
  const Matrix s = sample_covariance(6, 20, 9);
  Matrix s10 = s;
  for (int64_t j = 0; j < 6; ++j)
    for (int64_t i = 0; i < 6; ++i) s10(i, j) *= 10.0;
  GlassoOptions o;
  o.rho = 0.05;
  o.tol = 1e-11;
  const GlassoResult r = graphical_lasso(s, o, nullptr);
  o.rho = 0.5;
  const GlassoResult r10 = graphical_lasso(s10, o, nullptr);
  EXPECT_EQ(r.iterations, r10.iterations);
  for (int64_t i = 0; i < 6; ++i)
    for (int64_t j = 0; j < 6; ++j) {
      EXPECT_NEAR(r10.precision(i, j) * 10.0, r.precision(i, j), 1e-9 * r.precision(i, i));
      EXPECT_EQ(r.precision(i, j) == 0.0, r10.precision(i, j) == 0.0);
    }
}

TEST(Glasso, TheSolutionIsEquivariantAtTheEndsOfTheDoubleRange) {
  // The certificate's scale sqrt(W_ii W_jj) must not overflow (a false convergence at 1e160) or
  // underflow (no convergence at 1e-200) where the scaled problem is in range.
  const double base[9] = {1, 0.5, 0.2, 0.5, 1, 0.3, 0.2, 0.3, 1};
  GlassoOptions o;
  o.rho = 0.1;
  Matrix s(3, 3);
  for (int i = 0; i < 9; ++i) s.data()[i] = base[i];
  const GlassoResult unit = graphical_lasso(s, o, nullptr);
  for (const double c : {1e-200, 1e-150, 1e150, 1e160, 1e200}) {
    for (int i = 0; i < 9; ++i) s.data()[i] = base[i] * c;
    o.rho = 0.1 * c;
    const GlassoResult r = graphical_lasso(s, o, nullptr);
    EXPECT_LT(r.kkt_residual, 1e-6) << c;
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 3; ++j)
        EXPECT_NEAR(r.precision(i, j) * c, unit.precision(i, j), 1e-6) << c;
  }
}

// S = [[1, 0.9, 0.9], [0.9, 1, -0.9], [0.9, -0.9, 1]] has eigenvalue 1 - 1.8 = -0.8.
Matrix indefinite() {
  Matrix s(3, 3, 0.0);
  const double v[9] = {1, 0.9, 0.9, 0.9, 1, -0.9, 0.9, -0.9, 1};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) s(i, j) = v[i * 3 + j];
  return s;
}

TEST(Glasso, IndefiniteInputIsSolvedFromAFeasibleStartOrRefusedWithAdvice) {
  const Matrix s = indefinite();
  GlassoOptions o;
  o.tol = 1e-10;
  // Diagonal penalised, rho above |lambda_min| = 0.8: S + rho I is positive definite.
  o.rho = 0.85;
  GlassoResult r = graphical_lasso(s, o, nullptr);
  EXPECT_EQ(r.start, GlassoStart::Covariance);
  expect_kkt(s, r.precision, o.rho, true, 1e-8, "indefinite, penalised diagonal");
  // Off-diagonal only: S is not positive definite, but soft-thresholding by 0.6 leaves
  // off-diagonals of magnitude 0.3 and a positive definite start.
  o.penalize_diagonal = false;
  o.rho = 0.6;
  r = graphical_lasso(s, o, nullptr);
  EXPECT_EQ(r.start, GlassoStart::SoftThreshold);
  expect_kkt(s, r.precision, o.rho, false, 1e-8, "indefinite, off-diagonal");
  // Too small a penalty: no feasible start.
  o.rho = 0.1;
  try {
    graphical_lasso(s, o, nullptr);
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(e.status(), dpcov::Status::NotPositiveDefinite);
    const std::string message = e.what();
    EXPECT_NE(message.find("increase rho"), std::string::npos) << message;
    EXPECT_NE(message.find("positive semidefinite"), std::string::npos) << message;
  }
  // A non-positive diagonal cannot be helped by any start.
  Matrix bad = s;
  bad(1, 1) = -0.5;
  o.rho = 0.3;
  o.penalize_diagonal = true;
  EXPECT_THROW(graphical_lasso(bad, o, nullptr), Error);
}

TEST(Glasso, WarmStartFromANearbyPenaltyReachesTheSameSolutionSooner) {
  const Matrix s = sample_covariance(15, 40, 11);
  GlassoOptions o;
  o.tol = 1e-10;
  o.rho = 0.1;
  const GlassoResult previous = graphical_lasso(s, o, nullptr);
  o.rho = 0.09;
  const GlassoResult cold = graphical_lasso(s, o, nullptr);
  const GlassoResult warm = graphical_lasso(s, o, &previous.precision);
  EXPECT_EQ(warm.start, GlassoStart::Warm);
  EXPECT_LE(warm.iterations, cold.iterations);
  for (int64_t i = 0; i < 15; ++i)
    for (int64_t j = 0; j < 15; ++j)
      EXPECT_NEAR(warm.precision(i, j), cold.precision(i, j), 1e-7 * cold.precision(i, i));
  expect_kkt(s, warm.precision, o.rho, true, 1e-8, "warm");
}

TEST(Glasso, WarmStartMustBePositiveDefinite) {
  const Matrix s = sample_covariance(3, 10, 12);
  GlassoOptions o;
  o.rho = 0.1;
  const Matrix not_pd = indefinite();
  try {
    graphical_lasso(s, o, &not_pd);
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(e.status(), dpcov::Status::NotPositiveDefinite);
  }
}

TEST(Glasso, HittingMaxIterIsNoConvergence) {
  const Matrix s = sample_covariance(10, 15, 13);
  GlassoOptions o;
  o.rho = 0.01;
  o.tol = 1e-14;
  o.max_iter = 1;
  try {
    graphical_lasso(s, o, nullptr);
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(e.status(), dpcov::Status::NoConvergence);
    EXPECT_NE(std::string(e.what()).find("KKT residual"), std::string::npos);
  }
}

TEST(Glasso, OneDimensionalProblemIsTheScalarClosedForm) {
  Matrix s(1, 1);
  s(0, 0) = 2.0;
  GlassoOptions o;
  o.rho = 0.5;
  EXPECT_DOUBLE_EQ(graphical_lasso(s, o, nullptr).precision(0, 0), 1.0 / 2.5);
  o.penalize_diagonal = false;
  EXPECT_DOUBLE_EQ(graphical_lasso(s, o, nullptr).precision(0, 0), 0.5);
}

TEST(Glasso, RejectsInvalidOptions) {
  const auto status = [](GlassoOptions o) -> dpcov_status {
    try {
      validate(o);
      return DPCOV_OK;
    } catch (const Error &e) {
      return static_cast<dpcov_status>(e.status());
    }
  };
  GlassoOptions o;
  o.rho = 0.1;
  EXPECT_EQ(status(o), DPCOV_OK);
  GlassoOptions bad = o;
  bad.rho = -0.1;
  EXPECT_EQ(status(bad), DPCOV_E_INVALID_ARGUMENT);
  bad.rho = NAN;
  EXPECT_EQ(status(bad), DPCOV_E_NON_FINITE);
  bad = o;
  bad.tol = 0.0;
  EXPECT_EQ(status(bad), DPCOV_E_INVALID_ARGUMENT);
  bad.tol = INFINITY;
  EXPECT_EQ(status(bad), DPCOV_E_NON_FINITE);
  bad = o;
  bad.max_iter = 0;
  EXPECT_EQ(status(bad), DPCOV_E_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace dpcov::solvers
