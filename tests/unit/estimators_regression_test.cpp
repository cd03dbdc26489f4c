// Regression from a second-moment matrix against least squares on the raw data (Householder QR
// in long double), ridge against its closed form, and the documented behaviour on indefinite and
// degenerate releases.
#include "core/solvers/regression.hpp"

#include <gtest/gtest.h>

#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "dpcov.h"

namespace dpcov::solvers {
namespace {

using LMatrix = std::vector<std::vector<long double>>;

// Fixed-seed data: columns x1, const 1, x2, y, x3 of an n x 5 matrix, with
// y = 1.5 + 2 x1 - 0.5 x2 + 0 x3 + N(0, 1) noise.
struct Data {
  int64_t n = 200;
  std::vector<std::vector<double>> rows;
  Matrix gram;  // A^T A, exactly symmetric
};

Data make_data() {
  Data data;
  std::mt19937_64 gen(8);
  std::normal_distribution<double> normal;
  for (int64_t i = 0; i < data.n; ++i) {
    const double x1 = normal(gen), x2 = 2.0 * normal(gen), x3 = normal(gen);
    const double y = 1.5 + 2.0 * x1 - 0.5 * x2 + normal(gen);
    data.rows.push_back({x1, 1.0, x2, y, x3});
  }
  data.gram = Matrix(5, 5);
  for (int j = 0; j < 5; ++j)
    for (int k = 0; k <= j; ++k) {
      long double s = 0;
      for (const auto &r : data.rows) s += static_cast<long double>(r[j]) * r[k];
      data.gram(j, k) = data.gram(k, j) = static_cast<double>(s);
    }
  return data;
}

struct Reference {
  std::vector<double> b, se;
  double rss;
};

// OLS of column `label` on `cols` of the raw rows by Householder QR of [X | y], in long double.
Reference ols_by_qr(const Data &data, const std::vector<int> &cols, int label) {
  const size_t p = cols.size(), n = data.rows.size();
  LMatrix a(n, std::vector<long double>(p + 1));
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < p; ++j) a[i][j] = data.rows[i][static_cast<size_t>(cols[j])];
    a[i][p] = data.rows[i][static_cast<size_t>(label)];
  }
  for (size_t k = 0; k <= p; ++k) {
    long double norm = 0;
    for (size_t i = k; i < n; ++i) norm += a[i][k] * a[i][k];
    norm = std::sqrt(norm);
    const long double alpha = a[k][k] > 0 ? -norm : norm;
    std::vector<long double> v(n, 0);
    for (size_t i = k; i < n; ++i) v[i] = a[i][k];
    v[k] -= alpha;
    long double vv = 0;
    for (size_t i = k; i < n; ++i) vv += v[i] * v[i];
    for (size_t j = k; j <= p; ++j) {
      long double dot = 0;
      for (size_t i = k; i < n; ++i) dot += v[i] * a[i][j];
      for (size_t i = k; i < n; ++i) a[i][j] -= 2 * dot / vv * v[i];
    }
  }
  // R is the upper (p+1) x (p+1) block; back substitution for b and for R^{-1}.
  Reference ref;
  std::vector<long double> b(p);
  for (size_t i = p; i-- > 0;) {
    long double s = a[i][p];
    for (size_t j = i + 1; j < p; ++j) s -= a[i][j] * b[j];
    b[i] = s / a[i][i];
  }
  LMatrix rinv(p, std::vector<long double>(p, 0));
  for (size_t c = 0; c < p; ++c)
    for (size_t i = c + 1; i-- > 0;) {
      long double s = i == c ? 1 : 0;
      for (size_t j = i + 1; j <= c; ++j) s -= a[i][j] * rinv[j][c];
      rinv[i][c] = s / a[i][i];
    }
  const long double rss = a[p][p] * a[p][p];
  ref.rss = static_cast<double>(rss);
  for (size_t i = 0; i < p; ++i) {
    long double diag = 0;
    for (size_t c = 0; c < p; ++c) diag += rinv[i][c] * rinv[i][c];
    ref.b.push_back(static_cast<double>(b[i]));
    ref.se.push_back(static_cast<double>(std::sqrt(rss / (n - p) * diag)));
  }
  return ref;
}

