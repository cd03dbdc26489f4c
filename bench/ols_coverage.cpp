// Coverage and mean width of the 95% confidence intervals of private OLS by projection (Sheffet,
// ICML 2017, Alg. 1) against the non-private OLS intervals, on data from the generative model
// y = X beta + e (Gaussian X, 9 features, no intercept; d = 10 columns [X, y]), every row scaled
// to norm <= 1, eps = 1, delta = 1e-6. The data are drawn afresh for every repetition and the
// coverage is of the true beta of the scaled model (the OLS estimate on unscaled rows would target
// it exactly; scaling rows by their own norm makes it the best linear predictor, which both kinds
// of interval target alike). r is fixed in advance per n (public): 20, 40, 2000.
// For comparison, one Analyze Gauss release per repetition at the same (eps, delta) and two kinds
// of interval from it: the plug-in OLS inference (no coverage guarantee, proofs/ols_ptr.md) and the
// guaranteed intervals of proofs/ols_analyze_gauss.md, which exist only when the noise bound is
// below the released lambda_min(X'X) ("guaranteed" counts those repetitions).
// A second table measures the noise-aware intervals (parametric bootstrap,
// core/estimators/ols_bootstrap) against the guaranteed and the plug-in ones for every mechanism
// with a known noise law, on the model of tests/statistical/ols_bootstrap_coverage_test.cpp
// (10 features, s^2 = 1/140, beta_j = +-0.1, the Gram matrix drawn as W_11(n, Sigma)): coverage of
// the true beta over all coordinates of the accepted repetitions, and mean width; "accepted"
// counts the repetitions with intervals (the others are refused: the noise swamps the data).
// AdaSSP (with y'y released, B_X = B_Y = 1) gets the same columns: its noise-aware intervals are
// dpcov_adassp_bootstrap_intervals', its plug-in ones those of OLS on [X'X~, X'y~; X'y~', y'y~].
//   build/bench/ols_coverage 200                 both tables
//   build/bench/ols_coverage 200 noise-aware     the second one only (bench/results/ols_coverage.md)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "../core/data/gram.hpp"
#include "../core/error.hpp"
#include "../core/mechanisms/adassp.hpp"
#include "../core/mechanisms/analyze_gauss.hpp"
#include "../core/mechanisms/ols_analyze_gauss.hpp"
#include "../core/mechanisms/ols_ptr.hpp"
#include "../core/estimators/ols_bootstrap.hpp"
#include "../core/mechanisms/mechanism.hpp"
#include "../core/random/normal.hpp"
#include "../core/random/wishart.hpp"

using namespace dpcov;

