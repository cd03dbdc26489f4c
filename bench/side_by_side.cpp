// Every covariance mechanism of dpcov on the same inputs (issue 18): the embedded Wine and
// diabetes data, scikit-learn's breast_cancer and digits (the CSV files of Debian's
// python3-sklearn), the Gaussian setting of CoinPress (N(0, I), d = 10, n = 3000) and the Zipf
// setting of Dong-Liang-Yi (d = 50, n = 4000), at epsilon in {0.5, 1, 4}, delta = 1e-6 where a
// mechanism spends delta (the zCDP mechanisms at rho = dpcov_zcdp_rho(epsilon, delta)).
//
// Rows: every column mapped to [-1, 1] by public bounds (Wine and diabetes: data/*_bounds.csv;
// digits: pixel values 0..16; breast_cancer: the range of each column in the data, which is NOT
// a private choice and is used here for the utility comparison only; the synthetic rows are
// divided by 2 sqrt(d) and clipped, or are already of norm <= 1), then divided by sqrt(d), so
// every row has norm <= B = 1. G = X^T X is the target; the zCDP mechanisms release X^T X / n
// (n public under replace-one), multiplied back by n; a Gram mechanism's release is read as its
// estimate of G (dpcov_postprocess_gram_estimate: the additive Wishart's noise mean dof * B^2 I
// removed), as every analysis reads it. Every release has its spectrum clipped to
// [0, n B^2], as Amin et al. do. CoinPress (t = 3, split 1/8, 1/8, 3/4) gets the rows times
// sqrt(d), whose covariance is <= d I, and K = d; its lower bound Sigma >= I does not hold on
// these data, which costs it accuracy.
//
// Errors, mean over the repeats: relative Frobenius ||G~ - G||_F / ||G||_F, relative spectral
// ||G~ - G||_2 / ||G||_2 and Mahalanobis ||G^-1/2 G~ G^-1/2 - I||_F (where G is well conditioned,
// lambda_min > 1e-9 lambda_max; "-" otherwise).
//
//   build/bench/side_by_side <repository root> [repeats (default 10)] [out.json] [eps,eps,...]
// Markdown on stdout; the committed result is bench/results/side_by_side.{md,json}.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "../core/error.hpp"
#include "../core/estimators/gram_estimate.hpp"
#include "../core/estimators/metrics.hpp"
#include "../core/linalg/blas.hpp"
#include "../core/mechanisms/coinpress.hpp"
#include "../core/mechanisms/dong_liang_yi.hpp"
#include "../core/mechanisms/mechanism.hpp"
#include "../core/postprocess/eigenvalue_clip.hpp"
#include "../core/privacy/zcdp.hpp"
#include "../core/random/bingham.hpp"
#include "../core/random/exponential.hpp"
#include "../core/random/normal.hpp"
#include "dly_synthetic.hpp"
#include "embedded_datasets.hpp"

using namespace dpcov;

namespace {

constexpr double kDelta = 1e-6;

using bench::Dataset;

Dataset gaussian(int64_t d, int64_t n) {
  random::Rng rng = random::Rng::from_seed(20261124, 1);
  Matrix x(n, d);
  const double scale = 1.0 / (2.0 * std::sqrt(static_cast<double>(d)));
  for (int64_t i = 0; i < n; ++i) {
    double sum = 0.0;
    for (int64_t j = 0; j < d; ++j) {
      x(i, j) = random::standard_normal(rng) * scale;
      sum += x(i, j) * x(i, j);
    }
    if (sum > 1.0)
      for (int64_t j = 0; j < d; ++j) x(i, j) /= std::sqrt(sum);
  }
  return {"gaussian_d10_n3000", std::move(x),
          "CoinPress's setting: N(0, I_10), n = 3000, rows / (2 sqrt(d)), the rare row over 1 clipped"};
}

struct Errors {
  double frobenius, spectral, mahalanobis;
};

// G^{-1/2}, or an empty matrix when G is not well conditioned.
Matrix inverse_sqrt(const Matrix &g) {
  const linalg::SymmetricEigen e = linalg::eigh(g);
  if (!(e.values.front() > 1e-9 * e.values.back())) return Matrix();
  const int64_t d = g.rows();
  Matrix scaled = e.vectors;
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i < d; ++i) scaled(i, j) /= std::sqrt(e.values[static_cast<size_t>(j)]);
  return linalg::multiply(scaled, e.vectors, linalg::Trans::No, linalg::Trans::Yes);
}

