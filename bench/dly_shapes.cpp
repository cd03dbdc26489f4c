// Dong-Liang-Yi (NeurIPS 2022) Gauss, Separate and dpcov's Adaptive on data of several shapes, at
// rho = 0.1, r = 1, beta = 0.1: does Adaptive's private branch and radius choice stay within 5% of
// the better branch away from the authors' Zipf grid (bench/dly_grid)? Mean Frobenius error
// ||X^T X / n - release||_F over runs, a fresh dataset per run. Shapes (every row of norm <= 1):
// - iso_max:    rows N(0, I_d) divided by the largest row norm (an isotropic Gaussian);
// - iso_sphere: rows N(0, I_d) scaled to norm 1 (isotropic, trace 1);
// - iso_half:   rows N(0, I_d / (4 d)), clipped to norm 1 (isotropic, norms about 1/2);
// - power1, power2: rows N(0, diag(i^-a)), a = 1, 2 (Zipf / power-law spectra), divided by the
//   largest row norm;
// - lowrank5:   rank-5 signal (N(0, I_5) times a Gaussian 5 x d) plus N(0, 0.05^2 I_d), divided
//   by the largest row norm;
// - paper_N1:   the authors' Z U rows, centred, scaled to norm 1 (their Fig. 1, trace 1);
// - paper_zipf: their Fig. 2 data (bench/dly_synthetic.hpp: Zipf row norms).
// `ratio` is Adaptive / min(Gauss, Separate), Sep% the share of Adaptive's runs on Separate.
//
//   build/bench/dly_shapes [runs (default 10)] [max d (default 200)] [seed (default 1)]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "../core/linalg/blas.hpp"
#include "../core/mechanisms/dong_liang_yi.hpp"
#include "../core/random/normal.hpp"
#include "dly_synthetic.hpp"

using namespace dpcov;

namespace {

double row_norm(const Matrix &x, int64_t i) {
  double sum = 0.0;
  for (int64_t j = 0; j < x.cols(); ++j) sum += x(i, j) * x(i, j);
  return std::sqrt(sum);
}

void scale_rows_to(Matrix &x, double target) {
  for (int64_t i = 0; i < x.rows(); ++i) {
    const double f = target / row_norm(x, i);
    for (int64_t j = 0; j < x.cols(); ++j) x(i, j) *= f;
  }
}

void divide_by_largest_norm(Matrix &x) {
  double largest = 0.0;
  for (int64_t i = 0; i < x.rows(); ++i) largest = std::max(largest, row_norm(x, i));
  for (int64_t j = 0; j < x.cols(); ++j)
    for (int64_t i = 0; i < x.rows(); ++i) x(i, j) /= largest;
}

void clip_rows_to_one(Matrix &x) {
  for (int64_t i = 0; i < x.rows(); ++i) {
    const double norm = row_norm(x, i);
    if (norm > 1.0)
      for (int64_t j = 0; j < x.cols(); ++j) x(i, j) /= norm;
  }
}

Matrix gaussian(int64_t n, int64_t d, random::Rng &rng) {
  Matrix z(n, d);
  for (int64_t j = 0; j < d; ++j)
    for (int64_t i = 0; i < n; ++i) z(i, j) = random::standard_normal(rng);
  return z;
}

Matrix make(const std::string &shape, int64_t n, int64_t d, random::Rng &rng) {
  if (shape == "paper_zipf") return bench::zipf_rows(n, d, rng);
  if (shape == "paper_N1") return bench::unit_rows(n, d, rng);
  Matrix x = gaussian(n, d, rng);
  if (shape == "iso_max") {
    divide_by_largest_norm(x);
  } else if (shape == "iso_sphere") {
    scale_rows_to(x, 1.0);
  } else if (shape == "iso_half") {
    for (int64_t j = 0; j < d; ++j)
      for (int64_t i = 0; i < n; ++i) x(i, j) *= 0.5 / std::sqrt(static_cast<double>(d));
    clip_rows_to_one(x);
  } else if (shape == "power1" || shape == "power2") {
    const double a = shape == "power1" ? 1.0 : 2.0;
    for (int64_t j = 0; j < d; ++j)
      for (int64_t i = 0; i < n; ++i) x(i, j) *= std::pow(static_cast<double>(j + 1), -a / 2);
    divide_by_largest_norm(x);
  } else if (shape == "lowrank5") {
    const int64_t k = std::min<int64_t>(5, d);
    const Matrix w = gaussian(k, d, rng);
    const Matrix z = gaussian(n, k, rng);
    const Matrix signal = linalg::multiply(z, w);
    for (int64_t j = 0; j < d; ++j)
      for (int64_t i = 0; i < n; ++i) x(i, j) = signal(i, j) + 0.05 * x(i, j);
    divide_by_largest_norm(x);
  } else {
    std::fprintf(stderr, "unknown shape %s\n", shape.c_str());
    std::exit(2);
  }
  return x;
}

}  // namespace