namespace {

struct Interval {
  int64_t sets = 0, covered = 0;
  double width = 0.0;
  void add(const std::vector<double> &lo, const std::vector<double> &hi, const double *beta) {
    ++sets;
    for (size_t j = 0; j < lo.size(); ++j) {
      covered += lo[j] <= beta[j] && beta[j] <= hi[j];
      width += hi[j] - lo[j];
    }
  }
  std::string cell(int64_t reps, int64_t p) const {
    char text[96];
    if (sets == 0) return concat(0, "/", reps, " | n/a | n/a");
    std::snprintf(text, sizeof text, "%lld/%lld | %.4f | %.4g", static_cast<long long>(sets),
                  static_cast<long long>(reps),
                  static_cast<double>(covered) / static_cast<double>(sets * p),
                  width / static_cast<double>(sets * p));
    return text;
  }
};

// One AdaSSP fit (with y'y) of the Gram matrix g of [x, y] rows, and its two kinds of interval.
void adassp_row(const Matrix &g, double epsilon, const solvers::RegressionSpec &spec,
                const double *beta, Interval &aware, Interval &plug, random::Rng &rng) {
  const int64_t p = g.rows() - 1;
  mechanisms::AdasspOptions options;
  options.release_label_square = true;
  const mechanisms::AdasspReceipt plan = mechanisms::plan_adassp(p, 1.0, 1.0, epsilon, 1e-6, options);
  Matrix xtx(p, p);
  std::vector<double> xty(static_cast<size_t>(p));
  for (int64_t j = 0; j < p; ++j) {
    for (int64_t i = 0; i < p; ++i) xtx(i, j) = g(i, j);
    xty[static_cast<size_t>(j)] = g(j, p);
  }
  const mechanisms::AdasspFit fit = mechanisms::fit_adassp(xtx, xty, g(p, p), plan, rng);
  try {
    const estimators::BootstrapIntervals b = estimators::adassp_bootstrap_intervals(
        fit.xtx, fit.xty, fit.yty, spec.rows, fit.receipt, 0.95, 999, rng);
    aware.add(b.ci_lower, b.ci_upper, beta);
  } catch (const Error &e) {
    if (e.status() != dpcov::Status::Precondition) throw;
  }
  Matrix statistic(p + 1, p + 1);
  for (int64_t j = 0; j < p; ++j) {
    for (int64_t i = 0; i < p; ++i) statistic(i, j) = fit.xtx(i, j);
    statistic(j, p) = statistic(p, j) = fit.xty[static_cast<size_t>(j)];
  }
  statistic(p, p) = fit.yty;
  try {
    const solvers::RegressionResult r = solvers::regress(statistic.view(), spec);
    plug.add(r.ci_lower, r.ci_upper, beta);
  } catch (const Error &e) {
    if (e.status() != dpcov::Status::NotPositiveDefinite) throw;
  }
}

void noise_aware_table(int64_t reps, random::Rng &rng) {
  constexpr int64_t p = 10;
  constexpr double s2 = 1.0 / 140.0;
  double beta[p];
  Matrix sigma(p + 1, p + 1);
  double norm2 = 0.0;
  for (int64_t j = 0; j < p; ++j) {
    beta[j] = j % 2 == 0 ? 0.1 : -0.1;
    sigma(j, j) = s2;
    sigma(j, p) = sigma(p, j) = s2 * beta[j];
    norm2 += beta[j] * beta[j];
  }
  sigma(p, p) = s2 * (norm2 + 1.0);
  solvers::RegressionSpec spec;
  spec.label = p;
  for (int64_t j = 0; j < p; ++j) spec.features.push_back(j);
  using mechanisms::MechanismId;
  struct Setting {
    MechanismId mechanism;
    double epsilon;
    bool adassp = false;  // AdaSSP (not a Gram mechanism) instead of `mechanism`
  };
  const Setting settings[] = {
      {MechanismId::AnalyzeGauss, 0.5}, {MechanismId::AnalyzeGauss, 1.0},
      {MechanismId::LaplaceSym, 0.5},   {MechanismId::LaplaceSym, 1.0},
      {MechanismId::WishartAdditive, 0.5}, {MechanismId::AnalyzeGauss, 0.5, true},
      {MechanismId::AnalyzeGauss, 1.0, true}};
  std::printf("\n| mechanism | epsilon | n | noise-aware: accepted | coverage | mean width | "
              "guaranteed: accepted | coverage | mean width | plug-in: fitted | coverage | "
              "mean width |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (const auto &[mechanism, epsilon, adassp] : settings) {
    for (const int64_t n : {1000, 10000, 100000}) {
      spec.rows = n;
      const mechanisms::Request request{p + 1, n, 1.0, epsilon, 1e-6, {}};
      Interval aware, sure, plug;
      for (int64_t rep = 0; rep < reps; ++rep) {
        const Matrix g = random::wishart(rng, static_cast<double>(n), sigma);
        if (adassp) {
          adassp_row(g, epsilon, spec, beta, aware, plug, rng);
          continue;
        }
        const mechanisms::Release rel = mechanisms::release(mechanism, g.view(), request, rng);
        try {
          const estimators::BootstrapIntervals b = estimators::ols_bootstrap_intervals(
              rel.matrix.view(), estimators::release_noise(rel.receipt), spec, 999, rng);
          aware.add(b.ci_lower, b.ci_upper, beta);
        } catch (const Error &e) {
          if (e.status() != dpcov::Status::Precondition) throw;
        }
        if (mechanism == MechanismId::AnalyzeGauss && !adassp) {
          try {
            const mechanisms::AnalyzeGaussIntervals a = mechanisms::analyze_gauss_ols_intervals(
                rel.matrix.view(), rel.receipt.sigma, spec);
            sure.add(a.ci_lower, a.ci_upper, beta);
          } catch (const Error &e) {
            if (e.status() != dpcov::Status::Precondition) throw;
          }
        }
        try {
          const solvers::RegressionResult r = solvers::regress(rel.matrix.view(), spec);
          plug.add(r.ci_lower, r.ci_upper, beta);
        } catch (const Error &e) {
          if (e.status() != dpcov::Status::NotPositiveDefinite) throw;
        }
      }
      std::printf("| %s | %g | %lld | %s | %s | %s |\n",
                  adassp ? "adassp" : mechanisms::mechanism_name(mechanism),
                  epsilon, static_cast<long long>(n), aware.cell(reps, p).c_str(),
                  mechanism == MechanismId::AnalyzeGauss && !adassp ? sure.cell(reps, p).c_str()
                                                         : "- | - | -",
                  plug.cell(reps, p).c_str());
      std::fflush(stdout);
    }
  }
}

}  // namespace