Errors errors(const Matrix &est, const Matrix &g, const Matrix &g_isqrt) {
  Errors e{estimators::frobenius_error(est.view(), g.view(), true),
           estimators::spectral_error(est.view(), g.view(), true),
           std::numeric_limits<double>::quiet_NaN()};
  if (g_isqrt.rows() > 0) {
    const Matrix w = linalg::multiply(linalg::multiply(g_isqrt, est), g_isqrt);
    Matrix identity(g.rows(), g.rows());
    for (int64_t i = 0; i < g.rows(); ++i) identity(i, i) = 1.0;
    e.mahalanobis = estimators::frobenius_error(w.view(), identity.view(), false);
  }
  return e;
}

// A release of G (Gram scale) from the rows, or an empty matrix where the mechanism's
// preconditions exclude this epsilon.
using Release = std::function<Matrix(const Matrix &x, const Matrix &g, double eps, random::Rng &)>;

struct Method {
  std::string name;
  Release release;
};

Release gram_mechanism(mechanisms::MechanismId id, bool uses_delta,
                       mechanisms::BudgetSplit split = mechanisms::BudgetSplit::Default,
                       mechanisms::Calibration calibration = mechanisms::Calibration::Default) {
  return [=](const Matrix &x, const Matrix &g, double eps, random::Rng &rng) {
    mechanisms::Request r;
    r.dim = x.cols();
    r.n = x.rows();
    r.bound = 1.0;
    r.epsilon = eps;
    r.delta = uses_delta ? kDelta : 0.0;
    r.options.budget_split = split;
    r.options.calibration = calibration;
    try {
      // Measured as every analysis reads a release: its estimate of G (the additive Wishart's
      // noise mean removed, estimators/gram_estimate.hpp).
      const mechanisms::Release out = mechanisms::release(id, g.view(), r, rng);
      return estimators::gram_estimate(out.matrix, out.receipt).matrix;
    } catch (const Error &e) {
      if (e.status() == dpcov::Status::Precondition) return Matrix();
      throw;
    }
  };
}

Release dly(mechanisms::DlyVariant variant) {
  return [=](const Matrix &x, const Matrix &, double eps, random::Rng &rng) {
    mechanisms::DlyRequest r;
    r.variant = variant;
    r.dim = x.cols();
    r.n = x.rows();
    r.rho = privacy::zcdp_rho_for_epsilon(eps, kDelta);
    r.delta = kDelta;
    Matrix out = mechanisms::dly_release(x.view(), r, rng).covariance;
    for (int64_t j = 0; j < out.cols(); ++j)
      for (int64_t i = 0; i < out.rows(); ++i) out(i, j) *= static_cast<double>(x.rows());
    return out;
  };
}

Matrix coinpress(const Matrix &x, const Matrix &, double eps, random::Rng &rng) {
  const double d = static_cast<double>(x.cols());
  Matrix scaled = x;
  for (int64_t j = 0; j < x.cols(); ++j)
    for (int64_t i = 0; i < x.rows(); ++i) scaled(i, j) *= std::sqrt(d);
  mechanisms::CoinpressRequest r;
  r.dim = x.cols();
  r.n = x.rows();
  r.rho = privacy::zcdp_rho_for_epsilon(eps, kDelta);
  r.k_bound = d;
  r.delta = kDelta;
  Matrix out = mechanisms::coinpress_release(scaled.view(), r, rng).covariance;
  for (int64_t j = 0; j < out.cols(); ++j)
    for (int64_t i = 0; i < out.rows(); ++i) out(i, j) *= static_cast<double>(x.rows()) / d;
  return out;
}

