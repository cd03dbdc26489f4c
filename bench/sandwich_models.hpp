// Generated regression models for the robust (sandwich) intervals, shared by the statistical test
// tests/statistical/sandwich_coverage_test.cpp and the grid bench/sandwich_coverage.cpp.
//
// d regressors, no intercept: x = v / sqrt(d), v ~ U[-1, 1]^d, so ||x|| <= 1 = B_X;
// beta = s (0.4, -0.2, 0.2, -0.2, ...) with s = 0.8 / (0.4 + 0.2 (d - 1)), so that
// sum |beta_j| = 0.8 and |x' beta| <= 0.8 / sqrt(d) <= 0.462; w ~ U[-1, 1] independent.
//   homoscedastic:   y = x' beta + 0.5 w;
//   heteroscedastic: y = x' beta + 0.5 |v_1| w  (error sd proportional to |x_1|);
//   misspecified:    y = x' beta + 0.6 (v_1^2 - 1/3) + 0.1 w  (an omitted quadratic term).
// Every error term is at most 0.5, so |y| < 0.97 < 1 = B_Y (draw_rows checks every row).
// E[x (v_1^2 - 1/3)] = 0 (odd in v_1 for x_1, independence for the others), so the least-squares
// projection of every model is beta. On the heteroscedastic model the slope of x_1 has sampling
// variance E[v^4] / E[v^2]^2 = 9/5 times what a homoscedastic model assumes.
//   peaked heteroscedastic: as heteroscedastic with v_1 = +-u^2, u ~ U[0, 1] (a random sign):
//   E[v_1^4] / E[v_1^2]^2 = (1/9) / (1/25) = 25/9, so the homoscedastic bootstrap's interval for
//   the slope of x_1 is sqrt(9/25) of the right width and covers about
//   P(|N(0, 1)| <= 1.96 * 3/5) = 0.76.
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "core/error.hpp"
#include "core/estimators/ols_bootstrap.hpp"
#include "core/estimators/sandwich_intervals.hpp"
#include "core/mechanisms/adassp.hpp"
#include "core/mechanisms/mechanism.hpp"
#include "core/privacy/sandwich_constants.hpp"
#include "core/random/uniform.hpp"