void expect_rel(double got, double want, double tol, const std::string &what) {
  EXPECT_LE(std::fabs(got - want), tol * std::fabs(want))
      << what << ": got " << got << ", want " << want;
}

RegressionSpec spec_for(const Data &data) {
  RegressionSpec spec;
  spec.label = 3;
  spec.features = {0, 2, 4};
  spec.intercept_column = 1;
  spec.rows = data.n;
  spec.level = 0.95;
  return spec;
}

TEST(Regression, OlsFromGramMatchesQrOnRawData) {
  const Data data = make_data();
  const RegressionResult r = regress(data.gram.view(), spec_for(data));
  const Reference ref = ols_by_qr(data, {1, 0, 2, 4}, 3);  // intercept first
  const double dof = static_cast<double>(data.n - 4);
  const boost::math::students_t dist(dof);
  const double tcrit = boost::math::quantile(boost::math::complement(dist, 0.025));
  ASSERT_EQ(r.coefficients.size(), 4u);
  EXPECT_EQ(r.dof, data.n - 4);
  EXPECT_FALSE(r.rss_clamped);
  expect_rel(r.rss, ref.rss, 1e-10, "rss");
  expect_rel(r.residual_variance, ref.rss / dof, 1e-10, "residual variance");
  expect_rel(r.t_critical, tcrit, 1e-12, "t critical");
  for (size_t i = 0; i < 4; ++i) {
    const std::string at = " of coefficient " + std::to_string(i);
    expect_rel(r.coefficients[i], ref.b[i], 1e-10, "b" + at);
    expect_rel(r.std_errors[i], ref.se[i], 1e-10, "se" + at);
    const double t = ref.b[i] / ref.se[i];
    expect_rel(r.t_values[i], t, 1e-10, "t" + at);
    expect_rel(r.p_values[i], 2 * boost::math::cdf(boost::math::complement(dist, std::fabs(t))),
               1e-9, "p" + at);
    expect_rel(r.ci_lower[i], ref.b[i] - tcrit * ref.se[i], 1e-10, "ci lower" + at);
    expect_rel(r.ci_upper[i], ref.b[i] + tcrit * ref.se[i], 1e-10, "ci upper" + at);
  }
  // The model: x3 has no effect, the others do.
  EXPECT_GT(r.p_values[3], 1e-3);
  EXPECT_LT(r.p_values[1], 1e-20);
}

TEST(Regression, WithoutInterceptMatchesQrAndFollowsFeatureOrder) {
  const Data data = make_data();
  RegressionSpec spec = spec_for(data);
  spec.intercept_column = -1;
  spec.features = {4, 0};
  const RegressionResult r = regress(data.gram.view(), spec);
  const Reference ref = ols_by_qr(data, {4, 0}, 3);
  for (size_t i = 0; i < 2; ++i) {
    expect_rel(r.coefficients[i], ref.b[i], 1e-10, "b");
    expect_rel(r.std_errors[i], ref.se[i], 1e-10, "se");
  }
  EXPECT_EQ(r.dof, data.n - 2);
}