// A reference for IEV's defaults: the algorithm of diffprivlib's models.utils.covariance_eig
// (diffprivlib 0.6; Amin et al. 2019 with its own split), reimplemented here with dpcov's Bingham
// sampler, because diffprivlib's rejection sampler accepts with an inverted ratio and draws from
// the wrong distribution (proofs/constants.md, section 10.1). Not diffprivlib's code, and not a
// measurement of diffprivlib. With every row of norm <= B = 1: eps_0 = eps / d for the eigenvalues,
// Lap(2 / eps_0) each (diffprivlib truncates to [0, inf) with a slightly larger scale; here the
// noisy value is clamped at 0), and eps / d for each eigenvector step, theta_i drawn with density
// proportional to exp((eps / d) / 4 theta^T C_i theta) on the complement of theta_1..theta_{i-1}
// (the last, one-dimensional step is free). The release is sum_i lambda~_i theta_i theta_i^T.
Matrix diffprivlib_reference(const Matrix &x, const Matrix &g, double eps, random::Rng &rng) {
  const int64_t d = x.cols();
  const double step_eps = eps / static_cast<double>(d);
  std::vector<double> lambda = linalg::eigvalsh(g);  // ascending
  std::reverse(lambda.begin(), lambda.end());
  for (double &l : lambda) l = std::max(0.0, l + random::laplace(rng, 2.0 / step_eps));
  Matrix basis(d, d);  // columns: an orthonormal basis of the complement of the thetas so far
  for (int64_t i = 0; i < d; ++i) basis(i, i) = 1.0;
  Matrix out(d, d);
  for (int64_t step = 0; step < d; ++step) {
    const int64_t q = d - step;
    std::vector<double> u(static_cast<size_t>(q), 1.0);
    if (q > 1) {
      // C = basis^T G basis; the sampler's density is exp(-u^T A u), so A = -(eps_i / 4) C.
      Matrix a = linalg::multiply(linalg::multiply(basis, g, linalg::Trans::Yes, linalg::Trans::No),
                                  basis);
      for (int64_t j = 0; j < q; ++j)
        for (int64_t i = 0; i < q; ++i) a(i, j) *= -step_eps / 4.0;
      linalg::symmetrize_from_upper(a);
      random::BinghamSampler(a).sample(rng, u.data());
    }
    std::vector<double> theta(static_cast<size_t>(d), 0.0);
    for (int64_t j = 0; j < q; ++j)
      for (int64_t i = 0; i < d; ++i) theta[static_cast<size_t>(i)] += basis(i, j) * u[static_cast<size_t>(j)];
    const double l = lambda[static_cast<size_t>(step)];
    for (int64_t j = 0; j < d; ++j)
      for (int64_t i = 0; i < d; ++i)
        out(i, j) += l * theta[static_cast<size_t>(i)] * theta[static_cast<size_t>(j)];
    if (q == 1) break;
    // The complement of u in R^q: the columns 2..q of the Householder reflection taking u to e_1.
    std::vector<double> v = u;
    v[0] += u[0] >= 0.0 ? 1.0 : -1.0;
    double vv = 0.0;
    for (double e : v) vv += e * e;
    Matrix next(d, q - 1);
    for (int64_t c = 1; c < q; ++c)
      for (int64_t j = 0; j < q; ++j) {
        const double h = (j == c ? 1.0 : 0.0) -
                         2.0 * v[static_cast<size_t>(j)] * v[static_cast<size_t>(c)] / vv;
        for (int64_t i = 0; i < d; ++i) next(i, c - 1) += basis(i, j) * h;
      }
    basis = std::move(next);
  }
  linalg::symmetrize_from_upper(out);
  return out;
}

std::vector<Method> methods() {
  using mechanisms::BudgetSplit;
  using mechanisms::Calibration;
  using mechanisms::MechanismId;
  return {
      {"Analyze Gauss", gram_mechanism(MechanismId::AnalyzeGauss, true)},
      {"Laplace (sym.)", gram_mechanism(MechanismId::LaplaceSym, false)},
      {"Wishart additive (eps < 1)", gram_mechanism(MechanismId::WishartAdditive, true)},
      {"IEV (paper: uniform split, published kappa)",
       gram_mechanism(MechanismId::Iev, false, BudgetSplit::Uniform, Calibration::BinghamPublished)},
      {"IEV (default: adaptive split, sensitivity kappa)", gram_mechanism(MechanismId::Iev, false)},
      {"Kapralov-Talwar rank-one", gram_mechanism(MechanismId::KtRank1, false)},
      {"DLY Gauss (zCDP)", dly(mechanisms::DlyVariant::Gauss)},
      {"DLY Separate (zCDP)", dly(mechanisms::DlyVariant::Separate)},
      {"DLY Adaptive (zCDP; default split and rules)", dly(mechanisms::DlyVariant::Adaptive)},
      {"DLY Adaptive, paper's split and rules (zCDP)", dly(mechanisms::DlyVariant::AdaptivePaper)},
      {"CoinPress t = 3 (zCDP)", coinpress},
      {"Reference: diffprivlib covariance_eig algorithm, reimplemented (not diffprivlib)",
       diffprivlib_reference},
  };
}