namespace dpcov::sandwich_models {

enum class Model { Homoscedastic, Heteroscedastic, Misspecified, PeakedHeteroscedastic };

inline const char *model_name(Model m) {
  return m == Model::Homoscedastic     ? "homoscedastic"
         : m == Model::Heteroscedastic ? "heteroscedastic"
         : m == Model::Misspecified    ? "omitted quadratic"
                                       : "peaked heteroscedastic";
}

inline double true_beta(int64_t d, int64_t j) {
  const double s = 0.8 / (0.4 + 0.2 * static_cast<double>(d - 1));
  return s * (j == 0 ? 0.4 : (j % 2 == 1 ? -0.2 : 0.2));
}

struct Rows {
  Matrix x;
  std::vector<double> y;
};

inline Rows draw_rows(Model model, int64_t n, int64_t d, random::Rng &rng) {
  Rows rows{Matrix(n, d), std::vector<double>(static_cast<size_t>(n))};
  const double root_d = std::sqrt(static_cast<double>(d));
  for (int64_t i = 0; i < n; ++i) {
    double mean = 0.0, v1 = 0.0;
    for (int64_t j = 0; j < d; ++j) {
      double v = 2.0 * random::uniform01(rng) - 1.0;
      if (j == 0 && model == Model::PeakedHeteroscedastic) v *= std::fabs(v);
      if (j == 0) v1 = v;
      rows.x(i, j) = v / root_d;
      mean += rows.x(i, j) * true_beta(d, j);
    }
    const double w = 2.0 * random::uniform01(rng) - 1.0;
    double y = mean + 0.5 * std::fabs(v1) * w;  // both heteroscedastic models
    if (model == Model::Homoscedastic) y = mean + 0.5 * w;
    if (model == Model::Misspecified) y = mean + 0.6 * (v1 * v1 - 1.0 / 3.0) + 0.1 * w;
    if (std::fabs(y) > 1.0) throw std::logic_error("a label above B_Y = 1");
    rows.y[static_cast<size_t>(i)] = y;
  }
  return rows;
}

struct Statistics {
  Matrix xtx;
  std::vector<double> xty;
  double yty = 0.0;
};

inline Statistics exact_statistics(const Rows &rows) {
  const int64_t d = rows.x.cols();
  Statistics s{Matrix(d, d), std::vector<double>(static_cast<size_t>(d)), 0.0};
  for (int64_t i = 0; i < rows.x.rows(); ++i) {
    const double y = rows.y[static_cast<size_t>(i)];
    s.yty += y * y;
    for (int64_t j = 0; j < d; ++j) {
      s.xty[static_cast<size_t>(j)] += rows.x(i, j) * y;
      for (int64_t k = 0; k < d; ++k) s.xtx(k, j) += rows.x(i, k) * rows.x(i, j);
    }
  }
  return s;
}

// The meat of the rows at beta0 (B_X = B_Y = 1) released by Analyze Gauss (replace-one) at the
// meat's share of `budget`.
inline Matrix released_meat(const Rows &rows, const std::vector<double> &beta0,
                            const privacy::SandwichBudget &budget, random::Rng &rng) {
  const double r = privacy::sandwich_residual_bound(1.0);
  const Matrix meat = estimators::sandwich_meat(rows.x.view(), rows.y, beta0, 1.0, r);
  mechanisms::Request request;
  request.dim = rows.x.cols();
  request.n = rows.x.rows();
  request.bound = privacy::sandwich_meat_row_bound(1.0, r);
  request.epsilon = budget.meat_epsilon;
  request.delta = budget.meat_delta;
  return mechanisms::release(mechanisms::MechanismId::AnalyzeGauss, meat.view(), request, rng)
      .matrix;
}

// The robust intervals at (epsilon, delta) in total: AdaSSP at the fit's share of
// privacy::sandwich_budget, the meat at beta0 = AdaSSP's coefficients released by Analyze Gauss
// (replace-one) at the meat's share. B_X = B_Y = 1.
inline estimators::BootstrapIntervals robust(const Rows &rows, double epsilon, double delta,
                                             double level, int64_t worlds, random::Rng &rng) {
  const int64_t d = rows.x.cols();
  const privacy::SandwichBudget budget = privacy::sandwich_budget(epsilon, delta);
  const mechanisms::AdasspReceipt plan = mechanisms::plan_adassp(
      d, 1.0, 1.0, budget.fit_epsilon, budget.fit_delta, mechanisms::AdasspOptions{});
  const Statistics s = exact_statistics(rows);
  const mechanisms::AdasspFit fit = mechanisms::fit_adassp(s.xtx, s.xty, 0.0, plan, rng);
  return estimators::adassp_sandwich_intervals(fit.xtx, fit.xty, fit.receipt,
                                               released_meat(rows, fit.coefficients, budget, rng),
                                               level, worlds, rng);
}

// Today's default: AdaSSP with y'y at the whole budget and the homoscedastic bootstrap.
inline estimators::BootstrapIntervals homoscedastic(const Rows &rows, double epsilon,
                                                    double delta, double level, int64_t worlds,
                                                    random::Rng &rng) {
  mechanisms::AdasspOptions options;
  options.release_label_square = true;
  const int64_t d = rows.x.cols();
  const mechanisms::AdasspReceipt plan =
      mechanisms::plan_adassp(d, 1.0, 1.0, epsilon, delta, options);
  const Statistics s = exact_statistics(rows);
  const mechanisms::AdasspFit fit = mechanisms::fit_adassp(s.xtx, s.xty, s.yty, plan, rng);
  return estimators::adassp_bootstrap_intervals(fit.xtx, fit.xty, fit.yty, rows.x.rows(),
                                                fit.receipt, level, worlds, rng);
}

// The Gram of the rows [x, y] (||[x, y]|| <= sqrt(2)) released by Analyze Gauss (replace-one) at
// (epsilon, delta), and the regression of y on x (no intercept) read from it.
struct GramFit {
  mechanisms::Release release;
  solvers::RegressionSpec spec;
};

inline GramFit gram_fit(const Rows &rows, double epsilon, double delta, double level,
                        random::Rng &rng) {
  const int64_t d = rows.x.cols(), n = rows.x.rows();
  Matrix g(d + 1, d + 1);
  const Statistics s = exact_statistics(rows);
  for (int64_t j = 0; j < d; ++j) {
    for (int64_t i = 0; i < d; ++i) g(i, j) = s.xtx(i, j);
    g(j, d) = g(d, j) = s.xty[static_cast<size_t>(j)];
  }
  g(d, d) = s.yty;
  mechanisms::Request request;
  request.dim = d + 1;
  request.n = n;
  request.bound = std::nextafter(std::sqrt(2.0), 2.0);
  request.epsilon = epsilon;
  request.delta = delta;
  GramFit fit;
  fit.spec.label = d;
  for (int64_t j = 0; j < d; ++j) fit.spec.features.push_back(j);
  fit.spec.rows = n;
  fit.spec.level = level;
  fit.release = mechanisms::release(mechanisms::MechanismId::AnalyzeGauss, g.view(), request, rng);
  return fit;
}

// The Gram mechanisms' robust intervals at (epsilon, delta) in total: the Analyze Gauss release of
// [x, y] at the fit's share of privacy::sandwich_budget, the meat at beta0 = its OLS coefficients
// released by Analyze Gauss at the meat's share (B_X = B_Y = 1), and gram_sandwich_intervals.
inline estimators::BootstrapIntervals gram_robust(const Rows &rows, double epsilon, double delta,
                                                  double level, int64_t worlds, random::Rng &rng) {
  const privacy::SandwichBudget budget = privacy::sandwich_budget(epsilon, delta);
  const GramFit fit = gram_fit(rows, budget.fit_epsilon, budget.fit_delta, level, rng);
  const estimators::ReleaseNoise noise = estimators::release_noise(fit.release.receipt);
  const std::vector<double> beta0 =
      estimators::released_ols(fit.release.matrix.view(), noise, fit.spec, worlds).coefficients;
  return estimators::gram_sandwich_intervals(fit.release.matrix.view(), noise, fit.spec,
                                             released_meat(rows, beta0, budget, rng), worlds,
                                             rng);
}

// Before: the Analyze Gauss release at the whole budget and the homoscedastic bootstrap.
inline estimators::BootstrapIntervals gram_homoscedastic(const Rows &rows, double epsilon,
                                                         double delta, double level,
                                                         int64_t worlds, random::Rng &rng) {
  const GramFit fit = gram_fit(rows, epsilon, delta, level, rng);
  return estimators::ols_bootstrap_intervals(fit.release.matrix.view(),
                                             estimators::release_noise(fit.release.receipt),
                                             fit.spec, worlds, rng);
}

inline bool covers(const estimators::BootstrapIntervals &ci, int64_t d, int64_t j) {
  const auto at = static_cast<size_t>(j);
  return ci.ci_lower[at] <= true_beta(d, j) && true_beta(d, j) <= ci.ci_upper[at];
}

}  // namespace dpcov::sandwich_models