TEST(Regression, RidgeMatchesClosedFormAndLeavesInterceptUnpenalised) {
  const Data data = make_data();
  RegressionSpec spec = spec_for(data);
  spec.ridge = 25.0;
  const RegressionResult r = regress(data.gram.view(), spec);
  // (X'X + lambda D) b = X'y by Gauss-Jordan in long double, D = diag(0, 1, 1, 1).
  const std::vector<int> cols = {1, 0, 2, 4};
  LMatrix m(4, std::vector<long double>(9, 0));
  for (size_t i = 0; i < 4; ++i) {
    for (size_t j = 0; j < 4; ++j) m[i][j] = data.gram(cols[i], cols[j]);
    if (i > 0) m[i][i] += 25.0L;
    m[i][4] = data.gram(cols[i], 3);
    m[i][5 + i] = 1;
  }
  for (size_t k = 0; k < 4; ++k) {
    const long double pivot = m[k][k];
    for (auto &v : m[k]) v /= pivot;
    for (size_t i = 0; i < 4; ++i)
      if (i != k) {
        const long double f = m[i][k];
        for (size_t j = 0; j < 9; ++j) m[i][j] -= f * m[k][j];
      }
  }
  long double bxy = 0, bxxb = 0;
  for (size_t i = 0; i < 4; ++i) {
    bxy += m[i][4] * data.gram(cols[i], 3);
    for (size_t j = 0; j < 4; ++j) bxxb += m[i][4] * data.gram(cols[i], cols[j]) * m[j][4];
  }
  const long double rss = data.gram(3, 3) - 2 * bxy + bxxb;
  expect_rel(r.rss, static_cast<double>(rss), 1e-10, "ridge rss");
  for (size_t i = 0; i < 4; ++i) {
    expect_rel(r.coefficients[i], static_cast<double>(m[i][4]), 1e-10, "ridge b");
    expect_rel(r.std_errors[i], static_cast<double>(std::sqrt(rss / (data.n - 4) * m[i][5 + i])),
               1e-10, "ridge se");
  }
  // Shrinkage: every penalised coefficient is smaller in magnitude than its OLS value here.
  const RegressionResult ols = regress(data.gram.view(), spec_for(data));
  for (size_t i = 1; i < 4; ++i)
    EXPECT_LT(std::fabs(r.coefficients[i]), std::fabs(ols.coefficients[i]));
}

TEST(Regression, LayoutOfTheInputDoesNotMatter) {
  const Data data = make_data();
  std::vector<double> row_major(25);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) row_major[static_cast<size_t>(i * 5 + j)] = data.gram(i, j);
  const ConstMatrixView rm{row_major.data(), 5, 5, 5, Layout::RowMajor};
  const RegressionResult a = regress(rm, spec_for(data));
  const RegressionResult b = regress(data.gram.view(), spec_for(data));
  EXPECT_EQ(a.coefficients, b.coefficients);
  EXPECT_EQ(a.std_errors, b.std_errors);
}

TEST(Regression, IndefiniteFeatureBlockFailsWithAdviceAndRidgeRepairsIt) {
  // Features 0 and 1 with X'X = [[1, 2], [2, 1]] (eigenvalues -1 and 3): only a noisy release
  // can look like this.
  Matrix g(3, 3);
  const double v[9] = {1, 2, 0.5, 2, 1, 0.3, 0.5, 0.3, 4};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) g(i, j) = v[i * 3 + j];
  RegressionSpec spec;
  spec.label = 2;
  spec.features = {0, 1};
  spec.rows = 100;
  try {
    regress(g.view(), spec);
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(e.status(), dpcov::Status::NotPositiveDefinite);
    const std::string message = e.what();
    EXPECT_NE(message.find("ridge"), std::string::npos) << message;
    EXPECT_NE(message.find("positive semidefinite"), std::string::npos) << message;
    EXPECT_NE(message.find("-1"), std::string::npos) << "smallest eigenvalue: " << message;
  }
  spec.ridge = 1.5;
  const RegressionResult r = regress(g.view(), spec);
  for (double se : r.std_errors) EXPECT_TRUE(std::isfinite(se) && se >= 0);
}

TEST(Regression, CollinearFeaturesFailInsteadOfReturningNaN) {
  Matrix g(3, 3, 1.0);  // two identical feature columns
  g(2, 2) = 3.0;
  RegressionSpec spec;
  spec.label = 2;
  spec.features = {0, 1};
  spec.rows = 10;
  try {
    regress(g.view(), spec);
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(e.status(), dpcov::Status::NotPositiveDefinite);
  }
}