std::string cell(double mean) {
  if (std::isnan(mean)) return "-";
  char b[32];
  std::snprintf(b, sizeof b, mean < 10 ? "%.3f" : "%.3g", mean);
  return b;
}

std::string cell_label(double eps) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", eps);
  return b;
}

std::string json_number(double v) {
  if (std::isnan(v)) return "null";
  char b[32];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <repository root> [repeats] [out.json] [eps,eps,...]\n",
                 argv[0]);
    return 2;
  }
  const std::string root = argv[1];
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 10;
  std::vector<Dataset> datasets = bench::embedded_datasets(root);
  datasets.push_back(gaussian(10, 3000));
  {
    random::Rng rng = random::Rng::from_seed(20261124, 2);
    datasets.push_back({"dly_zipf_d50_n4000", bench::zipf_rows(4000, 50, rng),
                        "Dong-Liang-Yi's setting: Zipf row norms (s = 3, N = 4), d = 50, n = 4000"});
  }
  const std::vector<double> epsilons =
      argc > 4 ? bench::parse_doubles(argv[4]) : std::vector<double>{0.5, 1.0, 4.0};
  std::string header = "| mechanism |", rule = "|---|";
  for (double eps : epsilons) {
    header += " eps = " + cell_label(eps) + " |";
    rule += "---|";
  }
  const std::vector<Method> ms = methods();
  std::string json = "[\n";
  std::printf("# Every covariance mechanism side by side\n\nProduced by `build/bench/side_by_side "
              "<root> %d` (bench/side_by_side.cpp says how the rows are scaled). Each cell: "
              "relative Frobenius / relative spectral / Mahalanobis error, mean of %d releases, "
              "each read as its estimate of G (the additive Wishart's noise mean removed); "
              "delta = %g where spent.\n\n", repeats, repeats, kDelta);
  for (const Dataset &ds : datasets) {
    if (ds.rows.rows() == 0) {
      std::printf("### %s: not found, skipped\n\n", ds.name.c_str());
      continue;
    }
    const Matrix g = bench::gram_of(ds.rows);
    const Matrix g_isqrt = inverse_sqrt(g);
    std::printf("### %s (n = %lld, d = %lld)\n%s\n\n%s\n%s\n", ds.name.c_str(),
                static_cast<long long>(ds.rows.rows()), static_cast<long long>(ds.rows.cols()),
                ds.note.c_str(), header.c_str(), rule.c_str());
    for (size_t m = 0; m < ms.size(); ++m) {
      std::string row = "| " + ms[m].name + " |";
      for (size_t k = 0; k < epsilons.size(); ++k) {
        Errors sum{0, 0, 0};
        bool available = true;
        for (int r = 0; r < repeats && available; ++r) {
          random::Rng rng = random::Rng::from_seed(20261124 + r, 100 * m + k);
          Matrix est = ms[m].release(ds.rows, g, epsilons[k], rng);
          if (est.rows() == 0) {
            available = false;
            break;
          }
          est = postprocess::clip_eigenvalues(est, 0.0, static_cast<double>(ds.rows.rows()));
          const Errors e = errors(est, g, g_isqrt);
          sum.frobenius += e.frobenius / repeats;
          sum.spectral += e.spectral / repeats;
          sum.mahalanobis += e.mahalanobis / repeats;
        }
        const double nan = std::numeric_limits<double>::quiet_NaN();
        if (!available) sum = {nan, nan, nan};
        row += " " + cell(sum.frobenius) + " / " + cell(sum.spectral) + " / " +
               cell(sum.mahalanobis) + " |";
        json += "  {\"dataset\": \"" + ds.name + "\", \"mechanism\": \"" + ms[m].name +
                "\", \"epsilon\": " + json_number(epsilons[k]) + ", \"frobenius\": " +
                json_number(sum.frobenius) + ", \"spectral\": " + json_number(sum.spectral) +
                ", \"mahalanobis\": " + json_number(sum.mahalanobis) + "},\n";
      }
      std::printf("%s\n", row.c_str());
      std::fflush(stdout);
    }
    std::printf("\n");
  }
  if (json.size() > 2) json.erase(json.size() - 2, 1);  // the last comma
  json += "]\n";
  if (argc > 3) std::ofstream(argv[3]) << json;
  return 0;
}