int main(int argc, char **argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 10;
  const int64_t max_d = argc > 2 ? std::atoll(argv[2]) : 200;
  const uint64_t seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1;
  const char *only = argc > 4 ? argv[4] : nullptr;
  std::printf("Dong-Liang-Yi by data shape, rho = 0.1, r = 1, beta = 0.1, mean Frobenius error "
              "over %d runs\n", runs);
  std::printf("%-10s %6s %5s %9s %9s %9s %5s %6s %7s %6s\n", "shape", "n", "d", "Gauss",
              "Separate", "Adaptive", "Sep%", "r~", "ratio", "<=1.05");
  const char *shapes[] = {"iso_max", "iso_sphere", "iso_half", "power1", "power2",
                          "lowrank5", "paper_N1", "paper_zipf"};
  int within = 0, points = 0;
  double worst = 0.0;
  for (const char *shape : shapes) {
    if (only != nullptr && std::strcmp(only, shape) != 0) continue;
    for (int64_t n : {1000, 4000, 16000}) {
      for (int64_t d : {10, 30, 100, 200, 400, 800}) {
        if (d > max_d) continue;
        double err[3] = {0, 0, 0};
        int separate_branch = 0;
        double radius = 0.0;
        const uint64_t stream = static_cast<uint64_t>(n * 10000 + d);
        random::Rng data_rng = random::Rng::from_seed(seed, stream);
        random::Rng noise_rng = random::Rng::from_seed(seed + 1, stream);
        for (int run = 0; run < runs; ++run) {
          const Matrix x = make(shape, n, d, data_rng);
          const Matrix cov = bench::second_moment(x);
          mechanisms::DlyRequest request;
          request.dim = d;
          request.n = n;
          request.rho = 0.1;
          for (int v = 0; v < 3; ++v) {
            request.variant = static_cast<mechanisms::DlyVariant>(v);
            const mechanisms::DlyRelease r = mechanisms::dly_release(x.view(), request, noise_rng);
            err[v] += bench::frobenius_distance(cov, r.covariance) / runs;
            if (v == 2) {
              separate_branch +=
                  r.receipt.branch == static_cast<int32_t>(mechanisms::DlyVariant::Separate);
              radius += r.receipt.clip_radius / runs;
            }
          }
        }
        const double ratio = err[2] / std::min(err[0], err[1]);
        ++points;
        within += ratio <= 1.05;
        worst = std::max(worst, ratio);
        std::printf("%-10s %6lld %5lld %9.5f %9.5f %9.5f %5.0f %6.3f %7.3f %6s\n", shape,
                    static_cast<long long>(n), static_cast<long long>(d), err[0], err[1], err[2],
                    100.0 * separate_branch / runs, radius, ratio, ratio <= 1.05 ? "yes" : "NO");
        std::fflush(stdout);
      }
    }
  }
  std::printf("# within 5%% at %d of %d points, max ratio %.3f\n", within, points, worst);
  return 0;
}