TEST(Regression, NegativeResidualSumIsClampedAndFlaggedWithoutNaN) {
  // x'x = 1, x'y = 1, y'y = 0.999: b = 1 and y'y - 2 b x'y + b^2 x'x = -0.001.
  Matrix g(2, 2);
  g(0, 0) = 1.0;
  g(0, 1) = g(1, 0) = 1.0;
  g(1, 1) = 0.999;
  RegressionSpec spec;
  spec.label = 1;
  spec.features = {0};
  spec.rows = 50;
  const RegressionResult r = regress(g.view(), spec);
  EXPECT_TRUE(r.rss_clamped);
  EXPECT_EQ(r.rss, 0.0);
  EXPECT_EQ(r.std_errors[0], 0.0);
  EXPECT_EQ(r.t_values[0], std::numeric_limits<double>::infinity());
  EXPECT_EQ(r.p_values[0], 0.0);
  EXPECT_EQ(r.ci_lower[0], r.coefficients[0]);
  EXPECT_EQ(r.ci_upper[0], r.coefficients[0]);
}

TEST(Regression, ZeroCoefficientWithZeroVarianceHasTValueZero) {
  Matrix g(3, 3);
  g(0, 0) = 1.0;
  g(1, 1) = 1.0;
  g(2, 2) = 1.0;
  g(0, 2) = g(2, 0) = 1.0;  // y = x0 exactly, x1 unrelated
  RegressionSpec spec;
  spec.label = 2;
  spec.features = {0, 1};
  spec.rows = 10;
  const RegressionResult r = regress(g.view(), spec);
  EXPECT_EQ(r.rss, 0.0);
  EXPECT_FALSE(r.rss_clamped);
  EXPECT_EQ(r.t_values[1], 0.0);
  EXPECT_EQ(r.p_values[1], 1.0);
}

dpcov_status status_of(const Matrix &g, const RegressionSpec &spec) {
  try {
    regress(g.view(), spec);
    return DPCOV_OK;
  } catch (const Error &e) {
    return static_cast<dpcov_status>(e.status());
  }
}

TEST(Regression, RejectsEachInvalidSpecification) {
  const Data data = make_data();
  const auto with = [&](auto change) {
    RegressionSpec s = spec_for(data);
    change(s);
    return status_of(data.gram, s);
  };
  EXPECT_EQ(with([](RegressionSpec &) {}), DPCOV_OK);
  EXPECT_EQ(with([](RegressionSpec &s) { s.label = 5; }), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(with([](RegressionSpec &s) { s.label = -1; }), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(with([](RegressionSpec &s) { s.features = {0, 7}; }), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(with([](RegressionSpec &s) { s.features = {0, 0}; }), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(with([](RegressionSpec &s) { s.features = {0, 3}; }), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(with([](RegressionSpec &s) { s.features = {0, 1}; }), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(with([](RegressionSpec &s) { s.intercept_column = 3; }), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(with([](RegressionSpec &s) { s.intercept_column = 9; }), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(with([](RegressionSpec &s) {
              s.features.clear();
              s.intercept_column = -1;
            }),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(with([](RegressionSpec &s) { s.ridge = -1e-9; }), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(with([](RegressionSpec &s) { s.ridge = NAN; }), DPCOV_E_NON_FINITE);
  EXPECT_EQ(with([](RegressionSpec &s) { s.ridge = INFINITY; }), DPCOV_E_NON_FINITE);
  EXPECT_EQ(with([](RegressionSpec &s) { s.level = 0.0; }), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(with([](RegressionSpec &s) { s.level = 1.0; }), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(with([](RegressionSpec &s) { s.level = NAN; }), DPCOV_E_NON_FINITE);
  EXPECT_EQ(with([](RegressionSpec &s) { s.rows = 4; }), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(with([](RegressionSpec &s) { s.rows = 5; }), DPCOV_OK);
  Matrix asymmetric = data.gram;
  asymmetric(0, 1) += 1e-12;
  EXPECT_EQ(status_of(asymmetric, spec_for(data)), DPCOV_E_INVALID_ARGUMENT);
  Matrix with_nan = data.gram;
  with_nan(2, 2) = NAN;
  EXPECT_EQ(status_of(with_nan, spec_for(data)), DPCOV_E_NON_FINITE);
}

}  // namespace
}  // namespace dpcov::solvers