int main(int argc, char **argv) {
  const int64_t reps = argc > 1 ? std::atoll(argv[1]) : 200;
  if (argc > 2 && std::string(argv[2]) == "noise-aware") {
    random::Rng rng = random::Rng::from_seed(20261124);
    std::printf("Coverage of the model's true coefficients and mean width of 95%% intervals, %lld "
                "repetitions per row, 999 bootstrap draws, delta = 1e-6.\n"
                "Command: build/bench/ols_coverage %lld noise-aware\n",
                static_cast<long long>(reps), static_cast<long long>(reps));
    noise_aware_table(reps, rng);
    return 0;
  }
  constexpr int64_t p = 9;
  const double beta[p] = {0.5, -0.25, 0.3, 0.0, 0.1, -0.4, 0.2, 0.0, 0.15};
  // The population coefficients of y on X after every row is scaled by 1/max(1, ||row||):
  // estimated once by exact OLS on 2e6 rows.
  random::Rng rng = random::Rng::from_seed(20261122);
  auto rows = [&](int64_t n) {
    Matrix a(n, p + 1);
    for (int64_t i = 0; i < n; ++i) {
      double y = 0.0, norm = 0.0;
      for (int64_t j = 0; j < p; ++j) {
        a(i, j) = random::standard_normal(rng) / std::sqrt(10.0);
        y += beta[j] * a(i, j);
      }
      a(i, p) = y + 0.3 * random::standard_normal(rng);
      for (int64_t j = 0; j <= p; ++j) norm += a(i, j) * a(i, j);
      norm = std::sqrt(norm);
      if (norm > 1.0)
        for (int64_t j = 0; j <= p; ++j) a(i, j) /= norm * 1.000001;
    }
    GramAccumulator acc(p + 1);
    acc.add_rows(a.view(), 1.0, BoundPolicy::Clip);
    return acc.matrix();
  };
  solvers::RegressionSpec spec;
  spec.label = p;
  for (int64_t j = 0; j < p; ++j) spec.features.push_back(j);
  spec.rows = 2000000;
  const solvers::RegressionResult truth = solvers::regress(rows(2000000).view(), spec);

  std::printf("| n | r | test passed | coverage private | coverage OLS | mean width private | mean width OLS | width ratio | coverage AG plug-in | mean width AG plug-in | AG guaranteed | coverage AG guaranteed | mean width AG guaranteed |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  const int64_t ns[3] = {1000, 10000, 100000};
  const int64_t rs[3] = {20, 40, 2000};
  for (int k = 0; k < 3; ++k) {
    const int64_t n = ns[k], r = rs[k];
    mechanisms::Request request{p + 1, n, 1.0, 1.0, 1e-6, {}};
    request.options.projection_rows = r;
    const mechanisms::Request gauss{p + 1, n, 1.0, 1.0, 1e-6, {}};
    int64_t passed = 0, cover_private = 0, cover_ols = 0, cover_gauss = 0, fitted_gauss = 0,
            intervals = 0, intervals_ols = 0, guaranteed = 0, cover_guaranteed = 0;
    double width_private = 0.0, width_ols = 0.0, width_gauss = 0.0, width_guaranteed = 0.0;
    for (int64_t rep = 0; rep < reps; ++rep) {
      const Matrix g = rows(n);
      spec.rows = n;
      const solvers::RegressionResult ols = solvers::regress(g.view(), spec);
      for (int64_t j = 0; j < p; ++j) {
        const size_t at = static_cast<size_t>(j);
        cover_ols += ols.ci_lower[at] <= truth.coefficients[at] && truth.coefficients[at] <= ols.ci_upper[at];
        width_ols += ols.ci_upper[at] - ols.ci_lower[at];
        ++intervals_ols;
      }
      // An indefinite noisy X^T X has no fit: counted as intervals that miss.
      const mechanisms::Release release = mechanisms::release_analyze_gauss(
          g.view(), gauss, mechanisms::plan_analyze_gauss(gauss), rng);
      try {
        const mechanisms::AnalyzeGaussIntervals sure = mechanisms::analyze_gauss_ols_intervals(
            release.matrix.view(), release.receipt.sigma, spec);
        ++guaranteed;
        for (int64_t j = 0; j < p; ++j) {
          const size_t at = static_cast<size_t>(j);
          cover_guaranteed += sure.ci_lower[at] <= truth.coefficients[at] &&
                              truth.coefficients[at] <= sure.ci_upper[at];
          width_guaranteed += sure.ci_upper[at] - sure.ci_lower[at];
        }
      } catch (const Error &e) {
        if (e.status() != dpcov::Status::Precondition) throw;
      }
      try {
        const solvers::RegressionResult plug_in = solvers::regress(release.matrix.view(), spec);
        ++fitted_gauss;
        for (int64_t j = 0; j < p; ++j) {
          const size_t at = static_cast<size_t>(j);
          cover_gauss += plug_in.ci_lower[at] <= truth.coefficients[at] &&
                         truth.coefficients[at] <= plug_in.ci_upper[at];
          width_gauss += plug_in.ci_upper[at] - plug_in.ci_lower[at];
        }
      } catch (const Error &e) {
        if (e.status() != dpcov::Status::NotPositiveDefinite) throw;
      }
      try {
        const mechanisms::OlsInference out = mechanisms::ols_jl_inference(g.view(), request, spec, rng);
        ++passed;
        for (int64_t j = 0; j < p; ++j) {
          const size_t at = static_cast<size_t>(j);
          cover_private += out.fit.ci_lower[at] <= truth.coefficients[at] &&
                           truth.coefficients[at] <= out.fit.ci_upper[at];
          width_private += out.fit.ci_upper[at] - out.fit.ci_lower[at];
          ++intervals;
        }
      } catch (const Error &e) {
        if (e.status() != dpcov::Status::Refused) throw;
      }
    }
    const double wp = intervals ? width_private / static_cast<double>(intervals) : NAN;
    const double wo = width_ols / static_cast<double>(intervals_ols);
    std::printf("| %lld | %lld | %lld/%lld | %s%.4f | %.4f | %.4g | %.4g | %.1f | %.4f | %.4g | %lld/%lld | %.4f | %.4g |\n",
                static_cast<long long>(n), static_cast<long long>(r), static_cast<long long>(passed),
                static_cast<long long>(reps), intervals ? "" : "n/a ",
                intervals ? static_cast<double>(cover_private) / static_cast<double>(intervals) : 0.0,
                static_cast<double>(cover_ols) / static_cast<double>(intervals_ols), wp, wo, wp / wo,
                static_cast<double>(cover_gauss) / static_cast<double>(intervals_ols),
                fitted_gauss ? width_gauss / static_cast<double>(fitted_gauss * p) : NAN,
                static_cast<long long>(guaranteed), static_cast<long long>(reps),
                guaranteed ? static_cast<double>(cover_guaranteed) / static_cast<double>(guaranteed * p) : NAN,
                guaranteed ? width_guaranteed / static_cast<double>(guaranteed * p) : NAN);
  }
  noise_aware_table(reps, rng);
  return 0;
}
